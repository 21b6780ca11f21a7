"""Which nodes a node knows of, and what it tells clients of them (found by failing the cluster over): every node's
`welcome` lists every live node as soon as one joins; a request for a game whose node was just killed is never sent
to the killed node; fencing a frozen node ends every session it has; a word said in one node's lobby is heard in
every node's lobby."""

from __future__ import annotations

import asyncio
import signal

import psycopg

from tests.cluster_support import nodes, port_of
from tests.postgres_support import PostgresCluster
from tests.server_support import Client, create_game, join
from tests.test_cluster_failover import start_nodes, stop
from tests.test_server_process import start_server


async def welcomed_nodes(port: int) -> set[str]:
    client = await Client.connect(port)
    welcome = next(f for f in client.frames if f["type"] == "welcome")
    await client.close()
    return set(welcome["nodes"])


async def test_every_node_s_welcome_lists_every_live_node_as_soon_as_it_joins(postgres_dsn: str) -> None:
    async with nodes(postgres_dsn, 3, sweep_every=600.0) as servers:  # no sweeper reads the nodes again meanwhile
        urls = {server.directory.own_url for server in servers}
        loop = asyncio.get_running_loop()
        for server in servers:  # the first node heard of the two that joined after it
            end = loop.time() + 5
            while (listed := await welcomed_nodes(server.port)) != urls:
                assert loop.time() < end, f"node {server.config.node_id} lists {listed}, not {urls}"
                await asyncio.sleep(0.02)


async def test_a_game_whose_node_was_just_killed_is_never_sent_to_the_killed_node(
    postgres_dsn: str, postgres_cluster: PostgresCluster
) -> None:
    processes = await start_nodes(postgres_dsn)
    (owner, port_a), (_, port_b), (_, port_c) = processes
    try:
        games = []
        for _ in range(8):
            creator = await Client.connect(port_a)
            game_id = await create_game(creator, players=2)
            tokens = [await join(creator, game_id, "ann"), await join(await Client.connect(port_a), game_id, "bob")]
            games.append((game_id, tokens))
        owner.send_signal(signal.SIGKILL)
        await asyncio.sleep(0.01)  # 10 ms after the kill: the database has not yet ended node a's session
        (first, first_tokens), games = games[0], games[1:]
        early = await Client.connect(port_b)
        reply = await early.request(type="resume", game_id=first, token=first_tokens[0])
        assert reply["type"] == "resumed", reply  # taken over at once, not sent to the node that died
        await owner.wait()
        loop = asyncio.get_running_loop()
        end = loop.time() + 10
        while "risc-node:a" in postgres_cluster.sessions(postgres_dsn):  # the database knows node a is gone
            assert loop.time() < end
            await asyncio.sleep(0.005)
        # Each game's players come back at once through the two other nodes: one of them takes the game over, the
        # other sends its player there, never to the node that died (though the game's row still names it).
        clients = [await Client.connect(port) for _ in games for port in (port_b, port_c)]
        requests = [
            client.request(type="resume", game_id=game_id, token=token)
            for (game_id, tokens), pair in zip(games, zip(clients[::2], clients[1::2], strict=True), strict=True)
            for client, token in zip(pair, tokens, strict=True)
        ]
        replies = await asyncio.gather(*requests)
        for reply in replies:
            assert reply["type"] in ("resumed", "redirect"), reply
            if reply["type"] == "redirect":
                assert port_of(reply["url"]) in (port_b, port_c), reply
    finally:
        await stop([p for p, _ in processes])


async def test_fencing_a_frozen_node_ends_every_session_it_has(
    postgres_dsn: str, postgres_cluster: PostgresCluster
) -> None:
    options = ("--store", postgres_dsn, "--fence-after", "2", "--sweep-every", "0.3")
    frozen, port_a = await start_server(*options, "--node-id", "a")
    other, _ = await start_server(*options, "--node-id", "b")
    try:
        ann = await Client.connect(port_a)
        await create_game(ann, players=2)  # node a's pool is in use
        assert "risc-node:a:listen" in postgres_cluster.sessions(postgres_dsn)
        frozen.send_signal(signal.SIGSTOP)
        loop = asyncio.get_running_loop()
        end = loop.time() + 20
        while "risc-node:a" in postgres_cluster.sessions(postgres_dsn):  # fenced by node b
            assert loop.time() < end, "node a was never fenced"
            await asyncio.sleep(0.1)
        left = postgres_cluster.sessions(postgres_dsn)
        assert left and set(left) <= {"risc-node:b", "risc-node:b:listen", "risc-store:b"}, left
        with psycopg.connect(postgres_dsn) as db:  # nothing of node a's holds a game's row locked
            locked = db.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'tuple'").fetchone()
        assert locked is not None and locked[0] == 0
    finally:
        frozen.send_signal(signal.SIGCONT)
        await stop([frozen, other])


async def test_a_word_said_in_one_node_s_lobby_is_heard_in_every_node_s_lobby(postgres_dsn: str) -> None:
    async with nodes(postgres_dsn, 2) as (a, b):
        bea = await Client.connect(b)
        assert (await bea.request(type="list_games"))["type"] == "games"  # bea looks at node b's lobby
        ann = await Client.connect(a)
        said = await ann.request(type="chat", game_id=None, name="ann", text="anyone for a game of Warzone?")
        assert said["type"] == "chat_sent", said
        heard = await bea.wait_type("lobby_chat")
        assert heard["player"] == "ann" and heard["text"] == "anyone for a game of Warzone?"
        assert (await bea.request(type="chat", game_id=None, name="bea", text="me!"))["type"] == "chat_sent"
        assert (await ann.wait_for(lambda m: m["type"] == "lobby_chat" and m["player"] == "bea"))["text"] == "me!"
        # node a heard its own word back before bea's: it told ann once, not again
        assert [f["player"] for f in ann.frames if f["type"] == "lobby_chat"] == ["ann", "bea"]
        assert [f["player"] for f in bea.frames if f["type"] == "lobby_chat"] == ["ann", "bea"]
