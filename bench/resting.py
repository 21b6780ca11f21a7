"""What servers cost while nobody plays: a server alone on SQLite, and nodes sharing PostgreSQL.

Run by hand: `python bench/resting.py [--nodes 2] [--seconds 30] [--settle 10] [--repeat 2] [--cpus 0]
[--code DIR ...]`. Each server is `python -m server` as an operator starts it (its defaults, from the checkout
DIR: `--code` twice or more measures several side by side, taking turns), pinned to CPUS; the nodes share a fresh
database of a throwaway PostgreSQL of the bench's own (bench/cluster.py), pinned likewise. After SETTLE seconds the
bench measures for SECONDS: each server's CPU time a second, PostgreSQL's (every one of its processes, its own
background work counted), and the transactions a second the nodes' database saw. A cluster's nodes keep asking
PostgreSQL things (who else is there, what ended elsewhere): this is what that costs when there is nothing else,
the floor under every turn of a quiet cluster.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cluster import Postgres, own_postgres
from bench.server_load import cpu_set

ROOT = Path(__file__).resolve().parents[1]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def servers(code: Path, argvs: list[list[str]], cpus: set[int] | None) -> Iterator[list[int]]:
    """`python -m server ARGV` from `code` for each argv, once each says it listens: their pids."""
    started: list[subprocess.Popen[str]] = []
    try:
        for argv in argvs:
            process = subprocess.Popen(
                [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0", *argv],
                cwd=code,
                env={**os.environ, "PYTHONPATH": str(code)},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            started.append(process)
            if cpus:
                os.sched_setaffinity(process.pid, cpus)
            assert process.stderr is not None
            for line in process.stderr:
                if re.search(r"listening on 127\.0\.0\.1:\d+", line):
                    break
            else:
                raise RuntimeError(f"a server of {code} exited before listening")
            os.set_blocking(process.stderr.fileno(), False)  # its later lines are not read: never let them block it
        yield [p.pid for p in started]
    finally:
        for process in started:
            process.terminate()
        for process in started:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()


def transactions(postgres: Postgres, database: str) -> int:
    import psycopg

    with psycopg.connect(postgres.dsn, autocommit=True) as db:
        row = db.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s", (database,)
        ).fetchone()
    return int(row[0]) if row is not None else 0


def measure_sqlite(code: Path, args: argparse.Namespace, cpus: set[int] | None) -> str:
    with (
        tempfile.TemporaryDirectory(prefix="risc-resting-") as data,
        servers(code, [["--data-dir", data]], cpus) as pids,
    ):
        time.sleep(args.settle)
        before, began = cpu_seconds(pids[0]), time.monotonic()
        time.sleep(args.seconds)
        spent = (cpu_seconds(pids[0]) - before) / (time.monotonic() - began)
    return f"| {code.name} | SQLite, one server | {spent * 1000:.1f} | | |"


def measure_nodes(code: Path, postgres: Postgres, args: argparse.Namespace, cpus: set[int] | None) -> str:
    dsn = postgres.fresh()
    database = urlparse(dsn).path.lstrip("/")
    argvs = [["--store", dsn, "--node-id", f"node-{index}"] for index in range(args.nodes)]
    with servers(code, argvs, cpus) as pids:
        time.sleep(args.settle)
        tx0 = transactions(postgres, database)  # asked on another database: not counted in this one's
        nodes0, pg0, began = [cpu_seconds(p) for p in pids], postgres.cpu_seconds(), time.monotonic()
        time.sleep(args.seconds)
        tx1 = transactions(postgres, database)
        wall = time.monotonic() - began
        nodes = [(cpu_seconds(p) - before) / wall * 1000 for p, before in zip(pids, nodes0, strict=True)]
        pg = (postgres.cpu_seconds() - pg0) / wall * 1000
    each = ", ".join(f"{n:.1f}" for n in nodes)
    return f"| {code.name} | {args.nodes} nodes on PostgreSQL | {each} | {pg:.1f} | {(tx1 - tx0) / wall:.1f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=30.0, help="the window measured")
    parser.add_argument("--settle", type=float, default=10.0, help="seconds after start before it")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--cpus", default="0", help="the servers' and PostgreSQL's CPUs ('' : any)")
    parser.add_argument("--code", type=Path, action="append", default=[], metavar="DIR")
    args = parser.parse_args()
    codes = [c.resolve() for c in args.code] or [ROOT]
    cpus = cpu_set(args.cpus)
    postgres = own_postgres(cpus)
    print(f"{args.seconds:g} s measured after {args.settle:g} s; load average {os.getloadavg()[0]:.1f}")
    print("| code | servers | each server's CPU ms a second | PostgreSQL's CPU ms a second | transactions a second |")
    print("|---|---|---|---|---|", flush=True)
    try:
        for _ in range(args.repeat):
            for code in codes:
                print(measure_sqlite(code, args, cpus), flush=True)
                print(measure_nodes(code, postgres, args, cpus), flush=True)
    finally:
        if postgres.cluster is not None:
            postgres.cluster.stop()
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
