"""Capacity: how many live games one core holds at the pace people play, and what gives out first.

Run by hand: `python bench/capacity.py [--setups sqlite,postgres,cluster] [--games 1000,2000,4000,6250,8000]
[--period 30] [--window 15] [--workers 4] [--server-cpus 0] [--client-cpus 1] [--profile-at 6250 --profile FILE]
[--code DIR] [--turns whole,apart] [--tails FILE]`.

Games of 3 players, every player a websocket connection of its own, from WORKERS client processes pinned to the
client CPUs; the servers (and PostgreSQL, where there is one) pinned to the server CPUs. Each game plays a turn every
PERIOD seconds, the games staggered over the period (game i at the fraction i times the golden ratio of it). A mix of
rule sets, one game in four each: RISC Evolution 1 and RISC Evolution 3 (fog of war) on the seed map, Warzone on the
seed map, classic Risk on the seed map played turn by turn (one player's whole turn, action by action, at each tick:
a classic round takes three periods). Each player's orders are its rule set's own computer player's (its default
strategy, on the view the server sent and the client patched), sent as a player sends them: a simultaneous turn's
orders and its commit in one `issue_orders` (`--turns apart`: the orders, then `commit`, as a client before the
whole turn in one message did); a classic action at a time, each decided on the update the last one brought. One
spectator watches every tenth game, and one lobby watcher per hundred games lists the lobby with `watch` and lists
it again every PERIOD seconds.

The number of games is ramped (each step seats the games it adds, then measures for WINDOW seconds): for each step,
the server's CPU share (of one core; for PostgreSQL setups also PostgreSQL's), CPU per resolved turn, RSS per live
game (its connections with it), from a turn's last commit to every player of the game holding the result (p50, p99,
max; one clock: a game's players live in one process), the longest event-loop pause (a monitor that wakes every
20 ms, in the server's process) and the longest garbage-collector pause (gc.callbacks), the collector's CPU time a
turn (its pauses' wall time counts whatever else the machine ran meanwhile), the most objects one walk of the oldest
generation went over, the server's open file descriptors. After the last step, the collector's whole walk
(server/collector.py) is timed once over everything the server then holds, and what it frees counted. A handshake
the server drops is tried again (a player would), and counted. The knee: the most games held with a p99 under 250 ms
and under 0.8 of the core; a setup's ramp stops at the first step past it with its core spent (0.8 or more), so that
the bench ends in minutes.

Three setups: one process on SQLite (a fresh data directory), one node on PostgreSQL (a throwaway one of the bench's
own, as bench/cluster.py starts it, its CPU counted and pinned with the node), two nodes on PostgreSQL (game i played
by node i mod 2, its players joining there). The bench raises its own open-files limit and the servers' as far as
it may (a process without privileges to its hard limit), starts every process itself and ends it. A step whose
connections a server has no room for under that limit (server/frontier/room.py: the limit less a reserve for its
store) is not tried, and the table says so: the server would refuse them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import gc
import json
import multiprocessing as mp
import os
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from bench.players import merge
from bench.server_load import ROOT, run_on
from server.frontier.room import room_for
from shared.protocol.codes import PROTOCOL_VERSION

Message = dict[str, Any]
PLAYERS = 3
GOLDEN = 0.6180339887498949
OPEN_FILES = 65536
"""What the bench raises every process's open-files limit to (soft and hard: root may raise the hard one)."""
KINDS: dict[str, Message] = {
    "risc1": {"ruleset": "risc", "map": "seed", "players": PLAYERS, "options": {"evolution": 1}},
    "risc3": {"ruleset": "risc", "map": "seed", "players": PLAYERS, "options": {"evolution": 3}},
    "warzone": {"ruleset": "warzone", "map": "seed", "players": PLAYERS},
    "classic": {"ruleset": "classic", "map": "seed", "players": PLAYERS},
}
"""The games of the mix: game i is of kind i mod 4."""
SEATING_AT_ONCE = 8
"""Games each client process seats at a time (more only queued handshakes at a busy server)."""
OPEN_ATTEMPTS = 4
"""How often a player tries to open its connection before the bench gives up on the step."""
KNEE_P99_MS = 250.0
KNEE_BUSY = 0.8


def connections_for(games: int) -> int:
    """The connections `games` games of the bench hold: their players, a spectator every tenth game, and a lobby
    watcher every hundred."""
    return games * PLAYERS + (games + 9) // 10 + games // 100


