"""Illegal and cheating orders through the protocol: each refused with its code, each changing nothing (R9, R12-R15)."""

from __future__ import annotations

from typing import Any

from server.app import RiscServer
from tests.server_support import (
    FAST,
    Client,
    Message,
    create_game,
    current_view,
    join,
    owned,
    running_server,
    seated_game,
)

SEED_GROUPS = {
    "ann": ["Narnia", "Midkemia", "Oz"],
    "bob": ["Elantris", "Roshar", "Scadrial"],
    "cyd": ["Gondor", "Mordor", "Hogwarts"],
}


async def seed_game(server: RiscServer, initial_units: int = 9) -> tuple[str, dict[str, Client]]:
    """The seed map with each player choosing their group, so that everyone knows who holds what."""
    clients = {name: await Client.connect(server) for name in SEED_GROUPS}
    game_id = await create_game(clients["ann"], players=3, initial_units=initial_units, choose_groups=True)
    for group, (name, client) in enumerate(clients.items()):
        await join(client, game_id, name, group)
    for client in clients.values():
        await client.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
    return game_id, clients


async def place_evenly(game_id: str, clients: dict[str, Client], per_territory: int) -> None:
    for name, client in clients.items():
        for place in SEED_GROUPS[name]:
            await ok(
                client,
                type="issue_order",
                game_id=game_id,
                turn=0,
                order={"kind": "place", "territory": place, "units": per_territory},
            )
        await ok(client, type="commit", game_id=game_id, turn=0)
    for client in clients.values():
        await client.wait_for(lambda m: m["type"] == "update" and m["view"]["phase"] == "orders")


async def ok(client: Client, **message: Any) -> Message:
    reply = await client.request(**message)
    assert reply["type"] != "error", reply
    return reply


async def refused(server: RiscServer, client: Client, code: str, others: list[Client], **message: Any) -> None:
    """The request gets an error with `code`, and the game's state, log and everyone else's inbox stay as they were."""
    matches = dict(server.lobby.matches)
    before = {gid: (m.game, len(m.log), list(m.seats)) for gid, m in matches.items()}
    inboxes = [len(c.frames) for c in others]
    reply = await client.request(**message)
    assert reply["type"] == "error", reply
    assert reply["code"] == code, reply
    assert reply["message"]
    for gid, match in matches.items():
        assert (match.game, len(match.log), list(match.seats)) == before[gid]
    await others[0].request(type="list_games")  # a round trip: anything sent to the others has arrived by now
    assert [len(c.frames) for c in others[1:]] == inboxes[1:]


def attack(units: int, source: str, target: str) -> dict[str, Any]:
    return {"kind": "attack", "units": units, "source": source, "target": target}


def move(units: int, source: str, target: str) -> dict[str, Any]:
    return {"kind": "move", "units": units, "source": source, "target": target}


async def test_illegal_placements_are_refused_with_their_codes() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server, initial_units=9)
        ann, others = clients["ann"], [clients["bob"], clients["cyd"]]

        async def place_refused(code: str, territory: str, units: int, turn: int = 0) -> None:
            await refused(
                server,
                ann,
                code,
                others,
                type="issue_order",
                game_id=game_id,
                turn=turn,
                order={"kind": "place", "territory": territory, "units": units},
            )

        await place_refused("not-your-territory", "Elantris", 3)
        await place_refused("pool-exceeded", "Narnia", 10)
        await place_refused("non-positive-units", "Narnia", 0)
        await place_refused("non-positive-units", "Narnia", -2)
        await place_refused("unknown-territory", "Atlantis", 1)
        await place_refused("wrong-turn", "Narnia", 1, turn=1)
        await refused(
            server,
            ann,
            "wrong-phase",
            others,
            type="issue_order",
            game_id=game_id,
            turn=0,
            order=attack(1, "Narnia", "Elantris"),
        )
        await ok(
            ann, type="issue_order", game_id=game_id, turn=0, order={"kind": "place", "territory": "Narnia", "units": 5}
        )
        await place_refused("pool-exceeded", "Oz", 5)  # 4 are left (R9)
        await refused(server, ann, "units-not-placed", others, type="commit", game_id=game_id, turn=0)
        listed = await ok(ann, type="list_orders", game_id=game_id)
        assert listed["orders"] == [{"kind": "place", "territory": "Narnia", "units": 5}]
        assert listed["committed"] is False


