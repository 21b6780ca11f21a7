"""A served game under load, beside the bare websockets limit of the same machine.

Run by hand: `python bench/server_load.py [--games 1,10,100,300] [--workers 2] [--seconds 60] [--max-turns 60]
[--store sqlite|memory] [--repeat 3] [--server-cpus 0 --client-cpus 1] [--profile FILE]`.
For each number of games G it starts the game server in its own process (the default SQLite store in a fresh
temporary data directory, or `--store memory`; limits loosened so that fast clients are not rate limited), then
WORKERS client processes play G games of 3 all-out players on the seed map over raw websockets (protocol 3), as
fast as the server answers: create, join, place every unit, then each turn issue the orders one by one (each
awaited) and commit. A client keeps what a real one keeps, lightly: the map's borders once, the view whole once and
then patched in place (bench/players.py). Then the same clients run the same pattern against bench/echo_server.py,
which only parses and answers JSON: per turn and player the same number of orders echoed at the size of an
acceptance, a commit answered at once, an update of a commit's size for each other commit of the group and one of a
result's size for the last.

Figures, for each: the time from the last commit of a turn to the moment all 3 players of the game hold the result
(p50, p99; one clock, as all 3 clients of a game live in one process), frames per second through the server (in and
out), the server's CPU time per resolved turn, and its RSS at the end. `--server-cpus` and `--client-cpus` pin the
servers and the client processes to CPUs of their own (os.sched_setaffinity), so that the clients do not take the
server's core; `--profile` records the game server with py-spy.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from websockets.asyncio.client import ClientConnection, connect

from bench.players import Followed, orders_for
from shared.protocol.codes import PROTOCOL_VERSION

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = 3
PROTOCOL = PROTOCOL_VERSION
BATCH = False
"""Whether the players send a turn's orders in one issue_orders (`--batch`) rather than one by one."""
WHOLE = False
"""Whether that issue_orders carries the commit too (`--whole`: a whole turn in one message)."""
Message = dict[str, Any]


# ---- the servers, each in its own process ------------------------------------------------------------------------