def raise_open_files(to: int = OPEN_FILES) -> None:
    """Raise this process's open-files limit: to `to` (hard limit too) where it may, else to its hard limit."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (to, max(to, hard)))
    except (ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# ---- the server's process: a server alone or a node, with a lag monitor and the collector's pauses ----------------


STALL_SECONDS = 0.02
"""A pause of the event loop or the collector longer than this is told with its time (`--tails`)."""
STALL_STACKS = "RISC_BENCH_STALL_STACKS"
"""Set in the environment (by `--tails`), the servers sample where their event loop is while it stalls."""


@dataclass
class Pauses:
    """The longest stall of the event loop and of the garbage collector since the last report."""

    lag: float = 0.0
    collector: float = 0.0
    collector_total: float = 0.0
    collector_cpu: float = 0.0
    """The collector's CPU time (its pauses' wall time counts the other processes that ran meanwhile too)."""
    collections: int = 0
    by_generation: dict[int, list[float]] = field(default_factory=dict)
    """For each generation collected: how many times, and its longest pause."""
    walked: int = 0
    """The most objects a collection of the oldest generation went over (the frozen ones are not walked)."""
    store: Any = None
    """The server's store: its transactions are counted."""
    keepalive: Any = None
    """The server's keepalive (server/frontier/keepalive.py), where it has one: its pings are counted."""
    stalls: list[tuple[float, float, str]] = field(default_factory=list)
    """The stalls past STALL_SECONDS since the last report: when each began (the monotonic clock, which every
    process of this host shares), how long it took, and what it was ("loop", or "gc" with its generation)."""
    beat: float = 0.0
    """When the lag monitor is due to wake next (the monotonic clock)."""
    stacks: dict[str, int] = field(default_factory=dict)
    """Where the event loop's thread was while the loop stalled (`sample_stalls`): a stack, innermost last, and the
    times it was seen there."""
    _gc_started: float = 0.0
    _gc_started_cpu: float = 0.0

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            if info["generation"] == 2:  # counted before the clocks start: what a walk goes over
                self.walked = max(self.walked, sum(len(gc.get_objects(g)) for g in range(3)))
            self._gc_started = time.perf_counter()
            self._gc_started_cpu = time.thread_time()
        else:
            took = time.perf_counter() - self._gc_started
            self.collector = max(self.collector, took)
            self.collector_total += took
            self.collector_cpu += time.thread_time() - self._gc_started_cpu
            self.collections += 1
            if took > STALL_SECONDS:
                self.stalls.append((time.monotonic() - took, took, f"gc{info['generation']}"))
            seen = self.by_generation.setdefault(info["generation"], [0, 0.0])
            seen[0] += 1
            seen[1] = max(seen[1], took)

    async def watch_loop(self, every: float = 0.02) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + every
            self.beat = time.monotonic() + every
            await asyncio.sleep(every)
            late = loop.time() - due
            self.lag = max(self.lag, late)
            if late > STALL_SECONDS:
                self.stalls.append((time.monotonic() - late, late, "loop"))

    def sample_stalls(self, thread_id: int, every: float = 0.005) -> None:
        """In a thread of its own (`--tails`): while the event loop is late past STALL_SECONDS, where its thread is,
        every `every` seconds (a pure-Python callback gives the GIL up every 5 ms; a collection holds it to its end,
        and is told apart by gc.callbacks)."""
        while True:
            time.sleep(every)
            if self.beat and time.monotonic() - self.beat > STALL_SECONDS:
                frame = sys._current_frames().get(thread_id)
                names: list[str] = []
                while frame is not None and len(names) < 12:
                    code = frame.f_code
                    names.append(f"{code.co_name} ({Path(code.co_filename).name}:{frame.f_lineno})")
                    frame = frame.f_back
                key = ";".join(reversed(names))
                self.stacks[key] = self.stacks.get(key, 0) + 1

    def report(self) -> None:
        """One JSON line on stdout (the bench asks with SIGUSR1), then the maxima start again."""
        print(
            json.dumps(
                {
                    "lag": self.lag,
                    "gc": self.collector,
                    "gc_total": self.collector_total,
                    "gc_cpu": self.collector_cpu,
                    "collections": self.collections,
                    "generations": self.by_generation,
                    "tracked": len(gc.get_objects()),
                    "walked": self.walked,
                    "transactions": getattr(self.store, "transactions", 0),
                    "pings": getattr(self.keepalive, "pings", None),
                    "stalls": self.stalls,
                    "stacks": self.stacks,
                }
            ),
            flush=True,
        )
        self.lag = self.collector = self.collector_total = self.collector_cpu = 0.0
        self.collections = self.walked = 0
        self.by_generation = {}
        self.stalls = []
        self.stacks = {}


def census() -> None:
    """The kinds of object the collector tracks, most first, on stderr (SIGUSR2): what a full collection walks."""
    counts: dict[str, int] = {}
    for thing in gc.get_objects():
        kind = type(thing)
        name = f"{kind.__module__}.{kind.__qualname__}"
        counts[name] = counts.get(name, 0) + 1
    ranked = sorted(counts.items(), key=lambda item: -item[1])
    print(f"census: {sum(counts.values()):,} objects tracked", file=sys.stderr)
    for name, count in ranked[:40]:
        print(f"  {count:>10,} {name}", file=sys.stderr, flush=True)


def whole_walk() -> None:
    """One whole collection, everything thawed first (what the server's rare whole walk does, server/collector.py),
    timed, with the unreachable objects it found and the cycles they were in (tests/cycles_support.py names them):
    one JSON line on stdout (the bench asks with SIGHUP). What it found is kept aside while it is named (the
    collector's DEBUG_SAVEALL), then freed."""
    gc.unfreeze()
    objects = len(gc.get_objects())
    gc.set_debug(gc.DEBUG_SAVEALL)
    started, started_cpu = time.perf_counter(), time.thread_time()
    found = gc.collect()
    took, took_cpu = time.perf_counter() - started, time.thread_time() - started_cpu
    gc.set_debug(0)
    named = ""
    try:
        from tests.cycles_support import census as named_census
        from tests.cycles_support import said
    except ImportError:  # a checkout from before it
        pass
    else:
        named = said(named_census(list(gc.garbage)), cycles=6, kinds=6) if gc.garbage else ""
    gc.garbage.clear()
    gc.collect()
    gc.freeze()
    print(
        json.dumps({"seconds": took, "cpu": took_cpu, "objects": objects, "found": found, "named": named}),
        flush=True,
    )


