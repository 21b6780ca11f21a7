"""Several orders in one message (`issue_orders`): each taken as `issue_order` takes it alone, in the order given,
answered together with the refusals by position (docs/protocol.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server.storage import open_storage
from tests.server_support import FAST, Client, current_view, running_server, seated_game
from tests.test_server_orders import SEED_GROUPS, attack, move, ok, place_evenly, seed_game
from tests.toy_ruleset import RaceToTwenty


def place(territory: str, units: int) -> dict[str, Any]:
    return {"kind": "place", "territory": territory, "units": units}


async def orders_of(client: Client, game_id: str) -> list[dict[str, Any]]:
    return list((await ok(client, type="list_orders", game_id=game_id))["orders"])


async def test_a_batch_is_taken_as_its_orders_one_by_one_and_refusals_are_told_by_position() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server, initial_units=9)
        ann = clients["ann"]
        await ok(ann, type="issue_order", game_id=game_id, turn=0, order=place("Narnia", 2))
        reply = await ok(
            ann,
            type="issue_orders",
            game_id=game_id,
            turn=0,
            orders=[place("Midkemia", 3), place("Oz", 5), place("Gondor", 1), place("Oz", 4)],
        )
        assert reply["type"] == "orders_accepted" and reply["turn"] == 0
        # The pool of 9 had 7 left: 3 taken, then 5 is more than the 4 left; Gondor is cyd's; 4 fits.
        assert [(a["position"], a["index"], a["order"]["territory"]) for a in reply["accepted"]] == [
            (0, 1, "Midkemia"),
            (3, 2, "Oz"),
        ]
        assert [(r["position"], r["code"]) for r in reply["refused"]] == [
            (1, "pool-exceeded"),
            (2, "not-your-territory"),
        ]
        assert all(r["message"] for r in reply["refused"])
        # Each taken order in words, and what the pool holds once all are taken (9 - 2 - 3 - 4), as one by one would.
        assert [a["text"] for a in reply["accepted"]] == ["place 3 on Midkemia", "place 4 on Oz"]
        assert reply["left"] == {"pool_left": 0}
        assert [o["units"] for o in await orders_of(ann, game_id)] == [2, 3, 4]


async def test_a_later_order_of_a_batch_is_checked_against_what_the_accepted_ones_left() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server, initial_units=9)
        await place_evenly(game_id, clients, per_territory=3)
        ann = clients["ann"]
        units = {t["name"]: t["units"] for t in current_view(ann, game_id)["territories"]}
        narnia, midkemia = units["Narnia"], units["Midkemia"]
        reply = await ok(
            ann,
            type="issue_orders",
            game_id=game_id,
            turn=1,
            orders=[
                move(narnia, "Narnia", "Midkemia"),
                attack(narnia + midkemia + 1, "Midkemia", "Scadrial"),  # one more than the move left there
                attack(narnia + midkemia, "Midkemia", "Scadrial"),
                move(1, "Narnia", "Midkemia"),  # Narnia was emptied by the first
            ],
        )
        assert [a["position"] for a in reply["accepted"]] == [0, 2]
        assert [(r["position"], r["code"]) for r in reply["refused"]] == [
            (1, "not-enough-units"),
            (3, "not-enough-units"),
        ]
        assert [o["kind"] for o in await orders_of(ann, game_id)] == ["move", "attack"]


async def test_a_batch_tells_nobody_else_and_its_turn_resolves_as_the_same_orders_one_by_one_would() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server, initial_units=9)
        bob = clients["bob"]
        before = len(bob.frames)
        reply = await ok(
            clients["ann"],
            type="issue_orders",
            game_id=game_id,
            turn=0,
            orders=[place(t, 3) for t in SEED_GROUPS["ann"]],
        )
        assert len(reply["accepted"]) == 3 and reply["refused"] == []
        await ok(clients["cyd"], type="list_games")  # a round trip: anything sent to bob has arrived by now
        assert len(bob.frames) == before
        for name, client in clients.items():
            if name != "ann":
                await ok(
                    client,
                    type="issue_orders",
                    game_id=game_id,
                    turn=0,
                    orders=[place(t, 3) for t in SEED_GROUPS[name]],
                )
            await ok(client, type="commit", game_id=game_id, turn=0)
        await bob.wait_for(lambda m: m["type"] == "update" and m["view"]["phase"] == "orders")
        view = current_view(bob, game_id)
        assert {t["name"]: t["units"] for t in view["territories"]} == dict.fromkeys(
            [t for group in SEED_GROUPS.values() for t in group], 3
        )


async def test_a_batch_sent_again_with_its_request_id_is_answered_as_before_and_kept_once() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server, initial_units=9)
        ann = clients["ann"]
        request = {
            "type": "issue_orders",
            "game_id": game_id,
            "turn": 0,
            "request_id": "ann-batch-0001",
            "orders": [place("Narnia", 2), place("Oz", 20), place("Midkemia", 3)],
        }
        first = await ok(ann, **request)
        again = await ok(ann, **request)
        assert {k: v for k, v in first.items() if k != "ref"} == {k: v for k, v in again.items() if k != "ref"}
        assert [o["units"] for o in await orders_of(ann, game_id)] == [2, 3]


async def test_a_batch_refused_whole_changes_nothing() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server, initial_units=9)
        ann = clients["ann"]
        too_many = await ann.request(type="issue_orders", game_id=game_id, turn=0, orders=[place("Narnia", 1)] * 101)
        assert too_many["type"] == "error" and too_many["code"] == "invalid-message"
        empty = await ann.request(type="issue_orders", game_id=game_id, turn=0, orders=[])
        assert empty["type"] == "error" and empty["code"] == "invalid-message"
        spectator = await Client.connect(server)
        await ok(spectator, type="watch_game", game_id=game_id)
        not_seated = await spectator.request(type="issue_orders", game_id=game_id, turn=0, orders=[place("Narnia", 1)])
        assert not_seated["type"] == "error" and not_seated["code"] == "not-a-player"
        wrong_turn = await ok(ann, type="issue_orders", game_id=game_id, turn=3, orders=[place("Narnia", 1)])
        assert wrong_turn["accepted"] == [] and len(wrong_turn["refused"]) == 1
        assert await orders_of(ann, game_id) == []


async def test_the_orders_of_a_batch_are_kept_across_a_restart(tmp_path: Path) -> None:
    async with running_server(open_storage(tmp_path), **FAST) as server:
        game_id, clients = await seed_game(server, initial_units=9)
        await ok(
            clients["ann"], type="issue_orders", game_id=game_id, turn=0, orders=[place("Narnia", 4), place("Oz", 5)]
        )
        for client in clients.values():
            await client.close()
    async with running_server(open_storage(tmp_path), **FAST) as server:
        match = await server.lobby.find(game_id)
        assert match.game is not None
        assert [o.units for o in match.game.orders_of("ann")] == [4, 5]


async def test_in_a_turn_by_turn_game_a_batch_acts_in_turn_and_one_update_tells_what_it_did(race: RaceToTwenty) -> None:
    async with running_server(**FAST) as server:
        game_id, (ann, bob), _ = await seated_game(server, ["Ann", "Bob"], ruleset="race", map=None)
        before = len([f for f in bob.frames if f["type"] == "update"])
        reply = await ok(
            ann,
            type="issue_orders",
            game_id=game_id,
            turn=0,
            orders=[{"kind": "add", "amount": 9}, {"kind": "add", "amount": 2}, {"kind": "add", "amount": 1}],
        )
        assert [(a["position"], a["index"], a["order"]["amount"]) for a in reply["accepted"]] == [(1, 0, 2)]
        # The first is the rule set's refusal; once the second took effect it is Bob's turn, and turn 2.
        assert [(r["position"], r["code"]) for r in reply["refused"]] == [(0, "bad-amount"), (2, "wrong-turn")]
        update = await bob.wait_for(
            lambda m: m["type"] == "update" and any(e["event"].get("kind") == "added" for e in m["events"])
        )
        assert [e["event"]["total"] for e in update["events"] if e["event"].get("kind") == "added"] == [2]
        await ok(ann, type="list_games")  # a round trip: anything else sent to bob has arrived by now
        assert len([f for f in bob.frames if f["type"] == "update"]) == before + 1


# ---- a whole turn in one message: the orders, then the commit (`commit: true`) -----------------------------------


def whole_turn(game_id: str, name: str, units: int = 3, **extra: Any) -> dict[str, Any]:
    """A player's placement of the seed game as one message: a place on each of their territories, and done."""
    orders = [place(t, units) for t in SEED_GROUPS[name]]
    return {"type": "issue_orders", "game_id": game_id, "turn": 0, "orders": orders, "commit": True, **extra}


