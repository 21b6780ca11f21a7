"""A client's session with a server, whatever face it wears: the connection, the seats kept on disk, the games it
follows and what it knows of each (client/followed.py), resuming, rematches. It knows nothing of prompt_toolkit: the
terminal client (client/app.py) and the network bot (client/bot.py) are faces on it, and it tells them what happens
through a listener.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections import defaultdict, deque
from collections.abc import Sequence
from typing import Any, Protocol

from pydantic import BaseModel

from client.connection import Backoff, ConnectionLost
from client.followed import Followed
from client.link import LinkState
from client.routing import Router
from client.sessions import SessionStore
from client.tokens import Seat, SeatStore
from shared.maps.codec import map_from_dict
from shared.maps.model import GameMap
from shared.protocol import accounts, ratings
from shared.protocol import messages as msg
from shared.protocol.accounts import AccountInfo
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import GameSettings, GameSummary
from shared.protocol.notifications import Looking, Notice

EARLY_UPDATES_KEPT = 50
"""Updates for a game this client is about to follow, kept until it does (a join's update may beat its reply)."""

SEAT_BACK_WAIT = 30.0
"""How long a change whose reply was lost waits for its seat to be back before it is sent again (or given up)."""


class Listener(Protocol):
    """What a face on the session is told."""

    def on_update(self, followed: Followed, entries: list[Any], update: msg.Update) -> None: ...

    def on_notice(self, error: msg.Error) -> None:
        """An error nobody waited for (a seat taken back from another connection, ...)."""
        ...

    def on_seated(self, followed: Followed, previous: Followed | None) -> None:
        """The server seated this client in a game on its own (a rematch)."""
        ...

    def on_resumed(self, followed: Followed) -> None:
        """Back in a seat (at start or after the link dropped), just before what was missed is told."""
        ...

    def on_link(self, state: LinkState, detail: str) -> None: ...

    def on_listed(self, game: GameSummary) -> None:
        """A game was created on the server (on any of its nodes), after the lobby was last listed."""
        ...

    def on_shutdown(self, message: str) -> None: ...

    async def on_reconnected(self, resumed: bool) -> None: ...

    def on_lobby_chat(self, said: msg.LobbyChat) -> None:
        """A word said in the lobby's chat."""
        ...

    def on_quick_play(self, news: ratings.QuickPlayWaiting | ratings.QuickPlayFound) -> None:
        """Quick play's wait (who is queued for what), or the game it seated the player in."""
        ...

    def on_signed_out(self) -> None:
        """The account's session ended elsewhere (signed out everywhere, a new password, ended from another device,
        the account disabled): forgotten here, and the links come back as a guest's."""
        ...

    def on_session_problem(self, problem: str) -> None:
        """The kept session signs nothing in (ended, expired, its account disabled): forgotten; said once."""
        ...

    def on_game_notice(self, notice: Notice) -> None:
        """Something happened in one of the account's games, or a challenge came (docs/notifications.md)."""
        ...


class Session:
    def __init__(
        self,
        url: str,
        listener: Listener,
        *,
        password: str | None = None,
        store: SeatStore | None = None,
        backoff: Backoff | None = None,
        timeout: float = 10.0,
        server_id: str | None = None,
        sessions: SessionStore | None = None,
    ) -> None:
        """`sessions`: where the account's session is kept (a face that never signs in, a computer player, has
        none: it plays as a guest)."""
        self.url = url
        self.seat_server = server_id or url
        """What the seat store knows this server by: its address, or a name that outlives it (`risc play`'s own
        server listens on a new port each time)."""
        self.listener = listener
        self.store = store or SeatStore()
        self.sessions = sessions
        kept = sessions.get(self.seat_server) if sessions is not None else None
        self._token = kept.token if kept is not None else None
        """The account session the links sign in with, kept from a sign-in here or by `risc account`."""
        self.account: AccountInfo | None = None
        """The account this client is signed in to, as the server last said."""
        self.accounts = "optional"
        """Whether the server has accounts (`off`, `optional`, `required`), as its welcome said."""
        self.session_problem: str | None = None
        """Why the session kept on disk signed nothing in when the client started (it is forgotten since)."""
        self._signing_out = False
        self.connection = Router(
            url,
            password=password,
            session=self._token,
            on_message=self._on_message,
            on_link=listener.on_link,
            on_back=self._on_reconnect,
            backoff=backoff,
            timeout=timeout,
        )
        self.games: list[GameSummary] = []
        self.total_games = 0
        self.followed: dict[str, Followed] = {}
        self._maps: dict[str, GameMap] = {}
        self._early: dict[str, deque[msg.Update]] = defaultdict(lambda: deque(maxlen=EARLY_UPDATES_KEPT))
        self._resuming: set[str] = set()
        self._background: set[asyncio.Task[None]] = set()
        self._returns: dict[str, int] = defaultdict(int)
        """How many times each seat was taken back (resumed): a change whose reply was lost waits for the next."""
        self._returned = asyncio.Condition()

    # ---- the link --------------------------------------------------------------------------------------------------

    async def open(self) -> msg.Welcome:
        welcome = await self.connection.open()
        self._welcomed(welcome, tell=False)
        return welcome

    async def close(self) -> None:
        await self.connection.close()

    @property
    def state(self) -> LinkState:
        return self.connection.state

    async def request(self, message: BaseModel) -> msg.ServerMessage:
        """The server's answer (an Error is a value). Raises ConnectionLost when the link is down."""
        return await self.connection.request(message)

    # ---- the lobby -------------------------------------------------------------------------------------------------

    async def look(self, game_id: str | None) -> None:
        """Tell the server which game is on screen (none: the lobby): nobody is told away from a game about the game
        they are looking at, and the games parked meanwhile are told as news (docs/notifications.md)."""
        await self.connection.send_everywhere(Looking(game_id=game_id))

    async def list_games(self, offset: int = 0, limit: int = 50) -> msg.ServerMessage:
        """A page of the lobby; from then on the server tells of every game created (listener.on_listed)."""
        reply = await self.request(msg.ListGames(offset=offset, limit=limit, watch=True))
        if isinstance(reply, msg.Games):
            self.games, self.total_games = reply.games, reply.total
        return reply

    async def create(self, settings: GameSettings, upload: msg.MapUpload | None = None) -> msg.ServerMessage:
        reply = await self.request(msg.CreateGame(settings=settings, map_upload=upload))
        if isinstance(reply, msg.GameCreated):
            self.games = [*self.games, reply.game]
        return reply

    async def join(self, game_id: str, name: str, group: int | None = None) -> msg.ServerMessage:
        request = msg.JoinGame(game_id=game_id, name=name, group=group, request_id=_request_id())
        try:
            reply = await self.request(request)
        except ConnectionLost:  # the seat may have been taken: asked again with the same id, it is given back
            await asyncio.wait_for(self.connection.wait_connected(), SEAT_BACK_WAIT)
            reply = await self.request(request)
        if isinstance(reply, msg.Joined):
            if reply.token:  # an account's seat has none: the account's sessions open it
                self.store.save(self.seat_server, reply.game_id, reply.player, reply.token)
            self._follow(Followed(reply.game_id, reply.player, token=reply.token or None, account=not reply.token))
        return reply

    async def watch(self, game_id: str, follow: str | None = None) -> msg.ServerMessage:
        """Follow a game as a spectator (or through a player's sight), sent its log from the start: a watcher who
        comes late reads the game's story from its first turn, within the log the server keeps (further back, the
        game as it stands)."""
        known = self.followed.get(game_id)
        reply = await self.request(
            msg.WatchGame(game_id=game_id, follow=follow, last_seq=known.seq if known is not None else 0)
        )
        if isinstance(reply, msg.Watching):  # the server's id for the game, which may have been typed short
            known = self.followed.get(reply.game_id)
            if known is not None and known.player is not None:
                known.follows, known.player = reply.follow, None
                self._follow(known)
            else:
                self._follow(Followed(reply.game_id, None, follows=reply.follow))
        return reply

    async def resume(
        self, game_id: str, player: str, token: str | None, last_seq: int | None = None
    ) -> msg.ServerMessage:
        """Back to a seat with its token, or (None) to the signed-in account's seat in the game."""
        self._resuming.add(game_id)
        try:
            reply = await self.request(msg.Resume(game_id=game_id, token=token, last_seq=last_seq))
        finally:
            self._resuming.discard(game_id)
        if isinstance(reply, msg.Resumed):
            game_id = reply.game_id  # the server's id for the game, which may have been typed short
            known = self.followed.get(game_id)
            followed = (
                known
                if known is not None and known.player == reply.player
                else Followed(game_id, reply.player, token=token, account=token is None)
            )
            self.listener.on_resumed(followed)
            self._follow(followed)
            async with self._returned:
                self._returns[game_id] += 1
                self._returned.notify_all()
        else:
            self._early.pop(game_id, None)
            if (
                isinstance(reply, msg.Error)
                and token is not None
                and reply.code in (ErrorCode.BAD_TOKEN, ErrorCode.NO_SUCH_GAME)
            ):
                self.store.forget(self.seat_server, game_id, player)
        return reply

    async def leave(self, game_id: str) -> msg.ServerMessage:
        reply = await self.request(msg.LeaveGame(game_id=game_id))
        if isinstance(reply, msg.Left):
            known = self.followed.pop(game_id, None)
            if known is not None and known.player is not None and (not known.started or known.lost or known.finished):
                self.store.forget(self.seat_server, game_id, known.player)
        return reply

    def stop_following(self, game_id: str) -> None:
        self.followed.pop(game_id, None)

    def saved_seats(self, name: str | None = None) -> list[Seat]:
        return self.store.seats_for(self.seat_server, name)

    # ---- playing ---------------------------------------------------------------------------------------------------

    async def issue(self, followed: Followed, order: Any) -> msg.ServerMessage:
        ruleset = followed.ruleset
        data = ruleset.dump_order(order) if ruleset is not None and not isinstance(order, dict) else order
        reply = await self._change(
            followed, msg.IssueOrder(game_id=followed.game_id, turn=followed.turn, order=data, request_id=_request_id())
        )
        if isinstance(reply, msg.OrderAccepted):
            followed.accepted(reply)
        return reply

    async def issue_batch(
        self, followed: Followed, orders: Sequence[Any], commit: bool = False
    ) -> list[msg.ServerMessage]:
        """Several orders at once (`issue_orders`), as many messages as the server's bound on a batch asks: each
        reply an `orders_accepted` (its refusals by position within that message) or an error refusing it whole.
        `commit`: the last message asks for the turn's commit too (its answer says whether it was carried out)."""
        ruleset = followed.ruleset
        data = [ruleset.dump_order(o) if ruleset is not None and not isinstance(o, dict) else o for o in orders]
        replies = []
        for start in range(0, len(data), msg.MAX_BATCH_ORDERS):
            reply = await self._change(
                followed,
                msg.IssueOrders(
                    game_id=followed.game_id,
                    turn=followed.turn,
                    orders=data[start : start + msg.MAX_BATCH_ORDERS],
                    commit=commit and start + msg.MAX_BATCH_ORDERS >= len(data),
                    request_id=_request_id(),
                ),
            )
            if isinstance(reply, msg.OrdersAccepted):
                followed.accepted_batch(reply)
            replies.append(reply)
        return replies

    async def withdraw(self, followed: Followed, index: int) -> msg.ServerMessage:
        reply = await self._change(
            followed,
            msg.WithdrawOrder(game_id=followed.game_id, turn=followed.turn, index=index, request_id=_request_id()),
        )
        if isinstance(reply, msg.OrderWithdrawn):
            followed.withdrawn(reply)
        return reply

    async def move(self, followed: Followed, index: int, to: int) -> msg.ServerMessage:
        """Put the order at `index` at place `to` (0-based both)."""
        reply = await self._change(
            followed,
            msg.MoveOrderTo(game_id=followed.game_id, turn=followed.turn, index=index, to=to, request_id=_request_id()),
        )
        if isinstance(reply, msg.OrderMoved):
            followed.moved(reply)
        return reply

    async def _change(self, followed: Followed, request: BaseModel) -> msg.ServerMessage:
        """Send a change with a request id; if the link drops before the answer (or the server refuses it because
        it is stopping), send it again (once) when the seat is back, wherever the game is played then: the server
        answers a change it made already as it did, and makes one it did not."""
        returns = self._returns[followed.game_id]
        try:
            reply = await self.request(request)
        except ConnectionLost:
            if followed.player is None:
                raise
        else:  # a node that stops refuses changes until another plays its games: they are sent there instead
            if not (isinstance(reply, msg.Error) and reply.code == ErrorCode.SHUTTING_DOWN and followed.player):
                return reply
        try:
            async with self._returned:
                await asyncio.wait_for(
                    self._returned.wait_for(lambda: self._returns[followed.game_id] > returns), SEAT_BACK_WAIT
                )
        except TimeoutError:
            raise ConnectionLost(
                "the seat was not taken back in time: the change may or may not have been made"
            ) from None
        return await self.request(request)

    async def list_orders(self, followed: Followed) -> msg.ServerMessage:
        reply = await self.request(msg.ListOrders(game_id=followed.game_id))
        if isinstance(reply, msg.Orders):
            followed.load_orders(reply.orders)
        return reply

    async def commit(self, followed: Followed) -> msg.ServerMessage:
        return await self._change(
            followed, msg.Commit(game_id=followed.game_id, turn=followed.turn, request_id=_request_id())
        )

    async def rematch(self, followed: Followed) -> msg.ServerMessage:
        return await self.request(msg.Rematch(game_id=followed.game_id))

    async def resign(self, followed: Followed) -> msg.ServerMessage:
        return await self.request(msg.Resign(game_id=followed.game_id))

    async def chat(
        self, game_id: str | None, text: str, to: str | None = None, name: str | None = None
    ) -> msg.ServerMessage:
        return await self.request(msg.Chat(game_id=game_id, text=text, to=to, name=name))

    async def hand_over(self, followed: Followed, player: str) -> msg.ServerMessage:
        return await self.request(msg.HandOver(game_id=followed.game_id, player=player))

    async def statistics(self, game_id: str) -> msg.ServerMessage:
        """A finished game's statistics, worked out by the server from the stored game."""
        return await self.request(msg.AskStatistics(game_id=game_id))

    # ---- the account -----------------------------------------------------------------------------------------------

    async def sign_up(self, name: str, password: str) -> msg.ServerMessage:
        return self._signed_in(await self.request(accounts.SignUp(name=name, password=password)))

    async def sign_in(self, name: str, password: str) -> msg.ServerMessage:
        return self._signed_in(await self.request(accounts.SignIn(name=name, password=password)))

    def _signed_in(self, reply: msg.ServerMessage) -> msg.ServerMessage:
        """Signed in: the session kept on disk (the next start is signed in), and every link says hello with it."""
        if isinstance(reply, accounts.SignedIn) and reply.session:
            self.account, self._token = reply.account, reply.session
            if self.sessions is not None:
                self.sessions.keep(self.seat_server, reply.account.name, reply.session)
            self.connection.sign_in(reply.session)
        return reply

    async def sign_out(self, everywhere: bool) -> msg.ServerMessage:
        """End this session (or every one of the account's); the server then closes the link, which comes back as
        a guest's."""
        entry = self.connection.entry
        hellos = entry.hellos
        self._signing_out = True
        try:
            reply = await self.request(accounts.SignOut(everywhere=everywhere))
        finally:
            self._signing_out = False
        if isinstance(reply, accounts.SignedOut):
            self._session_ended()
            with contextlib.suppress(TimeoutError):  # answered once back as a guest, so that the next request goes
                await asyncio.wait_for(entry.welcomed_since(hellos), self.connection.timeout)
        return reply

    def _session_ended(self) -> None:
        """The session signs nothing in any more: forgotten (unless another client of this user kept a new one
        since), the links say hello as a guest's from now on, and the account's seats, which only its sessions
        open, are no longer followed."""
        if self.sessions is not None and self._token is not None:
            self.sessions.forget(self.seat_server, self._token)
        self.account, self._token = None, None
        self.connection.sign_in(None)
        for game_id, followed in list(self.followed.items()):
            if followed.account:
                del self.followed[game_id]

    def _welcomed(self, welcome: msg.Welcome, tell: bool = True) -> None:
        """What the entry link's welcome says of accounts, at the start and each time it comes back (`tell`: the
        face is told of a session that no longer signs in; at the start it reads `session_problem`)."""
        self.accounts = welcome.accounts
        if welcome.session_problem is not None and self._token is not None:
            self._session_ended()
            self.session_problem = welcome.session_problem
            if tell:
                self.listener.on_session_problem(welcome.session_problem)
        elif welcome.account is None and self.account is not None and self._token is not None:
            self._session_ended()  # ended while the link was down, and the server no longer knows it
            self.listener.on_signed_out()
        else:
            self.account = welcome.account

    # ---- following -------------------------------------------------------------------------------------------------

    def _follow(self, followed: Followed) -> None:
        """Follow a game, and take in what came about it before we knew we would."""
        self.followed[followed.game_id] = followed
        if followed.game_map is None and followed.game_id in self._maps:
            followed.game_map = self._maps[followed.game_id]
        for update in self._early.pop(followed.game_id, ()):
            self._take(followed, update)

    def _take(self, followed: Followed, update: msg.Update) -> None:
        loop = asyncio.get_running_loop()
        if followed.game_map is None:
            followed.game_map = self._maps.get(followed.game_id)
        entries = followed.apply(update, loop.time())
        self.listener.on_update(followed, entries, update)

    def _on_message(self, message: msg.ServerMessage) -> None:
        if isinstance(message, msg.GameMap):
            game_map = map_from_dict(message.map)
            self._maps[message.game_id] = game_map
            known = self.followed.get(message.game_id)
            if known is not None:
                known.game_map = game_map
        elif isinstance(message, msg.Update):
            followed = self.followed.get(message.game_id)
            if followed is not None and message.game_id not in self._resuming:
                self._take(followed, message)
            else:
                self._early[message.game_id].append(message)
        elif isinstance(message, msg.Resumed) and message.ref is None:
            self._seated_by_rematch(message)
        elif isinstance(message, msg.Error) and message.ref is None:
            if message.code in (ErrorCode.NOT_SEATED, ErrorCode.NO_SUCH_GAME) and message.game_id in self.followed:
                gone = self.followed.pop(message.game_id)
                if message.code == ErrorCode.NO_SUCH_GAME and gone.player is not None:  # closed before it started
                    self.store.forget(self.seat_server, message.game_id, gone.player)
            self.listener.on_notice(message)
        elif isinstance(message, msg.GameListed):
            if all(g.game_id != message.game.game_id for g in self.games):
                self.games = [message.game, *self.games]
                self.listener.on_listed(message.game)
        elif isinstance(message, msg.ShuttingDown):
            self.listener.on_shutdown(message.message)
        elif isinstance(message, msg.LobbyChat):
            self.listener.on_lobby_chat(message)
        elif isinstance(message, Notice):
            self.listener.on_game_notice(message)
        elif isinstance(message, ratings.QuickPlayWaiting | ratings.QuickPlayFound) and message.ref is None:
            self.listener.on_quick_play(message)
        elif isinstance(message, accounts.SignedOut) and message.ref is None and self.account is not None:
            self._session_ended()  # told once, by the first link to hear it
            if not self._signing_out:
                self.listener.on_signed_out()

    def _seated_by_rematch(self, message: msg.Resumed) -> None:
        """R27: everyone asked, and the server seated us in the new game with the same token."""
        previous = next((f for f in self.followed.values() if f.player == message.player and f.finished), None)
        token = previous.token if previous is not None else None
        if token is None and previous is not None:
            seat = self.store.get(self.seat_server, previous.game_id, message.player)
            token = seat.token if seat is not None else None
        if token is not None:
            self.store.save(self.seat_server, message.game_id, message.player, token)
        if previous is not None:
            self.store.forget(self.seat_server, previous.game_id, message.player)
            self.followed.pop(previous.game_id, None)
            self._spawn_leave(previous.game_id)
        followed = Followed(
            message.game_id, message.player, token=token, account=previous is not None and previous.account
        )
        self.listener.on_seated(followed, previous)
        self._follow(followed)

    def _spawn_leave(self, game_id: str) -> None:
        async def leave() -> None:
            with contextlib.suppress(ConnectionLost):
                await self.connection.request(msg.LeaveGame(game_id=game_id))

        task = asyncio.get_running_loop().create_task(leave())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _on_reconnect(self, games: set[str] | None = None) -> None:
        """Back on the link: take every seat back (with the last entry seen) and watch again what was watched. On a
        server of several nodes, `games` are those to follow again (their node's link dropped, or they moved); None:
        those followed through the entry link, which reconnected."""
        if games is None and self.connection.welcome is not None:
            self._welcomed(self.connection.welcome)
        resumed = False
        for followed in list(self.followed.values()):
            if games is None and followed.game_id in self.connection.routes:
                continue  # played by another node, whose link stayed up
            if games is not None and followed.game_id not in games:
                continue
            if followed.player is not None:
                token = followed.token
                if token is None and not followed.account:
                    seat = self.store.get(self.seat_server, followed.game_id, followed.player)
                    token = seat.token if seat is not None else None
                if token is None and not followed.account:
                    continue
                with contextlib.suppress(ConnectionLost):
                    reply = await self.resume(followed.game_id, followed.player, token, followed.seq)
                    resumed = resumed or isinstance(reply, msg.Resumed)
            else:
                with contextlib.suppress(ConnectionLost):
                    await self.request(
                        msg.WatchGame(game_id=followed.game_id, last_seq=followed.seq, follow=followed.follows)
                    )
        await self.listener.on_reconnected(resumed)


def _request_id() -> str:
    """A change's own id (protocol: 8 to 64 letters, digits, - or _), so that sending it again cannot make it twice."""
    return secrets.token_urlsafe(16)