async def _serve(data_dir: Path | None, store: str | None, node_id: str | None) -> None:
    from server.app import RiscServer, settle_collector
    from server.config import ServerConfig

    raise_open_files()
    config = ServerConfig(
        host="127.0.0.1",
        port=0,
        data_dir=data_dir,
        max_games=100_000,  # an operator's setting: the default (500) is a small server's; every other limit kept
        connections_per_address=None,  # every player of the bench comes from this one address
        store=store,
        node_id=node_id,
        fence_after=60.0,
    )
    pauses = Pauses()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    loop.add_signal_handler(signal.SIGUSR1, pauses.report)
    loop.add_signal_handler(signal.SIGUSR2, census)
    loop.add_signal_handler(signal.SIGHUP, whole_walk)
    async with RiscServer(config) as server:
        pauses.store = server.storage
        pauses.keepalive = getattr(server.transport, "keepalive", None)
        settle_collector()
        gc.callbacks.append(pauses.on_gc)
        watcher = loop.create_task(pauses.watch_loop())
        if os.environ.get(STALL_STACKS):
            threading.Thread(target=pauses.sample_stalls, args=(threading.get_ident(),), daemon=True).start()
        print(f"PORT {server.port}", flush=True)
        await stop.wait()
        watcher.cancel()


@dataclass
class Server:
    """A server's (or node's) process, pinned; its CPU time, RSS, open files and pauses read from outside."""

    process: subprocess.Popen[str]
    port: int

    @classmethod
    def start(cls, argv: list[str], code: Path, cpus: set[int] | None, log: Path) -> Server:
        """This bench's server process, on the server of checkout `code`."""
        with log.open("a") as stderr:
            process = subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), *argv, "--code", str(code)],
                cwd=code,
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
            )
        if cpus:
            os.sched_setaffinity(process.pid, cpus)
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith("PORT "):
            process.kill()
            raise RuntimeError(f"the server did not start: {line!r} (its log: {log})")
        return cls(process, int(line.split()[1]))

    def cpu_seconds(self) -> float:
        return _cpu_of(self.process.pid)

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def open_files(self) -> int:
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def pauses(self) -> Message:
        assert self.process.stdout is not None
        self.process.send_signal(signal.SIGUSR1)
        return dict(json.loads(self.process.stdout.readline()))

    def whole_walk(self) -> Message:
        """Time the server's hourly walk over everything it holds (one, now)."""
        assert self.process.stdout is not None
        self.process.send_signal(signal.SIGHUP)
        return dict(json.loads(self.process.stdout.readline()))

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()


def _cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ---- the players: a client process ------------------------------------------------------------------------------


@dataclass
class Connection:
    """One websocket of a client process: its replies paired by ref, and what it follows of one game."""

    ws: ClientConnection
    game: GamePlayed | None = None
    name: str | None = None
    view: Message | None = None
    summary: Message | None = None
    step: int = -1
    pending: dict[str, asyncio.Future[Message]] = field(default_factory=dict)
    refs: int = 0

    async def request(self, message: Message) -> Message:
        self.refs += 1
        ref = str(self.refs)
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self.pending[ref] = future
        await self.ws.send(orjson.dumps({**message, "ref": ref}).decode())
        return await asyncio.wait_for(future, 60)

    async def read(self, tally: Tally) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for frame in self.ws:
                tally.frames += 1
                message: Message = orjson.loads(frame)
                kind = message["type"]
                ref = message.get("ref")
                if ref is not None and ref in self.pending:
                    waiting = self.pending.pop(ref)
                    if not waiting.done():  # else given up on (60 s): the request counts as lost
                        waiting.set_result(message)
                    if kind == "error":
                        tally.errors += 1
                    continue
                if kind == "update":
                    self.take_update(message)
                elif kind == "game_map" and self.game is not None and self.game.game_map is None:
                    from shared.maps.codec import map_from_dict

                    self.game.game_map = map_from_dict(message["map"])
                elif kind == "error":
                    tally.errors += 1

    def take_update(self, message: Message) -> None:
        from shared.protocol.patch import seats_keyed

        if message.get("game") is not None:
            self.summary = seats_keyed(message["game"])
        elif message.get("game_patch") is not None and self.summary is not None:
            merge(self.summary, message["game_patch"])
        if message.get("view") is not None:
            self.view = message["view"]
        elif message.get("view_patch") is not None and self.view is not None:
            merge(self.view, message["view_patch"])
        if self.summary is not None and self.summary.get("step", 0) > self.step:
            self.step = self.summary["step"]
            if self.game is not None:
                self.game.moved(self)

    def seat(self) -> Message | None:
        if self.summary is None:
            return None
        for seat in self.summary.get("seats", {}).values():
            if seat is not None and seat.get("name") == self.name:
                return dict(seat)
        return None


@dataclass
class Tally:
    frames: int = 0
    errors: int = 0
    refused: int = 0
    turns: int = 0
    lost: int = 0
    """Turns whose result did not reach every player within the period."""
    finished: int = 0
    latencies: list[float] = field(default_factory=list)
    last_commits: list[tuple[float, str]] = field(default_factory=list)
    """When each measured turn's last commit was sent (the monotonic clock) and its game's rule set, beside its
    latency."""
    decide_seconds: float = 0.0


@dataclass
class GamePlayed:
    index: int
    kind: str
    offset: float
    game_id: str = ""
    seats: list[Connection] = field(default_factory=list)
    game_map: Any = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    finished: bool = False

    def moved(self, connection: Connection) -> None:
        self.changed.set()

    def steps(self) -> list[int]:
        return [seat.step for seat in self.seats]

    async def all_past(self, step: int, timeout: float) -> float | None:
        """When the last of the players got past `step` (time.monotonic), or None after `timeout`."""
        deadline = time.monotonic() + timeout
        while min(self.steps()) <= step:
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return time.monotonic()


