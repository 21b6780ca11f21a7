"""Nodes sharing a PostgreSQL store (server/cluster/node.py), in one process: any node answers the lobby, a game is
played by one node at a time and clients asking another are sent there, a game nobody plays is taken over where a client
asks for it, and a node that lost a game while its session was gone changes nothing when it wakes."""

from __future__ import annotations

import asyncio

import pytest

from server.lobby.directory import RESTORED_LOG_ENTRIES, Claimed
from tests.cluster_support import follow, node_of, nodes, port_of
from tests.postgres_support import PostgresCluster, restart
from tests.server_support import Client, create_game, join


async def test_a_game_created_on_one_node_is_listed_joinable_and_watchable_from_another(postgres_dsn: str) -> None:
    async with nodes(postgres_dsn, 2) as (a, b):
        watcher = await Client.connect(b)
        assert (await watcher.request(type="list_games", watch=True))["type"] == "games"
        ann = await Client.connect(a)
        game_id = await create_game(ann, players=2)
        heard = await watcher.wait_type("game_listed")
        assert heard["game"]["game_id"] == game_id and heard["game"]["status"] == "lobby"

        listing = await watcher.request(type="list_games")
        assert [g["game_id"] for g in listing["games"]] == [game_id] and listing["total"] == 1

        bob = await Client.connect(b)
        request = {"type": "join_game", "game_id": game_id[:3], "name": "bob"}  # the start of its id, as typed
        reply = await bob.request(**request)
        assert reply["type"] == "redirect" and reply["request"] == "join_game"
        assert port_of(reply["url"]) == a.port
        assert not b.lobby.matches, "node b plays no game of a's"
        bob, joined = await follow(bob, reply, **request)
        assert joined["type"] == "joined"

        cyd = await Client.connect(b)
        watching = {"type": "watch_game", "game_id": game_id}
        cyd, watched = await follow(cyd, await cyd.request(**watching), **watching)
        assert watched["type"] == "watching"
        await cyd.wait_for(lambda m: m["type"] == "update" and m["game"]["status"] == "lobby")

        listing = await watcher.request(type="list_games")
        assert [s["name"] for s in listing["games"][0]["seats"]] == ["bob"]  # as node a last saved it


async def test_a_game_whose_node_stopped_is_taken_over_where_its_player_comes_back(postgres_dsn: str) -> None:
    async with nodes(postgres_dsn, 1, node_id="b") as (b,):
        async with nodes(postgres_dsn, 1, node_id="a") as (a,):
            ann, bob = await Client.connect(a), await Client.connect(a)
            game_id = await create_game(ann, players=2)
            tokens = [await join(ann, game_id, "ann"), await join(bob, game_id, "bob")]
            await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
            view = ann.latest("update", game_id)
            assert view is not None
            mine = (
                view["view"]["territories"][0]["name"]
                if view["view"]["territories"][0]["owner"] == "ann"
                else next(t["name"] for t in view["view"]["territories"] if t["owner"] == "ann")
            )
            order = {"kind": "place", "territory": mine, "units": 1}
            accepted = await ann.request(type="issue_order", game_id=game_id, turn=0, order=order)
            assert accepted["type"] == "order_accepted"
        # node a stopped: its session ended, and the game is nobody's
        back = await Client.connect(b)
        resumed = await back.request(type="resume", game_id=game_id, token=tokens[0], last_seq=0)
        assert resumed["type"] == "resumed"
        listed = await back.request(type="list_orders", game_id=game_id)
        assert listed["orders"] == [order]
        assert b.lobby.matches[game_id].table.seed  # played here now


async def test_a_stopped_node_has_let_its_games_go_so_another_claims_one_at_once(postgres_dsn: str) -> None:
    async with nodes(postgres_dsn, 1, node_id="b") as (b,):
        async with nodes(postgres_dsn, 1, node_id="a") as (a,):
            game_id = await create_game(await Client.connect(a), players=2)
            assert game_id in node_of(a).held
        claimed = await node_of(b).claim(game_id)  # the moment a's stop returned, not once its backend process ended
        assert isinstance(claimed, Claimed), claimed