async def _serve_game(port: int, data_dir: Path, store: str) -> None:
    import signal

    from server import app as server_app
    from server.app import RiscServer
    from server.config import ServerConfig
    from server.storage import MemoryStorage, open_storage

    raise_open_files()
    config = ServerConfig(
        host="127.0.0.1",
        port=port,
        data_dir=data_dir,
        messages_per_second=1e9,
        burst=10**9,
        outbound_bytes=1 << 40,
        outbound_total_bytes=1 << 40,
        max_games=10_000,
        connections_per_address=None,  # every player of the bench comes from this one address
        open_games_per_connection=10_000,
        open_games_per_address=10_000,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    storage = MemoryStorage() if store == "memory" else open_storage(data_dir)
    async with RiscServer(config, storage) as server:
        settle = getattr(server_app, "settle_collector", None)  # as the server's own command does (where it has it)
        if settle is not None:
            settle()
        print(f"PORT {server.port}", flush=True)
        await stop.wait()


STORES = {"sqlite": "SQLite in a fresh data directory (WAL, synchronous=FULL)", "memory": "in memory"}


def run_on(loop: str, main: Coroutine[Any, Any, None]) -> None:
    """Run `main` on the event loop named: "asyncio" (its own), "uvloop", or "auto" (uvloop where it is installed,
    as `risc server` chooses)."""
    factory = None
    if loop != "asyncio":
        try:
            import uvloop
        except ImportError:
            if loop == "uvloop":
                raise
        else:
            factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(main)


def raise_open_files() -> None:
    """Lift this process's soft limit on open files to its hard limit: a thousand sockets pass the usual 1,024."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))


class ProcessCpu(Protocol):
    def cpu_seconds(self) -> float: ...


@dataclass
class ServerProcess:
    process: subprocess.Popen[str]
    port: int

    @classmethod
    def start(
        cls, argv: list[str], cwd: Path = ROOT, cpus: set[int] | None = None, log: Path | None = None
    ) -> ServerProcess:
        """`log`: where the server's own log goes (appended to), instead of this terminal."""
        stderr = None if log is None else log.open("a")
        process = subprocess.Popen([sys.executable, *argv], cwd=cwd, stdout=subprocess.PIPE, stderr=stderr, text=True)
        if cpus:
            os.sched_setaffinity(process.pid, cpus)
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith("PORT "):
            process.kill()
            raise RuntimeError(f"the server did not start: {line!r}")
        return cls(process, int(line.split()[1]))

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


# ---- the players -------------------------------------------------------------------------------------------------


@dataclass
class Tally:
    frames: int = 0
    last: float = 0.0
    """When the last frame came (time.monotonic): the run's play ends there, whoever still waits."""
    errors: int = 0
    resolved: int = 0
    finished: int = 0
    sizes: dict[str, list[int]] = field(
        default_factory=lambda: {"order": [], "accepted": [], "commit": [], "note": [], "result": []}
    )


@dataclass
class GameClock:
    """When each player committed and when each got the result, per (phase, turn) of one game."""

    commits: dict[tuple[str, int], list[int]] = field(default_factory=dict)
    results: dict[tuple[str, int], list[int]] = field(default_factory=dict)

    def latencies(self, past_first: bool = False) -> list[float]:
        """Each round's latency; `past_first`: without the game's first round, which every game of a run plays in the
        same instant (a herd no served game meets again: its p99 is reported apart)."""
        first = min(self.commits, key=lambda k: min(self.commits[k])) if past_first and self.commits else None
        return [
            (max(self.results[k]) - max(c)) / 1e6
            for k, c in self.commits.items()
            if len(self.results.get(k, ())) == PLAYERS and k != first
        ]


def protocol_of(code: Path) -> int:
    """The protocol version a checkout of the project speaks (read from its source: it is not imported here)."""
    found = re.search(r"^PROTOCOL_VERSION = (\d+)", (code / "shared" / "protocol" / "codes.py").read_text(), re.M)
    return int(found.group(1)) if found else PROTOCOL_VERSION


async def _open(port: int, protocol: int | None = None, deflate: bool = False) -> ClientConnection:
    """A client that said hello (in the protocol of the server measured: PROTOCOL); `deflate`: offering
    permessage-deflate, as browsers and websockets' client do."""
    protocol = PROTOCOL if protocol is None else protocol
    ws = await connect(
        f"ws://127.0.0.1:{port}", max_size=None, ping_interval=None, compression="deflate" if deflate else None
    )
    await ws.send(json.dumps({"type": "hello", "protocol": protocol}))
    reply = json.loads(await ws.recv())
    assert reply["type"] in ("welcome", "hello"), reply  # the echo server sends the hello back
    return ws


async def _request(ws: ClientConnection, message: Message) -> Message:
    await ws.send(json.dumps(message))
    while True:
        reply: Message = json.loads(await ws.recv())
        if reply.get("ref") == message.get("ref"):
            return reply


async def seat_game(port: int, index: int) -> tuple[str, list[ClientConnection]]:
    clients = [await _open(port) for _ in range(PLAYERS)]
    created = await _request(
        clients[0], {"type": "create_game", "ref": "c", "settings": {"map": "seed", "players": PLAYERS}}
    )
    game_id = created["game"]["game_id"]
    for seat, ws in enumerate(clients):
        joined = await _request(ws, {"type": "join_game", "game_id": game_id, "name": f"g{index}p{seat}", "ref": "j"})
        assert joined["type"] == "joined", joined
    return game_id, clients


async def play_seat(
    ws: ClientConnection, game_id: str, me: str, clock: GameClock, tally: Tally, max_turns: int, deadline: float
) -> None:
    """Read every frame; on each new turn issue the orders one at a time, then commit."""
    followed = Followed()
    pending: list[Message] = []
    key: tuple[str, int] | None = None
    turn = 0
    async for frame in ws:
        now = time.monotonic_ns()
        tally.frames += 1
        tally.last = time.monotonic()
        message: Message = json.loads(frame)
        kind = message["type"]
        if kind == "error":
            tally.errors += 1
        elif kind in ("order_accepted", "orders_accepted"):
            tally.sizes["accepted"].append(len(frame))
        elif kind == "game_map":
            followed.take_map(message["map"])
        if kind == "update":
            if not followed.take_update(message):
                tally.sizes["note"].append(len(frame))  # a commit told, the view unchanged
                continue
            seen = followed.seen()
            new_key = (seen.phase, seen.turn)
            if new_key == key:
                tally.sizes["note"].append(len(frame))
                continue
            tally.sizes["result"].append(len(frame))
            if key is not None:
                clock.results.setdefault(key, []).append(now)
            key, turn = new_key, seen.turn
            if seen.phase == "finished":
                tally.finished += 1
                return
            if turn > max_turns or time.monotonic() > deadline:
                return
            if me not in seen.alive:
                continue  # out of the game: it only watches
            pending = orders_for(seen, me)
            pending.reverse()
        elif kind not in ("order_accepted", "orders_accepted", "error") or message.get("request") == "commit":
            continue
        if kind == "orders_accepted" and message.get("committed"):
            continue  # the whole turn went in one message
        if pending and BATCH:  # the turn's orders in one issue_orders (and its commit, with WHOLE)
            asked: Message = {"type": "issue_orders", "game_id": game_id, "turn": turn, "orders": pending[::-1]}
            if WHOLE:
                asked["commit"] = True
                clock.commits.setdefault(key, []).append(time.monotonic_ns())  # type: ignore[arg-type]
            text = json.dumps(asked)
            pending = []
            tally.sizes["order"].append(len(text))
            await ws.send(text)
        elif pending:
            text = json.dumps({"type": "issue_order", "game_id": game_id, "turn": turn, "order": pending.pop()})
            tally.sizes["order"].append(len(text))
            await ws.send(text)
        else:
            clock.commits.setdefault(key, []).append(time.monotonic_ns())  # type: ignore[arg-type]
            text = json.dumps({"type": "commit", "game_id": game_id, "turn": turn})
            tally.sizes["commit"].append(len(text))
            await ws.send(text)
        tally.frames += 1


# ---- the same frames against the bare echo server ----------------------------------------------------------------


@dataclass
class Pattern:
    """What a player of the game run sent and received a turn, on average: the echo run repeats it."""

    turns: int
    orders: int
    order_bytes: int
    accepted_bytes: int
    commit_bytes: int
    note_bytes: int
    result_bytes: int


async def echo_seat(
    ws: ClientConnection, group: str, clock: GameClock, tally: Tally, pattern: Pattern, deadline: float
) -> None:
    """A player's turns against the echo server, read and sent as play_seat does: each order echoed back at the size
    of an acceptance, then a sync (the commit) that every player of the group is told of at the size of a commit's
    update, the group's last one at the size of a result."""
    await _request(ws, {"type": "join", "group": group, "ref": "j"})
    order = json.dumps({"type": "echo", "pad": "x" * max(0, pattern.accepted_bytes - 30)})
    sync = json.dumps(
        {
            "type": "sync",
            "group": group,
            "members": PLAYERS,
            "note": pattern.note_bytes,
            "size": pattern.result_bytes,
            "pad": "x" * max(0, pattern.commit_bytes - 90),
        }
    )
    turn, left = 0, pattern.orders
    while True:
        if left:
            left -= 1
            await ws.send(order)
        else:
            left = -1
            clock.commits.setdefault(("orders", turn), []).append(time.monotonic_ns())
            await ws.send(sync)
        tally.frames += 1
        while True:
            frame = await ws.recv()
            now = time.monotonic_ns()
            tally.frames += 1
            tally.last = time.monotonic()
            kind = json.loads(frame)["type"]
            if kind == "result":
                clock.results.setdefault(("orders", turn), []).append(now)
                tally.resolved += 1
                turn, left = turn + 1, pattern.orders
                if turn >= pattern.turns or time.monotonic() > deadline:
                    return
                break
            if kind == "echo":
                break


# ---- a client process --------------------------------------------------------------------------------------------


async def _worker(
    mode: str, ports: list[int], games: list[int], args: Message, ready: Any, go: Any, done: Any, out: Any
) -> None:
    """Play `games` (numbers): game i on the server at ports[i % len(ports)] (several nodes of one server share
    the games out so)."""
    global PROTOCOL, BATCH, WHOLE
    PROTOCOL = args.get("protocol", PROTOCOL)  # this process's clients speak the measured server's protocol
    WHOLE = args.get("whole", False)
    BATCH = args.get("batch", False) or WHOLE
    tally, clocks = Tally(), [GameClock() for _ in games]
    if mode == "game":
        seated = [await seat_game(ports[i % len(ports)], i) for i in games]
    else:
        seated = [(f"e{i}", [await _open(ports[i % len(ports)]) for _ in range(PLAYERS)]) for i in games]
    ready.wait()
    go.wait()
    start, cpu = time.monotonic(), time.process_time()
    deadline = start + args["seconds"]
    if mode == "game":
        await asyncio.gather(
            *(
                _bounded(play_seat(ws, game_id, f"g{i}p{s}", clock, tally, args["max_turns"], deadline), deadline)
                for (game_id, clients), i, clock in zip(seated, games, clocks, strict=True)
                for s, ws in enumerate(clients)
            )
        )
        tally.resolved = sum(len(c.latencies()) for c in clocks)
    else:
        pattern = Pattern(**args["pattern"])
        await asyncio.gather(
            *(
                echo_seat(ws, group, clock, tally, pattern, deadline)
                for (group, clients), clock in zip(seated, clocks, strict=True)
                for ws in clients
            )
        )
        tally.resolved //= PLAYERS
    elapsed = max(tally.last, start + 0.001) - start
    out.put(
        {
            "elapsed": elapsed,
            "cpu": time.process_time() - cpu,
            "frames": tally.frames,
            "errors": tally.errors,
            "resolved": tally.resolved,
            "finished": tally.finished // PLAYERS,
            "latencies": [x for c in clocks for x in c.latencies()],
            "later": [x for c in clocks for x in c.latencies(past_first=True)],
            "sizes": tally.sizes,
        }
    )
    done.wait()
    for _, clients in seated:
        for ws in clients:
            with contextlib.suppress(Exception):
                await ws.close()


async def _bounded(play: Coroutine[Any, Any, None], deadline: float) -> None:
    """A seat's play, stopped a little after the run's deadline: a player who is out only watches, and the others
    may stop playing before its game ends."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(play, max(1.0, deadline + 5 - time.monotonic()))


def _worker_main(cpus: set[int] | None, *args: Any) -> None:
    if cpus:
        os.sched_setaffinity(0, cpus)
    asyncio.run(_worker(*args))


@dataclass
class Figures:
    p50: float
    p99: float
    p99_later: float
    """The p99 of every round but each game's first."""
    frames_per_second: float
    cpu_ms_per_turn: float
    rss_mb: float
    resolved: int
    finished: int
    errors: int
    sizes: dict[str, list[int]]
    server_busy: float
    """The server's CPU time over the run's time: near 1, it is what holds the clients back."""
    clients_busy: float
    """The client processes' CPU time over the run's time, summed (at most their number)."""
    turns_per_second: float = 0.0


@dataclass
class Setup:
    workers: int
    seconds: float
    max_turns: int
    store: str
    server_cpus: set[int] | None
    client_cpus: set[int] | None
    profile: Path | None
    codes: list[Path]
    batch: bool = False
    """The players send a turn's orders in one issue_orders."""
    whole: bool = False
    """And its commit with them, in the same message."""
    loop: str = "auto"
    """The servers' event loop: auto (uvloop where installed), uvloop or asyncio."""


def measure(
    mode: str,
    server: ServerProcess | list[ServerProcess],
    games: int,
    setup: Setup,
    args: Message,
    also: list[ProcessCpu] = (),
) -> Figures:
    """Play `games` games on `server` (or shared out over several: the CPU time and RSS are then their sums), and
    count `also` (other processes, such as the database's) in the CPU time per turn."""
    servers = server if isinstance(server, list) else [server]
    server = servers[0]
    ctx = mp.get_context("fork")
    workers = max(1, min(setup.workers, games))
    ready, go, done = ctx.Barrier(workers + 1), ctx.Barrier(workers + 1), ctx.Barrier(workers + 1)
    out = ctx.Queue()
    shares = [list(range(w, games, workers)) for w in range(workers)]
    ports = [s.port for s in servers]
    processes = [
        ctx.Process(target=_worker_main, args=(setup.client_cpus, mode, ports, share, args, ready, go, done, out))
        for share in shares
    ]
    for p in processes:
        p.start()
    ready.wait(timeout=600)
    spy = None
    if setup.profile is not None and mode == "game":
        spy = subprocess.Popen(
            [
                "py-spy",
                "record",
                "--pid",
                str(server.process.pid),
                "--output",
                str(setup.profile.with_suffix(f".{games}.txt")),
                "--format",
                "raw",
                "--duration",
                str(int(setup.seconds)),
                "--rate",
                "200",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    counted: list[Any] = [*servers, *also]
    cpu0 = sum(s.cpu_seconds() for s in counted)
    go.wait()
    results = [out.get(timeout=args["seconds"] + 120) for _ in processes]
    cpu1 = sum(s.cpu_seconds() for s in counted)
    rss = sum(s.rss_mb() for s in servers)
    done.wait()
    for p in processes:
        p.join(30)
    if spy is not None:
        spy.wait(setup.seconds + 60)
    latencies = sorted(x for r in results for x in r["latencies"])
    later = sorted(x for r in results for x in r["later"])
    resolved = sum(r["resolved"] for r in results)
    elapsed = max(r["elapsed"] for r in results)
    sizes: dict[str, list[int]] = {k: [x for r in results for x in r["sizes"][k]] for k in results[0]["sizes"]}
    return Figures(
        p50=statistics.median(latencies) if latencies else float("nan"),
        p99=_p99(latencies),
        p99_later=_p99(later),
        frames_per_second=sum(r["frames"] for r in results) / elapsed,
        cpu_ms_per_turn=(cpu1 - cpu0) * 1000 / max(1, resolved),
        rss_mb=rss,
        resolved=resolved,
        finished=sum(r["finished"] for r in results),
        errors=sum(r["errors"] for r in results),
        sizes=sizes,
        server_busy=(cpu1 - cpu0) / elapsed,
        clients_busy=sum(r["cpu"] for r in results) / elapsed,
        turns_per_second=resolved / elapsed,
    )


def _p99(latencies: list[float]) -> float:
    return latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else float("nan")


def _mean(sizes: list[int], otherwise: int) -> int:
    return round(statistics.fmean(sizes)) if sizes else otherwise


def run(games: int, setup: Setup) -> tuple[list[Figures], Figures]:
    """Each code's game run, then the echo server's with the first one's pattern."""
    played = []
    for code in setup.codes:
        with tempfile.TemporaryDirectory(prefix="risc-load-") as data_dir:
            server = ServerProcess.start(
                [
                    str(Path(__file__).resolve()),
                    "--serve",
                    "--data-dir",
                    data_dir,
                    "--store",
                    setup.store,
                    "--code",
                    str(code),
                    "--loop",
                    setup.loop,
                ],
                cpus=setup.server_cpus,
            )
            try:
                played.append(
                    measure(
                        "game",
                        server,
                        games,
                        setup,
                        {
                            "seconds": setup.seconds,
                            "max_turns": setup.max_turns,
                            "protocol": protocol_of(code),
                            "batch": setup.batch,
                            "whole": setup.whole,
                        },
                    )
                )
            finally:
                server.stop()
    sizes, resolved = played[0].sizes, max(1, played[0].resolved)
    pattern = Pattern(
        turns=max(1, round(resolved / games)),
        orders=round(len(sizes["order"]) / (resolved * PLAYERS)),
        order_bytes=_mean(sizes["order"], 100),
        accepted_bytes=_mean(sizes["accepted"], 200),
        commit_bytes=_mean(sizes["commit"], 60),
        note_bytes=_mean(sizes["note"], 800),
        result_bytes=_mean(sizes["result"], 1500),
    )
    echo_server = ServerProcess.start(
        [str(ROOT / "bench" / "echo_server.py"), "--loop", setup.loop], cpus=setup.server_cpus
    )
    try:
        echo = measure("echo", echo_server, games, setup, {"seconds": setup.seconds, "pattern": vars(pattern)})
    finally:
        echo_server.stop()
    return played, echo


def cpu_set(text: str | None) -> set[int] | None:
    return None if not text else {int(c) for c in text.split(",")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1,10,100,300", help="comma-separated numbers of concurrent games")
    parser.add_argument("--workers", type=int, default=2, help="client processes")
    parser.add_argument("--seconds", type=float, default=60.0, help="bound on each run's play")
    parser.add_argument("--max-turns", type=int, default=60, help="a game stops being played after this turn")
    parser.add_argument("--store", choices=sorted(STORES), default="sqlite", help="the server's game store")
    parser.add_argument(
        "--server-cpus",
        default=None,
        metavar="0",
        help="the CPUs the game server and the echo server run on (comma-separated)",
    )
    parser.add_argument("--client-cpus", default=None, metavar="1", help="the CPUs the client processes run on")
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        metavar="FILE",
        help="record the game server with py-spy into FILE.<games>.txt (collapsed stacks)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="runs of each size, the game and the echo server taking turns; then their medians",
    )
    parser.add_argument(
        "--code",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="the game server's code: another checkout of the project to measure beside this one "
        "(repeat it; `.` is this one); default: this one alone",
    )
    parser.add_argument(
        "--batch",
        action="store_true",
        help="the players send a turn's orders in one issue_orders rather than one by one",
    )
    parser.add_argument(
        "--whole",
        action="store_true",
        help="the players send a turn's orders and its commit in one issue_orders (implies --batch)",
    )
    parser.add_argument(
        "--loop",
        choices=("auto", "uvloop", "asyncio"),
        default="auto",
        help="the game server's and the echo server's event loop (auto: uvloop where installed)",
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--data-dir", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        for code in args.code:
            sys.path.insert(0, str(code.resolve()))  # the server of that checkout (imported only now)
        for name in [n for n in sys.modules if n.split(".")[0] in ("shared", "bench", "server")]:
            del sys.modules[name]  # this bench's own imports came from this checkout: the server must not use them
        run_on(args.loop, _serve_game(0, args.data_dir, args.store))
        return
    setup = Setup(
        args.workers,
        args.seconds,
        args.max_turns,
        args.store,
        cpu_set(args.server_cpus),
        cpu_set(args.client_cpus),
        args.profile,
        [c.resolve() for c in args.code] or [ROOT],
        args.batch or args.whole,
        args.whole,
        args.loop,
    )
    pinned = (
        ""
        if setup.server_cpus is None and setup.client_cpus is None
        else f"; servers on CPUs {args.server_cpus or 'any'}, clients on CPUs {args.client_cpus or 'any'}"
    )
    print(
        f"store: {STORES[args.store]}; {args.workers} client processes{pinned}; seed map, 3 all-out players a "
        f"game; at most {args.max_turns} turns, {args.seconds:g} s a run"
    )
    if len(setup.codes) > 1:
        print("code: " + "; ".join(f"{chr(65 + i)} = {c}" for i, c in enumerate(setup.codes)))
    header = (
        "| games | code | run | p50 ms | p99 ms | frames/s | CPU ms/turn | RSS MB | turns | finished | busy "
        "| echo p50 ms | echo p99 ms | echo frames/s | echo RSS MB | echo busy | frames/s vs echo "
        "| p99 vs echo | p99 past round 1, ms (game / echo) | its ratio |"
    )
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for games in (int(g) for g in args.games.split(",")):
        rows: dict[int, list[list[float]]] = {i: [] for i in range(len(setup.codes))}
        for index in range(args.repeat):
            played, echo = run(games, setup)
            for code, game in enumerate(played):
                if game.errors:
                    print(f"  ({game.errors} error frames in the game run)")
                row = [
                    game.p50,
                    game.p99,
                    game.frames_per_second,
                    game.cpu_ms_per_turn,
                    game.rss_mb,
                    game.resolved,
                    game.finished,
                    game.server_busy,
                    game.clients_busy,
                    echo.p50,
                    echo.p99,
                    echo.frames_per_second,
                    echo.rss_mb,
                    echo.server_busy,
                    echo.clients_busy,
                    game.frames_per_second / echo.frames_per_second,
                    game.p99 / echo.p99,
                    game.p99_later,
                    echo.p99_later,
                    game.p99_later / echo.p99_later,
                ]
                rows[code].append(row)
                print(_row(games, chr(65 + code), str(index + 1), row), flush=True)
        if args.repeat > 1:
            for code, runs in rows.items():
                print(
                    _row(
                        games,
                        chr(65 + code),
                        "median",
                        [statistics.median(column) for column in zip(*runs, strict=True)],
                    ),
                    flush=True,
                )


def _row(games: int, code: str, label: str, row: list[float]) -> str:
    (
        p50,
        p99,
        fps,
        cpu,
        rss,
        turns,
        finished,
        busy,
        clients,
        ep50,
        ep99,
        efps,
        erss,
        ebusy,
        eclients,
        ratio,
        p99_ratio,
        later,
        elater,
        later_ratio,
    ) = row
    return (
        f"| {games} | {code} | {label} | {p50:.1f} | {p99:.1f} | {fps:,.0f} | {cpu:.2f} | {rss:.0f} | "
        f"{turns:.0f} | {finished:.0f} | {busy:.2f} / {clients:.2f} | {ep50:.1f} | {ep99:.1f} | {efps:,.0f} | "
        f"{erss:.0f} | {ebusy:.2f} / {eclients:.2f} | {ratio:.2f} | {p99_ratio:.2f} | {later:.1f} / {elater:.1f} | "
        f"{later_ratio:.2f} |"
    )


if __name__ == "__main__":
    main()
