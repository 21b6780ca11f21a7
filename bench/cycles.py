"""Cyclic garbage: what a server's ordinary life leaves for the cycle collector, and what its collector then holds.

Run by hand: `python bench/cycles.py [--lives 4] [--games 2] [--at-once 8] [--code DIR ...] [--collector]
[--postgres]`.

A real server on SQLite (`--postgres`: a node on a throwaway PostgreSQL of the bench's own) in a process of its own
(tests/cycles_support.py, the same harness as tests/test_no_garbage_cycles.py) lives a server's ordinary life LIVES
times over: for each rule set (RISC Evolution 1, RISC Evolution 3 with its fog of war, Warzone, classic Risk, the
grid game) GAMES games of two network bots (one of whom loses its link mid-game and takes its seat back) and one of
the server's computers, each watched to its end by a spectator, and one game of computers alone; a game of a turn's
time limit whose one person never plays; a rematch and a replay; lobby watchers, chat, accounts signed up, in and
out, a rated game found by quick play, a handshake cut short; half the connections that end close cleanly, the
others drop (`a_life`). AT_ONCE games play at the same time. Each finished game is let go at the next creation.

Without `--collector`, the server's collector is off: after each life, what a whole collection would free is counted
and told (its types, and its cycles, each as the references that close it), then freed. The first life includes
what the process makes once, on first use. With `--collector`, the server's collector runs as `risc server` settles
it (server/collector.py): after each life, the objects its walks froze; after the last, its whole walk, timed.

`--code DIR` (repeated) measures the server of each checkout in turn (`.` is this one), the same lives each.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.cycles_support import ROOT, ServerApart, a_life, said
from tests.postgres_support import start_cluster


async def census(code: Path, store: str | None, lives: int, games: int, at_once: int, detail: int) -> None:
    """The collector off: each life's cyclic garbage counted and told."""
    print("| life | games | connections (dropped) | seconds | cyclic garbage | a game | a connection | in cycles |")
    print("|---|---|---|---|---|---|---|---|")
    async with ServerApart.running(code, store=store) as server:
        for number in range(1, lives + 1):
            started = time.monotonic()
            life = await a_life(server.port, games, at_once)
            took = time.monotonic() - started
            report = await server.garbage()
            found = report["found"]
            in_cycles = sum(c["objects"] for c in report["cycles"])
            print(
                f"| {number} | {life.games} | {life.connections} ({life.dropped}) | {took:.1f} | {found:,} | "
                f"{found / life.games:,.1f} | {found / life.connections:,.1f} | {in_cycles:,} |",
                flush=True,
            )
            if life.problems:
                print(f"  problems: {life.problems[:3]}", flush=True)
            if found and (number == 1 or number == lives):
                print("\n".join(f"  {line}" for line in said(report, detail, detail).splitlines()), flush=True)


async def collector(code: Path, store: str | None, lives: int, games: int, at_once: int) -> None:
    """The collector as `risc server` settles it: what its walks froze after each life, then its whole walk."""
    print("| life | games | connections | seconds | frozen | frozen since the first life | tracked |")
    print("|---|---|---|---|---|---|---|")
    async with ServerApart.running(code, collector=True, store=store) as server:
        first = None
        for number in range(1, lives + 1):
            started = time.monotonic()
            life = await a_life(server.port, games, at_once)
            took = time.monotonic() - started
            held = await server.frozen()
            first = held["frozen"] if first is None else first
            print(
                f"| {number} | {life.games} | {life.connections} | {took:.1f} | {held['frozen']:,} | "
                f"{held['frozen'] - first:+,} | {held['tracked']:,} |",
                flush=True,
            )
        walk = await server.whole_walk()
        print(
            f"the whole walk: {walk['objects']:,} objects in {walk['seconds'] * 1000:,.0f} ms "
            f"({walk['cpu'] * 1000:,.0f} ms of CPU), {walk['found']:,} freed",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lives", type=int, default=4, help="the lives lived, one after the other")
    parser.add_argument("--games", type=int, default=2, help="games of each rule set a life (besides the others)")
    parser.add_argument("--at-once", type=int, default=8, help="games played at the same time")
    parser.add_argument("--code", type=Path, action="append", default=[], metavar="DIR", help="a checkout's server")
    parser.add_argument("--collector", action="store_true", help="the server's collector on, as risc server runs it")
    parser.add_argument("--detail", type=int, default=12, help="cycles and types told of the first and last life")
    parser.add_argument("--postgres", action="store_true", help="a node on a throwaway PostgreSQL, not SQLite")
    args = parser.parse_args()
    cluster = start_cluster() if args.postgres else None
    try:
        for code in [c.resolve() for c in args.code] or [ROOT]:
            store = None if cluster is None else cluster.dsn(cluster.new_database())
            print(f"\n{code}{'' if store is None else ', a node on PostgreSQL'}:", flush=True)
            if args.collector:
                asyncio.run(collector(code, store, args.lives, args.games, args.at_once))
            else:
                asyncio.run(census(code, store, args.lives, args.games, args.at_once, args.detail))
    finally:
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    main()