async def test_a_node_that_lost_its_session_changes_nothing_and_sends_its_players_to_the_new_owner(
    postgres_dsn: str, postgres_cluster: PostgresCluster
) -> None:
    async with nodes(postgres_dsn, 2, fence_after=60.0) as (a, b):
        ann, bob = await Client.connect(a), await Client.connect(a)
        game_id = await create_game(ann, players=2)
        tokens = [await join(ann, game_id, "ann"), await join(bob, game_id, "bob")]
        await bob.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        node_of(a)._tasks.cancel()  # as though frozen: it neither beats nor notices that its session is gone
        assert postgres_cluster.end_sessions(postgres_dsn, "risc-node:a") == 1
        elsewhere = await Client.connect(b)
        resumed = await elsewhere.request(type="resume", game_id=game_id, token=tokens[1], last_seq=0)
        assert resumed["type"] == "resumed", resumed  # b took the game over: a's lock went with its session

        view = ann.latest("update", game_id)
        assert view is not None and view["view"] is not None
        mine = next(t["name"] for t in view["view"]["territories"] if t["owner"] == "ann")
        order = {"kind": "place", "territory": mine, "units": 1}
        refused = await ann.request(type="issue_order", game_id=game_id, turn=0, order=order)
        assert refused["type"] == "redirect" and port_of(refused["url"]) == b.port, refused
        told = await bob.wait_type("redirect", game_id=game_id)  # a's other follower is sent on too
        assert told["ref"] is None and port_of(told["url"]) == b.port
        assert game_id not in a.lobby.matches
        listed = await elsewhere.request(type="list_orders", game_id=game_id)
        assert listed["orders"] == []  # nothing of what a was refused was kept
        moved, resumed = await follow(ann, refused, type="resume", game_id=game_id, token=tokens[0])
        assert resumed["type"] == "resumed"
        accepted = await moved.request(type="issue_order", game_id=game_id, turn=0, order=order)
        assert accepted["type"] == "order_accepted"


@pytest.mark.parametrize("change", ["issue_order", "commit"])
async def test_a_request_sent_again_after_its_reply_was_lost_is_answered_not_made_twice(
    postgres_dsn: str, change: str
) -> None:
    async with nodes(postgres_dsn, 1) as (a,):
        ann, bob = await Client.connect(a), await Client.connect(a)
        game_id = await create_game(ann, players=2)
        await join(ann, game_id, "ann")
        await join(bob, game_id, "bob")
        await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        view = ann.latest("update", game_id)
        assert view is not None
        mine = next(t["name"] for t in view["view"]["territories"] if t["owner"] == "ann")
        if change == "commit":  # the placement is whole before it is committed
            whole = {"kind": "place", "territory": mine, "units": view["view"]["pool_left"]}
            assert (await ann.request(type="issue_order", game_id=game_id, turn=0, order=whole))[
                "type"
            ] == "order_accepted"
        request = (
            {
                "type": "issue_order",
                "game_id": game_id,
                "turn": 0,
                "request_id": "ann-order-0001",
                "order": {"kind": "place", "territory": mine, "units": 2},
            }
            if change == "issue_order"
            else {"type": "commit", "game_id": game_id, "turn": 0, "request_id": "ann-commit-0001"}
        )
        first = await ann.request(**request)
        again = await ann.request(**request)
        assert first["type"] == again["type"] == ("order_accepted" if change == "issue_order" else "commit_accepted")
        assert {k: v for k, v in first.items() if k != "ref"} == {k: v for k, v in again.items() if k != "ref"}
        orders = await ann.request(type="list_orders", game_id=game_id)
        assert len(orders["orders"]) == 1
        if change == "commit":
            assert orders["committed"] is True
            assert (
                sum(
                    1
                    for f in bob.frames
                    if f["type"] == "update" and any(e["event"]["kind"] == "player_committed" for e in f["events"])
                )
                == 1
            )


