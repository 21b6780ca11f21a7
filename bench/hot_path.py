"""The CPU a served game's turn costs the server's own code, without sockets: its matches, updates and store.

Run by hand: `python bench/hot_path.py [--games 100] [--store memory,sqlite] [--map seed] [--whole] [--profile
FILE]`. G games of 3 all-out
players (bench/players.py) are played at once in this process through the matches themselves (Match.issue and
Match.commit, as a connection's requests reach them), each follower a stand-in for a connection that keeps the
frames it is sent; the players read their updates back and decide their orders as the bench's clients do. Printed:
the process's CPU time per resolved turn, less what the players took (timed apart), for each store, and the user
and system time. With bench/server_load.py it tells the websockets and transport part of a turn (the difference)
from the rest.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pydantic import BaseModel

from bench.players import Followed, orders_for
from server.collector import settle_collector
from server.match import Match
from server.storage import MemoryStorage, SeatRecord, SqliteStorage, Storage
from shared.maps import load_map
from shared.protocol.lobby import GameSettings
from shared.protocol.messages import encode

PLAYERS = 3


class Follower:
    """A connection as a match sees it: it keeps each frame's text (encoded as the transport would)."""

    def __init__(self) -> None:
        self.games: set[str] = set()
        self.reads_text = True  # as a network connection
        self.words = False
        self.views: dict[str, dict[str, Any]] = {}
        self.frames: list[str] = []
        self.arrived = asyncio.Event()

    @property
    def label(self) -> str:
        return "bench"

    def send(self, message: BaseModel, text: str | None = None) -> None:
        self.frames.append(encode(message) if text is None else text)
        self.arrived.set()


class Clock:
    """CPU time spent as the players (reading frames, deciding), kept apart from the server's."""

    def __init__(self) -> None:
        self.players = 0.0
        self.resolved = 0


async def seat(
    match: Match,
    follower: Follower,
    me: str,
    neighbours: dict[str, list[str]],
    turns: int,
    clock: Clock,
    whole: bool = False,
) -> None:
    followed = Followed(neighbours=neighbours)
    key: tuple[str, int] | None = None
    for _ in range(turns):
        started = time.process_time()
        while True:
            moved = False
            for text in follower.frames:
                message = json.loads(text)
                if message["type"] == "update" and followed.take_update(message):
                    assert followed.view is not None
                    new_key = (followed.view["phase"], followed.view["turn"])
                    moved, key = moved or new_key != key, new_key
            follower.frames.clear()
            if moved or match.finished:
                break
            follower.arrived.clear()
            clock.players += time.process_time() - started
            await follower.arrived.wait()
            started = time.process_time()
        seen = followed.seen() if not match.finished else None
        orders = [] if seen is None else orders_for(seen, me)
        clock.players += time.process_time() - started
        if seen is None or me not in seen.alive:
            return
        if whole:
            await match.issue_batch(follower, seen.turn, orders, "r", commit=True)
        else:
            for order in orders:
                await match.issue(follower, seen.turn, order, "r")
            await match.commit(follower, seen.turn, "r")
        if me.endswith("p0"):
            clock.resolved += 1


async def play(
    storage: Storage, games: int, map_name: str, turns: int, whole: bool = False
) -> tuple[float, float, float, int]:
    game_map = load_map(map_name)
    neighbours = {t: sorted(game_map.neighbours(t)) for t in game_map.names}
    tables = []
    for g in range(games):
        seats = [SeatRecord(name=f"g{g}p{i}", token_hash="0" * 64) for i in range(PLAYERS)]
        match = await Match.create(
            f"g{g}", GameSettings(map=None, players=PLAYERS), game_map, storage, seed=g, seats=seats
        )
        followers = [Follower() for _ in range(PLAYERS)]
        for record, follower in zip(seats, followers, strict=True):
            await match.attach(follower, record.name)
        tables.append((match, followers, seats))
    settle_collector()  # as a server does once it has started: the same collections in the play as it has
    clock = Clock()
    before, cpu = resource.getrusage(resource.RUSAGE_SELF), time.process_time()
    await asyncio.gather(
        *(
            seat(match, f, s.name, neighbours, turns, clock, whole)
            for match, followers, seats in tables
            for f, s in zip(followers, seats, strict=True)
        )
    )
    after, cpu = resource.getrusage(resource.RUSAGE_SELF), time.process_time() - cpu
    turns_played = max(1, clock.resolved)
    return (
        (cpu - clock.players) / turns_played,
        (after.ru_utime - before.ru_utime) / turns_played,
        (after.ru_stime - before.ru_stime) / turns_played,
        turns_played,
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--store", default="memory,sqlite", help="memory, sqlite, or both (comma-separated)")
    parser.add_argument("--map", default="seed")
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument(
        "--whole", action="store_true", help="each turn's orders and commit in one issue_orders, as the bot sends them"
    )
    parser.add_argument("--profile", type=Path, default=None, help="cProfile the play into FILE (pstats)")
    args = parser.parse_args()
    print(f"{args.games} games of {PLAYERS} all-out players on {args.map}, in-process, played at once")
    for store in args.store.split(","):
        with tempfile.TemporaryDirectory(prefix="risc-hot-") as data_dir:
            storage: Storage = MemoryStorage() if store == "memory" else SqliteStorage(Path(data_dir) / "g.sqlite3")
            profiler = None
            if args.profile is not None:
                import cProfile

                profiler = cProfile.Profile()
                profiler.enable()
            per_turn, user, system, turns = await play(storage, args.games, args.map, args.turns, args.whole)
            if profiler is not None:
                profiler.disable()
                profiler.dump_stats(str(args.profile.with_suffix(f".{store}.pstats")))
            await storage.close()
        print(
            f"  {store}: {per_turn * 1000:.3f} ms of CPU a turn for the server's code ({turns} turns; the whole "
            f"process: user {user * 1000:.3f} ms, system {system * 1000:.3f} ms a turn)"
        )


if __name__ == "__main__":
    asyncio.run(main())
