"""How many connections a server holds (server/frontier/room.py): past its room a new connection is refused with HTTP
503 that says why, while the connections it holds are still served, its store still writes, and its probes still
answer. Real servers (one in a process of its own, its open-files limit lowered), real websocket clients."""

from __future__ import annotations

import asyncio
import re
import resource
import subprocess
import sys
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from client.connection import Connection, ConnectionFailed
from server.frontier.guesses import address_of
from server.frontier.room import RESERVE, Admission, connections, raise_open_files, room_for
from tests.server_support import Client, barrier, create_game, join, running_server, url
from tests.test_server_process import start_server

ROOT = Path(__file__).resolve().parent.parent


def http_get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


async def refused(port: int) -> InvalidStatus:
    """The refusal of a handshake the server does not take."""
    with pytest.raises(InvalidStatus) as caught:
        async with connect(f"ws://127.0.0.1:{port}"):
            pass
    return caught.value


def test_the_room_is_the_open_files_limit_but_a_reserve() -> None:
    assert room_for(20_000) == 20_000 - RESERVE
    assert room_for(1_024) == 1_024 - 128  # an eighth of a small limit
    assert room_for(64) == 32  # never less than the files a process opens before its first connection
    assert room_for(10) == 1
    assert (connections(1), connections(19_744)) == ("1 connection", "19,744 connections")


