"""Protocol 3 on the wire: an acceptance names the new order only, clients keep the turn's list themselves, and an
update's summary comes whole once, then as patches that rebuild the server's own summary."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from client.followed import Followed
from client.link import LinkState
from client.session import Session
from client.tokens import SeatStore
from server.app import RiscServer
from shared.protocol import messages as msg
from shared.protocol.lobby import GameSummary
from tests.server_support import FAST, Client, Message, create_game, join, running_server, seated_game, url
from tests.test_server_orders import SEED_GROUPS, attack, move, ok, place_evenly, seed_game


def updates(client: Client, game_id: str) -> list[Message]:
    """Every update about the game as it came on the wire (the test client rewrites `game` to the whole summary)."""
    sent = [json.loads(text) for text in client.raw]
    return [m for m in sent if m["type"] == "update" and m["game_id"] == game_id]


def server_summary(server: RiscServer, game_id: str) -> Message:
    return server.lobby.get(game_id).summary().model_dump(mode="json")


async def settled(*clients: Client) -> None:
    """A round trip on each connection: whatever the server sent them before has arrived."""
    for client in clients:
        await ok(client, type="list_games")


async def test_an_acceptance_carries_the_new_order_and_its_index_only() -> None:
    """The new order, never the list so far; beside it, what the player's orders leave (the pool) and its words."""
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server)
        ann = clients["ann"]
        pool = ann.views[game_id]["pool_left"]
        for index, territory in enumerate(SEED_GROUPS["ann"]):
            order = {"kind": "place", "territory": territory, "units": 3}
            reply = await ok(ann, type="issue_order", game_id=game_id, turn=0, order=order)
            assert set(reply) == {"ref", "type", "game_id", "turn", "index", "order", "left", "text"}, reply
            assert (reply["index"], reply["order"], reply["turn"]) == (index, order, 0)
            assert reply["left"] == {"pool_left": pool - 3 * (index + 1)}
            assert reply["text"] == f"place 3 on {territory}"


async def test_a_raw_client_s_kept_orders_are_the_server_s_after_issuing_and_withdrawing() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server)
        await place_evenly(game_id, clients, 3)
        ann = clients["ann"]
        orders = [
            move(1, "Narnia", "Midkemia"),
            move(2, "Midkemia", "Oz"),
            attack(4, "Oz", "Gondor"),
            move(1, "Narnia", "Oz"),
        ]
        for order in orders:
            await ok(ann, type="issue_order", game_id=game_id, turn=1, order=order)
        await ok(ann, type="withdraw_order", game_id=game_id, turn=1, index=3)
        await ok(ann, type="withdraw_order", game_id=game_id, turn=1, index=0)
        kept = list(ann.orders[game_id])
        assert kept == orders[1:3]
        assert (await ok(ann, type="list_orders", game_id=game_id))["orders"] == kept


class Quiet:
    """A listener that only counts updates: the session itself is what is tested."""

    def __init__(self) -> None:
        self.updates = 0

    def on_update(self, followed: Followed, entries: list[Any], update: msg.Update) -> None:
        self.updates += 1

    def on_notice(self, error: msg.Error) -> None:
        return None

    def on_seated(self, followed: Followed, previous: Followed | None) -> None:
        return None

    def on_resumed(self, followed: Followed) -> None:
        return None

    def on_link(self, state: LinkState, detail: str) -> None:
        return None

    def on_listed(self, game: GameSummary) -> None:
        return None

    def on_shutdown(self, message: str) -> None:
        return None

    async def on_reconnected(self, resumed: bool) -> None:
        return None


async def test_the_client_session_keeps_the_server_s_list_of_orders_and_empties_it_when_the_turn_resolves(
    tmp_path: Path,
) -> None:
    async with running_server(**FAST) as server:
        session = Session(url(server), Quiet(), store=SeatStore(tmp_path / "seats.json"))
        await session.open()
        try:
            bob = await Client.connect(server)
            game_id = await create_game(bob, players=2)
            assert isinstance(await session.join(game_id, "ann"), msg.Joined)
            await join(bob, game_id, "bob")
            followed = session.followed[game_id]
            await session.list_orders(followed)  # a round trip: the game has started for the session too
            view = server.lobby.get(game_id).game
            assert view is not None
            mine = [t for t in view.game_map.names if view.board.owner[t] == "ann"]
            pool = view.board.pools["ann"]
            for territory in mine[:3]:
                reply = await session.issue(followed, {"kind": "place", "territory": territory, "units": 1})
                assert isinstance(reply, msg.OrderAccepted), reply
            assert isinstance(await session.withdraw(followed, 1), msg.OrderWithdrawn)
            kept = [session.followed[game_id].orders[i] for i in range(2)]
            listed = await session.request(msg.ListOrders(game_id=game_id))
            assert isinstance(listed, msg.Orders)
            ruleset = followed.ruleset
            assert ruleset is not None
            assert [ruleset.dump_order(o) for o in kept] == listed.orders
            assert len(followed.orders) == 2
            # The rest of the pool, then both commit: the turn resolves and the list starts afresh.
            await session.issue(followed, {"kind": "place", "territory": mine[0], "units": pool - 2})
            assert len(followed.orders) == 3
            await session.commit(followed)
            for territory in [t for t in view.game_map.names if view.board.owner[t] == "bob"][:1]:
                await ok(
                    bob,
                    type="issue_order",
                    game_id=game_id,
                    turn=0,
                    order={"kind": "place", "territory": territory, "units": view.board.pools["bob"]},
                )
            await ok(bob, type="commit", game_id=game_id, turn=0)
            await session.list_games()  # a round trip: the resolution's update has come
            assert followed.turn == 1 and followed.orders == []
            assert followed.game is not None
            assert followed.game.model_dump(mode="json") == server_summary(server, game_id)
        finally:
            await session.close()


