"""A computer player over the network: it joins a game like any client and plays it to the end.

It is a face on the same session as the text client (client/session.py), so it speaks the published protocol,
reconnects by itself and takes its seat back with its token when the link drops. Each time the game waits for its
seat, it runs one of its rule set's strategies (the same ones tournaments and server-run seats use) on what it sees,
sends the turn's orders and its commit in one message (in a game played one player at a time it plays one action and
is asked again). The strategies check their orders with the rules first, so a refusal should never happen; when one
does, it is logged with the server's words.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from typing import Any

from client.connection import Backoff, ConnectionFailed, ConnectionLost
from client.followed import Followed
from client.link import LinkState
from client.routing import Router
from client.session import Session
from client.tokens import SeatStore
from shared.bots.tournament import make_strategy
from shared.game.strategy import Strategy
from shared.protocol import messages as msg
from shared.protocol.lobby import GameSummary
from shared.protocol.notifications import Notice

logger = logging.getLogger("risc.bot")


class NetworkBot:
    def __init__(
        self,
        url: str,
        game_id: str,
        *,
        strategy: str | None = None,
        name: str | None = None,
        password: str | None = None,
        seed: int | None = None,
        backoff: Backoff | None = None,
        timeout: float = 10.0,
        store: SeatStore | None = None,
    ) -> None:
        self.url = url
        self.game_id = game_id
        self.strategy_name = strategy
        self.strategy: Strategy | None = None
        self.name = name or f"{strategy or 'computer'}-bot"
        self.session = Session(
            url, self, password=password, store=store or _NoSeats(), backoff=backoff, timeout=timeout
        )
        self.errors: list[msg.Error] = []
        """Every error the server sent this bot: refused orders and anything else. Stays empty in a sound game."""
        self.turns_played = 0
        self._rng = random.Random(secrets.randbits(63) if seed is None else seed)
        self._wake = asyncio.Event()
        self._failed: str | None = None
        self._heard_since_lost = True
        """Whether an update came since the link last dropped: until one does, what the bot holds of the game may be
        stale (the game may even be over), and it does not act on it."""

    @property
    def connection(self) -> Router:
        return self.session.connection

    @property
    def followed(self) -> Followed | None:
        return self.session.followed.get(self.game_id)

    @property
    def view(self) -> Any:
        followed = self.followed
        return None if followed is None else followed.view

    # ---- what the session tells -------------------------------------------------------------------------------

    def on_update(self, followed: Followed, entries: list[Any], update: msg.Update) -> None:
        self._heard_since_lost = True
        self._wake.set()

    def on_notice(self, error: msg.Error) -> None:
        self._error(error)

    def on_seated(self, followed: Followed, previous: Followed | None) -> None:
        return None

    def on_resumed(self, followed: Followed) -> None:
        return None

    def on_listed(self, game: GameSummary) -> None:
        return None

    def on_shutdown(self, message: str) -> None:
        logger.info("%s: the server is shutting down: %s", self.name, message)

    def on_link(self, state: LinkState, detail: str) -> None:
        logger.info("%s: %s", self.name, detail)
        if state is LinkState.CLOSED:
            self._failed = detail
            self._wake.set()

    async def on_reconnected(self, resumed: bool) -> None:
        if not resumed:
            self._failed = "could not take the seat back"
        else:
            logger.info("%s: back in game %s", self.name, self.game_id)
        self._wake.set()

    def on_quick_play(self, news: Any) -> None:
        """A network bot does not queue for quick play."""

    def on_lobby_chat(self, said: msg.LobbyChat) -> None:
        """A computer player hears no chat."""

    def on_game_notice(self, notice: Notice) -> None:
        """A computer player needs no telling."""

    def on_signed_out(self) -> None:
        """A computer player never signs in (its session keeps no account's)."""

    def on_session_problem(self, problem: str) -> None:
        """A computer player never signs in."""

    def _error(self, error: msg.Error) -> None:
        self.errors.append(error)
        logger.error(
            "%s: the server refused %s: %s (%s)", self.name, error.request or "a request", error.message, error.code
        )

    # ---- playing ------------------------------------------------------------------------------------------------

    async def run(self) -> int:
        """Join, play every turn, and return 0 once the game is over (1 if it cannot be joined or followed)."""
        try:
            await self.session.open()
        except ConnectionFailed as exc:
            logger.error("%s: %s", self.name, exc)
            return 1
        try:
            reply = await self.session.join(self.game_id, self.name)
            if isinstance(reply, msg.Error):
                self._error(reply)
                return 1
            if not isinstance(reply, msg.Joined):
                logger.error("%s: the server answered join_game with %s", self.name, reply.type)
                return 1
            self.name = reply.player
            logger.info("%s: sitting in game %s", self.name, self.game_id)
            return await self._play()
        except ConnectionLost as exc:
            logger.error("%s: %s", self.name, exc)
            return 1
        finally:
            await self.session.close()

    async def _play(self) -> int:
        handled: int | None = None
        lost = False
        while True:
            await self._wake.wait()
            self._wake.clear()
            followed = self.followed
            if followed is not None and followed.finished:
                game = followed.game
                logger.info(
                    "%s: game %s is over; %s",
                    self.name,
                    self.game_id,
                    f"{game.winner} won" if game is not None and game.winner else "a draw",
                )
                return 0
            if self._failed is not None:
                logger.error("%s: %s", self.name, self._failed)
                return 1
            if followed is None or followed.view is None or followed.game_map is None or followed.game is None:
                continue
            if not followed.awaited or handled == followed.game.step or not self._heard_since_lost:
                continue
            handled = followed.game.step
            try:
                if lost and await self._start_afresh(followed):
                    handled = None  # played on the view the server sends again, without those orders
                else:
                    await self._act(followed)
                lost = False
            except ConnectionLost:
                handled, lost = None, True  # the resumed seat's update says what is still to do
                self._heard_since_lost = False

    async def _start_afresh(self, followed: Followed) -> bool:
        """The link dropped while the bot played this turn, so the server may hold some of its orders already (an
        answer lost with the link): a turn decided again on top of them would be refused. They are withdrawn, and
        the seat taken again on this connection, for a view without them. True when that was needed."""
        ruleset = followed.ruleset
        if ruleset is None or not ruleset.simultaneous or followed.player is None or followed.token is None:
            return False
        listed = await self.session.list_orders(followed)
        if not isinstance(listed, msg.Orders) or listed.committed or not listed.orders:
            return False
        for index in reversed(range(len(followed.orders))):  # the last first: no order depends on a later one
            await self.session.withdraw(followed, index)
        await self.session.resume(followed.game_id, followed.player, followed.token, followed.seq)
        return True

    async def _act(self, followed: Followed) -> None:
        ruleset = followed.ruleset
        assert ruleset is not None and followed.game_map is not None and followed.game is not None
        if self.strategy is None:
            self.strategy = make_strategy(ruleset, self.strategy_name or ruleset.default_strategy)
        step = followed.game.step
        orders = await asyncio.to_thread(self.strategy.decide, followed.view, followed.game_map, self.name, self._rng)
        if not ruleset.simultaneous:
            orders = orders[:1]  # each action changes the board: the next is decided on the update it brings
            for order in orders:
                reply = await self.session.issue(followed, order)
                if isinstance(reply, msg.Error):
                    self._error(reply)
        elif orders:  # a turn's orders and its commit in one message: one answer, one write on the server
            answers = await self.session.issue_batch(followed, orders, commit=True)
            if any(isinstance(answer, msg.OrdersAccepted) and answer.committed for answer in answers):
                self.turns_played += 1
                return
            if self._moved_on(followed, step):
                return
            for answer in answers:
                if isinstance(answer, msg.Error):
                    self._error(answer)
                elif isinstance(answer, msg.OrdersAccepted):
                    for refused in answer.refused:
                        self._error(
                            msg.Error(
                                code=refused.code,
                                message=refused.message,
                                request="issue_orders",
                                game_id=followed.game_id,
                            )
                        )
        if ruleset.simultaneous:  # nothing to order, or not all of it taken: done with what was
            reply = await self.session.commit(followed)
            if isinstance(reply, msg.Error):
                if not self._moved_on(followed, step):
                    self._error(reply)
                return
        self.turns_played += 1

    @staticmethod
    def _moved_on(followed: Followed, step: int) -> bool:
        """Whether the game went past the step the bot played for while its requests were under way: a request sent
        again once the link came back (client/session.py) finds the turn resolved or the game over (its time ran out,
        the others resigned), and the refusals it gets say so rather than that the bot played wrong."""
        return followed.finished or followed.game is None or followed.game.step != step


class _NoSeats(SeatStore):
    """A bot keeps its seat token in memory only: its process is its seat."""

    def __init__(self) -> None:
        super().__init__()
        self._seats: list[Any] = []

    def _read(self) -> list[Any]:
        return list(self._seats)

    def _write(self, seats: list[Any]) -> None:
        self._seats = list(seats)
