"""Issue 35's attacks (bench/attack.py runs them with the others): request ids that are another player's, a turn
without bounds, finished games played again over and over, a crowd in the lobby's chat, chat that shows nothing or
passes for the server, strangers in a finished game's chat, a handshake with two Host headers, and the bounds and
options the published schema and the server judged differently. Each prints one row of docs/security.md's tables, for
this checkout or for another (`--source`), so that the figures before and after are taken the same way.

`python -m bench.attack_word2 crowd PORT ADDRESSES PER_ADDRESS LINES` is the lobby's crowd, run in a process of its
own by the `lobby-crowd` attack (the process that times a bystander must not be the one kept busy reading)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from bench.attack import Bystanders, Row, ServerProcess, mib
from bench.attack_word import Latency, _schema_of
from client.connection import paced
from shared.protocol.codes import PROTOCOL_VERSION
from tests.server_support import Client
from tests.test_wire_schema import BOUNDS, OPTIONS

ROOT = Path(__file__).resolve().parents[1]
WAIT = 120.0
"""The longest an attack waits for one answer."""


async def ask(client: Client, timeout: float = WAIT, **message: Any) -> dict[str, Any]:
    """A request and its answer, waited for as long as a slow server takes; sent within the rate limit the server's
    welcome announced, as every attack here keeps to it."""
    await paced(client.pacer)
    ref = f"a{time.monotonic_ns()}"
    await client.send(ref=ref, **message)
    return await client.wait_for(lambda m: m.get("ref") == ref, timeout=timeout, from_start=True)


async def ended(row: Row, started: float, server: ServerProcess) -> Row:
    """The end of an attack: the server stopped, the row's time, crashes, and peak memory unless it says more."""
    await server.stop()
    row.seconds = time.monotonic() - started
    row.crashes = server.crashes()
    row.memory = row.memory or f"peak {mib(server.peak)}"
    return row