class Players:
    """Every game of one client process, and the loop that plays them at the pace set."""

    def __init__(self, ports: list[int], period: float, whole_turns: bool = True) -> None:
        from shared.bots.tournament import make_strategy
        from shared.rulesets import game_ruleset

        self.ports = ports
        self.period = period
        self.whole_turns = whole_turns
        self.tally = Tally()
        self.counting_from = 0.0
        self.games: list[GamePlayed] = []
        self.extra: list[Connection] = []
        self.rng = random.Random(1)
        self.rulesets = {
            kind: game_ruleset(settings["ruleset"], settings.get("options", {}))[0] for kind, settings in KINDS.items()
        }
        self.strategies = {
            kind: make_strategy(ruleset, ruleset.default_strategy) for kind, ruleset in self.rulesets.items()
        }
        self.start = time.monotonic()
        self.tasks: set[asyncio.Task[None]] = set()
        self.watchers = 0
        self.reopened = 0
        """Handshakes the server dropped, tried again."""

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _open(self, port: int, number: int) -> Connection:
        """A connection that said hello, from loopback address `number` of its own: players come from addresses
        of their own, which the server's limits by address count."""
        address = f"127.{1 + number // 62_500}.{number // 250 % 250 + 1}.{number % 250 + 1}"
        for attempt in range(OPEN_ATTEMPTS):  # a busy server may drop a handshake: a player tries again
            try:
                ws = await connect(
                    f"ws://127.0.0.1:{port}",
                    max_size=None,
                    ping_interval=None,
                    compression=None,
                    local_addr=(address, 0),
                    open_timeout=20,
                )
                break
            except (OSError, InvalidHandshake, TimeoutError):
                if attempt == OPEN_ATTEMPTS - 1:
                    raise
                self.reopened += 1
                await asyncio.sleep(0.5 * (attempt + 1))
        await ws.send(orjson.dumps({"type": "hello", "protocol": PROTOCOL_VERSION}).decode())
        welcome = orjson.loads(await ws.recv())
        assert welcome["type"] == "welcome", welcome
        connection = Connection(ws)
        self._spawn(connection.read(self.tally))
        return connection

    async def seat(self, indices: list[int], watchers: int) -> None:
        """Seat the games numbered, a few at a time, and start each one's clock; add `watchers` lobby watchers."""
        gate = asyncio.Semaphore(SEATING_AT_ONCE)

        async def one(index: int) -> None:
            async with gate:
                await self._seat_game(index)

        await asyncio.gather(*(one(i) for i in indices))
        for _ in range(watchers):
            w = self.watchers = self.watchers + 1
            connection = await self._open(self.ports[w % len(self.ports)], 4_000_000 + w)
            self.extra.append(connection)
            self._spawn(self._watch_lobby(connection, w))

    async def _seat_game(self, index: int) -> None:
        kind = list(KINDS)[index % len(KINDS)]
        game = GamePlayed(index, kind, (index * GOLDEN) % 1.0 * self.period)
        port = self.ports[index % len(self.ports)]
        game.seats = [await self._open(port, index * 4 + seat) for seat in range(PLAYERS)]
        created = await game.seats[0].request({"type": "create_game", "settings": KINDS[kind]})
        assert created["type"] == "game_created", created
        game.game_id = created["game"]["game_id"]
        for seat, connection in enumerate(game.seats):
            connection.game = game
            joined = await connection.request(
                {"type": "join_game", "game_id": game.game_id, "name": f"g{index}p{seat}"}
            )
            assert joined["type"] == "joined", joined
            connection.name = joined["player"]
        if index % 10 == 0:
            spectator = await self._open(port, index * 4 + 3)
            watching = await spectator.request({"type": "watch_game", "game_id": game.game_id})
            assert watching["type"] == "watching", watching
            self.extra.append(spectator)
        self.games.append(game)
        self._spawn(self._drive(game))

    async def _watch_lobby(self, connection: Connection, number: int) -> None:
        """A lobby on screen: listed with `watch`, listed again every period."""
        await asyncio.sleep((number * GOLDEN) % 1.0 * self.period)
        while True:
            await connection.request({"type": "list_games", "watch": True, "limit": 50})
            await asyncio.sleep(self.period)

    async def _drive(self, game: GamePlayed) -> None:
        """A turn at each tick of the game's clock, for as long as the game lasts."""
        tick = self.start + game.offset
        while tick < time.monotonic():
            tick += self.period
        while not game.finished:
            await asyncio.sleep(max(0.0, tick - time.monotonic()))
            tick += self.period
            try:
                await self._turn(game)
            except (ConnectionClosed, TimeoutError, AssertionError):
                self.tally.lost += 1

    async def _turn(self, game: GamePlayed) -> None:
        ruleset = self.rulesets[game.kind]
        first = game.seats[0]
        if first.summary is None or first.summary.get("status") == "finished":
            game.finished = first.summary is not None
            if game.finished:
                self.tally.finished += 1
            return
        awaited = [c for c in game.seats if (c.seat() or {}).get("awaited")]
        if not awaited:
            return
        if ruleset.simultaneous:
            step = min(game.steps())
            sent = await asyncio.gather(*(self._simultaneous(game, c) for c in awaited))
            last_commit = max(sent)
        else:
            step, last_commit = await self._turn_by_turn(game, awaited[0])
        arrived = await game.all_past(step, self.period)
        if last_commit < self.counting_from:
            return  # begun before the window: counted in none
        if arrived is None:
            self.tally.lost += 1
        else:
            self.tally.turns += 1
            self.tally.latencies.append((arrived - last_commit) * 1000)
            self.tally.last_commits.append((last_commit, game.kind))

    def _decide(self, game: GamePlayed, connection: Connection) -> list[Message]:
        ruleset = self.rulesets[game.kind]
        started = time.process_time()
        view = ruleset.load_view(connection.view)
        orders = self.strategies[game.kind].decide(view, game.game_map, connection.name or "", self.rng)
        self.tally.decide_seconds += time.process_time() - started
        return [ruleset.dump_order(o) for o in orders]

    async def _simultaneous(self, game: GamePlayed, connection: Connection) -> float:
        """A player's turn: its orders and its commit in one message (or the orders, then the commit, apart); when
        the commit went."""
        turn = connection.summary["turn"] if connection.summary is not None else 0
        orders = self._decide(game, connection)[:100]
        if orders and self.whole_turns:
            sent = time.monotonic()
            answer = await connection.request(
                {"type": "issue_orders", "game_id": game.game_id, "turn": turn, "orders": orders, "commit": True}
            )
            if answer["type"] != "orders_accepted" or answer["refused"] or not answer["committed"]:
                self.tally.refused += 1
            return sent
        if orders:
            answer = await connection.request(
                {"type": "issue_orders", "game_id": game.game_id, "turn": turn, "orders": orders}
            )
            if answer["type"] != "orders_accepted" or answer["refused"]:
                self.tally.refused += 1
        sent = time.monotonic()
        answer = await connection.request({"type": "commit", "game_id": game.game_id, "turn": turn})
        if answer["type"] != "commit_accepted":
            self.tally.refused += 1
        return sent

    async def _turn_by_turn(self, game: GamePlayed, connection: Connection) -> tuple[int, float]:
        """The player's whole turn, an action at a time, each decided on the update the one before brought: the step
        before its last action, and when that action went."""
        step, sent = min(game.steps()), time.monotonic()
        for _ in range(200):
            seat = connection.seat() or {}
            if not seat.get("awaited") or (connection.summary or {}).get("status") == "finished":
                break
            orders = self._decide(game, connection)[:1]
            if not orders:
                break
            step, sent = min(game.steps()), time.monotonic()
            turn = connection.summary["turn"] if connection.summary is not None else 0
            answer = await connection.request(
                {"type": "issue_order", "game_id": game.game_id, "turn": turn, "order": orders[0]}
            )
            if answer["type"] != "order_accepted":
                self.tally.refused += 1
                break
            if await game.all_past(step, self.period) is None:
                break
        return step, sent

    def take_tally(self, counting_from: float = 0.0) -> Tally:
        """The turns counted so far; from now on, those whose last commit comes after `counting_from` (the
        monotonic clock)."""
        taken, self.tally, self.counting_from = self.tally, Tally(), counting_from
        return taken

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for connection in [c for g in self.games for c in g.seats] + self.extra:
            with contextlib.suppress(Exception):
                await connection.ws.close()