async def test_a_turn_sent_whole_is_its_orders_then_its_commit_and_the_others_hear_of_the_commit() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server, initial_units=9)
        ann, bob = clients["ann"], clients["bob"]
        reply = await ok(ann, **whole_turn(game_id, "ann"))
        assert reply["committed"] is True and reply["commit_refused"] is None
        assert [a["order"]["territory"] for a in reply["accepted"]] == SEED_GROUPS["ann"] and reply["refused"] == []
        listed = await ok(ann, type="list_orders", game_id=game_id)
        assert listed["committed"] is True and [o["units"] for o in listed["orders"]] == [3, 3, 3]
        told = await bob.wait_for(
            lambda m: m["type"] == "update" and any(s["name"] == "ann" and s["committed"] for s in m["game"]["seats"])
        )
        assert told["game"]["status"] == "playing"
        again = await ann.request(type="commit", game_id=game_id, turn=0)
        assert again["type"] == "error", "committed once already"
        late = await ann.request(type="issue_order", game_id=game_id, turn=0, order=place("Oz", 1))
        assert late["type"] == "error", "no order after the commit"


async def test_the_last_turn_sent_whole_resolves_it_as_orders_and_commits_one_by_one_would() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server, initial_units=9)
        for name, client in clients.items():
            assert (await ok(client, **whole_turn(game_id, name)))["committed"] is True
        bob = clients["bob"]
        await bob.wait_for(lambda m: m["type"] == "update" and m["view"]["phase"] == "orders")
        view = current_view(bob, game_id)
        assert {t["name"]: t["units"] for t in view["territories"]} == dict.fromkeys(
            [t for group in SEED_GROUPS.values() for t in group], 3
        )