def spread(times: list[float]) -> str:
    if not times:
        return "none"
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {ordered[len(ordered) // 2] * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, worst {ordered[-1] * 1000:.0f} ms"


async def timed(latency: Latency, work: Callable[[], Awaitable[None]]) -> str:
    """A bystander's requests timed while `work` runs: their spread."""
    latency.requests.clear()
    await work()
    return spread(latency.requests)


# ---- a game of one person and one computer, at its first turn of orders ---------------------------------------------


async def at_orders(port: int, lobby: Client) -> tuple[str, Client, str, str]:
    """A RISC game on the seed map of ann and one of the server's computers, past its placement: the game, ann's
    connection, and two of her territories that border each other (each with half her units)."""
    created = await ask(lobby, type="create_game", settings={"map": "seed", "players": 2, "bots": 1})
    game_id = created["game"]["game_id"]
    ann = await Client.connect(port)
    await ask(ann, type="join_game", game_id=game_id, name="ann")
    update = await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is not None, timeout=WAIT)
    borders = ann.maps[game_id]["borders"]
    mine = [t["name"] for t in update["view"]["territories"] if t["owner"] == "ann"]
    a, b = next((x, y) for x in mine for y in mine if y in borders.get(x, []))
    pool = update["view"]["pool_left"]
    for territory, units in ((a, pool // 2), (b, pool - pool // 2)):
        await ask(ann, type="issue_order", game_id=game_id, turn=0, order=place(territory, units))
    await ask(ann, type="commit", game_id=game_id, turn=0)
    await ann.wait_for(lambda m: m["type"] == "update" and m["view"]["phase"] == "orders", timeout=WAIT)
    return game_id, ann, a, b


def place(territory: str, units: int) -> dict[str, Any]:
    return {"kind": "place", "territory": territory, "units": units}


def move(units: int, source: str, target: str) -> dict[str, Any]:
    return {"kind": "move", "units": units, "source": source, "target": target}


async def flood(ann: Client, game_id: str, a: str, b: str, messages: int = 300) -> tuple[int, int, float]:
    """`messages` issue_orders of 100 moves each, back and forth between `a` and `b` (each legal after the ones
    before it), as fast as the rate limit lets one connection: (accepted, refused, seconds)."""
    orders = [move(1, a, b), move(1, b, a)] * 50
    accepted = refused = 0
    started = time.monotonic()
    for _ in range(messages):
        reply = await ask(ann, type="issue_orders", game_id=game_id, turn=1, orders=orders)
        if reply["type"] == "orders_accepted":
            accepted += len(reply["accepted"])
            refused += len(reply["refused"])
        else:
            refused += len(orders)
    return accepted, refused, time.monotonic() - started


# ---- the attacks ----------------------------------------------------------------------------------------------------


async def others_request_ids(source: Path, folder: Path) -> Row:
    """Bob sends his requests with the ids ann's were sent with: an order, a batch, a withdrawal, a commit; then a
    join_game with the id of one of ann's orders."""
    row = Row("trust: a request id another player used")
    server = await ServerProcess(source, None).start()
    started = time.monotonic()
    lobby = await Client.connect(server.port)
    created = await ask(lobby, type="create_game", settings={"map": "seed", "players": 2, "initial_units": 9})
    game_id = created["game"]["game_id"]
    ann, bob = await Client.connect(server.port), await Client.connect(server.port)
    for client, name in ((ann, "ann"), (bob, "bob")):
        await ask(client, type="join_game", game_id=game_id, name=name)
    mine = {}
    for client, name in ((ann, "ann"), (bob, "bob")):
        update = await client.wait_for(lambda m: m["type"] == "update" and m["view"] is not None, timeout=WAIT)
        mine[name] = [t["name"] for t in update["view"]["territories"] if t["owner"] == name]
    wrong, dropped, internal = [], 0, 0
    checks: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
        (
            "issue_order",
            {"type": "issue_order", "turn": 0, "order": place(mine["ann"][0], 2)},
            {"type": "issue_order", "turn": 0, "order": place(mine["bob"][0], 4)},
        ),
        (
            "issue_orders",
            {"type": "issue_orders", "turn": 0, "orders": [place(mine["ann"][0], 1)]},
            {"type": "issue_orders", "turn": 0, "orders": [place(mine["bob"][0], 1), place(mine["bob"][0], 1)]},
        ),
        ("withdraw_order", {"type": "withdraw_order", "turn": 0, "index": 1}, {"type": "withdraw_order", "turn": 0}),
    ]
    for number, (kind, anns, bobs) in enumerate(checks):
        request_id = f"request-{number:04d}"
        first = await ask(ann, game_id=game_id, request_id=request_id, **anns)
        if kind == "withdraw_order":
            bobs = {**bobs, "index": 0}
        before = len((await ask(bob, type="list_orders", game_id=game_id))["orders"])
        second = await ask(bob, game_id=game_id, request_id=request_id, **bobs)
        after = len((await ask(bob, type="list_orders", game_id=game_id))["orders"])
        row.tries += 1
        same = {k: v for k, v in first.items() if k != "ref"} == {k: v for k, v in second.items() if k != "ref"}
        if same:
            wrong.append(kind)
        expected = {"issue_order": 1, "issue_orders": 2, "withdraw_order": -1}[kind]
        dropped += int(after - before != expected)
    for name, client in (("ann", ann), ("bob", bob)):  # every unit placed, then both commit with one id
        left = 9 - sum(o["units"] for o in (await ask(client, type="list_orders", game_id=game_id))["orders"])
        if left:
            await ask(client, type="issue_order", game_id=game_id, turn=0, order=place(mine[name][-1], left))
    first = await ask(ann, type="commit", game_id=game_id, turn=0, request_id="commit-0001")
    second = await ask(bob, type="commit", game_id=game_id, turn=0, request_id="commit-0001")
    row.tries += 1
    listed = await ask(bob, type="list_orders", game_id=game_id)  # both committed: the placement is resolved
    if first["type"] == second["type"] == "commit_accepted" and listed["turn"] == 0 and not listed["committed"]:
        wrong.append("commit")
        dropped += 1
    stranger = await Client.connect(server.port)
    reply = await ask(stranger, type="join_game", game_id=game_id, name="ann", request_id="request-0000")
    row.tries += 1
    internal += int(reply.get("code") == "internal")
    row.refused = row.tries - len(wrong) - internal
    row.changes = (
        f"{len(wrong)} of 4 of bob's requests answered with ann's answer ({', '.join(wrong) or 'none'}), "
        f"{dropped} of bob's changes dropped though he was told they were made; the join answered "
        f"{reply.get('code') or reply['type']}"
    )
    return await ended(row, started, server)


async def turn_without_bounds(source: Path, folder: Path) -> Row:
    """One player's turn of 30,000 orders (300 issue_orders of 100 moves, within the rate limit), the order list
    asked, 200 withdrawals of the first order, then the turn committed and resolved, told to a spectator."""
    row = Row("exhaustion: one player's turn of 30,000 orders, 200 withdrawals, the resolution")
    server = await ServerProcess(source, None).start()
    bystanders = await Bystanders(server.port).start()
    latency = Latency(server.port, bystanders).start()
    started = time.monotonic()
    lobby = await Client.connect(server.port)
    game_id, ann, a, b = await at_orders(server.port, lobby)
    spectator = await Client.connect(server.port)
    await ask(spectator, type="watch_game", game_id=game_id)
    await asyncio.sleep(3)
    quiet = spread(latency.requests)
    rss_before = server.rss()
    cpu = server.cpu()
    accepted, refused, seconds = await flood(ann, game_id, a, b)
    flood_cpu = server.cpu() - cpu
    listed = await ask(ann, type="list_orders", game_id=game_id)
    listed_bytes = len(json.dumps(listed))
    withdrawn = 0
    cpu = server.cpu()

    async def withdraw() -> None:
        nonlocal withdrawn
        for _ in range(200):
            reply = await ask(ann, type="withdraw_order", game_id=game_id, turn=1, index=0)
            withdrawn += int(reply["type"] == "order_withdrawn")

    during = await timed(latency, withdraw)
    withdraw_cpu = server.cpu() - cpu
    await ask(ann, type="commit", game_id=game_id, turn=1)
    resolved = await spectator.wait_for(
        lambda m: m["type"] == "update" and (m["game"] or {}).get("turn") == 2, timeout=WAIT
    )
    del resolved
    told = max(
        (len(raw) for raw in spectator.raw if '"type":"update"' in raw and f'"game_id":"{game_id}"' in raw), default=0
    )
    await asyncio.sleep(1)
    rss_after = server.rss()
    await latency.stop()
    row.tries = 30_000 + 200
    row.refused = refused + (200 - withdrawn)
    row.changes = (
        f"{accepted} orders held ({seconds:.1f} s, {flood_cpu:.1f} s of server CPU); list_orders "
        f"{listed_bytes / 1e6:.2f} MB; {withdrawn} withdrawals in {withdraw_cpu:.2f} s of server CPU; the "
        f"resolution's update to a spectator {told / 1e6:.2f} MB"
    )
    row.disturbed = f"a bystander's request: quiet {quiet}; during the withdrawals {during}"
    row.memory = f"{mib(rss_before)} before, {mib(rss_after)} after the resolution"
    await bystanders.close()
    return await ended(row, started, server)


async def replays_cycled(source: Path, folder: Path, games: int = 9, seconds: float = 30.0) -> Row:
    """Nine finished games of one turn of 30,000 orders each (as above, then a resignation), and open_replay asked
    over them in turn for 30 s, each as soon as the one before was answered: more games than the server keeps."""
    row = Row(f"exhaustion: open_replay cycled over {games} finished games of 30,000 orders a turn")
    server = await ServerProcess(source, None).start()
    bystanders = await Bystanders(server.port).start()
    latency = Latency(server.port, bystanders).start()
    started = time.monotonic()
    await asyncio.sleep(3)
    quiet = spread(latency.requests)
    lobby = await Client.connect(server.port)
    finished = []
    for _ in range(games):
        game_id, ann, a, b = await at_orders(server.port, lobby)
        await flood(ann, game_id, a, b)
        await ask(ann, type="commit", game_id=game_id, turn=1)
        await ask(ann, type="resign", game_id=game_id)
        await ann.close()
        finished.append(game_id)
    asker = await Client.connect(server.port)
    answered = refused = 0
    slowest = 0.0
    games_told: set[str] = set()
    cpu, began = server.cpu(), time.monotonic()

    async def cycle() -> None:
        nonlocal answered, refused, slowest
        index = 0
        while time.monotonic() - began < seconds:
            asked = time.monotonic()
            reply = await ask(asker, type="open_replay", game_id=finished[index % games])
            slowest = max(slowest, time.monotonic() - asked)
            if reply["type"] == "replay":
                answered += 1
                games_told.add(reply["game_id"])
            refused += int(reply["type"] == "error")
            index += 1

    during = await timed(latency, cycle)
    used = server.cpu() - cpu
    took = time.monotonic() - began
    await latency.stop()
    row.tries = answered + refused
    row.refused = refused
    row.changes = (
        f"{answered} replays answered, of {len(games_told)} games (slowest {slowest:.2f} s), server CPU "
        f"{used / took * 100:.0f} % of a core while cycled"
    )
    row.disturbed = f"a bystander's request: quiet {quiet}; while cycled {during}"
    row.memory = f"peak {mib(server.peak)}"
    await bystanders.close()
    return await ended(row, started, server)


async def crowd(port: int, addresses: int, per_address: int, lines: int) -> dict[str, Any]:
    """The lobby's crowd: `per_address` connections from each of `addresses` loopback addresses (127.0.0.2, ...) look
    at the lobby, then each says `lines` words there at once; every connection reads what the lobby says until it
    has been quiet for 3 s. What came of it: lines said, refused, and frames of the lobby's chat received."""
    said = refused = received = 0
    ready = asyncio.Event()
    joined = 0
    total = addresses * per_address
    last_heard = time.monotonic()

    async def one(address: str, number: int) -> None:
        nonlocal said, refused, received, joined, last_heard
        async with connect(f"ws://127.0.0.1:{port}", max_size=None, local_addr=(address, 0)) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION}))
            await ws.recv()
            await ws.send(json.dumps({"type": "list_games"}))
            await ws.recv()
            joined += 1
            if joined == total:
                ready.set()
            await ready.wait()
            for line in range(lines):
                await ws.send(json.dumps({"type": "chat", "name": f"p{number}", "text": f"line {line} of {number}"}))
            with contextlib.suppress(ConnectionClosed, TimeoutError):
                while True:
                    frame = await asyncio.wait_for(ws.recv(), max(0.1, 3 - (time.monotonic() - last_heard)))
                    if '"lobby_chat"' in frame:
                        received += 1
                        last_heard = time.monotonic()
                    elif '"chat_sent"' in frame:
                        said += 1
                    elif '"error"' in frame:
                        refused += 1

    await asyncio.gather(
        *(one(f"127.0.0.{2 + a}", a * per_address + c) for a in range(addresses) for c in range(per_address))
    )
    return {"said": said, "refused": refused, "received": received, "connections": total}


