"""Seats the server plays itself: a game's creator asks for them with the `bots` setting.

A server-run bot is a subscriber like any connection: the match sends it the same updates, made by the same view
function for its seat (D2), so it never learns anything its player could not. It acts through the match's own
issue and commit, under the same lock and the same rules as a person's orders. Choosing the orders may take a while
on a large map, so it runs in a worker thread and the event loop keeps serving everyone else meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Callable

from pydantic import BaseModel

from server.match import Match, Refusal
from server.tasks import BackgroundTasks
from shared.bots.base import Strategy
from shared.bots.registry import make_strategy
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import GameSettings
from shared.protocol.messages import Update
from shared.rules.state import Phase
from shared.rules.view import GameView

logger = logging.getLogger("risc.server")


def bot_names(settings: GameSettings) -> list[str]:
    """The names of a game's server-run seats: bot-STRATEGY-1, bot-STRATEGY-2, ..."""
    return [f"bot-{settings.bot_strategy}-{i}" for i in range(1, settings.bots + 1)]


class ServerBot:
    """One seat played by the server, following whichever games it sits in (a rematch seats it again)."""

    def __init__(self, name: str, strategy: Strategy, find_match: Callable[[str], Match],
                 seed: int | None = None, pause: float = 0.0) -> None:
        self.name = name
        self.strategy = strategy
        self.pause = pause
        """Seconds to wait before committing while nobody but the server's own players is left in the game."""
        self.games: set[str] = set()
        self.refused = 0
        """Orders or commits the match refused: a strategy checks its orders first, so this stays 0."""
        self._rng = random.Random(secrets.randbits(63) if seed is None else seed)
        self._find = find_match
        self._handled: dict[str, tuple[Phase, int]] = {}
        self._tasks = BackgroundTasks()
        self._closed = False

    @property
    def label(self) -> str:
        return f"bot {self.name}"

    def send(self, message: BaseModel, text: str | None = None) -> None:
        """Called by the match under its lock: decide whether to act, and do it later, outside the lock. A bot reads
        the message itself, never its text."""
        if self._closed or not isinstance(message, Update) or message.you != self.name or message.view is None:
            return
        game_view = message.view
        if game_view.phase is Phase.FINISHED:
            game = message.game
            if game.rematch and self.name not in game.rematch and game.rematch_game is None:
                self._tasks.spawn(self._rematch(message.game_id), f"{self.label} failed")
            return
        status = next((p for p in game_view.players if p.name == self.name), None)
        if status is None or status.committed or status.eliminated:
            return
        step = (game_view.phase, game_view.turn)
        if self._handled.get(message.game_id) == step:
            return
        self._handled[message.game_id] = step
        self._tasks.spawn(self._play(message.game_id, game_view), f"{self.label} failed")

    async def _play(self, game_id: str, game_view: GameView) -> None:
        match = self._find(game_id)
        orders = await asyncio.to_thread(self.strategy.decide, game_view, match.game_map, self._rng)
        for order in orders:
            if self._closed:
                return
            try:
                await match.issue(self, game_view.turn, order, None)
            except Refusal as refusal:
                self._refusal(game_id, refusal)
        if self.pause > 0 and only_bots_left(match, game_view):
            await asyncio.sleep(self.pause)  # those watching can follow; an endless game cannot spin the server
        if self._closed:
            return
        try:
            await match.commit(self, game_view.turn, None)
        except Refusal as refusal:
            self._refusal(game_id, refusal)

    async def _rematch(self, game_id: str) -> None:
        try:
            await self._find(game_id).request_rematch(self, None)
        except Refusal as refusal:
            logger.info("game %s: %s could not ask for the rematch: %s", game_id, self.name, refusal.message)

    def _refusal(self, game_id: str, refusal: Refusal) -> None:
        self.refused += 1
        logger.warning("game %s: %s was refused (%s): %s", game_id, self.name, refusal.code, refusal.message)

    async def close(self) -> None:
        self._closed = True
        await asyncio.gather(*self._tasks.cancel(), return_exceptions=True)


def only_bots_left(match: Match, game_view: GameView) -> bool:
    """Whether every player still in the game is one the server plays (their names are reserved when it is made)."""
    bots = set(bot_names(match.settings))
    return all(p.name in bots for p in game_view.players if not p.eliminated)


def check_strategy(settings: GameSettings) -> None:
    """Refuse settings whose bot strategy the server does not know, naming the ones it does."""
    try:
        make_strategy(settings.bot_strategy)
    except ValueError as exc:
        raise Refusal(ErrorCode.BAD_SETTINGS, f"bot_strategy: {exc}") from None


async def seat_bots(match: Match, find_match: Callable[[str], Match], pause: float = 0.0) -> list[ServerBot]:
    """Fill the seats a new game's settings ask for, each with a fresh computer player."""
    bots: list[ServerBot] = []
    for name in bot_names(match.settings):
        bot = ServerBot(name, make_strategy(match.settings.bot_strategy), find_match, pause=pause)
        summary = match.summary()
        group = None
        if summary.groups is not None:
            taken = {s.group for s in summary.seats}
            group = next(i for i in range(len(summary.groups)) if i not in taken)
        await match.join(bot, name, group, None)
        bots.append(bot)
    if bots:
        logger.info("game %s: %d seats for the server's %s players", match.game_id, len(bots),
                    match.settings.bot_strategy)
    return bots


async def reseat_bots(match: Match, find_match: Callable[[str], Match], pause: float = 0.0) -> list[ServerBot]:
    """A restored game's server-run seats, played again from where the store left them."""
    seated = {s.name for s in match.seats}
    bots: list[ServerBot] = []
    for name in bot_names(match.settings):
        if name in seated:
            bot = ServerBot(name, make_strategy(match.settings.bot_strategy), find_match, pause=pause)
            await match.attach(bot, name)
            bots.append(bot)
    return bots
