"""RISC beside a peer: the same game loop on boardgame.io's server, on RISC's, and on the bare echo server.

Run by hand: `python bench/beside_peer.py [--games 100,300] [--seconds 20] [--rounds 3] [--server-cpus 0
--client-cpus 1] [--only risc-sqlite,bgio-flatfile,...]`. Needs Node.js and the peer installed once (`npm ci` in
bench/peers/boardgameio/, see its README); nothing of it is needed by the project's tests or its install.

For each number of games G, each round runs every contestant one after the other on the same workload, each server
in a process of its own (pinned to --server-cpus), its clients in processes of their own (pinned to --client-cpus):
G games of 3 all-out players on the seed map, every player issuing its orders one at a time (each awaited), then
committing; when all 3 have committed the turn resolves and every player gets the result.

- bgio-memory, bgio-flatfile: boardgame.io's own Server (its lobby API and socket.io transport) serving
  bench/peers/boardgameio/game.js with its in-memory storage, or its FlatFile storage in a fresh directory
  (node-persist: a file per key, written without fsync, after the master has sent the new state); driven by
  boardgame.io's own client (Client over its SocketIO transport, LobbyClient to create and join) in Node.js processes.
- risc-memory, risc-sqlite, risc-sqlite-tmpfs: RISC's server as bench/server_load.py serves it (its in-memory store;
  SQLite with synchronous=FULL in a fresh directory on disk, every change on disk before it is answered; the same
  SQLite in a directory on tmpfs, /dev/shm, where an fsync costs nothing), driven by bench/server_load.py's clients,
  on the event loop `risc server` runs by default (uvloop where installed); -asyncio: on asyncio's own loop;
  -batch: each player's orders of a turn in one issue_orders rather than one by one; -whole: and the turn's commit
  in the same message.
- echo, echo-asyncio: bench/echo_server.py, the same clients' frames answered without a game (the pattern of the
  round's first RISC run), on the same two loops; echo-batch: the pattern of the round's first RISC run with batches
  (one frame for a player's orders of a turn, one answer).
- before-sqlite, before-memory (with --before DIR): RISC's server of another checkout, on asyncio's loop.

Printed: a line per run, then a table of the medians over the rounds: the server's CPU time per resolved turn,
turns per second, frames per second (in and out, counted by the clients), p50 and p99 from a turn's last commit to
every player holding its result (and the p99 without each game's first round), the server's RSS at the end, and how
busy the server and the clients were (CPU time over the run's time).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.server_load import (
    PLAYERS,
    ROOT,
    Figures,
    Pattern,
    ServerProcess,
    Setup,
    _mean,
    _p99,
    cpu_set,
    measure,
    protocol_of,
)

PEER = ROOT / "bench" / "peers" / "boardgameio"
TMPFS = Path("/dev/shm")


def spawn(
    argv: list[str],
    cpus: set[int] | None,
    cwd: Path = ROOT,
    env: dict[str, str] | None = None,
    stdin: int | None = None,
) -> subprocess.Popen[str]:
    """A process pinned from its start (every thread it makes inherits the CPUs)."""

    def pin() -> None:
        if cpus:
            os.sched_setaffinity(0, cpus)

    return subprocess.Popen(
        argv, cwd=cwd, stdout=subprocess.PIPE, stdin=stdin, text=True, preexec_fn=pin, env={**os.environ, **(env or {})}
    )


def started(process: subprocess.Popen[str]) -> ServerProcess:
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("PORT "):
        process.kill()
        raise RuntimeError(f"the server did not start: {line!r}")
    return ServerProcess(process, int(line.split()[1]))


def start_peer(store: str, data_dir: Path, cpus: set[int] | None) -> ServerProcess:
    return started(
        spawn(["node", "server.js", store, str(data_dir / "flatfile")], cpus, cwd=PEER, env={"NODE_ENV": "production"})
    )


def start_risc(
    store: str, data_dir: Path, cpus: set[int] | None, code: Path = ROOT, loop: str = "auto"
) -> ServerProcess:
    """RISC's server as bench/server_load.py serves it, of this checkout or of another (`code`)."""
    return started(
        spawn(
            [
                sys.executable,
                str(ROOT / "bench" / "server_load.py"),
                "--serve",
                "--data-dir",
                str(data_dir),
                "--store",
                store,
                "--code",
                str(code),
                "--loop",
                loop,
            ],
            cpus,
        )
    )