async def lobby_crowd(source: Path, folder: Path, addresses: int = 60, per_address: int = 4, lines: int = 5) -> Row:
    """240 connections from 60 addresses in the lobby, each saying 5 lines at once (1,200 lines), from a process of
    their own; a bystander in the lobby asks for the game list every 50 ms meanwhile."""
    row = Row(f"exhaustion: the lobby's chat, {addresses * per_address * lines:,} lines from {addresses} addresses")
    server = await ServerProcess(source, None).start()
    bystander = await Client.connect(server.port)
    await ask(bystander, type="list_games")
    times: list[float] = []
    stop = asyncio.Event()

    async def asking() -> None:
        while not stop.is_set():
            asked = time.monotonic()
            with contextlib.suppress(AssertionError):
                await ask(bystander, type="list_games", timeout=30)
                times.append(time.monotonic() - asked)
            await asyncio.sleep(0.05)

    timer = asyncio.get_running_loop().create_task(asking())
    started = time.monotonic()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bench.attack_word2",
        "crowd",
        str(server.port),
        str(addresses),
        str(per_address),
        str(lines),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await process.communicate()
    stop.set()
    await timer
    made = json.loads(out)
    row.tries = addresses * per_address * lines
    row.refused = made["refused"]
    row.changes = f"{made['said']} lines said; {made['received']:,} lobby_chat frames sent to the crowd"
    row.disturbed = f"a bystander in the lobby: {spread(times)}"
    await bystander.close()
    return await ended(row, started, server)