async def _client(ports: list[int], period: float, whole_turns: bool, pipe: Any) -> None:
    raise_open_files()
    gc.freeze()
    players = Players(ports, period, whole_turns)
    loop = asyncio.get_running_loop()
    pauses = Pauses()  # the players' own stalls: a turn's result read late by them is counted late
    gc.callbacks.append(pauses.on_gc)
    watcher = loop.create_task(pauses.watch_loop())
    while True:
        command, argument = await loop.run_in_executor(None, pipe.recv)
        if command == "seat":
            indices, watchers = argument
            started = time.monotonic()
            try:
                await players.seat(indices, watchers)
                pipe.send(("seated", (time.monotonic() - started, players.reopened)))
            except Exception as exc:  # told to the bench, which stops
                pipe.send(("failed", repr(exc)))
        elif command == "window":
            # No collection of the players' own while a step is measured: a whole one over what 1,500 games' players
            # hold stalled a client process for a second, and its players read their results that much late (the
            # server's p99 and max told it). What the seating left is frozen first, without a collection (which
            # would stall every client process at once, and send the servers a second's turns together).
            gc.freeze()
            gc.disable()
            await asyncio.sleep(2.0)  # what the seating left under way settles before the step starts
            players.take_tally(counting_from=time.monotonic())
            pauses.stalls = []
            pipe.send(("window", time.process_time()))
        elif command == "collect":
            tally = players.take_tally()
            gc.enable()
            stalls, pauses.stalls = pauses.stalls, []
            pipe.send(("collected", {**vars(tally), "cpu": time.process_time(), "stalls": stalls}))
        elif command == "stop":
            watcher.cancel()
            await players.close()
            pipe.send(("stopped", None))
            return


def _client_main(cpus: set[int] | None, ports: list[int], period: float, whole_turns: bool, pipe: Any) -> None:
    if cpus:
        os.sched_setaffinity(0, cpus)
    run_on("auto", _client(ports, period, whole_turns, pipe))


# ---- the bench ------------------------------------------------------------------------------------------------------


@dataclass
class Step:
    setup: str
    games: int
    connections: int
    seat_seconds: float
    window: float
    server_busy: float
    database_busy: float
    cpu_ms_per_turn: float
    turns: int
    lost: int
    finished: int
    refused: int
    errors: int
    p50: float
    p99: float
    worst: float
    rss_mb: float
    kb_per_game: float
    lag_ms: float
    gc_ms: float
    gc_total_ms: float
    gc_cpu_ms_per_turn: float
    """The collector's CPU time over the window, a turn."""
    open_files: int
    clients_busy: float
    decide_ms: float
    generations: str = ""
    """Collections of each generation in the window, and the longest of each."""
    tracked: int = 0
    """The objects the collector tracks (outside its permanent generation), at the window's end."""
    walked: int = 0
    """The most objects one collection of the oldest generation went over."""
    commits_per_turn: float = 0.0
    """The store's transactions (SQLite's or PostgreSQL's commits, every server's) a resolved turn."""
    reopened: int = 0
    """Handshakes the server dropped while the games were seated (so far), each tried again."""
    pings_per_second: float | None = None
    """Keepalive pings the servers sent a second (None: a server whose pings the WebSocket library sends)."""

    @property
    def held(self) -> bool:
        return self.p99 < KNEE_P99_MS and self.server_busy + self.database_busy < KNEE_BUSY and not self.lost


