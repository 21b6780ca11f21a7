"""Requests sent again (docs/protocol.md, "Requests sent again"): a reply kept for a request id goes back only to the
player who made that request, asking the same kind of thing again (issue 35). Another player's request of the same
id is a request of their own; the same player's id used for another kind of request is refused, saying why; and
what makes a request safe to send again holds across a restart of the server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server.storage import open_storage
from tests.server_support import FAST, Client, create_game, current_view, join, running_server
from tests.test_server_batch import orders_of, place
from tests.test_server_orders import ok, seed_game

SHARED_ID = "request-0001"
"""An id two clients that count their requests from 1 both choose."""


def without_ref(reply: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in reply.items() if key != "ref"}


async def test_another_players_request_of_the_same_id_is_carried_out_as_his_own() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server, initial_units=9)
        ann, bob = clients["ann"], clients["bob"]
        anns = await ok(ann, type="issue_order", game_id=game_id, turn=0, order=place("Oz", 2), request_id=SHARED_ID)
        bobs = await ok(
            bob, type="issue_order", game_id=game_id, turn=0, order=place("Roshar", 4), request_id=SHARED_ID
        )
        assert bobs["order"] == place("Roshar", 4) and bobs["left"] == {"pool_left": 5}, "his order, not hers"
        assert anns["order"] == place("Oz", 2) and anns["left"] == {"pool_left": 7}
        assert await orders_of(bob, game_id) == [place("Roshar", 4)]
        assert await orders_of(ann, game_id) == [place("Oz", 2)]
        again = await ok(ann, type="issue_order", game_id=game_id, turn=0, order=place("Oz", 2), request_id=SHARED_ID)
        assert without_ref(again) == without_ref(anns), "her own request sent again: her own answer"
        assert await orders_of(ann, game_id) == [place("Oz", 2)]

        # The same for a batch, a withdrawal and a commit: each player's id is theirs.
        batch = {"type": "issue_orders", "game_id": game_id, "turn": 0, "request_id": "batch-0001"}
        anns = await ok(ann, **batch, orders=[place("Narnia", 1)])
        bobs = await ok(bob, **batch, orders=[place("Elantris", 1), place("Scadrial", 1)])
        assert [a["order"] for a in bobs["accepted"]] == [place("Elantris", 1), place("Scadrial", 1)]
        assert [a["order"] for a in anns["accepted"]] == [place("Narnia", 1)]
        withdrawal = {"type": "withdraw_order", "game_id": game_id, "turn": 0, "request_id": "withdraw-0001"}
        assert (await ok(ann, **withdrawal, index=1))["left"] == {"pool_left": 7}
        assert (await ok(bob, **withdrawal, index=0))["left"] == {"pool_left": 7}
        assert await orders_of(ann, game_id) == [place("Oz", 2)]
        assert await orders_of(bob, game_id) == [place("Elantris", 1), place("Scadrial", 1)]
        await ok(ann, type="issue_order", game_id=game_id, turn=0, order=place("Midkemia", 7))
        await ok(bob, type="issue_order", game_id=game_id, turn=0, order=place("Roshar", 7))
        commit = {"type": "commit", "game_id": game_id, "turn": 0, "request_id": "commit-0001"}
        assert (await ok(ann, **commit))["type"] == "commit_accepted"
        assert (await ok(bob, **commit))["type"] == "commit_accepted", "his own commit, carried out"
        assert (await ok(ann, type="list_orders", game_id=game_id))["committed"]
        assert (await ok(bob, type="list_orders", game_id=game_id))["committed"]


async def test_an_id_of_ones_own_used_for_another_kind_of_request_is_refused_saying_so() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server, initial_units=9)
        ann = clients["ann"]
        await ok(ann, type="issue_order", game_id=game_id, turn=0, order=place("Oz", 2), request_id=SHARED_ID)
        for message in (
            {"type": "commit", "turn": 0},
            {"type": "withdraw_order", "turn": 0, "index": 0},
            {"type": "issue_orders", "turn": 0, "orders": [place("Oz", 1)]},
        ):
            reply = await ann.request(**message, game_id=game_id, request_id=SHARED_ID)
            assert reply["type"] == "error" and reply["code"] == "invalid-message", reply
            assert reply["field"] == "request_id" and "order_accepted" in reply["message"], reply
        assert await orders_of(ann, game_id) == [place("Oz", 2)], "nothing changed"
        assert not (await ok(ann, type="list_orders", game_id=game_id))["committed"]


async def test_a_join_with_an_orders_request_id_is_a_join_of_its_own_never_an_internal_error() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server, initial_units=9)
        ann = clients["ann"]
        await ok(ann, type="issue_order", game_id=game_id, turn=0, order=place("Oz", 2), request_id=SHARED_ID)
        stranger = await Client.connect(server)
        for name in ("dan", "ann"):
            reply = await stranger.request(type="join_game", game_id=game_id, name=name, request_id=SHARED_ID)
            assert reply["type"] == "error" and reply["code"] != "internal", reply
        assert (await stranger.request(type="join_game", game_id=game_id, name="dan", request_id=SHARED_ID))[
            "code"
        ] == "game-started"
        lobby = await Client.connect(server)
        other = await lobby.request(type="create_game", settings={"map": "seed", "players": 2})
        other_id = other["game"]["game_id"]
        joined = await ok(lobby, type="join_game", game_id=other_id, name="eve", request_id=SHARED_ID)
        assert joined["player"] == "eve"
        late = await Client.connect(server)
        mine = await ok(late, type="join_game", game_id=other_id, name="fay", request_id=SHARED_ID)
        assert mine["player"] == "fay" and mine["token"] != joined["token"], "her own seat, not eve's"


async def test_requests_kept_by_player_are_answered_again_after_a_restart(tmp_path: Path) -> None:
    names = ["ann", "bob"]
    async with running_server(open_storage(tmp_path), **FAST) as server:
        clients = [await Client.connect(server) for _ in names]
        game_id = await create_game(clients[0], players=2, choose_groups=True, initial_units=9)
        tokens = [
            await join(c, game_id, name, group) for group, (c, name) in enumerate(zip(clients, names, strict=True))
        ]
        for client in clients:
            await client.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        owned = {
            name: [t["name"] for t in current_view(client, game_id)["territories"] if t["owner"] == name]
            for name, client in zip(names, clients, strict=True)
        }
        first = {}
        for name, client in zip(names, clients, strict=True):
            order = place(owned[name][0], 2 + len(first))
            first[name] = await ok(
                client, type="issue_order", game_id=game_id, turn=0, order=order, request_id=SHARED_ID
            )
    async with running_server(open_storage(tmp_path), **FAST) as server:
        for name, token in zip(names, tokens, strict=True):
            back = await Client.connect(server)
            await ok(back, type="resume", game_id=game_id, token=token)
            order = place(owned[name][0], 2 + names.index(name))
            again = await ok(back, type="issue_order", game_id=game_id, turn=0, order=order, request_id=SHARED_ID)
            assert without_ref(again) == without_ref(first[name])
            assert await orders_of(back, game_id) == [order], "kept once"
