"""The server as nodes sharing PostgreSQL, measured beside one server on SQLite (docs/scaling.md, docs/performance.md).

Run by hand: `python bench/cluster.py [cpu] [failover] [scale] [rolling] [--games 100] [--seconds 20] [--repeat 3]
[--kills 20] [--rounds 2] [--think 1] [--store postgresql://...]`. Without --store it starts a throwaway PostgreSQL
of its own (as the tests do: initdb in a temporary directory, a unix socket, PostgreSQL's default durability: fsync
and synchronous_commit on). Every server, node and client is a process of its own.

- cpu: the same workload as bench/server_load.py (G games of 3 all-out players on the seed map, raw websocket
  clients in 2 processes, each order awaited) against one server on SQLite, then one node on PostgreSQL: the
  server's CPU time per resolved turn, and for the node also PostgreSQL's (its backends' CPU time), turns per
  second, p50 and p99 from a turn's last commit to every player holding the result.
- scale: the same workload with 1, 2 and 3 nodes, the games shared out over them (game i on node i mod N): turns
  per second, and the nodes' and PostgreSQL's CPU per turn.
- failover: 3 nodes, 30 games of 3 players each joined through a node that does not own it, played on without
  end; then K times: the node owning the most games is killed (SIGKILL) and started again a moment later. Each
  client, its connection gone, reconnects as the text client does (0.5 s, doubling, a quarter of jitter), through
  the node it came by first and then the others, and resumes its seat wherever the game went. The figure is, for
  each game the killed node played, the time from the kill to the moment every one of its 3 players holds a view
  from the game's new node (p50, p99 over every game of every kill).
- rolling: 3 nodes, --games games of 3 players played as people play, each node told to stop (SIGTERM) and started
  again in turn, --rounds times over: how long each game the stopping node played pauses, and whether anything
  acknowledged was lost (bench/rolling.py). Not among the defaults: run it by name.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench import rolling
from bench.players import Followed, orders_for
from bench.server_load import ROOT, Figures, ServerProcess, Setup, cpu_set, measure, raise_open_files, run_on
from shared.protocol.codes import PROTOCOL_VERSION

PLAYERS = 3
Message = dict[str, Any]


# ---- servers -------------------------------------------------------------------------------------------------------


async def _serve_node(dsn: str, node_id: str, port: int) -> None:
    """One node, limits loosened as bench/server_load.py loosens its server's."""
    from server.app import RiscServer, settle_collector
    from server.config import ServerConfig

    raise_open_files()
    config = ServerConfig(
        host="127.0.0.1",
        port=port,
        messages_per_second=1e9,
        burst=10**9,
        outbound_bytes=1 << 40,
        outbound_total_bytes=1 << 40,
        max_games=10_000,
        connections_per_address=None,  # every player of the bench comes from this one address
        open_games_per_connection=10_000,
        open_games_per_address=10_000,
        node_id=node_id,
        store=dsn,
        fence_after=30.0,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with RiscServer(config) as server:
        settle_collector()
        print(f"PORT {server.port}", flush=True)
        await stop.wait()


def start_node(
    dsn: str, node_id: str, port: int = 0, cpus: set[int] | None = None, log: Path | None = None
) -> ServerProcess:
    return ServerProcess.start(
        [str(Path(__file__).resolve()), "--serve-node", node_id, "--store", dsn, "--port", str(port)],
        cpus=cpus,
        log=log,
    )


def start_sqlite_server(data_dir: str, cpus: set[int] | None = None) -> ServerProcess:
    return ServerProcess.start(
        [str(ROOT / "bench" / "server_load.py"), "--serve", "--data-dir", data_dir, "--store", "sqlite"], cpus=cpus
    )


@dataclass
class Postgres:
    """The PostgreSQL the nodes share: its address, and its processes' CPU time (the postmaster and its children,
    the backends serving the nodes among them)."""

    dsn: str
    postmaster: int | None
    cluster: Any = None

    def cpu_seconds(self) -> float:
        if self.postmaster is None:
            return 0.0
        total = 0.0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                pid = int(stat.parent.name)
                if pid == self.postmaster or int(fields[1]) == self.postmaster:
                    total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total

    def commits(self) -> int:
        """Transactions committed in every database of the server so far (pg_stat_database): what its write-ahead
        log flushes, which PostgreSQL's group commit shares among transactions that come together."""
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as db:
            row = db.execute("SELECT sum(xact_commit) FROM pg_stat_database").fetchone()
        return int(row[0]) if row is not None and row[0] is not None else 0

    def fresh(self) -> str:
        """A new empty database (on the bench's own PostgreSQL), so that each run starts from nothing."""
        if self.cluster is None:
            return self.dsn
        return str(self.cluster.dsn(self.cluster.new_database()))


def own_postgres(cpus: set[int] | None = None) -> Postgres:
    """A throwaway PostgreSQL of the bench's own; `cpus`: pinned to them (the postmaster and what it has forked so
    far: the backends it forks later inherit its affinity)."""
    from tests.postgres_support import start_cluster

    cluster = start_cluster()
    pid_file = cluster.directory / "data" / "postmaster.pid"
    postgres = Postgres(cluster.dsn(), int(pid_file.read_text().split()[0]), cluster)
    if cpus and postgres.postmaster is not None:
        for pid in [postgres.postmaster, *_children(postgres.postmaster)]:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(pid, cpus)
    return postgres


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


# ---- cpu and scale ---------------------------------------------------------------------------------------------------


@dataclass
class Run:
    label: str
    figures: Figures
    server_ms: float
    database_ms: float
    turns_per_second: float
    commits_per_turn: float


def played(label: str, servers: list[ServerProcess], postgres: Postgres | None, games: int, setup: Setup) -> Run:
    database0 = postgres.cpu_seconds() if postgres else 0.0
    commits0 = postgres.commits() if postgres else 0
    figures = measure(
        "game",
        servers,
        games,
        setup,
        {
            "seconds": setup.seconds,
            "max_turns": setup.max_turns,
            "batch": setup.batch,
            "whole": setup.whole,
            "protocol": PROTOCOL_VERSION,
        },
    )
    database = (postgres.cpu_seconds() - database0) if postgres else 0.0
    commits = (postgres.commits() - commits0) if postgres else 0
    turns = max(1, figures.resolved)
    return Run(
        label, figures, figures.cpu_ms_per_turn, database * 1000 / turns, figures.turns_per_second, commits / turns
    )


def cpu(postgres: Postgres, games: int, setup: Setup) -> list[Run]:
    runs = []
    with tempfile.TemporaryDirectory(prefix="risc-cluster-") as data_dir:
        server = start_sqlite_server(data_dir, setup.server_cpus)
        try:
            runs.append(played("one server, SQLite", [server], None, games, setup))
        finally:
            server.stop()
    node = start_node(postgres.fresh(), "node-1", cpus=setup.server_cpus)
    try:
        runs.append(played("one node, PostgreSQL", [node], postgres, games, setup))
    finally:
        node.stop()
    return runs


def scale(postgres: Postgres, games: int, setup: Setup, counts: list[int]) -> list[Run]:
    runs = []
    for count in counts:
        dsn = postgres.fresh()
        nodes = [start_node(dsn, f"node-{i + 1}") for i in range(count)]
        try:
            runs.append(played(f"{count} node{'s' * (count != 1)}", nodes, postgres, games, setup))
        finally:
            for node in nodes:
                node.stop()
    return runs


# ---- failover --------------------------------------------------------------------------------------------------------


@dataclass
class Seat:
    """A player that plays on without end and comes back after its node dies, as the text client does."""

    game_id: str
    name: str
    token: str
    ports: list[int]
    """Where it may reconnect: the node it joined through first, then the others."""
    back_at: float | None = None
    """When it last held a view from the game's node after reconnecting."""
    ws: ClientConnection | None = None
    seq: int = 0
    followed: Followed = field(default_factory=Followed)

    async def request(self, message: Message) -> Message:
        assert self.ws is not None
        await self.ws.send(json.dumps({**message, "ref": "x"}))
        while True:
            reply: Message = json.loads(await self.ws.recv())
            if reply.get("ref") == "x":
                return reply
            self.take(reply)

    def take(self, message: Message) -> None:
        if message["type"] == "game_map":
            self.followed.take_map(message["map"])
        elif message["type"] == "update":
            self.seq = max(self.seq, message["seq"])
            self.followed.take_update(message)

    async def seat(self, first: bool = False) -> None:
        """Take the seat back wherever the game is played: through each port in turn, following redirects, each
        try after a pause as the text client's (client/connection.py: 0.5 s, doubling, up to a quarter shorter;
        its first round over the nodes at the first pause)."""
        pause = 0.0 if first else 0.5
        while True:
            for port in self.ports:
                await asyncio.sleep(pause * random.uniform(0.75, 1.0))
                with contextlib.suppress(OSError, ConnectionClosed, TimeoutError):
                    await self._resume(f"ws://127.0.0.1:{port}/")
                    return
            pause = min(10.0, max(pause, 0.5) * 2)

    async def _resume(self, url: str) -> None:
        for _ in range(3):
            self.ws = await asyncio.wait_for(connect(url, max_size=None, ping_interval=None), 5)
            await self.ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION}))
            json.loads(await self.ws.recv())
            reply = await self.request(
                {"type": "resume", "game_id": self.game_id, "token": self.token, "last_seq": self.seq}
            )
            if reply["type"] == "redirect":
                await self.ws.close()
                url = reply["url"]
                continue
            if reply["type"] != "resumed":
                await self.ws.close()
                raise OSError(f"not resumed: {reply}")
            return
        raise OSError("redirected too often")

    async def play(self, killed: dict[str, float], times: dict[tuple[str, float], list[float]]) -> None:
        """Play; after each drop, come back and note when the first view came (for the kill under way)."""
        while True:
            with contextlib.suppress(ConnectionClosed, OSError):
                await self._play(killed, times)
            await self.seat()

    async def _play(self, killed: dict[str, float], times: dict[tuple[str, float], list[float]]) -> None:
        assert self.ws is not None
        async for frame in self.ws:
            message = json.loads(frame)
            self.take(message)
            if message["type"] == "update" and message.get("view") is not None:
                kill = killed.get(self.game_id)
                if kill is not None:  # the first whole view after coming back: playing again
                    times.setdefault((self.game_id, kill), []).append(time.monotonic() - kill)
                    if len(times[(self.game_id, kill)]) == PLAYERS:
                        del killed[self.game_id]
            if message["type"] != "update" or self.followed.view is None:
                continue
            seen = self.followed.seen()
            summary = self.followed.game or {}
            seats = summary.get("seats", {})
            mine = next(
                (s for s in (seats.values() if isinstance(seats, dict) else seats) if s.get("name") == self.name), None
            )
            if mine is None or not mine.get("awaited") or mine.get("committed") or seen.phase == "finished":
                continue
            for order in orders_for(seen, self.name):
                await self.ws.send(
                    json.dumps({"type": "issue_order", "game_id": self.game_id, "turn": seen.turn, "order": order})
                )
            await self.ws.send(json.dumps({"type": "commit", "game_id": self.game_id, "turn": seen.turn}))