@dataclass
class Options:
    steps: list[int]
    period: float
    window: float
    workers: int
    server_cpus: set[int] | None
    client_cpus: set[int] | None
    logs: Path
    profile_at: int | None = None
    profile: Path | None = None
    whole_turns: bool = True
    """A simultaneous turn's orders and commit in one message, or apart (`--turns`)."""
    tails: Path | None = None
    """Where each step's turns, stalls and disk flushes are appended as a JSON line (`--tails`)."""


def run_setup(name: str, label: str, code: Path, options: Options) -> list[Step]:
    postgres = None
    servers: list[Server] = []
    log = options.logs / f"{name}.log"
    cpus = options.server_cpus
    try:
        with tempfile.TemporaryDirectory(prefix="risc-capacity-") as data_dir:
            if name == "sqlite":
                servers = [Server.start(["--serve", "--data-dir", data_dir], code, cpus, log)]
            else:
                from bench.cluster import own_postgres

                postgres = own_postgres(options.server_cpus)
                dsn = postgres.fresh()
                count = 2 if name == "cluster" else 1
                servers = [
                    Server.start(["--serve", "--store", dsn, "--node-id", f"node-{i + 1}"], code, cpus, log)
                    for i in range(count)
                ]
            return _ramp(label, servers, postgres, options)
    finally:
        for server in servers:
            server.stop()
        if postgres is not None and postgres.cluster is not None:
            postgres.cluster.stop()