def start_echo(cpus: set[int] | None, loop: str = "auto") -> ServerProcess:
    return started(spawn([sys.executable, str(ROOT / "bench" / "echo_server.py"), "--loop", loop], cpus))


def measure_peer(server: ServerProcess, games: int, setup: Setup) -> Figures:
    """Play `games` games on boardgame.io's server with its own client, in setup.workers Node.js processes."""
    workers = max(1, min(setup.workers, games))
    shares = [list(range(w, games, workers)) for w in range(workers)]
    clients = [
        spawn(
            [
                "node",
                "clients.js",
                json.dumps(
                    {"port": server.port, "games": share, "seconds": setup.seconds, "maxTurns": setup.max_turns}
                ),
            ],
            setup.client_cpus,
            cwd=PEER,
            env={"NODE_ENV": "production"},
            stdin=subprocess.PIPE,
        )
        for share in shares
    ]
    try:
        for client in clients:
            assert client.stdout is not None
            line = client.stdout.readline()
            if line.strip() != "READY":
                for other in clients:
                    other.kill()
                raise RuntimeError(f"a peer client did not start: {line!r}")
        cpu0 = server.cpu_seconds()
        for client in clients:
            assert client.stdin is not None
            client.stdin.write("GO\n")
            client.stdin.flush()
        results = []
        for client in clients:
            assert client.stdout is not None
            results.append(json.loads(client.stdout.readline()))
        cpu1 = server.cpu_seconds()
        rss = server.rss_mb()
        for client in clients:
            assert client.stdin is not None
            client.stdin.write("DONE\n")
            client.stdin.flush()
    finally:
        for client in clients:
            try:
                client.wait(30)
            except subprocess.TimeoutExpired:
                client.kill()
    latencies = sorted(x for r in results for x in r["latencies"])
    later = sorted(x for r in results for x in r["later"])
    resolved = sum(r["resolved"] for r in results)
    elapsed = max(r["elapsed"] for r in results)
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
        sizes={},
        server_busy=(cpu1 - cpu0) / elapsed,
        clients_busy=sum(r["cpu"] for r in results) / elapsed,
        turns_per_second=resolved / elapsed,
    )


@dataclass(frozen=True)
class Contestant:
    name: str
    what: str
    run: Callable[[int, Setup, Path, dict[str, Any]], Figures]


def _risc(
    store: str, where: Path | None, batch: bool = False, code: Path = ROOT, loop: str = "auto", whole: bool = False
) -> Callable[[int, Setup, Path, dict[str, Any]], Figures]:
    def run(games: int, setup: Setup, data_dir: Path, shared: dict[str, Any]) -> Figures:
        directory = Path(tempfile.mkdtemp(prefix="risc-peer-", dir=where)) if where else data_dir
        server = start_risc(store, directory, setup.server_cpus, code, loop)
        try:
            figures = measure(
                "game",
                server,
                games,
                setup,
                {
                    "seconds": setup.seconds,
                    "max_turns": setup.max_turns,
                    "batch": batch,
                    "whole": whole,
                    "protocol": protocol_of(code),
                },
            )
        finally:
            server.stop()
            if where:
                shutil.rmtree(directory, ignore_errors=True)
        if code == ROOT and not whole:
            shared.setdefault("pattern-batch" if batch else "pattern", _pattern(figures, games))
        return figures

    return run


def _peer(store: str) -> Callable[[int, Setup, Path, dict[str, Any]], Figures]:
    def run(games: int, setup: Setup, data_dir: Path, shared: dict[str, Any]) -> Figures:
        server = start_peer(store, data_dir, setup.server_cpus)
        try:
            return measure_peer(server, games, setup)
        finally:
            server.stop()

    return run


def _echo(loop: str, batch: bool = False) -> Callable[[int, Setup, Path, dict[str, Any]], Figures]:
    def run(games: int, setup: Setup, data_dir: Path, shared: dict[str, Any]) -> Figures:
        pattern = shared.get("pattern-batch" if batch else "pattern") or Pattern(
            turns=setup.max_turns,
            orders=2,
            order_bytes=100,
            accepted_bytes=200,
            commit_bytes=60,
            note_bytes=300,
            result_bytes=1500,
        )
        server = start_echo(setup.server_cpus, loop)
        try:
            return measure("echo", server, games, setup, {"seconds": setup.seconds, "pattern": vars(pattern)})
        finally:
            server.stop()

    return run