async def test_a_follower_s_summary_rebuilt_from_patches_is_the_server_s_through_joins_commits_and_turns() -> None:
    async with running_server(**FAST) as server:
        names = list(SEED_GROUPS)
        clients = {name: await Client.connect(server) for name in names}
        spectator = await Client.connect(server)
        game_id = await create_game(clients["ann"], players=3, initial_units=9, choose_groups=True)
        await ok(spectator, type="watch_game", game_id=game_id)
        everyone = [spectator]

        async def agree(what: str) -> None:
            await settled(*everyone)
            truth = server_summary(server, game_id)
            for client in everyone:
                assert client.latest_summary(game_id) == truth, what

        for group, name in enumerate(names):
            await join(clients[name], game_id, name, group)
            everyone.append(clients[name])
            await agree(f"{name} joined")
        for name, client in clients.items():
            for place in SEED_GROUPS[name]:
                await ok(
                    client,
                    type="issue_order",
                    game_id=game_id,
                    turn=0,
                    order={"kind": "place", "territory": place, "units": 3},
                )
            await ok(client, type="commit", game_id=game_id, turn=0)
            await agree(f"{name} committed the placement")
        for turn in (1, 2):
            for name, client in clients.items():
                await ok(client, type="commit", game_id=game_id, turn=turn)
                await agree(f"{name} committed turn {turn}")
        assert server_summary(server, game_id)["turn"] == 3
        for client in everyone:
            sent = updates(client, game_id)
            assert sent[0]["game"] is not None and sent[0]["game_patch"] is None, "the first comes whole"
            assert all(u["game"] is None for u in sent[1:]), "then only patches"
            patched = [u["game_patch"] for u in sent[1:] if u["game_patch"] is not None]
            assert patched and all("game_id" not in p and "settings" not in p for p in patched)
            assert all(set(p.get("seats", {})) <= {"0", "1", "2"} for p in patched), "a seat named by its position"


async def test_a_follower_who_comes_back_or_watches_again_gets_the_summary_whole() -> None:
    async with running_server(**FAST) as server:
        game_id, (ann, bob), tokens = await seated_game(server, ["ann", "bob"])
        spectator = await Client.connect(server)
        await ok(spectator, type="watch_game", game_id=game_id)
        await bob.close()  # ann and the spectator are told that bob's seat is empty: a patch
        await settled(ann, spectator)
        assert updates(spectator, game_id)[-1]["game"] is None
        assert updates(spectator, game_id)[-1]["game_patch"] == {"seats": {"1": {"connected": False}}}

        last_seq = spectator.latest("update", game_id)["seq"]
        await ok(spectator, type="watch_game", game_id=game_id, last_seq=last_seq)
        await settled(spectator)
        again = updates(spectator, game_id)[-1]
        assert again["game"] == server_summary(server, game_id) and again["game_patch"] is None

        back = await Client.connect(server)
        await ok(back, type="resume", game_id=game_id, token=tokens[1], last_seq=last_seq)
        await settled(back, spectator)
        resumed = updates(back, game_id)[0]
        assert resumed["game"] == server_summary(server, game_id) and resumed["game_patch"] is None
        assert not resumed["snapshot"]
        for follower in (ann, spectator):  # told within the second that presence news waits at most
            await follower.wait_for(lambda m: m["type"] == "update" and m["game"]["seats"][1]["connected"])
            assert follower.latest_summary(game_id) == server_summary(server, game_id), "bob is back, by a patch"
        await ok(back, type="resume", game_id=game_id, token=tokens[1])  # with no last_seq: a snapshot
        await settled(back)
        snapshot = updates(back, game_id)[-1]
        assert snapshot["snapshot"] and snapshot["game"] == server_summary(server, game_id)
