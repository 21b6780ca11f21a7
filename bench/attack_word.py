"""Issue 27's attacks (bench/attack.py runs them with the others): games of computers alone asked for as fast as a
connection may, counting what the fog hides from the numbers one is sent, and frames the published schema and the
server judge differently. Each prints one row of docs/security.md's tables, for this checkout or for another
(`--source`), so that the figures before and after are taken the same way."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from bench.attack import Bystanders, Row, ServerProcess, mib
from tests.attack_support import in_a_process
from tests.server_support import Client
from tests.test_evolution3_wire import fogged_turn


class Latency:
    """A bystander's requests, one every `every` seconds, each timed from its sending to its answer; and new
    connections, one a second, each timed from its opening to its welcome."""

    def __init__(self, port: int, bystanders: Bystanders, every: float = 0.05) -> None:
        self.port = port
        self.bystanders = bystanders
        self.every = every
        self.requests: list[float] = []
        self.connections: list[float] = []
        self.unanswered = 0
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> Latency:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._ask()), loop.create_task(self._connect())]
        return self

    async def _ask(self) -> None:
        client, game_id = self.bystanders.clients[0], self.bystanders.game_id
        number = 0
        while True:
            number += 1
            ref = f"lat-{number}"
            asked = time.monotonic()
            await client.send(type="list_orders", game_id=game_id, ref=ref)
            try:
                await client.wait_for(lambda m, ref=ref: m.get("ref") == ref, timeout=30, from_start=True)
                self.requests.append(time.monotonic() - asked)
            except AssertionError:
                self.unanswered += 1
            await asyncio.sleep(max(0.0, self.every - (time.monotonic() - asked)))

    async def _connect(self) -> None:
        while True:
            opened = time.monotonic()
            try:
                client = await asyncio.wait_for(Client.connect(self.port), 30)
                self.connections.append(time.monotonic() - opened)
                await client.close()
            except (TimeoutError, OSError, AssertionError):
                self.unanswered += 1
            await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - opened)))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def text(self) -> str:
        def spread(times: list[float]) -> str:
            if not times:
                return "none"
            ordered = sorted(times)
            p50, p99 = ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
            return f"p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, worst {ordered[-1] * 1000:.0f} ms"

        lost = f"; {self.unanswered} unanswered" if self.unanswered else ""
        return (
            f"a request ({len(self.requests)}): {spread(self.requests)}; a new connection "
            f"({len(self.connections)}): {spread(self.connections)}{lost}"
        )


async def computer_games(source: Path, folder: Path, seconds: float = 100.0, addresses: int = 1) -> Row:
    """Games whose every seat is the server's own player, asked for as in issue 27: one connection sending a
    create_game every 12 ms, whatever the answers (from each of `addresses` loopback addresses), from a process of
    its own (tests/attack_support.py); bystanders play on, their requests and new connections timed here."""
    where = "one connection" if addresses == 1 else f"{addresses} addresses, one connection each"
    row = Row(f"exhaustion: games of computers alone, a create_game every 12 ms from {where}")
    server = await ServerProcess(source, folder / "data").start()
    bystanders = await Bystanders(server.port).start()
    latency = Latency(server.port, bystanders).start()
    cpu, started = server.cpu(), time.monotonic()
    made = await in_a_process(server.port, addresses, seconds)
    used = server.cpu() - cpu
    during = server.rss()
    await latency.stop()
    row.seconds = time.monotonic() - started
    row.tries = made["tries"]
    row.refused = sum(made["refused"].values())
    row.changes = f"{made['created']} games of computers alone created"
    row.disturbed = latency.text()
    await bystanders.close()
    await server.stop()
    row.crashes = server.crashes()
    row.memory = f"peak {mib(server.peak)}, {mib(during)} at the end"
    row.notes.append(
        f"server CPU {used / row.seconds * 100:.0f} % of one core; {server.lines(': over, ')} of the "
        "games won meanwhile; refusals: "
        + (", ".join(f"{count} {code}" for code, count in sorted(made["refused"].items())) or "none")
    )
    if made["closed"]:
        closed = made["closed"]
        row.notes.append(
            f"{len(closed)} attacking connections closed by the server ({', '.join(closed[:3])}"
            + (", ..." if len(closed) > 3 else "")
            + "), each followed by another"
        )
    return row


async def computer_games_many(source: Path, folder: Path) -> Row:
    """The same from 20 addresses at once, past every per-address limit: what the server plays is then bounded by
    its own number of games of computers alone."""
    return await computer_games(source, folder, addresses=20)


async def log_numbering(source: Path, folder: Path, moves: tuple[int, ...] = (0, 3, 6)) -> Row:
    """Under fog (RISC Evolution 3), what the numbers of ann's entries tell of bob's moves out of her sight: the same
    game played with 0, 3 and 6 such moves, and the numbers of the entries of ann's update as the turn resolves."""
    row = Row("secrecy: counting the moves made out of one's sight from the log's numbers")
    server = await ServerProcess(source, None).start()
    started = time.monotonic()
    lobby = await Client.connect(server.port)
    told = []
    for hidden in moves:
        ann, game_id, _, before = await fogged_turn(server.port, lobby, hidden)
        resolved = next(
            f
            for f in ann.frames
            if f["type"] == "update"
            and f["game_id"] == game_id
            and f["seq"] > before
            and f["events"]
            and f["game"]["turn"] == 2
        )
        numbers = [e["seq"] for e in resolved["events"]]
        told.append(
            f"{hidden} moves: the update's entries numbered {numbers[0]} to {numbers[-1]}, "
            f"{len(set(numbers))} numbers for {len(numbers)} entries, its seq {resolved['seq'] - before} past "
            "the one before"
        )
        row.tries += 1
        await ann.close()
    row.changes = "; ".join(told)
    await server.stop()
    row.seconds = time.monotonic() - started
    row.crashes = server.crashes()
    row.memory = f"peak {mib(server.peak)}"
    return row