def _ramp(name: str, servers: list[Server], postgres: Any, options: Options) -> list[Step]:
    ctx = mp.get_context("spawn")
    pipes, processes = [], []
    ports = [s.port for s in servers]
    for _ in range(options.workers):
        here, there = ctx.Pipe()
        process = ctx.Process(
            target=_client_main, args=(options.client_cpus, ports, options.period, options.whole_turns, there)
        )
        process.start()
        pipes.append(here)
        processes.append(process)
    steps: list[Step] = []
    seated = 0
    try:
        open_files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]  # the servers' own: they inherit this process's
        for target in options.steps:
            needed = -(-connections_for(target) // len(servers))
            if needed > room_for(open_files):
                print(
                    f"| {name} | {target:,} | not tried: {needed:,} connections a server, past the "
                    f"{room_for(open_files):,} its open-files limit ({open_files:,}) leaves room for "
                    "(server/frontier/room.py) |",
                    flush=True,
                )
                break
            started = time.monotonic()
            added = list(range(seated, target))
            watchers = max(0, target // 100 - seated // 100)
            for w, pipe in enumerate(pipes):
                mine = [i for i in added if i % options.workers == w]
                pipe.send(("seat", (mine, watchers // options.workers + (w < watchers % options.workers))))
            answers = [pipe.recv() for pipe in pipes]
            failed = [detail for answer, detail in answers if answer != "seated"]
            if failed:
                print(f"| {name} | {target:,} | could not be seated: {failed[0]} |", flush=True)
                break
            seat_seconds = time.monotonic() - started
            seated = target
            steps.append(_window(name, target, servers, postgres, pipes, options, seat_seconds))
            steps[-1].reopened = sum(detail[1] for _, detail in answers)
            print(_row(steps[-1]), flush=True)
            last = steps[-1]
            if last.lost > last.turns or (not last.held and last.server_busy + last.database_busy >= KNEE_BUSY):
                break  # the server no longer keeps up, or its core is spent: the steps above would only say so again
        if steps:
            walk = servers[0].whole_walk()
            print(
                f"({name}, {seated:,} games: the collector's whole walk took {walk['seconds'] * 1000:,.0f} ms "
                f"({walk['cpu'] * 1000:,.0f} ms of CPU) over {walk['objects']:,} objects, "
                f"{walk['found']:,} of them unreachable)",
                flush=True,
            )
            if walk.get("named"):
                print("  " + walk["named"].replace("\n", "\n  "), flush=True)
    finally:
        for pipe in pipes:
            with contextlib.suppress(Exception):
                pipe.send(("stop", None))
                pipe.recv()
        for process in processes:
            process.join(30)
            if process.is_alive():
                process.kill()
    return steps


class DiskProbe:
    """How long the disk the stores write to takes to flush, while a step is measured (`--tails`): a thread writes a
    block to a file beside theirs (the temporary directory) and fsyncs it every 20 ms, as a store's commit does."""

    def __init__(self, every: float = 0.02) -> None:
        self.flushes: list[tuple[float, float]] = []
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(every,), daemon=True)
        self._thread.start()

    def _run(self, every: float) -> None:
        with tempfile.NamedTemporaryFile(prefix="risc-capacity-probe-") as file:
            block = b"x" * 4096
            while not self._stopping.wait(every):
                file.seek(0)
                file.write(block)
                file.flush()
                began = time.monotonic()
                os.fsync(file.fileno())
                self.flushes.append((began, time.monotonic() - began))

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join()

    def report(self) -> dict[str, Any]:
        """The flushes' median and longest, and every one past STALL_SECONDS with when it began."""
        took = sorted(d for _, d in self.flushes)
        return {
            "count": len(took),
            "median": statistics.median(took) if took else None,
            "longest": took[-1] if took else None,
            "slow": [(at, d) for at, d in self.flushes if d > STALL_SECONDS],
        }


def _window(
    name: str,
    games: int,
    servers: list[Server],
    postgres: Any,
    pipes: list[Any],
    options: Options,
    seat_seconds: float,
) -> Step:
    for pipe in pipes:
        pipe.send(("window", None))
    client_cpu0 = sum(pipe.recv()[1] for pipe in pipes)
    # asked now, so that the seating's pauses are not the window's
    before = [server.pauses() for server in servers]
    transactions0 = sum(p["transactions"] for p in before)
    pings0 = [p.get("pings") for p in before]
    cpu0 = sum(s.cpu_seconds() for s in servers)
    db0 = postgres.cpu_seconds() if postgres is not None else 0.0
    spy = None
    if options.profile is not None and options.profile_at == games:
        spy = subprocess.Popen(
            [
                shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy")),
                "record",
                "--pid",
                str(servers[0].process.pid),
                "--output",
                str(options.profile.with_suffix(f".{name}.{games}.txt")),
                "--format",
                "raw",
                "--duration",
                str(int(options.window)),
                "--rate",
                "100",
                "--nonblocking",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    probe = DiskProbe() if options.tails is not None else None
    started = time.monotonic()
    time.sleep(options.window)
    elapsed = time.monotonic() - started
    if probe is not None:
        probe.stop()
    cpu = sum(s.cpu_seconds() for s in servers) - cpu0
    db = (postgres.cpu_seconds() - db0) if postgres is not None else 0.0
    pauses = [s.pauses() for s in servers]
    rss = sum(s.rss_mb() for s in servers)
    files = sum(s.open_files() for s in servers)
    tallies = []
    for pipe in pipes:
        pipe.send(("collect", None))
    for pipe in pipes:
        tallies.append(pipe.recv()[1])
    if spy is not None:
        spy.wait(60)
    latencies = sorted(x for t in tallies for x in t["latencies"])
    if options.tails is not None and probe is not None:
        with options.tails.open("a") as out:
            turns_at = sorted(
                (at, ms, kind, worker)
                for worker, t in enumerate(tallies)
                for (at, kind), ms in zip(t["last_commits"], t["latencies"], strict=True)
            )
            stalls = sorted(tuple(x) for p in pauses for x in p["stalls"])
            stacks: dict[str, int] = {}
            for p in pauses:
                for stack, seen in p["stacks"].items():
                    stacks[stack] = stacks.get(stack, 0) + seen
            out.write(
                json.dumps(
                    {
                        "setup": name,
                        "games": games,
                        "epoch": time.time() - time.monotonic(),  # the wall clock's, for other logs
                        "turns": turns_at,
                        "stalls": stalls,
                        "players_stalls": [t["stalls"] for t in tallies],
                        "stacks": stacks,
                        "flushes": probe.report(),
                    }
                )
                + "\n"
            )
    turns = sum(t["turns"] for t in tallies)
    connections = games * PLAYERS + (games + 9) // 10 + games // 100
    return Step(
        setup=name,
        games=games,
        connections=connections,
        seat_seconds=seat_seconds,
        window=elapsed,
        server_busy=cpu / elapsed,
        database_busy=db / elapsed,
        cpu_ms_per_turn=(cpu + db) * 1000 / max(1, turns),
        turns=turns,
        lost=sum(t["lost"] for t in tallies),
        finished=sum(t["finished"] for t in tallies),
        refused=sum(t["refused"] for t in tallies),
        errors=sum(t["errors"] for t in tallies),
        p50=statistics.median(latencies) if latencies else float("nan"),
        p99=latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else float("nan"),
        worst=latencies[-1] if latencies else float("nan"),
        rss_mb=rss,
        kb_per_game=rss * 1024 / games,
        lag_ms=max(p["lag"] for p in pauses) * 1000,
        gc_ms=max(p["gc"] for p in pauses) * 1000,
        gc_total_ms=sum(p["gc_total"] for p in pauses) * 1000,
        gc_cpu_ms_per_turn=sum(p["gc_cpu"] for p in pauses) * 1000 / max(1, turns),
        open_files=files,
        clients_busy=(sum(t["cpu"] for t in tallies) - client_cpu0) / elapsed,
        decide_ms=sum(t["decide_seconds"] for t in tallies) * 1000 / max(1, turns),
        generations=" ".join(
            f"g{g}: {n} ≤{most * 1000:.0f}" for p in pauses[:1] for g, (n, most) in sorted(p["generations"].items())
        ),
        tracked=sum(p["tracked"] for p in pauses),
        walked=max(p["walked"] for p in pauses),
        commits_per_turn=(sum(p["transactions"] for p in pauses) - transactions0) / max(1, turns),
        pings_per_second=None
        if None in pings0 or any(p.get("pings") is None for p in pauses)
        else (sum(p["pings"] for p in pauses) - sum(p or 0 for p in pings0)) / elapsed,
    )


HEADER = (
    "| setup | games | connections | busy (server + PostgreSQL) | CPU ms/turn | store commits/turn | turns "
    "| p50 ms | p99 ms | max ms "
    "| RSS MB | KB/game | loop pause ms | GC pause ms (total) | GC CPU ms/turn | files | clients busy "
    "| seated in s (handshakes retried) | lost "
    "| refused/errors | collections (first server): count ≤ longest ms | objects tracked | most walked | pings/s |"
)


def _row(s: Step) -> str:
    busy = f"{s.server_busy:.2f}" + (f" + {s.database_busy:.2f}" if s.database_busy else "")
    return (
        f"| {s.setup} | {s.games:,} | {s.connections:,} | {busy} | {s.cpu_ms_per_turn:.2f} | "
        f"{s.commits_per_turn:.1f} | {s.turns:,} | "
        f"{s.p50:.1f} | {s.p99:.1f} | {s.worst:.0f} | {s.rss_mb:,.0f} | {s.kb_per_game:.0f} | {s.lag_ms:.0f} | "
        f"{s.gc_ms:.0f} ({s.gc_total_ms:.0f}) | {s.gc_cpu_ms_per_turn:.2f} | {s.open_files:,} | {s.clients_busy:.2f} | "
        f"{s.seat_seconds:.0f} ({s.reopened}) | "
        f"{s.lost} | {s.refused}/{s.errors} | {s.generations} | {s.tracked:,} | {s.walked:,} | "
        f"{'(all, every 20 s)' if s.pings_per_second is None else f'{s.pings_per_second:.0f}'} |"
    )


def knee(steps: list[Step]) -> int:
    """The most games held with a p99 under 250 ms and under 0.8 of the core (0: not even the first step)."""
    held = 0
    for step in steps:
        if not step.held:
            break
        held = step.games
    return held


def cpu_set(text: str | None) -> set[int] | None:
    return None if not text else {int(c) for c in text.split(",")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setups", default="sqlite,postgres,cluster", help="sqlite, postgres (one node), cluster")
    parser.add_argument("--games", default="1000,2000,4000,6250,8000", help="the ramp: live games at each step")
    parser.add_argument("--period", type=float, default=30.0, help="seconds between two turns of a game")
    parser.add_argument("--window", type=float, default=15.0, help="seconds measured at each step")
    parser.add_argument("--workers", type=int, default=4, help="client processes")
    parser.add_argument("--server-cpus", default="0", help="the CPUs of the servers and PostgreSQL ('' : any)")
    parser.add_argument("--client-cpus", default="1", help="the CPUs of the client processes ('' : any)")
    parser.add_argument(
        "--code",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="a checkout whose server is measured (repeat it to measure several side by side, taking turns; "
        "`.` is this one); default: this one",
    )
    parser.add_argument(
        "--turns",
        default="whole",
        help="how a simultaneous turn is sent: whole (its orders and commit in one message), apart (the orders, then "
        "the commit); both, comma-separated, to measure them side by side, taking turns",
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs of each setup and code, taking turns")
    parser.add_argument("--profile", type=Path, default=None, help="py-spy the first server: FILE.SETUP.GAMES.txt")
    parser.add_argument("--profile-at", type=int, default=None, help="the step (games) to profile")
    parser.add_argument(
        "--tails",
        type=Path,
        default=None,
        help="append each step's turns (their last commit's time, latency, rule set and client process), the "
        "servers' stalls (with where their event loop was), the client processes' stalls and the disk's flushes (a "
        "probe fsyncing beside the stores every 20 ms) to FILE, a JSON line a step: to see whether a p99 comes from a "
        "few stalls, and whose, or from a core too busy throughout",
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--data-dir", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--store", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--node-id", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        for code in args.code:
            sys.path.insert(0, str(code.resolve()))  # the server of that checkout, imported only now
        for name in [n for n in sys.modules if n.split(".")[0] in ("shared", "server")]:
            del sys.modules[name]  # this bench's own imports came from this checkout: the server must not use them
        run_on("auto", _serve(args.data_dir, args.store, args.node_id))
        return
    codes = [c.resolve() for c in args.code] or [ROOT]
    raise_open_files()
    logs = Path(tempfile.mkdtemp(prefix="risc-capacity-logs-"))
    options = Options(
        steps=[int(g) for g in args.games.split(",")],
        period=args.period,
        window=args.window,
        workers=args.workers,
        server_cpus=cpu_set(args.server_cpus),
        client_cpus=cpu_set(args.client_cpus),
        logs=logs,
        profile_at=args.profile_at,
        profile=args.profile,
        tails=args.tails,
    )
    if args.tails is not None:
        os.environ[STALL_STACKS] = "1"  # the servers started from now on sample their stalls
    print(
        f"a turn every {args.period:g} s a game, {args.window:g} s measured a step; {args.workers} client processes on "
        f"CPUs {args.client_cpus or 'any'}, servers on CPUs {args.server_cpus or 'any'}; load average "
        f"{os.getloadavg()[0]:.1f}; servers' logs in {logs}",
        flush=True,
    )
    print(HEADER)
    print("|" + "---|" * (HEADER.count("|") - 1), flush=True)
    began = time.monotonic()
    if len(codes) > 1:
        print("code: " + "; ".join(f"{chr(65 + i)} = {c}" for i, c in enumerate(codes)))
    knees: dict[str, list[int]] = {}
    styles = args.turns.split(",")
    if not set(styles) <= {"whole", "apart"}:
        parser.error("--turns takes whole, apart or both")
    for name in args.setups.split(","):
        for run in range(args.repeat):
            for index, code in enumerate(codes):
                for style in styles:
                    label = name if len(codes) == 1 else f"{name} {chr(65 + index)}"
                    label += f" {style}" if len(styles) > 1 else ""
                    print(f"({label}, run {run + 1})", flush=True)
                    chosen = dataclasses.replace(options, whole_turns=style == "whole")
                    knees.setdefault(label, []).append(knee(run_setup(name, label, code, chosen)))
    for label, games in knees.items():
        said = ", ".join(f"{g:,}" for g in games)
        print(f"knee, {label}: {said} games (p99 under {KNEE_P99_MS:g} ms and under {KNEE_BUSY} of the core)")
    print(f"load average at the end {os.getloadavg()[0]:.1f}; took {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