def test_a_server_raises_its_soft_open_files_limit_to_the_hard_one() -> None:
    """In a process of its own: the soft limit lowered to 100 (the hard one kept), then raised back."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    script = (
        "import resource; from server.frontier.room import raise_open_files; "
        "resource.setrlimit(resource.RLIMIT_NOFILE, (100, resource.getrlimit(resource.RLIMIT_NOFILE)[1])); "
        "print(raise_open_files(), resource.getrlimit(resource.RLIMIT_NOFILE)[0])"
    )
    said = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    told, soft = (int(n) for n in said.stdout.split())
    expected = hard if hard != resource.RLIM_INFINITY else told
    assert told == soft == expected and soft > 100
    assert raise_open_files() == resource.getrlimit(resource.RLIMIT_NOFILE)[0]


async def test_past_max_connections_a_connection_is_refused_and_the_others_are_served() -> None:
    async with running_server(max_connections=2) as server:
        assert server.transport.room == 2
        ann = await Client.connect(server)
        bob = await Client.connect(server)
        serving = set(server.transport.handlers())  # ann's connection and bob's
        refusal = await refused(server.port)
        assert refusal.response.status_code == 503
        body = refusal.response.body.decode()
        assert "the server is full" in body and "--max-connections" in body and "(2)" in body, body
        assert refusal.response.headers["Retry-After"] == "30"
        assert server.metrics.full._value.get() == 1
        text_client = Connection(url(server), reconnect=False)
        with pytest.raises(ConnectionFailed) as failed:  # the text client tells its player why
            await text_client.open()
        assert "refused the connection (HTTP 503): the server is full: it holds 2 connections" in str(failed.value)
        status, text = await asyncio.to_thread(http_get, server.port, "/healthz")
        assert (status, text) == (200, "ok\n")  # alive however full
        status, text = await asyncio.to_thread(http_get, server.port, "/readyz")
        assert status == 503 and text.startswith("not ready: the server is full: it holds 2 connections"), text
        game_id = await create_game(ann, players=2)  # those it holds play on
        await join(ann, game_id, "ann")
        await join(bob, game_id, "bob")
        await barrier(bob)
        refused_ones = server.transport.handlers() - serving
        if refused_ones:  # each ends by itself once its refusal is sent
            await asyncio.wait(refused_ones)
        await ann.close()
        await asyncio.wait(serving, return_when=asyncio.FIRST_COMPLETED)  # the server let ann's connection go
        carl = await Client.connect(server)  # there is room again
        await barrier(carl)
        await bob.close()
        await carl.close()


async def test_one_address_holds_at_most_its_share_of_connections_and_the_others_are_served() -> None:
    """One program cannot take the whole room: past `--connections-per-address` a connection from the same address is
    refused with HTTP 429 that says why, while the server has room and serves those it holds; the count of an
    address goes down with each connection that ends, however it ended (refused ones included)."""
    async with running_server(connections_per_address=3, max_connections=100) as server:
        admission = server.transport.admission
        clients = [await Client.connect(server) for _ in range(3)]
        assert admission.held("127.0.0.1") == 3
        refusal = await refused(server.port)
        assert refusal.response.status_code == 429 and refusal.response.headers["Retry-After"] == "30"
        body = refusal.response.body.decode()
        assert body.startswith("your address holds 3 connections to this server, as many as one address may"), body
        assert "--connections-per-address" in body
        assert server.metrics.crowded._value.get() == 1 and server.metrics.full._value.get() == 0
        text_client = Connection(url(server), reconnect=False)
        with pytest.raises(ConnectionFailed) as failed:  # the text client tells its player why
            await text_client.open()
        assert "refused the connection (HTTP 429): your address holds 3 connections" in str(failed.value)
        status, text = await asyncio.to_thread(http_get, server.port, "/healthz")
        assert (status, text) == (200, "ok\n")  # probes answer however many the address holds
        status, text = await asyncio.to_thread(http_get, server.port, "/readyz")
        assert (status, text) == (200, "ready\n")  # the server itself has room
        status, text = await asyncio.to_thread(http_get, server.port, "/readyz?client")
        assert status == 429 and text.startswith("your address holds 3 connections"), text  # but not for this one
        game_id = await create_game(clients[0], players=2)  # those it holds play on
        await join(clients[0], game_id, "ann")
        await join(clients[1], game_id, "bob")
        await barrier(clients[2])
        await clients[0].close()
        await settled(lambda: admission.held("127.0.0.1") <= 2)  # the server let the closed connection go
        dee = await Client.connect(server)  # room for the address again
        await barrier(dee)
        for client in (*clients[1:], dee):
            await client.close()
        await settled(lambda: admission.open == 0)
        assert admission.admitted == 0 and admission.addresses == 0, "every connection let go of, refused ones too"


async def test_sockets_that_never_finish_their_request_cannot_fill_the_room() -> None:
    """A program opening sockets that send nothing (or a byte at a time, until the handshake's time runs out) is not
    admitted, but is counted from the moment each is accepted: past its address's share and a slack, each is cut off
    at once, so that the room stays for the others, and the files for the store."""
    async with running_server(connections_per_address=3, max_connections=100) as server:
        admission = server.transport.admission
        kept = 3 + admission.slack
        silent = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(kept + 10)]
        await settled(lambda: admission.open == kept)
        assert [await cut_off(reader) for reader, _ in silent[kept:]] == [True] * 10, "cut off, with no answer"
        assert admission.admitted == 0
        for _, writer in silent:
            writer.close()
        await settled(lambda: admission.open == 0)
        ann = await Client.connect(server)
        await barrier(ann)
        await ann.close()


async def cut_off(reader: asyncio.StreamReader) -> bool:
    """Whether the server ended the connection without a word."""
    try:
        return await asyncio.wait_for(reader.read(), 5) == b""
    except ConnectionResetError:
        return True


async def settled(condition: Callable[[], bool]) -> None:
    """Wait (up to 5 s) for what the server does as connections end, which comes a moment after the client's end."""
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    assert condition()


async def test_the_connections_of_an_ipv6_network_count_together_and_a_burst_takes_what_room_is_left() -> None:
    by_address = Admission(room=10, per_address=2, slack=1)
    hosts = ("2001:db8:1:2::1", "2001:db8:1:2:ffff::9", "2001:db8:1:2::3", "2001:db8:1:2::4")
    same = [address_of(host) for host in hosts]
    assert len(set(same)) == 1, "one /64: one machine may hold many addresses of it"
    assert [by_address.accepted(a) for a in same] == [True, True, True, False]  # the share, the slack, then cut off
    assert [by_address.admit(a) for a in same[:3]] == [True, True, False]  # the third answered why (429)
    assert by_address.held("2001:db8:1:2::77") == 2 and by_address.admit(address_of("2001:db8:1:3::1")) is True
    room = Admission(room=2, per_address=None, slack=1)
    burst = [address_of(f"192.0.2.{i}") for i in range(4)]
    assert [room.accepted(a) for a in burst] == [True, True, True, False]  # past the room and its slack: cut off
    assert [room.admit(a) for a in burst[:3]] == [True, True, None]  # what room is left taken, the rest told (503)
    for a, admitted in zip(burst, [True, True, False, False], strict=True):
        room.lost(a, admitted)
    assert (room.open, room.admitted, room.addresses) == (0, 0, 0)


async def test_a_server_at_its_open_files_limit_refuses_connections_and_still_saves(tmp_path: Path) -> None:
    """`risc server` in a process whose open-files limit is 256 (soft and hard): it holds 224 connections, refuses
    the next ones with 503 naming the limit, and its store still writes every change of the games it holds, rather
    than failing them for want of a file ("unable to open database file")."""
    limit = 256

    def lowered() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    said: list[str] = []
    process, port = await start_server("--data-dir", str(tmp_path / "data"), said=said, preexec_fn=lowered)
    assert process.stderr is not None
    held: list[ClientConnection] = []
    try:
        found = re.search(r"room for ([\d,]+) connections?", said[-1])
        assert found is not None, said[-1]
        room = int(found.group(1).replace(",", ""))
        assert room == room_for(limit) == 224
        ann = await Client.connect(port)
        bob = await Client.connect(port)
        while len(held) < room - 2:
            held.append(await connect(f"ws://127.0.0.1:{port}"))
        statuses = []
        for _ in range(limit // 4):  # more than the files left: a server that took them all could open no more
            try:
                held.append(await connect(f"ws://127.0.0.1:{port}"))
                statuses.append(101)
            except InvalidStatus as refusal:
                statuses.append(refusal.response.status_code)
                assert "open-files limit" in refusal.response.body.decode()
        assert statuses == [503] * (limit // 4)
        game_id = await create_game(ann, players=2)
        await join(ann, game_id, "ann")
        assert (await asyncio.to_thread(http_get, port, "/readyz"))[0] == 503  # full: not ready for more
        await join(bob, game_id, "bob")
        await barrier(ann)
        await ann.close()
        await bob.close()
    finally:
        for ws in held:
            await ws.close()
        process.terminate()
        log = (await process.stderr.read()).decode()
        await process.wait()
    assert "connections refused: the server is full" in log, log
    assert "could not save" not in log and "unable to open" not in log, log
    # what it saved is there: the game and both seats, read back from the file by a new server
    async with running_server(data_dir=tmp_path / "data") as server:
        carl = await Client.connect(server)
        listed = await carl.request(type="list_games")
        seats = [s["name"] for g in listed["games"] if g["game_id"] == game_id for s in g["seats"]]
        assert seats == ["ann", "bob"], listed
        await carl.close()
