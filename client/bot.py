"""A computer player over the network: it joins a game like any client and plays it to the end.

It speaks the published protocol through the same Connection as the text client, so it reconnects by itself and
takes its seat back with its token when the link drops. On each view of its seat that asks something of it, it runs
one of the shared strategies (the same ones tournaments and server-run seats use) on what it sees, issues the
orders one by one and commits. The strategies check every order with the engine's own checker first, so a refusal
should never happen; when one does, it is logged with the server's words.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets

from client.connection import Backoff, Connection, ConnectionFailed, ConnectionLost, LinkState
from shared.bots.base import Strategy
from shared.bots.registry import make_strategy
from shared.maps.model import Continent, GameMap, Territory, build_map
from shared.protocol import messages as msg
from shared.rules.state import Phase
from shared.rules.view import GameView

logger = logging.getLogger("risc.bot")

def map_from_view(view: GameView) -> GameMap:
    """The public map as a view tells it: territories, their continents and where each borders (directed).

    That is all a strategy reads of a map, and a client cannot open the map file, which lives on the server.
    """
    continents = dict.fromkeys(t.continent for t in view.territories if t.continent is not None)
    return build_map(view.map_name, [Territory(t.name, t.continent) for t in view.territories],
                     {t.name: t.neighbours for t in view.territories},
                     [Continent(name) for name in continents])


def needs_orders(view: GameView) -> bool:
    """True when the viewer still has to place or give orders this turn."""
    if view.viewer is None or view.phase is Phase.FINISHED:
        return False
    status = next((p for p in view.players if p.name == view.viewer), None)
    return status is not None and not status.committed and not status.eliminated


class NetworkBot:
    def __init__(self, url: str, game_id: str, *, strategy: str = "strategist", name: str | None = None,
                 password: str | None = None, seed: int | None = None, backoff: Backoff | None = None,
                 timeout: float = 10.0) -> None:
        self.url = url
        self.game_id = game_id
        self.strategy: Strategy = make_strategy(strategy)
        self.name = name or f"{strategy}-bot"
        self.connection = Connection(url, password=password, on_message=self._on_message, on_link=self._on_link,
                                     on_reconnect=self._on_reconnect, backoff=backoff, timeout=timeout)
        self.token: str | None = None
        self.view: GameView | None = None
        self.seq = 0
        self.errors: list[msg.Error] = []
        """Every error the server sent this bot: refused orders and anything else. Stays empty in a sound game."""
        self.turns_played = 0
        self._rng = random.Random(secrets.randbits(63) if seed is None else seed)
        self._maps: dict[str, GameMap] = {}
        self._wake = asyncio.Event()
        self._over = False
        self._failed: str | None = None

    # ---- what the server says -----------------------------------------------------------------------------------

    def _on_message(self, message: msg.ServerMessage) -> None:
        if isinstance(message, msg.Update) and message.game_id == self.game_id:
            self.seq = max(self.seq, message.seq)
            if message.view is not None and message.you is not None:
                self.view = message.view
                if message.view.phase is Phase.FINISHED:
                    self._over = True
            self._wake.set()
        elif isinstance(message, msg.Error):
            self._error(message)
        elif isinstance(message, msg.ShuttingDown):
            logger.info("%s: the server is shutting down: %s", self.name, message.message)

    def _error(self, error: msg.Error) -> None:
        self.errors.append(error)
        logger.error("%s: the server refused %s: %s (%s)", self.name, error.request or "a request", error.message,
                     error.code)

    def _on_link(self, state: LinkState, detail: str) -> None:
        logger.info("%s: %s", self.name, detail)
        if state is LinkState.CLOSED:
            self._failed = detail
            self._wake.set()

    async def _on_reconnect(self) -> None:
        if self.token is None:
            return
        reply = await self.connection.request(msg.Resume(game_id=self.game_id, token=self.token,
                                                         last_seq=self.seq))
        if isinstance(reply, msg.Error):
            self._error(reply)
            self._failed = f"could not take the seat back: {reply.message}"
        else:
            logger.info("%s: back in game %s", self.name, self.game_id)
        self._wake.set()

    # ---- playing ------------------------------------------------------------------------------------------------

    async def run(self) -> int:
        """Join, play every turn, and return 0 once the game is over (1 if it cannot be joined or followed)."""
        try:
            await self.connection.open()
        except ConnectionFailed as exc:
            logger.error("%s: %s", self.name, exc)
            return 1
        try:
            reply = await self.connection.request(msg.JoinGame(game_id=self.game_id, name=self.name))
            if isinstance(reply, msg.Error):
                self._error(reply)
                return 1
            if not isinstance(reply, msg.Joined):
                logger.error("%s: the server answered join_game with %s", self.name, reply.type)
                return 1
            self.token, self.name = reply.token, reply.player
            logger.info("%s: sitting in game %s", self.name, self.game_id)
            return await self._play()
        except ConnectionLost as exc:
            logger.error("%s: %s", self.name, exc)
            return 1
        finally:
            await self.connection.close()

    async def _play(self) -> int:
        handled: tuple[Phase, int] | None = None
        while True:
            await self._wake.wait()
            self._wake.clear()
            if self._over:
                view = self.view
                logger.info("%s: game %s is over; %s won", self.name, self.game_id,
                            view.winner if view is not None else "someone")
                return 0
            if self._failed is not None:
                logger.error("%s: %s", self.name, self._failed)
                return 1
            view = self.view
            if view is None or not needs_orders(view) or handled == (view.phase, view.turn):
                continue
            handled = (view.phase, view.turn)
            try:
                await self._act(view)
            except ConnectionLost:
                handled = None  # the resumed seat's update says what is still to do

    async def _act(self, view: GameView) -> None:
        game_map = self._maps.get(view.map_name)
        if game_map is None:
            game_map = self._maps[view.map_name] = map_from_view(view)
        orders = await asyncio.to_thread(self.strategy.decide, view, game_map, self._rng)
        for order in orders:
            reply = await self.connection.request(msg.IssueOrder(game_id=self.game_id, turn=view.turn, order=order))
            if isinstance(reply, msg.Error):
                self._error(reply)
        reply = await self.connection.request(msg.Commit(game_id=self.game_id, turn=view.turn))
        if isinstance(reply, msg.Error):
            self._error(reply)
        else:
            self.turns_played += 1
