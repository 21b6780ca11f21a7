"""Real node processes on one real PostgreSQL, killed and frozen with real signals: a game goes on on another node
with everything that was acknowledged, its log numbered without a gap or a repeat, and `risc replay` finds it the
game its seed and orders make; a frozen owner that wakes up changes nothing; the sweeper keeps a time limit."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sys
from pathlib import Path
from typing import Any

import psycopg

from tests.cluster_support import follow, keep_reading_log, port_of
from tests.persistence_support import WHOLE_TURN, commit, issue_all, latest_view, next_turn, play_to_the_end
from tests.postgres_support import PostgresCluster
from tests.server_support import Client, Message, create_game
from tests.test_server_process import start_server

NAMES = ["ann", "bob", "cyd"]
NODE_OPTIONS = ("--fence-after", "30", "--sweep-every", "0.3", "--min-turn-seconds", "0.5")


async def start_nodes(dsn: str, names: str = "abc") -> list[tuple[asyncio.subprocess.Process, int]]:
    nodes = [await start_server("--store", dsn, "--node-id", name, *NODE_OPTIONS) for name in names]
    for process, _ in nodes:
        keep_reading_log(process)
    return nodes


async def stop(processes: list[asyncio.subprocess.Process]) -> None:
    for process in processes:
        if process.returncode is None:
            process.send_signal(signal.SIGCONT)
            process.kill()
            await asyncio.wait_for(process.wait(), 10)


async def join_through(port: int, game_id: str, name: str, owner: int) -> tuple[Client, str]:
    """Join through a node that does not play the game: redirected to the one that does, and seated there."""
    client = await Client.connect(port)
    request = {"type": "join_game", "game_id": game_id, "name": name}
    reply = await client.request(**request)
    assert reply["type"] == "redirect" and port_of(reply["url"]) == owner, reply
    client, joined = await follow(client, reply, **request)
    assert joined["type"] == "joined", joined
    return client, str(joined["token"])


async def seated_through_the_others(ports: tuple[int, int, int]) -> tuple[str, list[Client], list[str]]:
    """A game of three created on the first node, its players joined through the two others (and sent to the first),
    each holding its view."""
    port_a, port_b, port_c = ports
    game_id = await create_game(await Client.connect(port_a), players=3)
    seated = [
        await join_through(port, game_id, name, port_a)
        for name, port in zip(NAMES, [port_b, port_c, port_b], strict=True)
    ]
    clients, tokens = [c for c, _ in seated], [t for _, t in seated]
    for client in clients:
        await client.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
    return game_id, clients, tokens


def stored_log(dsn: str, game_id: str) -> list[dict[str, Any]]:
    with psycopg.connect(dsn) as db:
        rows = db.execute("SELECT seq, body FROM events WHERE game_id = %s ORDER BY seq", (game_id,)).fetchall()
    return [{"seq": seq, **json.loads(body)} for seq, body in rows]


async def replayed(dsn: str, game_id: str) -> str:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "risc",
        "replay",
        game_id,
        "--store",
        dsn,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, (out + err).decode()[-2000:]
    return out.decode()


async def back_through(port: int, game_id: str, token: str) -> tuple[Client, Message]:
    """Come back to a seat through any node, following it to the node that plays the game. Right after a node is
    killed the database may not have ended its session yet, so the game may still be said to be there: as the text
    client does, try again through the node one came by, a moment later."""
    request = {"type": "resume", "game_id": game_id, "token": token}
    for _ in range(50):
        client = await Client.connect(port)
        try:
            client, reply = await follow(client, await client.request(**request), **request)
        except OSError:  # the node it was sent to is the one that died
            await asyncio.sleep(0.1)
            continue
        break
    assert reply["type"] == "resumed", reply
    update = await client.wait_for(
        lambda m: m["type"] == "update" and m.get("game_id") == game_id and m["view"] is not None, timeout=WHOLE_TURN
    )
    return client, update


async def test_the_owner_killed_mid_turn_loses_nothing_acknowledged_and_the_game_ends_on_another_node(
    postgres_dsn: str,
) -> None:
    nodes = await start_nodes(postgres_dsn)
    (owner, port_a), (_, port_b), (_, port_c) = nodes
    try:
        game_id, clients, tokens = await seated_through_the_others((port_a, port_b, port_c))
        for _ in range(2):  # placement and a turn
            view = latest_view(clients[0], game_id)
            for client, name in zip(clients, NAMES, strict=True):
                await issue_all(client, game_id, name)
                await commit(client, game_id)
            await next_turn(clients, game_id, (view["phase"], view["turn"]))
        turn = latest_view(clients[0], game_id)["turn"]
        ann_orders = await issue_all(clients[0], game_id, "ann")
        await commit(clients[0], game_id)
        bob_orders = await issue_all(clients[1], game_id, "bob")
        assert ann_orders and bob_orders
        acknowledged = len(stored_log(postgres_dsn, game_id))

        owner.send_signal(signal.SIGKILL)  # mid simultaneous turn: ann committed, bob issued, cyd nothing yet
        await owner.wait()
        for client in clients:
            await asyncio.wait_for(client.closed.wait(), 10)

        back = [
            await back_through(port, game_id, token)
            for port, token in zip([port_b, port_c, port_b], tokens, strict=True)
        ]
        clients = [client for client, _ in back]
        views = [update["view"] for _, update in back]
        assert {v["turn"] for v in views} == {turn}
        assert views[0]["your_orders"] == ann_orders and views[1]["your_orders"] == bob_orders
        committed = {p["name"]: p["committed"] for p in views[2]["players"]}
        assert committed == {"ann": True, "bob": False, "cyd": False}
        assert len(stored_log(postgres_dsn, game_id)) == acknowledged

        await commit(clients[1], game_id)
        await issue_all(clients[2], game_id, "cyd")
        await commit(clients[2], game_id)
        assert await play_to_the_end(clients, NAMES, game_id, turn) in NAMES

        log = stored_log(postgres_dsn, game_id)
        assert [e["seq"] for e in log] == list(range(1, len(log) + 1))  # no gap, no repeat
        revealed = [e for e in log if e["event"]["kind"] == "orders_revealed"]
        assert any(
            r["event"]["orders"].get("ann") == ann_orders and r["event"]["orders"].get("bob") == bob_orders
            for r in revealed
        ), "the orders acknowledged before the kill were carried out"
        assert "OK:" in await replayed(postgres_dsn, game_id)
    finally:
        await stop([p for p, _ in nodes])


async def test_a_classic_game_whose_owner_is_killed_mid_attack_goes_on_on_another_node(postgres_dsn: str) -> None:
    nodes = await start_nodes(postgres_dsn, "ab")
    (owner, port_a), (_, port_b) = nodes
    try:
        creator = await Client.connect(port_a)
        game_id = await create_game(creator, players=2, ruleset="classic", map="saltreach")
        seated = [await join_through(port_b, game_id, name, port_a) for name in NAMES[:2]]
        clients = [c for c, _ in seated]
        for client in clients:
            await client.wait_for(lambda m: m["type"] == "update" and m["game"]["status"] == "playing")
        attacks, freshest = 0, clients[0]
        for _ in range(400):  # the player whose turn it is plays an attack where it may, else its first legal order
            summary = freshest.latest_summary(game_id)
            assert summary is not None
            acting = next(i for i, s in enumerate(summary["seats"]) if s["awaited"])
            legal = await clients[acting].request(type="legal_orders", game_id=game_id)
            choice = next((o for o in legal["orders"] if o["order"]["kind"] == "attack"), legal["orders"][0])
            step = summary["step"]
            reply = await clients[acting].request(
                type="issue_order", game_id=game_id, turn=summary["turn"], order=choice["order"]
            )
            assert reply["type"] == "order_accepted", reply
            attacks += choice["order"]["kind"] == "attack"
            freshest = clients[acting]  # the update its own action brought is the latest word on whose turn it is
            await freshest.wait_for(lambda m, step=step: m["type"] == "update" and m["game"]["step"] > step)
            if attacks >= 2:
                break
        assert attacks >= 2
        acknowledged = stored_log(postgres_dsn, game_id)
        owner.send_signal(signal.SIGKILL)
        await owner.wait()
        back = [await back_through(port_b, game_id, token) for token in [t for _, t in seated]]
        clients = [client for client, _ in back]
        assert stored_log(postgres_dsn, game_id)[: len(acknowledged)] == acknowledged
        summary = clients[0].latest_summary(game_id)
        assert summary is not None and summary["status"] == "playing"
        acting = next(i for i, s in enumerate(summary["seats"]) if s["awaited"])
        legal = await clients[acting].request(type="legal_orders", game_id=game_id)
        reply = await clients[acting].request(
            type="issue_order", game_id=game_id, turn=summary["turn"], order=legal["orders"][0]["order"]
        )
        assert reply["type"] == "order_accepted", reply  # played on by node b
        log = stored_log(postgres_dsn, game_id)
        assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
        assert "OK:" in await replayed(postgres_dsn, game_id)
    finally:
        await stop([p for p, _ in nodes])


async def test_a_frozen_owner_whose_session_was_ended_changes_nothing_when_it_wakes_and_sends_its_players_on(
    postgres_dsn: str, postgres_cluster: PostgresCluster
) -> None:
    nodes = await start_nodes(postgres_dsn, "ab")
    (owner, port_a), (_, port_b) = nodes
    try:
        ann = await Client.connect(port_a)
        game_id = await create_game(ann, players=2)
        bob = await Client.connect(port_a)
        ann_token = (await ann.request(type="join_game", game_id=game_id, name="ann"))["token"]
        bob_token = (await bob.request(type="join_game", game_id=game_id, name="bob"))["token"]
        await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        view = latest_view(ann, game_id)
        mine = next(t["name"] for t in view["territories"] if t["owner"] == "ann")
        before = len(stored_log(postgres_dsn, game_id))

        owner.send_signal(signal.SIGSTOP)
        assert postgres_cluster.end_sessions(postgres_dsn, "risc-node:a") == 1
        _, taken = await back_through(port_b, game_id, bob_token)  # node b takes the game over
        assert taken["view"]["turn"] == 0
        order = {"kind": "place", "territory": mine, "units": 1}
        await ann.send(ref="frozen", type="issue_order", game_id=game_id, turn=0, order=order)
        owner.send_signal(signal.SIGCONT)

        reply = await ann.wait_for(lambda m: m.get("ref") == "frozen", timeout=10)
        assert reply["type"] == "redirect" and port_of(reply["url"]) == port_b, reply
        with psycopg.connect(postgres_dsn) as db:
            kept = db.execute("SELECT count(*) FROM pending_orders WHERE game_id = %s", (game_id,)).fetchone()
        assert kept is not None and kept[0] == 0, "the woken owner wrote nothing"
        assert len(stored_log(postgres_dsn, game_id)) == before
        moved, resumed = await follow(ann, reply, type="resume", game_id=game_id, token=ann_token)
        assert resumed["type"] == "resumed"
        accepted = await moved.request(type="issue_order", game_id=game_id, turn=0, order=order)
        assert accepted["type"] == "order_accepted"
    finally:
        await stop([p for p, _ in nodes])


async def test_the_sweeper_takes_over_a_timed_game_nobody_is_connected_to_and_its_time_runs_out(
    postgres_dsn: str, tmp_path: Path
) -> None:
    nodes = await start_nodes(postgres_dsn, "ab")
    (owner, port_a), (other, _) = nodes
    try:
        ann, bob = await Client.connect(port_a), await Client.connect(port_a)
        game_id = await create_game(ann, players=2, turn_seconds=1.0)
        await ann.request(type="join_game", game_id=game_id, name="ann")
        await bob.request(type="join_game", game_id=game_id, name="bob")
        await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        owner.send_signal(signal.SIGKILL)
        await owner.wait()
        # Nobody comes back: node b's sweeper claims the game, and its turn times out as the rules say.
        loop = asyncio.get_running_loop()
        end = loop.time() + 20
        while not any(e["event"]["kind"] == "time_ran_out" for e in stored_log(postgres_dsn, game_id)):
            assert loop.time() < end, "the turn's time never ran out"
            await asyncio.sleep(0.2)
        with psycopg.connect(postgres_dsn) as db:
            owner_row = db.execute("SELECT owner FROM games WHERE game_id = %s", (game_id,)).fetchone()
        assert owner_row is not None and owner_row[0] == "b"
        late = next(e for e in stored_log(postgres_dsn, game_id) if e["event"]["kind"] == "time_ran_out")
        assert sorted(late["event"]["players"]) == ["ann", "bob"]
        assert other.returncode is None
    finally:
        await stop([p for p, _ in nodes])


def free_ports(count: int) -> int:
    """The first of `count` consecutive ports nothing listens on now."""
    import socket

    for _ in range(100):
        first = random.randrange(20_000, 60_000)
        sockets = []
        try:
            for port in range(first, first + count):
                sock = socket.socket()
                sockets.append(sock)
                sock.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue
        finally:
            for sock in sockets:
                sock.close()
    raise AssertionError("no free ports")


async def test_risc_server_nodes_starts_a_local_cluster_that_plays_on_and_heals_when_a_node_is_killed_and_stops_whole(
    postgres_dsn: str,
) -> None:
    port = free_ports(2)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "risc",
        "server",
        "--store",
        postgres_dsn,
        "--nodes",
        "2",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--no-web",
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
    )
    assert process.stderr is not None
    said: list[str] = []
    try:
        while sum("listening on" in line for line in said) < 2:
            line = (await asyncio.wait_for(process.stderr.readline(), 30)).decode()
            assert line, "".join(said)
            said.append(line)
        ann = await Client.connect(port + 1)
        game_id = await create_game(ann, players=2)
        bob = await Client.connect(port)
        reply = await bob.request(type="join_game", game_id=game_id, name="bob")
        assert reply["type"] == "redirect" and port_of(reply["url"]) == port + 1
        nodes = children_of(process.pid)
        assert len(nodes) == 2
        os.kill(max(nodes), signal.SIGKILL)  # one node dies: the other plays on, and the command goes on
        while not any("ended (killed by signal 9)" in line for line in said):
            said.append((await asyncio.wait_for(process.stderr.readline(), 30)).decode())
        assert process.returncode is None
        # ...and starts the dead node again, after a pause: the local cluster heals itself
        while sum("listening on" in line for line in said) < 3:
            said.append((await asyncio.wait_for(process.stderr.readline(), 30)).decode())
        assert any("started again" in line for line in said)
        again = children_of(process.pid)
        assert len(again) == 2 and max(nodes) not in again
        for node_port in (port, port + 1):  # both answer
            assert (await (await Client.connect(node_port)).request(type="list_games"))["type"] == "games"
        assert any(f"[node-{n}]" in line for line in said for n in (1, 2))  # every line names its node
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 30) == 0
        assert not children_of(process.pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # the command and whatever nodes it left
        await asyncio.wait_for(process.wait(), 10)


def children_of(pid: int) -> list[int]:
    """The processes whose parent is `pid` (read from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found
