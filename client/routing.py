"""The links of one session to a server that may run as several nodes (docs/scaling.md).

A session talks to the server through its entry link: the address it was given, which answers the lobby and any
game nobody plays elsewhere. A request about a game another node plays is answered with a `redirect`: the router
opens a link to that node (or reuses one), remembers that the game is played there, and sends the request again.
A game that moves while followed is announced the same way, without a ref: the game is followed again where it went.
When a node's link drops (the node died), the games followed through it are followed again through the entry link,
which takes them to whichever node now plays them; the entry link itself reconnects by itself, to the other nodes
of the server in turn when its own does not answer. A server of one process never redirects: then this is one link.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from pydantic import BaseModel

from client.connection import Backoff, Connection, ConnectionLost, spawn
from client.link import SIGNED_OUT, LinkState
from shared.protocol import messages as msg

MAX_HOPS = 3
"""Redirects followed for one request: a game changing hands meanwhile may send it on once or twice more."""

FOLLOWING = (msg.JoinGame, msg.WatchGame, msg.Resume)
"""The requests that follow a game: those that make a moved game followed again, sent while it moves."""


def _same(a: str, b: str) -> bool:
    return a.rstrip("/") == b.rstrip("/")


class Router:
    def __init__(
        self,
        url: str,
        *,
        password: str | None,
        session: str | None = None,
        on_message: Callable[[msg.ServerMessage], None],
        on_link: Callable[[LinkState, str], None],
        on_back: Callable[[set[str] | None], Awaitable[None]],
        backoff: Backoff | None = None,
        timeout: float = 10.0,
    ) -> None:
        """`on_back(games)`: follow these games again (None: every game not followed through another node's link),
        once their link is back or they moved."""
        self.password = password
        self.session = session
        """The account session every link's hello signs in with: it is good on every node of the server."""
        self.timeout = timeout
        self._on_message = on_message
        self._on_link = on_link
        self._on_back = on_back
        self.entry = Connection(
            url,
            password=password,
            session=session,
            on_message=self._message,
            on_link=self._entry_link,
            on_reconnect=lambda: on_back(None),
            backoff=backoff,
            timeout=timeout,
        )
        self.nodes: dict[str, Connection] = {}
        """Links to other nodes, by address."""
        self.routes: dict[str, str] = {}
        """The games played by another node than the entry's, and that node's address."""
        self._opening: dict[str, asyncio.Lock] = {}
        self._moving: dict[str, asyncio.Event] = {}
        """Games that moved to another node and are being followed again there: their other requests wait, so that
        an order is not sent where the seat is not taken back yet."""
        self._tasks: set[asyncio.Task[None]] = set()

    # ---- the entry link --------------------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        return self.entry.url

    @property
    def state(self) -> LinkState:
        return self.entry.state

    @property
    def welcome(self) -> msg.Welcome | None:
        return self.entry.welcome

    async def open(self) -> msg.Welcome:
        return await self.entry.open()

    def sign_in(self, session: str | None) -> None:
        """From now on, links say hello with this session (None: as a guest). The entry link is signed in (or out)
        by the server itself, having asked; a link to another node that said hello otherwise is dropped, and its
        games are followed again through a link that says hello with the session."""
        self.session = self.entry.session = session
        for link in list(self.nodes.values()):
            if link.session != session:
                link.session = session
                self._spawn(link.drop())

    def _entry_link(self, state: LinkState, detail: str) -> None:
        """The entry link's state, told on; a session that ended closes it, and no link says hello with it again."""
        if detail == SIGNED_OUT:
            self.sign_in(None)
        self._on_link(state, detail)

    async def wait_connected(self) -> None:
        await self.entry.wait_connected()

    async def drop(self) -> None:
        """Drop every link as a network failure would (for tests, and Ctrl-R)."""
        for link in list(self.nodes.values()):
            await link.drop()
        await self.entry.drop()

    async def close(self) -> None:
        for link in list(self.nodes.values()):
            await link.close()
        self.nodes.clear()
        await self.entry.close()
        for task in list(self._tasks):
            task.cancel()

    # ---- requests --------------------------------------------------------------------------------------------------

    def _link_for(self, message: BaseModel) -> Connection:
        game_id = getattr(message, "game_id", None)
        url = self.routes.get(game_id) if isinstance(game_id, str) else None
        link = self.nodes.get(url) if url is not None else None
        return link if link is not None and link.state is LinkState.CONNECTED else self.entry

    async def _settled(self, message: BaseModel) -> None:
        """Wait while the message's game moves (its seat is being taken back where it went)."""
        game_id = getattr(message, "game_id", None)
        moving = self._moving.get(game_id) if isinstance(game_id, str) else None
        if moving is not None and not isinstance(message, FOLLOWING):
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(moving.wait(), self.timeout)

    async def request(self, message: BaseModel) -> msg.ServerMessage:
        """Send `message` where its game is played, following redirects; the reply (an Error is a value)."""
        await self._settled(message)
        reply = await self._link_for(message).request(message)
        for _ in range(MAX_HOPS):
            if not isinstance(reply, msg.Redirect):
                return reply
            if isinstance(message, FOLLOWING):
                link = await self._moved(reply.game_id, reply.url)
            else:  # an order for a game that moved: its seat is taken back there first
                await self._follow_moved(reply)
                link = self._link_for(message)
            reply = await link.request(message)
        return reply

    async def send(self, message: BaseModel) -> None:
        await self._settled(message)
        await self._link_for(message).send(message)

    async def send_everywhere(self, message: BaseModel) -> None:
        """Send `message` on every link (what this client's player looks at concerns every node it follows games
        on); a link that is down is skipped."""
        for link in [self.entry, *self.nodes.values()]:
            with contextlib.suppress(ConnectionLost):
                await link.send(message)

    async def _moved(self, game_id: str, url: str) -> Connection:
        """The game is played at `url`: its link from now on (the entry's, when it is the entry's node)."""
        if _same(url, self.entry.url) or not url:
            self.routes.pop(game_id, None)
            return self.entry
        self.routes[game_id] = url
        return await self._node(url)

    async def _node(self, url: str) -> Connection:
        lock = self._opening.setdefault(url, asyncio.Lock())
        async with lock:
            link = self.nodes.get(url)
            if link is not None and link.state is LinkState.CONNECTED:
                return link

            def on_link(state: LinkState, detail: str, url: str = url) -> None:
                if state is LinkState.CLOSED:
                    self._node_lost(url)

            link = Connection(
                url,
                password=self.password,
                session=self.session,
                on_message=self._from_node,
                on_link=on_link,
                timeout=self.timeout,
                reconnect=False,
            )
            try:
                await link.open()
            except Exception as exc:
                self._node_lost(url)
                raise ConnectionLost(f"cannot reach the node that plays the game ({url}): {exc}") from exc
            self.nodes[url] = link
            return link

    def _node_lost(self, url: str) -> None:
        """A node's link ended (the node died, or stopped): its games are followed again through the entry link."""
        self.nodes.pop(url, None)
        games = {game for game, where in self.routes.items() if _same(where, url)}
        for game in games:
            del self.routes[game]
        if games:
            self._spawn(self._back(games))

    async def _back(self, games: set[str]) -> None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.entry.wait_connected(), self.timeout * 3)
        await self._on_back(games)

    def _from_node(self, message: msg.ServerMessage) -> None:
        """What a link to another node than the entry's brings. That node stopping is no news for the player: each
        of its games was sent on with a redirect first (and one that was not is followed again when the link ends)."""
        if not isinstance(message, msg.ShuttingDown):
            self._message(message)

    def _message(self, message: msg.ServerMessage) -> None:
        """What any link brings: a game that moved is followed where it went; the rest goes to the session."""
        if isinstance(message, msg.Redirect) and message.ref is None:
            self._spawn(self._follow_moved(message))
            return
        self._on_message(message)

    async def _follow_moved(self, moved: msg.Redirect) -> None:
        """Follow a game again where it went (once, however many of its requests and messages say it moved)."""
        settled = self._moving.get(moved.game_id)
        if settled is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(settled.wait(), self.timeout)
            return
        settled = self._moving[moved.game_id] = asyncio.Event()
        try:
            with contextlib.suppress(ConnectionLost):
                await self._moved(moved.game_id, moved.url)
            await self._on_back({moved.game_id})
        finally:
            if self._moving.get(moved.game_id) is settled:
                del self._moving[moved.game_id]
            settled.set()

    def _spawn(self, work: Awaitable[None]) -> None:
        spawn(self._tasks, work)