async def test_a_node_whose_database_restarted_lets_its_games_go_and_plays_them_again_once_it_is_back(
    postgres_dsn: str, postgres_cluster: PostgresCluster
) -> None:
    async with nodes(postgres_dsn, 1) as (a,):
        ann, bob = await Client.connect(a), await Client.connect(a)
        game_id = await create_game(ann, players=2)
        await join(ann, game_id, "ann")
        await join(bob, game_id, "bob")
        update = await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        mine = next(t["name"] for t in update["view"]["territories"] if t["owner"] == "ann")
        order = {"kind": "place", "territory": mine, "units": 1}
        assert (await ann.request(type="issue_order", game_id=game_id, turn=0, order=order))["type"] == "order_accepted"
        await bob.wait_type("game_map")  # the game's map, sent when bob joined
        lost = node_of(a).lost_sessions
        restart(postgres_cluster)
        # The node lets its game go with its session, and takes it back once it is on the database again: its
        # players stay where they are, and are not sent to reconnect to the node they are on.
        for _ in range(200):
            if node_of(a).lost_sessions == lost + 1 and game_id in a.lobby.matches:
                break
            await asyncio.sleep(0.05)
        assert node_of(a).lost_sessions == lost + 1 and game_id in a.lobby.matches
        await bob.wait_type("game_map")  # followed again where it was taken back, from where it was
        back = await bob.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        assert back["seq"] == update["seq"] and back["events"] == [] and not back["snapshot"]
        for _ in range(100):
            orders = await ann.request(type="list_orders", game_id=game_id)
            if orders["type"] != "error":
                break
            assert orders["code"] == "storage-failed", orders  # the store answers a moment after the session
            await asyncio.sleep(0.1)
        assert orders["orders"] == [order]  # what was acknowledged before the restart is there
        assert (await ann.request(type="issue_order", game_id=game_id, turn=0, order=order))["type"] == "order_accepted"
        assert not [f for f in ann.frames + bob.frames if f["type"] == "redirect"], "nobody was sent anywhere"


async def test_what_an_address_holds_is_counted_across_the_nodes(postgres_dsn: str) -> None:
    """An address held 18 waiting games on 2 nodes where the limit is 10: the limit counts the whole server."""
    async with nodes(postgres_dsn, 2, open_games_per_address=5, open_games_per_connection=5) as (a, b):
        on_a, on_b = await Client.connect(a), await Client.connect(b)
        for _ in range(3):
            await create_game(on_a, players=2)
        for _ in range(2):
            await create_game(on_b, players=2)
        for client in (on_a, on_b):
            refused = await client.request(type="create_game", settings={"map": "seed"})
            assert refused["type"] == "error" and refused["code"] == "too-many-games", refused
        assert len(a.lobby.matches) + len(b.lobby.matches) == 5
        started = next(iter(a.lobby.matches))  # a game that starts waits no longer, and frees its place
        await join(on_a, started, "ann")
        await join(await Client.connect(a), started, "bob")
        assert (await on_b.request(type="create_game", settings={"map": "seed"}))["type"] == "game_created"


async def test_a_game_closed_by_its_last_player_is_gone_for_every_node(postgres_dsn: str) -> None:
    """Closed lobby games came back: `join_game` on one answered `joined` on either node."""
    async with nodes(postgres_dsn, 2) as (a, b):
        ann = await Client.connect(a)
        game_id = await create_game(ann, players=2)
        await join(ann, game_id, "ann")
        left = await ann.request(type="leave_game", game_id=game_id)
        assert left["type"] != "error", left
        for node in (a, b):
            bob = await Client.connect(node)
            reply = await bob.request(type="join_game", game_id=game_id, name="bob")
            assert reply["type"] == "error" and reply["code"] == "no-such-game", reply
            listing = await bob.request(type="list_games")
            assert listing["games"] == [] and listing["total"] == 0


