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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pydantic import BaseModel
from shared.rules import AttackOrder, GameState, Order, PlaceOrder

from server.lobby import Lobby
from server.match import Match
from server.storage import DATABASE_NAME, MemoryStorage, SeatRecord, SqliteStorage, Storage
from shared.maps import load_map
from shared.protocol.lobby import GameSettings

BIGEUROPE = Path(__file__).resolve().parents[2] / "shared" / "maps" / "domination" / "bigeurope.map"
PLAYERS = [f"p{i}" for i in range(5)]
TURNS = 25
GAMES = 1000


class Seat:
    """A connection that drops what it is sent."""

    def __init__(self) -> None:
        self.games: set[str] = set()
        self.received = 0

    @property
    def label(self) -> str:
        return "bench"

    def send(self, message: BaseModel) -> None:
        self.received += 1


def orders(state: GameState, player: str) -> list[Order]:
    mine = state.territories_of(player)
    if state.turn == 0:
        return [PlaceOrder(mine[0], state.pools.get(player, 0))] if state.pools.get(player) else []
    out: list[Order] = []
    for name in mine:
        enemies = sorted((state.units[n], n) for n in state.game_map.neighbours(name) if state.owner[n] != player)
        if state.units[name] > 1 and enemies:
            out.append(AttackOrder(state.units[name] - 1, name, enemies[0][1]))
    return out


async def play(storage: Storage) -> tuple[list[float], Match]:
    """Play TURNS turns; the time of each turn's last commit."""
    game_map = load_map(str(BIGEUROPE))
    settings = GameSettings(map=str(BIGEUROPE), players=len(PLAYERS))
    seats = [SeatRecord(name=p, token_hash="0" * 64) for p in PLAYERS]
    match = await Match.create("bench", settings, game_map, storage, seats=seats)
    subs = {p: Seat() for p in PLAYERS}
    for player, sub in subs.items():
        await match.attach(sub, player)
    times: list[float] = []
    for _ in range(TURNS):
        state = match.state
        assert state is not None
        if state.winner is not None:
            break
        alive = list(state.alive)
        for player in alive:
            for order in orders(state, player):
                await match.issue(subs[player], state.turn, order, None)
        for player in alive[:-1]:
            await match.commit(subs[player], state.turn, None)
        start = time.perf_counter()
        await match.commit(subs[alive[-1]], state.turn, None)
        times.append(time.perf_counter() - start)
    await match.close()
    return times, match


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = SqliteStorage(Path(tmp) / DATABASE_NAME)
        memory_times, _ = await play(MemoryStorage())
        sqlite_times, _ = await play(sqlite)
        memory_ms, sqlite_ms = statistics.median(memory_times) * 1e3, statistics.median(sqlite_times) * 1e3
        print(f"last commit of a turn, 5 players, bigeurope: memory {memory_ms:.2f} ms, sqlite {sqlite_ms:.2f} ms, "
              f"persistence adds {sqlite_ms - memory_ms:.2f} ms (medians of {len(sqlite_times)} turns)")

        stored = await sqlite.load("bench")
        assert stored is not None
        for i in range(GAMES):
            record = stored.record.model_copy(update={"game_id": f"g{i:04d}", "created_at": float(i)})
            await sqlite.create(record, stored.progress, stored.events)
        await sqlite.close()
        loads = []
        for _ in range(3):
            start = time.perf_counter()
            storage = SqliteStorage(Path(tmp) / DATABASE_NAME)
            lobby = Lobby(storage, max_games=10_000)
            restored = await lobby.restore()
            newest = lobby.get(f"g{GAMES - 1:04d}")  # every game now takes requests: a spectator some entries behind
            spectator = Seat()
            await newest.watch(spectator, newest.seq - 10, None)
            loads.append(time.perf_counter() - start)
            assert spectator.received == 2  # watching, then the entries it missed
            await lobby.close()
            await storage.close()
        print(f"server start restoring {restored} games ({len(stored.events)} log entries each, all on bigeurope), "
              f"until they take requests: {statistics.median(loads):.2f} s (median of {len(loads)}), "
              f"{statistics.median(loads) / restored * 1e3:.2f} ms a game")


if __name__ == "__main__":
    asyncio.run(main())