def _pattern(figures: Figures, games: int) -> Pattern:
    """What a RISC player sent and received a turn, for the echo server to repeat."""
    sizes, resolved = figures.sizes, max(1, figures.resolved)
    return Pattern(
        turns=max(1, round(resolved / games)),
        orders=round(len(sizes["order"]) / (resolved * PLAYERS)),
        order_bytes=_mean(sizes["order"], 100),
        accepted_bytes=_mean(sizes["accepted"], 200),
        commit_bytes=_mean(sizes["commit"], 60),
        note_bytes=_mean(sizes["note"], 800),
        result_bytes=_mean(sizes["result"], 1500),
    )


CONTESTANTS = [
    Contestant("bgio-memory", "boardgame.io 0.50.2, in-memory storage", _peer("memory")),
    Contestant(
        "bgio-flatfile",
        "boardgame.io, FlatFile storage on disk (no fsync; written after the broadcast)",
        _peer("flatfile"),
    ),
    Contestant("risc-memory", "RISC, in-memory store", _risc("memory", None)),
    Contestant(
        "risc-sqlite", "RISC, SQLite on disk (synchronous=FULL: on disk before the answer)", _risc("sqlite", None)
    ),
    Contestant("risc-sqlite-tmpfs", "RISC, the same SQLite on tmpfs (fsync free)", _risc("sqlite", TMPFS)),
    Contestant(
        "risc-sqlite-batch",
        "RISC, SQLite on disk, each player's orders of a turn in one issue_orders",
        _risc("sqlite", None, batch=True),
    ),
    Contestant(
        "risc-memory-batch", "RISC, in-memory store, the orders in one issue_orders", _risc("memory", None, batch=True)
    ),
    Contestant(
        "risc-sqlite-whole",
        "RISC, SQLite on disk, each player's orders of a turn and its commit in one issue_orders",
        _risc("sqlite", None, batch=True, whole=True),
    ),
    Contestant(
        "risc-memory-whole",
        "RISC, in-memory store, a turn's orders and commit in one issue_orders",
        _risc("memory", None, batch=True, whole=True),
    ),
    Contestant(
        "risc-sqlite-asyncio",
        "RISC, SQLite on disk, on asyncio's own event loop",
        _risc("sqlite", None, loop="asyncio"),
    ),
    Contestant(
        "risc-memory-asyncio",
        "RISC, in-memory store, on asyncio's own event loop",
        _risc("memory", None, loop="asyncio"),
    ),
    Contestant("echo", "bench/echo_server.py (websockets, JSON, no game), on the servers' default loop", _echo("auto")),
    Contestant("echo-asyncio", "bench/echo_server.py on asyncio's own event loop", _echo("asyncio")),
    Contestant(
        "echo-batch",
        "bench/echo_server.py with the frames of the round's first RISC run with batches",
        _echo("auto", batch=True),
    ),
]

COLUMNS = (
    "| games | server | run | CPU ms/turn | turns/s | frames/s | p50 ms | p99 ms | p99 past round 1 | RSS MB "
    "| busy (server / clients) | turns | finished |"
)


def _row(games: int, name: str, label: str, f: list[float]) -> str:
    cpu, tps, fps, p50, p99, later, rss, busy, clients, turns, finished = f
    return (
        f"| {games} | {name} | {label} | {cpu:.2f} | {tps:,.0f} | {fps:,.0f} | {p50:.1f} | {p99:.1f} | "
        f"{later:.1f} | {rss:.0f} | {busy:.2f} / {clients:.2f} | {turns:.0f} | {finished:.0f} |"
    )