async def test_a_waiting_game_whose_node_stopped_is_swept_up_and_closed_once_nobody_sits_in_it(
    postgres_dsn: str,
) -> None:
    async with nodes(postgres_dsn, 1, node_id="b", unstarted_game_expiry=0.5) as (b,):
        async with nodes(postgres_dsn, 1, node_id="a") as (a,):
            ann = await Client.connect(a)
            game_id = await create_game(ann, players=2)
            await join(ann, game_id, "ann")
        # a stopped with its waiting game: b's sweeper takes it, and closes it when nobody came back to it
        for _ in range(200):
            if game_id not in b.lobby.matches and game_id not in node_of(b).held and await _closed(b, game_id):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the waiting game was not swept up and closed")
        reply = await (await Client.connect(b)).request(type="join_game", game_id=game_id, name="bob")
        assert reply["type"] == "error" and reply["code"] == "no-such-game", reply


async def _closed(server: object, game_id: str) -> bool:
    stored = await server.storage.load(game_id)  # type: ignore[attr-defined]
    return stored is not None and stored.progress.finished and stored.progress.state is None


async def test_a_spectator_who_comes_after_a_take_over_reads_the_game_s_whole_history(postgres_dsn: str) -> None:
    """The node taking a game over reads back only the last entries of its log: the older ones a spectator reading
    the game from its start wants are read back from the store, not replaced by a snapshot."""
    async with nodes(postgres_dsn, 1, node_id="b") as (b,):
        async with nodes(postgres_dsn, 1, node_id="a") as (a,):
            ann, bob = await Client.connect(a), await Client.connect(a)
            game_id = await create_game(ann, players=3)
            await join(ann, game_id, "ann")
            for _ in range(RESTORED_LOG_ENTRIES // 2 + 10):  # a log longer than a take-over reads back
                await join(bob, game_id, "bob")
                assert (await bob.request(type="leave_game", game_id=game_id))["type"] == "left"
            entries = await a.storage.load(game_id)
            assert entries is not None and len(entries.events) > RESTORED_LOG_ENTRIES + 10
        # node a stopped, handing the game to b
        cyd = await Client.connect(b)
        assert (await cyd.request(type="watch_game", game_id=game_id, last_seq=0))["type"] == "watching"
        update = await cyd.wait_type("update", game_id=game_id)
        assert not update["snapshot"]
        kinds = [e["event"]["kind"] for e in update["events"]]
        assert kinds[0] == "game_created" and kinds.count("player_left") == RESTORED_LOG_ENTRIES // 2 + 10
        assert [e["seq"] for e in update["events"]] == sorted(e["seq"] for e in update["events"])


async def test_a_node_whose_listening_session_was_ended_hears_again(
    postgres_dsn: str, postgres_cluster: PostgresCluster
) -> None:
    """The listening session is read only when PostgreSQL sends it something (server/cluster/hearing.py): ended by the
    database, the node notices at once, listens on a new session, and hears the next game another node lists."""
    async with nodes(postgres_dsn, 2) as (a, b):
        watcher = await Client.connect(b)
        assert (await watcher.request(type="list_games", watch=True))["type"] == "games"
        ended = postgres_cluster.psql(
            "postgres",
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE application_name = 'risc-node:b:listen'",
        )
        assert ended.strip() == "1"
        for _ in range(100):  # a new listening session, within a second or two
            await asyncio.sleep(0.05)
            if "risc-node:b:listen" in postgres_cluster.sessions(postgres_dsn):
                break
        else:
            raise AssertionError("node b did not listen again")
        game_id = await create_game(await Client.connect(a), players=2)
        heard = await watcher.wait_type("game_listed")
        assert heard["game"]["game_id"] == game_id
