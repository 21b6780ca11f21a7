"""Seats the server plays itself: a game's creator asks for them with the `bots` setting.

A server-run bot is a subscriber like any connection: the match sends it the same updates, made by the same view
function for its seat (D2), so it never learns anything its player could not. It acts through the match's own
issue and commit, under the same lock and the same rules as a person's orders. Its turns take their place in the
server's computer time (server/computers/share.py): one computer's turn at a time, after people's requests, choosing its
orders in the one thread computers think in while the event loop serves everyone else.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import secrets
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from server import core
from server.computers.share import ComputerTime
from server.match import Match
from server.refusal import Refusal
from server.tasks import BackgroundTasks
from shared.bots.tournament import make_strategy
from shared.game.ruleset import AnyRuleSet
from shared.game.strategy import Strategy
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import GameStatus, GameSummary
from shared.protocol.messages import Update

logger = logging.getLogger("risc.server")


class ServerBot:
    """One seat played by the server, following whichever games it sits in (a rematch seats it again)."""

    def __init__(
        self,
        name: str,
        strategy: Strategy,
        find_match: Callable[[str], Match],
        seed: int | None = None,
        time: ComputerTime | None = None,
        stand_in: bool = False,
    ) -> None:
        self.name = name
        self.stand_in = stand_in
        """Playing a seat handed over while its player is away: it asks for no rematch on their behalf."""
        self.strategy = strategy
        self.time = time if time is not None else ComputerTime()
        """Where its turns wait theirs: shared by every computer of the server."""
        self.games: set[str] = set()
        self.reads_text = False  # it reads the update objects (their views), never the text
        self.words = False
        self.views: dict[str, dict[str, Any]] = {}
        self.refused = 0
        """Orders or commits the match refused: a strategy checks its orders first, so this stays 0."""
        self._rng = random.Random(secrets.randbits(63) if seed is None else seed)
        self._find = find_match
        self._handled: dict[str, int] = {}
        self._tasks = BackgroundTasks()
        self._closed = False

    @property
    def label(self) -> str:
        return f"bot {self.name}"

    def send(self, message: BaseModel, text: str | None = None) -> None:
        """Called by the match under its lock: decide whether to act, and do it later, outside the lock. A bot reads
        the message itself (its view as the rule set made it), never its text."""
        if self._closed or not isinstance(message, Update) or message.you != self.name or message.view is None:
            return
        game = message.game  # whole in the object a match gives its own players (the patches are for the wire)
        if game is None:
            return
        if game.status is GameStatus.FINISHED:
            if not self.stand_in and game.rematch and self.name not in game.rematch and game.rematch_game is None:
                self._tasks.spawn(self._rematch(message.game_id), f"{self.label} failed")
            return
        seat = next((s for s in game.seats if s.name == self.name), None)
        if seat is None or not seat.awaited:
            return
        if self._handled.get(message.game_id) == game.step:
            return
        self._handled[message.game_id] = game.step
        self._tasks.spawn(self._play(message.game_id, message.view, game), f"{self.label} failed")

    async def _play(self, game_id: str, view: Any, game: GameSummary) -> None:
        """Decide on the view (in a worker thread), then play the seat in one change (Match.play_seat): a
        turn-by-turn game's next action is decided on the update the last one brings."""
        match = self._find(game_id)
        alone = only_bots_left(match, game)
        if self.time.pause > 0 and alone:
            await asyncio.sleep(self.time.pause)  # those watching can follow; an endless game cannot spin the server
        async with self.time.turn(urgent=not alone):
            await self._take_turn(match, game_id, view, game)

    async def _take_turn(self, match: Match, game_id: str, view: Any, game: GameSummary) -> None:
        orders = await self.time.think(self.strategy.decide, view, match.game_map, self.name, self._rng)
        if not match.ruleset.simultaneous:
            orders = orders[:1]  # each action changes the board: the next is decided on the update it brings
        if self._closed:
            return
        try:
            refusals = await match.play_seat(self, game.turn, orders)
        except Refusal as late:  # the game moved on meanwhile (time ran out): the next update says what now
            logger.info("game %s: %s's decision came too late: %s", game_id, self.name, late.message)
            return
        for refusal in refusals:
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


def only_bots_left(match: Match, game: GameSummary) -> bool:
    """Whether every player still in the game is one the server plays (their names are reserved when it is made)."""
    bots = set(core.server_seat_names(match.settings))
    return all(s.name in bots for s in game.seats if not s.eliminated)


def bot_seed(match: Match, name: str) -> int:
    """A computer player's chance, drawn from its game's seed and its seat: a game whose seed is fixed (a test, a
    replay) is played the same way by the server's players too."""
    digest = hashlib.sha256(f"{match.table.seed}:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def check_strategy(ruleset: AnyRuleSet, strategy: str) -> None:
    """Refuse settings whose bot strategy the rule set does not know, naming the ones it does."""
    try:
        make_strategy(ruleset, strategy)
    except ValueError as exc:
        raise Refusal(ErrorCode.BAD_SETTINGS, f"bot_strategy: {exc}", field="settings.bot_strategy") from None


async def seat_bots(
    match: Match, find_match: Callable[[str], Match], time: ComputerTime | None = None
) -> list[ServerBot]:
    """Fill the seats a new game's settings ask for, each with a fresh computer player."""
    bots: list[ServerBot] = []
    strategy = match.settings.bot_strategy or match.ruleset.default_strategy
    for name in core.server_seat_names(match.settings):
        bot = ServerBot(name, make_strategy(match.ruleset, strategy), find_match, seed=bot_seed(match, name), time=time)
        summary = match.summary()
        group = None
        if summary.groups is not None:
            taken = {s.group for s in summary.seats}
            group = next(i for i in range(len(summary.groups)) if i not in taken)
        await match.join(bot, name, group, None)
        bots.append(bot)
    if bots:
        logger.info(
            "game %s: %d %s for the server's %s players",
            match.game_id,
            len(bots),
            "seat" if len(bots) == 1 else "seats",
            strategy,
        )
    return bots


async def reseat_bots(
    match: Match, find_match: Callable[[str], Match], time: ComputerTime | None = None
) -> list[ServerBot]:
    """A restored game's server-run seats, played again from where the store left them."""
    seated = {s.name for s in match.seats}
    bots: list[ServerBot] = []
    for name in core.server_seat_names(match.settings):
        if name in seated:
            strategy = match.settings.bot_strategy or match.ruleset.default_strategy
            bot = ServerBot(
                name, make_strategy(match.ruleset, strategy), find_match, seed=bot_seed(match, name), time=time
            )
            await match.attach(bot, name)
            bots.append(bot)
    for name in match.table.handed_over:
        if name in seated:
            bots += await seat_substitute(match, name, find_match, time)
    return bots


async def seat_substitute(
    match: Match, player: str, find_match: Callable[[str], Match], time: ComputerTime | None = None
) -> list[ServerBot]:
    """The server's computer player sits in `player`'s seat (handed over by a vote); the player may still come back
    with their token and take it again."""
    bot = ServerBot(
        player,
        make_strategy(match.ruleset, core.stand_in_strategy(match.table)),
        find_match,
        seed=bot_seed(match, player),
        time=time,
        stand_in=True,
    )
    await match.attach(bot, player)
    return [bot]
