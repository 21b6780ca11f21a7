"""The games a server holds: creating them, finding them by id, listing them, restoring them from the store."""

from __future__ import annotations

import asyncio
import logging
import secrets
from pathlib import Path

from server.bots import ServerBot, check_strategy, reseat_bots, seat_bots
from server.match import Match, Refusal, Subscriber
from server.storage.base import SeatRecord, Storage
from server.storage.snapshot import map_from_dict
from shared.maps.findings import MapError
from shared.maps.groups import starting_groups
from shared.maps.loader import load_map
from shared.maps.model import GameMap
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import GameSettings, GameSummary
from shared.rules.registry import get_ruleset
from shared.rules.state import Phase

logger = logging.getLogger("risc.server")

MAX_MAP_BYTES = 8 * 1024 * 1024
"""A map file larger than this is refused unread: the largest real maps are a few hundred kilobytes."""

RESTORED_LOG_ENTRIES = 256
"""How much of each game's log a starting server reads back: enough for clients that were away a few turns; a
client further behind gets a fresh snapshot, as it would from a running server. The whole log stays stored."""


class Lobby:
    def __init__(self, storage: Storage, max_games: int = 500, *, finished_games_kept: int = 200,
                 bot_turn_pause: float = 0.0) -> None:
        self.storage = storage
        self.max_games = max_games
        self.finished_games_kept = finished_games_kept
        self.bot_turn_pause = bot_turn_pause
        self.matches: dict[str, Match] = {}
        self._creating = asyncio.Lock()
        self.bots: list[ServerBot] = []

    async def restore(self) -> int:
        """Bring back every unfinished game the store holds, read in one pass; returns how many.

        Games played on the same map share one map object, built once (maps are immutable).
        """
        maps: dict[str, GameMap] = {}
        restored = []
        for game in await self.storage.load_unfinished(tail=RESTORED_LOG_ENTRIES):
            try:
                game_map = maps.get(game.map_key)
                if game_map is None:
                    game_map = maps[game.map_key] = map_from_dict(game.record.game_map)
                match = Match.restore(game, self.storage, self._rematch, game_map)
            except Exception as exc:  # a damaged game is set aside, untouched; the others are restored
                self.storage.set_aside(game.record.game_id, exc)
                continue
            self.matches[match.game_id] = match
            restored.append(match)
        for match in restored:
            if match.settings.bots:
                self.bots += await reseat_bots(match, self.get, self.bot_turn_pause)
            if match.unsettled:
                await match.settle()
        return len(restored)

    def get(self, game_id: str) -> Match:
        match = self.matches.get(game_id)
        if match is None:
            raise Refusal(ErrorCode.NO_SUCH_GAME, f'there is no game "{game_id}"')
        return match

    def summaries(self) -> list[GameSummary]:
        return [m.summary() for m in self.matches.values()]

    async def create(self, settings: GameSettings) -> Match:
        await self._let_go_of_finished()
        game_map = await self._checked_map(settings)
        async with self._creating:
            match = await Match.create(self._new_id(), settings, game_map, self.storage, self._rematch)
            self.matches[match.game_id] = match
        logger.info("game %s created: map %s, %d players%s", match.game_id, game_map.name, settings.players,
                    f", {settings.turn_seconds:g} s per turn" if settings.turn_seconds else "")
        self.bots += await seat_bots(match, self.get, self.bot_turn_pause)
        return match

    async def _rematch(self, settings: GameSettings, seats: list[SeatRecord]) -> Match:
        """R27: the same settings, the same players in the same seats, each keeping their seat token."""
        game_map = await self._checked_map(settings)
        async with self._creating:
            match = await Match.create(self._new_id(), settings, game_map, self.storage, self._rematch, seats)
            self.matches[match.game_id] = match
        logger.info("game %s created as a rematch: %s", match.game_id, ", ".join(s.name for s in seats))
        return match

    async def _let_go_of_finished(self) -> None:
        """Keep the newest `finished_games_kept` finished games in memory; the store keeps every game."""
        finished = [m for m in self.matches.values() if _is_finished(m)]
        for match in finished[:max(0, len(finished) - self.finished_games_kept)]:
            del self.matches[match.game_id]
            await match.close()
            for bot in [b for b in self.bots if match.game_id in b.games]:
                bot.games.discard(match.game_id)
                if not bot.games:
                    self.bots.remove(bot)
                    await bot.close()

    async def _checked_map(self, settings: GameSettings) -> GameMap:
        running = sum(not _is_finished(m) for m in self.matches.values())
        if running >= self.max_games:
            raise Refusal(ErrorCode.BAD_SETTINGS, f"this server already holds {self.max_games} games in play; "
                                                  "try again when one has ended")
        try:
            get_ruleset(settings.ruleset)
        except ValueError as exc:
            raise Refusal(ErrorCode.BAD_SETTINGS, str(exc)) from None
        check_strategy(settings)
        try:
            size = Path(settings.map).stat().st_size if Path(settings.map).is_file() else 0
        except (OSError, ValueError):
            size = 0
        if size > MAX_MAP_BYTES:
            raise Refusal(ErrorCode.BAD_MAP, f"{settings.map} has {size} bytes; a map may have at most "
                                             f"{MAX_MAP_BYTES}")
        try:
            game_map = await asyncio.to_thread(load_map, settings.map)
        except MapError as exc:
            text = str(exc)
            raise Refusal(ErrorCode.BAD_MAP, text if len(text) <= 600 else text[:600] + " ...") from None
        except (OSError, ValueError) as exc:
            raise Refusal(ErrorCode.BAD_MAP, f'the map "{settings.map}" cannot be read: {exc}') from None
        try:
            starting_groups(game_map, settings.players)
        except ValueError as exc:
            raise Refusal(ErrorCode.BAD_SETTINGS, str(exc)) from None
        return game_map

    def _new_id(self) -> str:
        while True:
            game_id = secrets.token_hex(3)
            if game_id not in self.matches:
                return game_id

    async def disconnect(self, sub: Subscriber) -> None:
        for game_id in list(sub.games):
            match = self.matches.get(game_id)
            if match is not None:
                await match.disconnect(sub)

    async def close(self) -> None:
        for bot in self.bots:
            await bot.close()
        for match in list(self.matches.values()):
            await match.close()


def _is_finished(match: Match) -> bool:
    return match.state is not None and match.state.phase is Phase.FINISHED
