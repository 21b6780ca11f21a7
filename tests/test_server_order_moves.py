"""A player changes the order of their orders of the turn (`move_order`): checked again in the new order as each was
when issued (R15), refused with the reason and changing nothing when an order would no longer hold, carried out in
the new order, and kept by the store as order changes are, so that a restart, or another node taking the game over,
finds the orders in the order the player chose."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest

from server.storage.base import Storage
from server.storage.postgres import PostgresStorage
from server.storage.sqlite import SqliteStorage
from tests.cluster_support import follow, nodes
from tests.server_support import FAST, Client, create_game, join, running_server
from tests.test_server_orders import attack, move, ok, place_evenly, refused, seed_game


def token_of(client: Client, game_id: str) -> str:
    joined = client.latest("joined", game_id)
    assert joined is not None
    return str(joined["token"])


def moved_to(orders: list[Any], index: int, to: int) -> list[Any]:
    """What moving the order at `index` to `to` makes of `orders`."""
    rest = [*orders[:index], *orders[index + 1 :]]
    rest.insert(to, orders[index])
    return rest


async def test_an_order_moved_is_carried_out_in_its_new_place_and_one_that_breaks_a_later_order_is_refused() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server)
        await place_evenly(game_id, clients, 3)
        ann, others = clients["ann"], [clients["bob"], clients["cyd"]]
        given = [move(2, "Narnia", "Oz"), attack(5, "Oz", "Gondor"), attack(1, "Midkemia", "Elantris")]
        for order in given:
            await ok(ann, type="issue_order", game_id=game_id, turn=1, order=order)
        # R15: the attack from Oz needs the units the move brings, so it cannot go before the move
        await refused(
            server, ann, "not-enough-units", others, type="move_order", game_id=game_id, turn=1, index=1, to=0
        )
        await refused(server, ann, "no-such-order", others, type="move_order", game_id=game_id, turn=1, index=3, to=0)
        await refused(server, ann, "no-such-order", others, type="move_order", game_id=game_id, turn=1, index=0, to=3)
        assert ann.orders[game_id] == given

        reply = await ok(ann, type="move_order", game_id=game_id, turn=1, index=2, to=0)
        assert (reply["type"], reply["index"], reply["to"]) == ("order_moved", 2, 0)
        expected = moved_to(given, 2, 0)
        assert ann.orders[game_id] == expected
        assert (await ok(ann, type="list_orders", game_id=game_id))["orders"] == expected
        await ok(ann, type="move_order", game_id=game_id, turn=1, index=0, to=2)  # and back down to the end
        assert (await ok(ann, type="list_orders", game_id=game_id))["orders"] == given
        await ok(ann, type="move_order", game_id=game_id, turn=1, index=2, to=0)

        # a spectator has no orders; once committed, the list is final
        spectator = await Client.connect(server)
        await ok(spectator, type="watch_game", game_id=game_id)
        await refused(
            server, spectator, "not-a-player", [ann, *others], type="move_order", game_id=game_id, turn=1, index=0, to=1
        )
        await ok(ann, type="commit", game_id=game_id, turn=1)
        await refused(
            server, ann, "already-committed", others, type="move_order", game_id=game_id, turn=1, index=0, to=1
        )
        for client in others:
            await ok(client, type="commit", game_id=game_id, turn=1)
        revealed = await ann.wait_for(
            lambda m: m["type"] == "update" and any(e["event"]["kind"] == "orders_revealed" for e in m["events"])
        )
        (shown,) = [e["event"] for e in revealed["events"] if e["event"]["kind"] == "orders_revealed"]
        assert shown["orders"]["ann"] == expected  # carried out in the order the player chose


async def test_a_turn_by_turn_game_has_no_orders_to_move() -> None:
    async with running_server(**FAST) as server:
        ann, bob = await Client.connect(server), await Client.connect(server)
        game_id = await create_game(ann, ruleset="classic", map="twin-keeps", players=2)
        await join(ann, game_id, "ann")
        await join(bob, game_id, "bob")
        reply = await ann.request(type="move_order", game_id=game_id, turn=0, index=0, to=1)
        assert reply["type"] == "error" and reply["code"] == "no-such-order", reply
        assert "each action takes effect at once" in reply["message"]


async def orders_moved_then_stopped(storage: Storage) -> tuple[str, str, list[dict[str, Any]]]:
    """Ann's orders given, one moved, on a server that then stops; the game, her token and her orders as moved."""
    async with running_server(storage, **FAST) as server:
        game_id, clients = await seed_game(server)
        await place_evenly(game_id, clients, 3)
        ann = clients["ann"]
        token = token_of(ann, game_id)
        for order in (move(2, "Narnia", "Oz"), attack(1, "Oz", "Gondor"), attack(1, "Midkemia", "Elantris")):
            await ok(ann, type="issue_order", game_id=game_id, turn=1, order=order)
        await ok(ann, type="move_order", game_id=game_id, turn=1, index=2, to=0)
        await ok(ann, type="move_order", game_id=game_id, turn=1, index=2, to=1)
        return game_id, token, ann.orders[game_id]


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
async def test_orders_moved_keep_their_order_when_the_server_restarts(
    tmp_path: Path, store: str, request: pytest.FixtureRequest
) -> None:
    def storage() -> Storage:
        if store == "sqlite":
            return SqliteStorage(tmp_path / "games.sqlite3")
        return PostgresStorage(request.getfixturevalue("postgres_dsn"))

    game_id, token, orders = await orders_moved_then_stopped(storage())
    assert orders == [attack(1, "Midkemia", "Elantris"), attack(1, "Oz", "Gondor"), move(2, "Narnia", "Oz")]
    async with running_server(storage(), **FAST) as server:
        ann = await Client.connect(server)
        assert (await ann.request(type="resume", game_id=game_id, token=token))["type"] == "resumed"
        update = await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        assert update["view"]["your_orders"] == orders
        assert (await ok(ann, type="list_orders", game_id=game_id))["orders"] == orders


async def test_another_node_taking_the_game_over_finds_the_orders_as_moved(postgres_dsn: str) -> None:
    async with nodes(postgres_dsn, 1, node_id="b") as (b,):
        stack = contextlib.AsyncExitStack()
        (a,) = await stack.enter_async_context(nodes(postgres_dsn, 1, node_id="a"))
        game_id, clients = await seed_game(a)
        await place_evenly(game_id, clients, 3)
        ann = clients["ann"]
        token = token_of(ann, game_id)
        given = [move(2, "Narnia", "Oz"), attack(1, "Oz", "Gondor"), attack(1, "Midkemia", "Elantris")]
        for order in given:
            await ok(ann, type="issue_order", game_id=game_id, turn=1, order=order)
        await ok(ann, type="move_order", game_id=game_id, turn=1, index=2, to=0)
        await stack.aclose()  # node a stops: node b takes the game over from the store
        back = await Client.connect(b)
        request = {"type": "resume", "game_id": game_id, "token": token}
        back, reply = await follow(back, await back.request(**request), **request)
        assert reply["type"] == "resumed", reply
        update = await back.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        assert update["view"]["your_orders"] == moved_to(given, 2, 0)
        assert game_id in b.lobby.matches