async def _failover(dsn: str, kills: int, games: int) -> list[float]:
    import psycopg

    nodes = [start_node(dsn, f"node-{i + 1}") for i in range(3)]
    ports = [n.port for n in nodes]
    try:
        seats = [Seat(*seated) for seated in await rolling.seated_games(ports, games)]
        for seat in seats:
            await seat.seat(first=True)
        killed: dict[str, float] = {}
        times: dict[tuple[str, float], list[float]] = {}
        players = [asyncio.create_task(seat.play(killed, times)) for seat in seats]
        await asyncio.sleep(3)
        for round_ in range(kills):
            with psycopg.connect(dsn) as db:
                owners = dict(
                    db.execute("SELECT owner, count(*) FROM games WHERE phase = 'playing' GROUP BY owner").fetchall()
                )
                played_by = {
                    node_id: [
                        g
                        for (g,) in db.execute(
                            "SELECT game_id FROM games WHERE owner = %s AND phase = 'playing'", (node_id,)
                        ).fetchall()
                    ]
                    for node_id in owners
                }
            victim_id = max(owners, key=lambda n: owners[n])
            victim = int(victim_id.split("-")[1]) - 1
            now = time.monotonic()
            for game_id in played_by[victim_id]:
                killed[game_id] = now
            nodes[victim].process.send_signal(signal.SIGKILL)
            nodes[victim].process.wait()
            end = time.monotonic() + 30
            while killed and time.monotonic() < end:
                await asyncio.sleep(0.05)
            if killed:
                print(f"  kill {round_ + 1}: {len(killed)} games not back within 30 s", flush=True)
                killed.clear()
            nodes[victim] = start_node(dsn, victim_id, port=ports[victim])
            await asyncio.sleep(1.0)
            done = [max(v) for (g, k), v in times.items() if k == now and len(v) == PLAYERS]
            print(
                f"  kill {round_ + 1}: {victim_id} with {len(played_by[victim_id])} games; back after "
                f"{statistics.median(done):.2f} s median, {max(done):.2f} s the last"
                if done
                else f"  kill {round_ + 1}: no game back",
                flush=True,
            )
        for task in players:
            task.cancel()
        return [max(v) for v in times.values() if len(v) == PLAYERS]
    finally:
        for node in nodes:
            node.stop()