def _figures(f: Figures) -> list[float]:
    return [
        f.cpu_ms_per_turn,
        f.turns_per_second,
        f.frames_per_second,
        f.p50,
        f.p99,
        f.p99_later,
        f.rss_mb,
        f.server_busy,
        f.clients_busy,
        f.resolved,
        f.finished,
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="100,300", help="comma-separated numbers of concurrent games")
    parser.add_argument("--seconds", type=float, default=20.0, help="bound on each run's play")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, every contestant once in each; then medians")
    parser.add_argument("--workers", type=int, default=2, help="client processes of each run")
    parser.add_argument("--max-turns", type=int, default=60, help="a game stops being played after this turn")
    parser.add_argument("--server-cpus", default="0", help="the CPUs every server runs on (comma-separated)")
    parser.add_argument("--client-cpus", default="1", help="the CPUs every client process runs on")
    parser.add_argument(
        "--only",
        default=",".join(c.name for c in CONTESTANTS),
        help="the contestants, in the order each round runs them: " + ", ".join(c.name for c in CONTESTANTS),
    )
    parser.add_argument(
        "--before",
        type=Path,
        default=None,
        metavar="DIR",
        help="another checkout of the project (`git worktree add DIR COMMIT`): its RISC server on "
        "SQLite and in memory joins each round as before-sqlite and before-memory (asyncio's loop), and "
        "before-sqlite-whole and before-memory-whole (whole turns)",
    )
    args = parser.parse_args()
    contestants = list(CONTESTANTS)
    if args.before is not None:
        before = args.before.resolve()
        contestants += [
            Contestant(
                "before-sqlite",
                f"RISC of {before}, SQLite on disk, asyncio's loop",
                _risc("sqlite", None, code=before, loop="asyncio"),
            ),
            Contestant(
                "before-memory",
                f"RISC of {before}, in-memory store, asyncio's loop",
                _risc("memory", None, code=before, loop="asyncio"),
            ),
            Contestant(
                "before-sqlite-whole",
                f"RISC of {before}, SQLite on disk, a turn's orders and commit in one issue_orders",
                _risc("sqlite", None, batch=True, code=before, whole=True),
            ),
            Contestant(
                "before-memory-whole",
                f"RISC of {before}, in-memory store, a turn's orders and commit in one issue_orders",
                _risc("memory", None, batch=True, code=before, whole=True),
            ),
        ]
        if "before" not in args.only:
            args.only += ",before-sqlite,before-memory"
    chosen = [c for name in args.only.split(",") for c in contestants if c.name == name]
    if any(c.name.startswith("bgio") for c in chosen) and not (PEER / "node_modules").is_dir():
        sys.exit(f"the peer is not installed: run `npm ci` in {PEER.relative_to(ROOT)} (its README)")
    setup = Setup(
        args.workers,
        args.seconds,
        args.max_turns,
        "",
        cpu_set(args.server_cpus),
        cpu_set(args.client_cpus),
        None,
        [ROOT],
    )
    print(
        f"seed map, 3 all-out players a game, each order awaited; {args.workers} client processes a run; servers "
        f"on CPUs {args.server_cpus}, clients on CPUs {args.client_cpus}; at most {args.max_turns} turns, "
        f"{args.seconds:g} s a run; load average at the start {os.getloadavg()[0]:.1f}"
    )
    for c in chosen:
        print(f"- {c.name}: {c.what}")
    print(COLUMNS)
    print("|" + "---|" * (COLUMNS.count("|") - 1))
    medians: list[str] = []
    for games in (int(g) for g in args.games.split(",")):
        runs: dict[str, list[list[float]]] = {c.name: [] for c in chosen}
        for index in range(args.rounds):
            shared: dict[str, Any] = {}
            for contestant in chosen:
                with tempfile.TemporaryDirectory(prefix="risc-peer-") as data_dir:
                    try:
                        figures = contestant.run(games, setup, Path(data_dir), shared)
                    except (RuntimeError, OSError, ValueError) as exc:  # a run that fails is told, not counted
                        print(f"  (the run of {contestant.name} failed: {exc})", flush=True)
                        continue
                if figures.errors:
                    print(f"  ({figures.errors} error frames in the run of {contestant.name})")
                runs[contestant.name].append(_figures(figures))
                print(_row(games, contestant.name, str(index + 1), runs[contestant.name][-1]), flush=True)
                time.sleep(1)
        for name, rows in runs.items():
            if not rows:
                continue
            medians.append(
                _row(
                    games,
                    name,
                    f"median of {len(rows)}",
                    [statistics.median(column) for column in zip(*rows, strict=True)],
                )
            )
    print(f"\nmedians (load average at the end {os.getloadavg()[0]:.1f})")
    print(COLUMNS)
    print("|" + "---|" * (COLUMNS.count("|") - 1))
    print("\n".join(medians))


if __name__ == "__main__":
    main()