async def chat_words(source: Path, folder: Path) -> Row:
    """Texts that show nothing or pile marks, names that pass for the server's, and a stranger who came to a
    finished game: 150 lines to everyone in it, and private words to its players."""
    row = Row("trust: what the chat takes")
    server = await ServerProcess(source, None).start()
    started = time.monotonic()
    lobby = await Client.connect(server.port)
    await ask(lobby, type="list_games")
    taken = []
    cases: list[tuple[str, dict[str, Any]]] = [
        ("three U+3164", {"text": "\u3164\u3164\u3164", "name": "ann"}),
        ("the braille blank", {"text": "\u2800", "name": "ann"}),
        ("a letter with 299 marks", {"text": "a" + "\u0301" * 299, "name": "ann"}),
        ("the name server", {"text": "restarting", "name": "server"}),
        ("the name SERVER ANNOUNCEMENT", {"text": "send your password", "name": "SERVER ANNOUNCEMENT"}),
    ]
    for case, message in cases:
        row.tries += 1
        reply = await ask(lobby, type="chat", **message)
        if reply["type"] == "chat_sent":
            taken.append(case)
    created = await ask(lobby, type="create_game", settings={"map": "seed", "players": 2, "bots": 1})
    game_id = created["game"]["game_id"]
    ann = await Client.connect(server.port)
    await ask(ann, type="join_game", game_id=game_id, name="ann")
    await ask(ann, type="resign", game_id=game_id)
    await ann.wait_for(lambda m: m["type"] == "update" and (m["game"] or {}).get("status") == "finished", timeout=WAIT)
    kept = 0
    private = 0
    strangers = [await Client.connect(server.port, source=f"127.0.0.{2 + n}") for n in range(30)]
    for number, stranger in enumerate(strangers):  # five lines each, within one connection's pace
        await ask(stranger, type="watch_game", game_id=game_id)
        for line in range(5):
            row.tries += 1
            words: dict[str, Any] = {"to": "ann"} if line == 4 else {}
            reply = await ask(stranger, type="chat", game_id=game_id, name=f"eve{number}", text=f"x{line}", **words)
            if reply["type"] == "chat_sent":
                kept += 1
                private += int(bool(words))
    row.refused = row.tries - len(taken) - kept
    row.changes = (
        f"taken: {', '.join(taken) or 'none'}; strangers of the finished game: {kept} lines kept in its log "
        f"({private} of them private words to ann)"
    )
    return await ended(row, started, server)