async def test_illegal_and_cheating_orders_are_refused_and_change_nothing() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server)
        await place_evenly(game_id, clients, 3)  # every territory holds 3 units
        ann, bob, others = clients["ann"], clients["bob"], [clients["bob"], clients["cyd"]]

        async def order_refused(
            code: str, order: dict[str, Any], turn: int = 1, client: Client = ann, game: str = game_id
        ) -> None:
            await refused(
                server,
                client,
                code,
                others if client is ann else [ann, clients["cyd"]],
                type="issue_order",
                game_id=game,
                turn=turn,
                order=order,
            )

        await order_refused("not-your-territory", attack(2, "Elantris", "Narnia"))  # someone else's territory
        await order_refused("not-enough-units", attack(4, "Oz", "Gondor"))
        await order_refused("non-positive-units", attack(0, "Oz", "Gondor"))
        await order_refused("non-positive-units", attack(-1, "Oz", "Gondor"))
        await order_refused("not-adjacent", attack(1, "Narnia", "Gondor"))
        await order_refused("attack-on-own-territory", attack(1, "Narnia", "Midkemia"))
        await order_refused("target-not-yours", move(1, "Narnia", "Elantris"))
        await order_refused("wrong-turn", attack(1, "Oz", "Gondor"), turn=0)  # a past turn
        await order_refused("wrong-turn", attack(1, "Oz", "Gondor"), turn=2)
        await order_refused("unknown-order", {**attack(1, "Oz", "Gondor"), "kind": "nuke"})
        await order_refused("invalid-order", {"kind": "attack", "units": "many", "source": "Oz", "target": "Gondor"})
        await order_refused("invalid-order", {"kind": "attack", "units": 1, "source": "Oz"})  # no target
        misspelt = {"kind": "move", "units": 1, "source": "Oz", "target": "Narnia", "untis": 2}
        reply = await ann.request(type="issue_order", game_id=game_id, turn=1, order=misspelt)
        assert reply["type"] == "error" and reply["code"] == "invalid-order", reply
        assert "no field untis" in reply["message"] and "units" in reply["message"], reply

        await ok(ann, type="issue_order", game_id=game_id, turn=1, order=attack(2, "Oz", "Gondor"))
        await order_refused("not-enough-units", attack(2, "Oz", "Mordor"))  # R15: only 1 is left in Oz

        # Acting for a seat or a game the connection does not hold.
        spectator, stranger = await Client.connect(server), await Client.connect(server)
        await ok(spectator, type="watch_game", game_id=game_id)
        other_game = await create_game(stranger, players=2)
        for client in (spectator, stranger):
            await refused(
                server,
                client,
                "not-a-player",
                [ann, bob],
                type="issue_order",
                game_id=game_id,
                turn=1,
                order=attack(1, "Elantris", "Narnia"),
            )
            await refused(server, client, "not-a-player", [ann, bob], type="commit", game_id=game_id, turn=1)
        await order_refused("not-a-player", attack(1, "Oz", "Gondor"), game=other_game)
        await order_refused("no-such-game", attack(1, "Oz", "Gondor"), game="nowhere")
        await refused(server, ann, "no-such-order", others, type="withdraw_order", game_id=game_id, turn=1, index=3)

        await ok(ann, type="commit", game_id=game_id, turn=1)
        await refused(server, ann, "already-committed", others, type="commit", game_id=game_id, turn=1)
        await order_refused("already-committed", attack(1, "Narnia", "Elantris"))
        await refused(server, ann, "already-committed", others, type="withdraw_order", game_id=game_id, turn=1, index=0)
        listed = await ok(ann, type="list_orders", game_id=game_id)
        assert listed["orders"] == [attack(2, "Oz", "Gondor")] and listed["committed"] is True