# Frames whose verdict the published schema and the server might not share: what each says of it.
CASES: list[tuple[str, dict[str, Any] | None, str]] = [
    ("a message without its type", None, '{"game_id": "GAME", "turn": 0}'),
    ("a hello without its protocol", None, '{"type": "hello"}'),
    ("an order with a field its kind does not have", {"kind": "place", "units": 1, "colour": "red"}, ""),
    ("an order whose units are true", {"kind": "place", "units": True}, ""),
    ('an order whose units are "5"', {"kind": "place", "units": "5"}, ""),
    ('an order whose units are " 7 "', {"kind": "place", "units": " 7 "}, ""),
    ("an order whose units are 2.5", {"kind": "place", "units": 2.5}, ""),
    ("an order whose units are 2.0", {"kind": "place", "units": 2.0}, ""),
    (
        "settings naming an option beside the common fields",
        None,
        '{"type": "create_game", "settings": {"map": "seed", "players": 2, "initial_units": 8}}',
    ),
]


def _schema_of(source: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "risc", "protocol", "schema"],
        cwd=source,
        capture_output=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(source)},
    )
    schema: dict[str, Any] = json.loads(done.stdout)
    return schema


async def schema_and_server(source: Path, folder: Path) -> Row:
    """Each case, judged by the checkout's published schema (`risc protocol schema`, read by jsonschema) and by its
    server: the cases where they disagree; and what the errors of a few refused frames say."""
    row = Row("trust: frames the published schema and the server judge differently")
    schema = _schema_of(source)
    client_schema = Draft202012Validator(schema["client_to_server"])
    order_schema = Draft202012Validator(schema["rulesets"]["risc"]["order"])
    server = await ServerProcess(source, None).start()
    started = time.monotonic()
    lobby = await Client.connect(server.port)
    reply = await lobby.request(type="create_game", settings={"map": "seed", "players": 2})
    game_id = reply["game"]["game_id"]
    players = [await Client.connect(server.port) for _ in range(2)]
    for client, name in zip(players, ("ann", "bob"), strict=True):
        await client.request(type="join_game", game_id=game_id, name=name)
    ann = players[0]
    update = await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
    mine = next(t["name"] for t in update["view"]["territories"] if t["owner"] == "ann")
    differ = []
    for case, order, frame in CASES:
        row.tries += 1
        if order is not None:
            order = {**order, "territory": mine}
            valid = order_schema.is_valid(order)
            answer = await ann.request(type="issue_order", game_id=game_id, turn=0, order=order)
            taken = answer["type"] == "order_accepted"
            if taken:
                await ann.request(type="withdraw_order", game_id=game_id, turn=0, index=answer["index"])
        else:
            message = json.loads(frame.replace("GAME", game_id))
            valid = client_schema.is_valid(message)
            if message.get("type") == "hello":
                fresh = await Client.connect(server.port, hello=False)
                taken = (await fresh.request(**message))["type"] == "welcome"
            else:
                answer = await lobby.request(**message)
                taken = answer["type"] != "error"
        if valid != taken:
            differ.append(
                f"{case} ({'taken' if taken else 'refused'} by the server, "
                f"{'valid' if valid else 'invalid'} by the schema)"
            )
    row.refused = row.tries - len(differ)
    row.changes = f"{len(differ)} of {len(CASES)} judged differently" + (": " + "; ".join(differ) if differ else "")
    said = []
    for message in (
        {"type": "issue_order", "game_id": game_id, "turn": 0, "order": "attack everything"},
        {"type": "commit", "game_id": game_id, "turn": True},
        {"type": "list_games", "ref": "r" * 65},
    ):
        probe = await Client.connect(server.port)
        await probe.send(**message)
        error = await probe.wait_type("error")
        await probe.close()
        said.append(
            f"{json.dumps(message)[:60]}...: game_id {error.get('game_id') and 'given'}, field "
            f'{error.get("field")}, "{error["message"][:70]}"'
        )
    row.notes.append(" | ".join(said))
    await server.stop()
    row.seconds = time.monotonic() - started
    row.crashes = server.crashes()
    row.memory = f"peak {mib(server.peak)}"
    return row


WORD_ATTACKS: dict[str, Callable[[Path, Path], Awaitable[Row]]] = {
    "computers": computer_games,
    "computers-many": computer_games_many,
    "numbering": log_numbering,
    "schema": schema_and_server,
}