async def two_hosts(source: Path, folder: Path, tries: int = 20) -> Row:
    """WebSocket handshakes with two Host headers."""
    row = Row("faults: a handshake with two Host headers")
    server = await ServerProcess(source, None).start()
    started = time.monotonic()
    statuses: dict[int, int] = {}
    for _ in range(tries):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nHost: elsewhere.example\r\n"
                f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        await writer.drain()
        head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)).decode("latin-1")
        status = int(head.split()[1])
        statuses[status] = statuses.get(status, 0) + 1
        writer.close()
    await asyncio.sleep(0.5)
    logged = server.lines("Host")
    row.tries = tries
    row.refused = sum(count for status, count in statuses.items() if 400 <= status < 500)
    row.changes = "HTTP " + ", ".join(f"{status} x{count}" for status, count in sorted(statuses.items()))
    row.notes.append(f"{logged} log lines naming Host")
    return await ended(row, started, server)


async def bounds_and_options(source: Path, folder: Path) -> Row:
    """The published schema (read by jsonschema) and the server on every bound of a client's message, at it and past
    it, on rule sets' options written as JSON would not write them, and on a misspelt field of an order."""
    row = Row("trust: bounds, options and a misspelt field, as the schema and the server judge them")
    schema = _schema_of(source)
    keywords = json.dumps(schema).count('"ge":') + json.dumps(schema).count('"le":')
    client_schema = Draft202012Validator(schema["client_to_server"])
    server = await ServerProcess(source, None).start()
    started = time.monotonic()
    differ = []
    for case, frame, _ in BOUNDS:
        row.tries += 1
        client = await Client.connect(server.port)
        reply = await ask(client, **frame)
        await client.close()
        taken = not (reply["type"] == "error" and reply["code"] == "invalid-message")
        if client_schema.is_valid(frame) != taken:
            differ.append(case)
    for number, (ruleset, options, _) in enumerate(OPTIONS):  # each from an address of its own: a game each
        row.tries += 1
        valid = Draft202012Validator(schema["rulesets"][ruleset]["options"]).is_valid(options)
        settings = {"ruleset": ruleset, "map": None if ruleset == "grid" else "twin-keeps", "players": 3}
        creator = await Client.connect(server.port, source=f"127.0.0.{10 + number}")
        reply = await ask(creator, type="create_game", settings={**settings, "options": options})
        await creator.close()
        if valid != (reply["type"] == "game_created"):
            differ.append(f"{ruleset} {json.dumps(options)}")
    client = await Client.connect(server.port)
    created = await ask(client, type="create_game", settings={"map": "seed", "players": 2, "bots": 1})
    game_id = created["game"]["game_id"]
    await ask(client, type="join_game", game_id=game_id, name="ann")
    row.tries += 1
    reply = await ask(
        client, type="issue_order", game_id=game_id, turn=0, order={"kind": "place", "territory": "Narnia", "unitz": 1}
    )
    named = reply.get("field")
    row.refused = row.tries - len(differ)
    row.changes = (
        f"{len(differ)} of {row.tries - 1} judged differently"
        + (f" ({'; '.join(differ)})" if differ else "")
        + f'; {keywords} bounds written ge/le; the misspelt field named as {named}: "{reply.get("message", "")[:60]}"'
    )
    return await ended(row, started, server)


WORD2_ATTACKS: dict[str, Callable[[Path, Path], Awaitable[Row]]] = {
    "request-ids": others_request_ids,
    "turn-bounds": turn_without_bounds,
    "replays": replays_cycled,
    "lobby-crowd": lobby_crowd,
    "chat-words": chat_words,
    "two-hosts": two_hosts,
    "bounds-options": bounds_and_options,
}


if __name__ == "__main__" and sys.argv[1:2] == ["crowd"]:
    port, addresses, per_address, lines = (int(a) for a in sys.argv[2:6])
    print(json.dumps(asyncio.run(crowd(port, addresses, per_address, lines))))