async def test_withdrawn_orders_are_gone_and_later_orders_still_hold() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server)
        await place_evenly(game_id, clients, 3)
        ann, others = clients["ann"], [clients["bob"], clients["cyd"]]
        await ok(ann, type="issue_order", game_id=game_id, turn=1, order=move(2, "Narnia", "Oz"))
        await ok(ann, type="issue_order", game_id=game_id, turn=1, order=attack(5, "Oz", "Gondor"))
        # R15: the attack needs the units the move brings, so the move cannot be withdrawn before it.
        await refused(server, ann, "not-enough-units", others, type="withdraw_order", game_id=game_id, turn=1, index=0)
        reply = await ok(ann, type="withdraw_order", game_id=game_id, turn=1, index=1)
        assert reply["index"] == 1 and "orders" not in reply, "a withdrawal names the order it took, no more"
        assert ann.orders[game_id] == [move(2, "Narnia", "Oz")]
        await ok(ann, type="withdraw_order", game_id=game_id, turn=1, index=0)
        assert ann.orders[game_id] == []
        assert (await ok(ann, type="list_orders", game_id=game_id))["orders"] == []


CORRIDOR = """\
name = "Corridor"

[territories.West]
borders = ["Middle"]

[territories.Middle]
borders = ["West", "East"]

[territories.East]
borders = ["Middle", "Far"]

[territories.Far]
borders = ["East"]

[starting_groups]
2 = [["West", "East"], ["Middle", "Far"]]
"""


async def test_a_move_cannot_pass_through_enemy_land() -> None:
    async with running_server(**FAST) as server:
        ann, bob = await Client.connect(server), await Client.connect(server)
        game_id = await create_game(
            ann, upload=("corridor.toml", CORRIDOR), players=2, initial_units=4, choose_groups=True
        )
        await join(ann, game_id, "ann", 0)
        await join(bob, game_id, "bob", 1)
        for client, places in ((ann, ["West", "East"]), (bob, ["Middle", "Far"])):
            await client.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
            for place in places:
                await ok(
                    client,
                    type="issue_order",
                    game_id=game_id,
                    turn=0,
                    order={"kind": "place", "territory": place, "units": 2},
                )
            await ok(client, type="commit", game_id=game_id, turn=0)
        await ann.wait_for(lambda m: m["type"] == "update" and m["view"]["phase"] == "orders")
        await refused(
            server, ann, "no-path", [bob], type="issue_order", game_id=game_id, turn=1, order=move(1, "West", "East")
        )


async def test_the_legal_orders_a_player_is_offered_are_accepted_at_any_count_in_their_range() -> None:
    async with running_server(**FAST) as server:
        game_id, (ann, _bob), _ = await seated_game(server, ["ann", "bob"], initial_units=4)
        legal = await ann.request(type="legal_orders", game_id=game_id)
        assert legal["type"] == "legal" and legal["turn"] == 0
        view = current_view(ann, game_id)
        assert sorted(o["order"]["territory"] for o in legal["orders"]) == sorted(owned(view, "ann"))
        assert all(o["count_field"] == "units" and o["order"]["units"] == 4 for o in legal["orders"])
        first = legal["orders"][0]
        reply = await ann.request(type="issue_order", game_id=game_id, turn=0, order={**first["order"], "units": 1})
        assert reply["type"] == "order_accepted"
        again = await ann.request(type="legal_orders", game_id=game_id)
        assert {o["order"]["units"] for o in again["orders"]} == {3}, "what the order used is no longer offered"
        watcher = await Client.connect(server)
        await watcher.request(type="watch_game", game_id=game_id)
        refused = await watcher.request(type="legal_orders", game_id=game_id)
        assert refused["type"] == "error" and refused["code"] == "not-a-player"