async def test_a_turn_with_a_refused_order_is_not_committed_and_its_other_orders_stand() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server, initial_units=9)
        ann = clients["ann"]
        turn = whole_turn(game_id, "ann")
        turn["orders"][1] = place("Gondor", 3)  # cyd's
        reply = await ok(ann, **turn)
        assert [(r["position"], r["code"]) for r in reply["refused"]] == [(1, "not-your-territory")]
        assert reply["committed"] is False and reply["commit_refused"] is None
        listed = await ok(ann, type="list_orders", game_id=game_id)
        assert listed["committed"] is False and [o["territory"] for o in listed["orders"]] == ["Narnia", "Oz"]
        await ok(ann, type="issue_order", game_id=game_id, turn=0, order=place("Midkemia", 3))
        await ok(ann, type="commit", game_id=game_id, turn=0)


async def test_a_turn_whose_commit_the_rules_refuse_keeps_its_orders_and_says_why() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server, initial_units=9)
        ann = clients["ann"]
        reply = await ok(ann, **whole_turn(game_id, "ann", units=2))  # 6 of the 9 placed
        assert len(reply["accepted"]) == 3 and reply["committed"] is False
        refused = reply["commit_refused"]
        assert refused["code"] == "units-not-placed" and "3 units still to place" in refused["message"], refused
        listed = await ok(ann, type="list_orders", game_id=game_id)
        assert listed["committed"] is False and [o["units"] for o in listed["orders"]] == [2, 2, 2]


async def test_in_a_turn_by_turn_game_a_turn_sent_whole_acts_and_says_there_is_nothing_to_commit(
    race: RaceToTwenty,
) -> None:
    async with running_server(**FAST) as server:
        game_id, (ann, _bob), _ = await seated_game(server, ["Ann", "Bob"], ruleset="race", map=None)
        reply = await ok(
            ann, type="issue_orders", game_id=game_id, turn=0, orders=[{"kind": "add", "amount": 2}], commit=True
        )
        assert [a["position"] for a in reply["accepted"]] == [0] and reply["committed"] is False
        assert reply["commit_refused"]["code"] == "nothing-to-commit"


async def test_a_turn_sent_whole_again_with_its_request_id_is_answered_as_before_and_committed_once() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server, initial_units=9)
        ann, bob = clients["ann"], clients["bob"]
        turn = whole_turn(game_id, "ann", request_id="ann-turn-0001")
        first = await ok(ann, **turn)
        again = await ok(ann, **turn)
        assert first["committed"] is True
        assert {k: v for k, v in first.items() if k != "ref"} == {k: v for k, v in again.items() if k != "ref"}
        assert [o["units"] for o in await orders_of(ann, game_id)] == [3, 3, 3]
        await ok(bob, **whole_turn(game_id, "bob"))
        listed = await ok(bob, type="list_orders", game_id=game_id)
        assert listed["turn"] == 0, "the turn waits for cyd: ann's commit counted once, not as two players'"


async def test_a_turn_sent_whole_is_kept_across_a_restart_orders_and_commit(tmp_path: Path) -> None:
    async with running_server(open_storage(tmp_path), **FAST) as server:
        game_id, clients = await seed_game(server, initial_units=9)
        await ok(clients["ann"], **whole_turn(game_id, "ann", units=3))
        for client in clients.values():
            await client.close()
    async with running_server(open_storage(tmp_path), **FAST) as server:
        match = await server.lobby.find(game_id)
        assert match.game is not None
        assert [o.units for o in match.game.orders_of("ann")] == [3, 3, 3]
        assert match.game.committed == {"ann"}