# ---- the command -----------------------------------------------------------------------------------------------------


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else float("nan")


def _print_runs(title: str, games: int, rounds: list[list[Run]]) -> None:
    print(f"\n{title}, {games} games (medians of {len(rounds)} runs)")
    print(
        "| setup | turns/s | server CPU ms/turn | PostgreSQL CPU ms/turn | both | PostgreSQL commits/turn "
        "| p50 ms | p99 ms | RSS MB |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for index, first in enumerate(rounds[0]):
        runs = [r[index] for r in rounds]
        med = statistics.median
        print(
            f"| {first.label} | {med(r.turns_per_second for r in runs):,.0f} | "
            f"{med(r.server_ms for r in runs):.2f} | {med(r.database_ms for r in runs):.2f} | "
            f"{med(r.server_ms + r.database_ms for r in runs):.2f} | {med(r.commits_per_turn for r in runs):.1f} | "
            f"{med(r.figures.p50 for r in runs):.1f} | "
            f"{med(r.figures.p99 for r in runs):.1f} | {med(r.figures.rss_mb for r in runs):.0f} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="*", help="cpu, scale, failover and/or rolling (default: the first three)")
    parser.add_argument("--games", type=int, default=100, help="games played at once (cpu, scale)")
    parser.add_argument("--seconds", type=float, default=20.0, help="each run's play (cpu, scale)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of cpu and scale, their medians printed")
    parser.add_argument("--nodes", default="1,2,3", help="node counts for scale")
    parser.add_argument("--kills", type=int, default=20, help="nodes killed (failover)")
    parser.add_argument("--failover-games", type=int, default=30, help="games played through the kills")
    parser.add_argument("--rounds", type=int, default=2, help="rolling restarts of every node (rolling)")
    parser.add_argument("--think", type=float, default=3.0, help="a player's pause before each turn's orders (rolling)")
    parser.add_argument("--server-cpus", default=None, help="pin the servers (cpu) to these CPUs, e.g. 0")
    parser.add_argument("--client-cpus", default=None, help="pin the client processes to these CPUs, e.g. 1")
    parser.add_argument("--store", default=None, help="an existing PostgreSQL database (default: a throwaway one)")
    parser.add_argument("--batch", action="store_true", help="the players send a turn's orders in one issue_orders")
    parser.add_argument(
        "--whole", action="store_true", help="and its commit in the same message (a whole turn: implies --batch)"
    )
    parser.add_argument("--serve-node", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_node is not None:
        run_on("auto", _serve_node(args.store, args.serve_node, args.port))  # as risc server: uvloop if installed
        return
    args.what = args.what or ["cpu", "scale", "failover"]
    if set(args.what) - {"cpu", "scale", "failover", "rolling"}:
        parser.error("measure cpu, scale, failover and/or rolling")
    setup = Setup(
        workers=2,
        seconds=args.seconds,
        max_turns=60,
        store="sqlite",
        server_cpus=cpu_set(args.server_cpus),
        client_cpus=cpu_set(args.client_cpus),
        profile=None,
        codes=[ROOT],
        batch=args.batch or args.whole,
        whole=args.whole,
    )
    postgres = Postgres(args.store, None) if args.store else own_postgres()
    print(
        f"PostgreSQL: {'given' if args.store else 'a throwaway cluster on a unix socket'} (fsync on, "
        f"synchronous_commit on); {os.cpu_count()} CPUs"
    )
    try:
        if "cpu" in args.what:
            _print_runs(
                "One server on SQLite beside one node on PostgreSQL",
                args.games,
                [cpu(postgres, args.games, setup) for _ in range(args.repeat)],
            )
        if "scale" in args.what:
            counts = [int(n) for n in args.nodes.split(",")]
            _print_runs(
                "Nodes on one PostgreSQL",
                args.games,
                [scale(postgres, args.games, setup, counts) for _ in range(args.repeat)],
            )
        if "rolling" in args.what:
            print(
                f"\nRolling restart: 3 nodes, {args.games} games of {PLAYERS}, every node restarted {args.rounds} times"
            )
            dsn = postgres.fresh()
            log = Path(tempfile.mkdtemp(prefix="risc-rolling-")) / "nodes.log"
            print(f"the nodes' log: {log}")
            figures = asyncio.run(
                rolling.rolling(
                    dsn,
                    lambda node_id, port: start_node(dsn, node_id, port, log=log),
                    args.games,
                    args.rounds,
                    args.think,
                    settle=3.0,
                )
            )
            rolling.report(figures)
        if "failover" in args.what:
            print(f"\nFailover: 3 nodes, {args.failover_games} games of {PLAYERS}, {args.kills} kills")
            times = asyncio.run(_failover(postgres.fresh(), args.kills, args.failover_games))
            print(
                f"games back: {len(times)}; from the kill to every player holding the new node's view: "
                f"p50 {statistics.median(times):.2f} s, p99 {_p99(times):.2f} s, most {max(times):.2f} s"
            )
    finally:
        if postgres.cluster is not None:
            postgres.cluster.stop()


if __name__ == "__main__":
    main()
