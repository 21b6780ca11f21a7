"""Storage benchmark: what keeping games in SQLite costs.

Run by hand: `python bench/storage.py`. Prints medians; the figures go into docs/performance.md.
Measured: (1) the last commit of a turn (check, resolution, save, acknowledgement) of a 5-player game on bigeurope
(180 territories), with the SQLite store and with the memory store side by side; (2) a server start: opening the
database, restoring 1,000 stored games (each a bigeurope game some turns in, with its log) with Lobby.restore, and a
spectator's request to the newest of them that needs its stored log.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pydantic import BaseModel

from server.core.entries import from_stored
from server.lobby.lobby import Lobby
from server.match import Match
from server.storage import MemoryStorage, SeatRecord, SqliteStorage, Storage
from server.storage.sqlite import DATABASE_NAME
from shared.game.game import Game
from shared.maps import load_map
from shared.protocol.lobby import GameSettings
from shared.rulesets.risc.board import Phase

BIGEUROPE = Path(__file__).resolve().parents[2] / "shared" / "maps" / "domination" / "bigeurope.map"
PLAYERS = [f"p{i}" for i in range(5)]
TURNS = 25
GAMES = 1000


class Seat:
    """A connection that drops what it is sent."""

    def __init__(self) -> None:
        self.games: set[str] = set()
        self.reads_text = True  # as a network connection
        self.words = False
        self.views: dict[str, dict[str, Any]] = {}
        self.received = 0

    @property
    def label(self) -> str:
        return "bench"

    def send(self, message: BaseModel, text: str | None = None) -> None:
        self.received += 1


def orders(game: Game[Any, Any], player: str) -> list[dict[str, Any]]:
    board = game.board
    mine = board.territories_of(player)
    if board.phase is Phase.PLACEMENT:
        pool = board.pools.get(player, 0)
        return [{"kind": "place", "territory": mine[0], "units": pool}] if pool else []
    out: list[dict[str, Any]] = []
    for name in mine:
        enemies = sorted((board.units[n], n) for n in game.game_map.neighbours(name) if board.owner[n] != player)
        if board.units[name] > 1 and enemies:
            out.append({"kind": "attack", "source": name, "target": enemies[0][1], "units": board.units[name] - 1})
    return out


async def play(storage: Storage) -> tuple[list[float], Match]:
    """Play TURNS turns; the time of each turn's last commit."""
    game_map = load_map(str(BIGEUROPE))
    settings = GameSettings(map=None, players=len(PLAYERS))
    seats = [SeatRecord(name=p, token_hash="0" * 64) for p in PLAYERS]
    match = await Match.create("bench", settings, game_map, storage, seed=1, seats=seats)
    subs = {p: Seat() for p in PLAYERS}
    for player, sub in subs.items():
        await match.attach(sub, player)
    times: list[float] = []
    for _ in range(TURNS):
        game, status = match.game, match.status()
        assert game is not None and status is not None
        if status.finished:
            break
        alive = [p for p in game.players if p in status.acting]
        for player in alive:
            for order in orders(game, player):
                await match.issue(subs[player], status.turn, order, None)
        for player in alive[:-1]:
            await match.commit(subs[player], status.turn, None)
        start = time.perf_counter()
        await match.commit(subs[alive[-1]], status.turn, None)
        times.append(time.perf_counter() - start)
    await match.close()
    return times, match


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = SqliteStorage(Path(tmp) / DATABASE_NAME)
        memory_times, _ = await play(MemoryStorage())
        sqlite_times, _ = await play(sqlite)
        memory_ms, sqlite_ms = statistics.median(memory_times) * 1e3, statistics.median(sqlite_times) * 1e3
        print(
            f"last commit of a turn, 5 players, bigeurope: memory {memory_ms:.2f} ms, sqlite {sqlite_ms:.2f} ms, "
            f"persistence adds {sqlite_ms - memory_ms:.2f} ms (medians of {len(sqlite_times)} turns)"
        )

        stored = await sqlite.load("bench")
        assert stored is not None
        entries = [from_stored(e) for e in stored.events]
        for i in range(GAMES):
            record = stored.record.model_copy(update={"game_id": f"g{i:04d}", "created_at": float(i)})
            await sqlite.create(record, stored.progress, entries)
        await sqlite.close()
        loads = []
        for _ in range(3):
            start = time.perf_counter()
            storage = SqliteStorage(Path(tmp) / DATABASE_NAME)
            lobby = Lobby(storage, max_games=10_000)  # the server's own catalogue, seeds and clock
            restored = await lobby.restore()
            newest = lobby.get(f"g{GAMES - 1:04d}")  # every game now takes requests: a spectator some entries behind
            spectator = Seat()
            await newest.watch(spectator, newest.seq - 10, None, None)
            loads.append(time.perf_counter() - start)
            assert spectator.received == 3  # watching, the map, then the entries it missed
            await lobby.close()
            await storage.close()
        print(
            f"server start restoring {restored} games ({len(stored.events)} log entries each, all on bigeurope), "
            f"until they take requests: {statistics.median(loads):.2f} s (median of {len(loads)}), "
            f"{statistics.median(loads) / restored * 1e3:.2f} ms a game"
        )


if __name__ == "__main__":
    asyncio.run(main())
