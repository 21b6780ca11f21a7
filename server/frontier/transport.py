"""Connections: the opening hello, one task reading and one writing per client, limits, and the plain HTTP on the
same port: GET /healthz (alive), /readyz (ready for clients) and /metrics (server/metrics.py) for an operator's
tools, the web page's files and maps' pictures when the server serves the page, and the page's sign-ins.

Each connection reads its frames one at a time and hands each validated message to the lobby or a match; what the
server sends goes through a queue capped in bytes, per connection and over all of them, so a slow reader can neither
hold up a game nor make the server hold more memory than its caps (it is disconnected instead).
"""

from __future__ import annotations

import asyncio
import contextlib
import http
import itertools
import logging
import socket
import sys
from typing import Any

from pydantic import BaseModel
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import MultipleValuesError
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State

from server.accounts.desk import AccountDesk
from server.accounts.service import SignedIn
from server.clock import Clock, LoopClock, stopwatch
from server.config import ServerConfig
from server.frontier import loopback, origins
from server.frontier.account_http import PATHS as ACCOUNT_PATHS
from server.frontier.account_http import SERVER_PASSWORD_HEADER, AccountHttp, password_refused, session_cookie
from server.frontier.dispatch import dispatch
from server.frontier.frames import parse_frame, rate_limited
from server.frontier.guesses import Guesses, Verdict
from server.frontier.keepalive import HeardFrom, Keepalive, admitted_by
from server.frontier.memory import give_memory_back
from server.frontier.pictures import is_picture_request, picture_response
from server.frontier.room import Admission, full_explanation, raise_open_files, room_for, slack_for
from server.frontier.web import WebRoot, is_upgrade
from server.lobby.lobby import Lobby
from server.metrics import CONTENT_TYPE
from server.notify.desk import UNSUBSCRIBE_PATH
from server.refusal import Redirect, Refusal
from server.storage import StorageError
from shared.protocol.accounts import SignedOut
from shared.protocol.codes import PROTOCOL_VERSION, SUPPORTED_PROTOCOLS, CloseCode, ErrorCode
from shared.protocol.deflate import SparingDeflateFactory
from shared.protocol.messages import Error, Hello, ShuttingDown, Welcome, encode
from shared.protocol.messages import Redirect as RedirectMessage
from shared.protocol.pacing import TokenBucket

logger = logging.getLogger("risc.server")

TRIM_DELAY = 2.0
"""Seconds after a slow reader is closed before freed memory is given back to the OS (see Outbound.let_go_later)."""

READY_WITHIN = 2.0
"""Seconds the store has to answer /readyz's question."""

PROBES = frozenset({"/healthz", "/readyz", "/metrics"})
"""Paths answered however many connections the server holds: an operator's probes (server/frontier/room.py)."""

HARD_SIZE_FACTOR = 4
"""Frames up to this many times the message limit are read and refused with an error; larger ones end the
connection at once (close code 1009), as reading them would already cost too much."""


class Outbound:
    """The bytes waiting to be sent, over every connection: the server-wide cap, and what was done to keep to it.

    A frame's bytes are counted as Python holds its text (sys.getsizeof: one byte per character of the ASCII JSON
    the server sends, plus a small header). A frame queued for several connections (a broadcast update) is one text
    object, so it counts once here, however many queues hold it; each connection's own cap counts it in full.
    """

    def __init__(self, per_connection: int, total: int) -> None:
        self.per_connection = per_connection
        self.total = total
        self.queued = 0
        """Bytes held now, each distinct frame once."""
        self.peak = 0
        self.largest_connection = 0
        """The most one connection ever had waiting."""
        self.closed_too_slow = 0
        self.closed_for_total = 0
        """Of those, the connections closed to make room under the total cap (each then held the most)."""
        self.connections: set[Connection] = set()
        self._held: dict[int, list[int]] = {}  # id(text) -> [its size, how many queues hold it]
        self._trim: asyncio.TimerHandle | None = None
        self._trim_again = False

    def hold(self, text: str) -> None:
        entry = self._held.get(id(text))
        if entry is None:
            size = sys.getsizeof(text)
            self._held[id(text)] = [size, 1]
            self.queued += size
            self.peak = max(self.peak, self.queued)
        else:
            entry[1] += 1

    def release(self, text: str) -> None:
        entry = self._held[id(text)]
        entry[1] -= 1
        if entry[1] == 0:
            del self._held[id(text)]
            self.queued -= entry[0]

    def let_go_later(self) -> None:
        """Give the memory of closed slow readers back to the OS, once their sockets are closed too (a moment
        later): Python frees it, but the C allocator keeps freed memory for reuse, so the process would stay at its
        peak. At most one trim is pending at a time, so it runs at most every TRIM_DELAY seconds, and only after
        slow readers were closed: it costs a full collection of cycles (milliseconds, more on a very large heap)."""
        if self._trim is None:
            self._trim = asyncio.get_running_loop().call_later(TRIM_DELAY, self._trimmed)
        else:
            self._trim_again = True  # what is let go meanwhile is given back by one more trim, after this one

    def _trimmed(self) -> None:
        self._trim = None
        give_memory_back()
        if self._trim_again:
            self._trim_again = False
            self.let_go_later()

    def make_room(self, size: int, asking: Connection) -> bool:
        """Close the connections holding the most until `size` more bytes fit under the total cap; False if
        `asking` was one of them."""
        while self.queued + size > self.total:
            holders = [c for c in self.connections if c.queued]
            if not holders:
                return True  # nothing waits: the frame goes alone, whatever its size
            hog = max(holders, key=lambda c: c.queued)
            self.closed_for_total += 1
            hog.too_slow(
                f"the server holds {self.total} bytes at most for clients that read slowly, and this "
                f"one held the most ({hog.queued})"
            )
            if hog is asking:
                return False
        return True


class Connection:
    """One client: what it follows, its limits, and the queue of what is to be sent to it."""

    reads_text = True
    """Only a frame's text is sent: the message object beside it is not read (see Subscriber.reads_text)."""
    words = False
    """The client asked for the words of each log entry (hello's `words`)."""
    signed: SignedIn | None = None
    """The account this connection is signed in to, and its session (server/accounts/)."""
    client_name: str | None = None
    """What the client called itself in its hello."""
    looking: str | None = "*"
    """The game its player looks at now (`looking`): "*" every game it follows until it says (server/match/
    followers.py), None none (a page hidden)."""
    protocol = PROTOCOL_VERSION
    """The protocol version the client speaks (a client of the one before plays as a guest)."""
    loopback: loopback.Loopback | None = None
    """Set when the client came in at a loopback host (a browser on this computer): the nodes of this computer are
    named to it at that host (server/frontier/loopback.py)."""

    _numbers = itertools.count(1)

    def __init__(self, ws: ServerConnection, config: ServerConfig, outbound: Outbound, clock: Clock) -> None:
        self.ws = ws
        self.games: set[str] = set()
        self.views: dict[str, dict[str, Any]] = {}
        """The view of each followed game this connection was last sent: the next update's patch is taken against it."""
        self.number = next(Connection._numbers)
        self.rate = TokenBucket(config.burst, config.messages_per_second, clock.now)
        self.bad_frames = TokenBucket(config.bad_frames_burst, config.bad_frames_per_second, clock.now)
        self._outbound = outbound
        self._grace = config.shutdown_grace
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.queued = 0
        """Bytes waiting for this client (see Outbound), including the frame being written."""
        self._in_flight: str | None = None
        self._close: tuple[int, str] = (1000, "")
        self.closing = False
        self.too_slow_closed = False
        outbound.connections.add(self)
        self._writer = asyncio.get_running_loop().create_task(self._write())

    @property
    def address(self) -> str:
        """The client's network address (without its port): limits per computer count by it."""
        return self.ws.peer if isinstance(self.ws, HeardFrom) else "?"

    @property
    def label(self) -> str:
        port = self.ws.peer_port if isinstance(self.ws, HeardFrom) else None
        return f"#{self.number} ({self.address}:{port if port is not None else '?'})"

    def send(self, message: BaseModel, text: str | None = None) -> None:
        if self.closing:
            return
        if self.loopback is not None and isinstance(message, RedirectMessage):
            message, text = message.model_copy(update={"url": self.loopback.url(message.url)}), None
        if text is None:
            text = encode(message)
        size = sys.getsizeof(text)
        if self.queued and self.queued + size > self._outbound.per_connection:
            self.too_slow(f"more than {self._outbound.per_connection} bytes were waiting for it")
            return
        if not self._outbound.make_room(size, self):
            return
        if self._can_write_now():
            self._write_now(text)
            return
        self._queue.put_nowait(text)
        self._outbound.hold(text)
        self.queued += size
        self._outbound.largest_connection = max(self._outbound.largest_connection, self.queued)

    def _can_write_now(self) -> bool:
        """Nothing of this client's waits and its socket takes more: the frame goes out at once, as websockets'
        own send would write it, without a turn through the queue and the writer task (a served turn sends about
        fifteen frames). Otherwise it waits its turn, so frames keep their order and a slow reader its cap."""
        ws = self.ws
        return (
            self._in_flight is None
            and self._queue.empty()
            and not ws.paused
            and ws.protocol.state is State.OPEN
            and not ws.transport.is_closing()
        )

    def _write_now(self, text: str) -> None:
        try:
            self.ws.protocol.send_text(text.encode())
            self.ws.send_data()
        except Exception as exc:  # the link failed under the write: its reader ends it; a send never raises
            logger.info("connection %s: a frame could not be written (%s)", self.label, exc)

    def end(self, code: int = 1000, reason: str = "") -> None:
        """Send what is queued, then close with `code`. Later messages are dropped."""
        if not self.closing:
            self.closing = True
            self._close = (code, reason)
            self._queue.put_nowait(None)

    def too_slow(self, why: str) -> None:
        """Close a client that does not read what it is sent, letting go at once of everything waiting for it:
        holding it is what a slow reader costs the server. The close frame (4009) follows what the socket
        already holds; a client that does not read that either within the grace period is cut off."""
        if self.closing:
            return
        logger.warning("connection %s: disconnected, it reads too slowly (%s)", self.label, why)
        self._outbound.closed_too_slow += 1
        self.too_slow_closed = True
        self.closing = True
        self._let_go()
        self._writer.cancel()  # it may wait for room in the socket, which this client does not make
        self._writer = asyncio.get_running_loop().create_task(self._close_within(CloseCode.TOO_SLOW, "too slow"))
        self._outbound.let_go_later()

    def _let_go(self) -> None:
        while not self._queue.empty():
            text = self._queue.get_nowait()
            if text is not None:
                self._outbound.release(text)
        self.queued = 0
        if self._in_flight is not None:
            self._outbound.release(self._in_flight)
            self._in_flight = None
        self._outbound.connections.discard(self)

    async def _write(self) -> None:
        try:
            while (text := await self._queue.get()) is not None:
                self._in_flight = text
                await self.ws.send(text)
                self._in_flight = None
                self.queued -= sys.getsizeof(text)
                self._outbound.release(text)
            await self.ws.close(*self._close)
        except ConnectionClosed:
            pass
        finally:
            self._let_go()  # a connection that closed with frames still waiting

    async def _close_within(self, code: int, reason: str) -> None:
        try:
            await asyncio.wait_for(self.ws.close(code, reason), self._grace)
        except TimeoutError:
            self.ws.transport.abort()

    async def finished(self, timeout: float) -> None:
        self.end()
        try:
            await asyncio.wait_for(asyncio.shield(self._writer), timeout)
        except TimeoutError:
            self._writer.cancel()
            self.ws.transport.abort()


class Transport:
    def __init__(self, config: ServerConfig, lobby: Lobby, desk: AccountDesk, clock: Clock | None = None) -> None:
        self.config = config
        self.lobby = lobby
        self.metrics = lobby.metrics
        self.desk = desk
        self.account_http = AccountHttp(desk.accounts)
        self.clock: Clock = clock or LoopClock()
        """What the rate limits are measured on (a test's clock reaches them)."""
        self.connections: set[Connection] = set()
        self.outbound = Outbound(config.outbound_bytes, config.outbound_total_bytes)
        self.guesses = Guesses(
            free=config.password_free_failures,
            delay=config.password_delay,
            delay_max=config.password_delay_max,
            forget=config.password_forget,
            report_every=config.password_report_every,
        )
        self._server: Server | None = None
        self.keepalive = Keepalive(config.keepalive)
        self.web = WebRoot(config.web_root) if config.web_root is not None else None
        self._allowed = {o for o in map(origins.parse_origin, config.allowed_origins) if o is not None}
        self._origins_told: set[str] = set()
        self.room = config.max_connections or 0
        """The connections this server admits at once (server/frontier/room.py): set at start."""
        self._full_told = False
        self.admission = Admission(self.room, config.connections_per_address, 0)
        """Who the server takes (server/frontier/room.py): made again at start, once the room is known."""

    async def start(self) -> None:
        hard_limit = HARD_SIZE_FACTOR * self.config.max_message_bytes
        open_files = raise_open_files()
        self.room = self.config.max_connections or room_for(open_files)
        files = None if self.config.max_connections else open_files
        self.admission = Admission(self.room, self.config.connections_per_address, slack_for(self.room, files))
        self.keepalive.start()
        self._server = await serve(
            self._handle,
            self.config.host,
            self.config.port,
            process_request=self._http,
            create_connection=admitted_by(self.admission),
            max_size=hard_limit,
            close_timeout=2,
            ping_interval=None,  # the server's own keepalive pings only the silent (server/frontier/keepalive.py)
            ping_timeout=None,
            compression=None,  # a client's offer of deflate is taken as the config says
            extensions=[SparingDeflateFactory()] if self.config.compression else [],
        )

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    async def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        """Plain HTTP on the game's port: GET /healthz answers 200 while the server runs; the web page's files when the
        server has one (server/frontier/web.py), and its maps' pictures; its sign-ins (server/frontier/
        account_http.py). Every other request is a WebSocket handshake. A handshake or a sign-in from a web page of
        another origin is refused (403, server/frontier/origins.py). A request that repeats a header the server
        reads once (two `Host`) is refused (400): it cannot say which one it meant."""
        try:
            return await self._answer_http(connection, request)
        except MultipleValuesError as exc:
            why = f"a request repeated its {exc.args[0] if exc.args else 'a'} header"
            self._tell_once(why, "handshake refused: %s (HTTP 400)")
            return connection.respond(http.HTTPStatus.BAD_REQUEST, f"{why}: send it once\n")

    def _tell_once(self, why: str, line: str) -> None:
        """Log why a handshake was refused, each reason once (a page or a program may retry a lot), up to 100."""
        if len(self._origins_told) < 100 and why not in self._origins_told:
            self._origins_told.add(why)
            logger.warning(line, why)

    @property
    def held(self) -> int:
        """The connections admitted and open now (clients', and pages' requests under way)."""
        return self.admission.admitted

    def handlers(self) -> set[asyncio.Task[None]]:
        """The task serving each connection open now, from its handshake on (websockets' own)."""
        return self._server.handler_tasks if self._server is not None else set()

    def _full(self, connection: ServerConnection) -> Response:
        """The answer to a connection past the server's room (HTTP 503), told in the log once until there is room."""
        why = full_explanation(self.held, self.room, self.config.max_connections is not None)
        self.metrics.full.inc()
        if not self._full_told:
            self._full_told = True
            logger.warning("connections refused: %s", why)
        return _try_later(connection, http.HTTPStatus.SERVICE_UNAVAILABLE, why)

    def _crowded(self, connection: HeardFrom) -> Response:
        """The answer to a connection past its address's share (HTTP 429), told in the log once an address."""
        self.metrics.crowded.inc()
        most = self.admission.per_address or 0
        self._tell_once(
            connection.peer,
            f"connections from %s refused: it holds {most:,}, as many as one address may (--connections-per-address)",
        )
        return _try_later(connection, http.HTTPStatus.TOO_MANY_REQUESTS, self.admission.too_many())

    async def _answer_http(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            return connection.respond(http.HTTPStatus.OK, "ok\n")
        if path not in PROBES and isinstance(connection, HeardFrom) and not connection.admitted:
            admitted = self.admission.admit(connection.counted)
            if admitted is None:
                return self._full(connection)
            if not admitted:
                return self._crowded(connection)
            connection.admitted = True
        self._full_told = self._full_told and self.held >= self.room
        if path == "/readyz":
            why = await self._unready()
            if why is not None:
                return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, f"not ready: {why}\n")
            if request.path.endswith("?client") and isinstance(connection, HeardFrom):  # may the asker connect?
                most = self.admission.per_address
                if most is not None and self.admission.held(connection.peer) >= most:
                    return connection.respond(http.HTTPStatus.TOO_MANY_REQUESTS, self.admission.too_many() + "\n")
            return connection.respond(http.HTTPStatus.OK, "ready\n")
        if path == "/metrics":
            response = connection.respond(http.HTTPStatus.OK, "")
            response.body = self.metrics.text()
            for name, value in (("Content-Type", CONTENT_TYPE), ("Content-Length", str(len(response.body)))):
                del response.headers[name]
                response.headers[name] = value
            return response
        if path == UNSUBSCRIBE_PATH and self.desk.notifier is not None:
            return await self.desk.notifier.unsubscribe(request)
        account = path in ACCOUNT_PATHS and self.desk.accounts.on
        if self.web is not None and not is_upgrade(request) and not account:
            if is_picture_request(request):  # a map's picture for the page's board, by the map's id
                return picture_response(request, self.lobby.catalogue)
            return self.web.respond(request, cluster=bool(self.lobby.directory.peers))
        # a page of any node of this server follows its game to the node playing it
        peers = self.lobby.directory.peers
        allowed = self._allowed | {o for url in peers for o in origins.page_origins(url)}
        allowed |= loopback.page_origins(request.headers.get("Host"), self.lobby.directory.own_url, peers)
        why = origins.refusal(request.headers.get_all("Origin"), request.headers.get("Host"), allowed)
        if why is not None:
            what = "a sign-in" if account else "handshake"
            self._tell_once(why, what + " refused: %s (allow an origin with --allow-origin)")
            return connection.respond(http.HTTPStatus.FORBIDDEN, origins.explain(why))
        if account:
            host = connection.peer if isinstance(connection, HeardFrom) else "?"
            if path != "/account/sign-out" and self.config.password is not None:
                given = request.headers.get(SERVER_PASSWORD_HEADER)
                verdict = await self.guesses.check(host, given, self.config.password)
                if verdict is not Verdict.WELCOME:  # a server with a password lets nobody make or use an account
                    return password_refused(
                        given is not None, self.guesses.retry_in(host) if verdict is Verdict.BUSY else 0
                    )
            return await self.account_http.respond(request, host)
        return None

    async def _unready(self) -> str | None:
        """Why no new client should be sent here now (None: ready): the server stops, the node has lost its session
        with the database, or its store does not answer."""
        if self.lobby.stopping:
            return "the server is stopping"
        if self.held >= self.room:
            return full_explanation(self.held, self.room, self.config.max_connections is not None)
        try:
            if not await asyncio.wait_for(self.lobby.directory.ready(), READY_WITHIN):
                return "this node has no session with its database"
            await asyncio.wait_for(self.lobby.storage.ready(), READY_WITHIN)
        except TimeoutError:
            return f"its store did not answer within {READY_WITHIN:g} s"
        except StorageError as exc:  # what the store said names its hosts: the operator's log has it, not the public
            self._tell_once(str(exc), "not ready: its store does not answer: %s")
            return "its store does not answer"
        return None

    async def _handle(self, ws: ServerConnection) -> None:
        sock = ws.transport.get_extra_info("socket")
        if self.config.socket_send_buffer is not None and sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.config.socket_send_buffer)
        conn = Connection(ws, self.config, self.outbound, self.clock)
        if ws.request is not None:
            conn.loopback = loopback.for_handshake(ws.request.headers.get("Host"), self.lobby.directory.own_url)
        self.connections.add(conn)
        self.keepalive.add(ws, conn.number)
        try:
            if await self._greet(conn):
                await self._serve(conn)
        except ConnectionClosed:
            pass
        except Exception:
            logger.exception("connection %s: failed", conn.label)
        finally:
            self.connections.discard(conn)
            self.keepalive.remove(ws, conn.number)
            try:
                await self.lobby.disconnect(conn)
                await self.desk.disconnect(conn)
            except Exception:
                logger.exception("connection %s: failed to leave its games", conn.label)
            await conn.finished(self.config.shutdown_grace)
            if conn.too_slow_closed:  # its socket's buffers are freed only now
                self.outbound.let_go_later()

    async def _greet(self, conn: Connection) -> bool:
        try:
            frame = await asyncio.wait_for(conn.ws.recv(), self.config.hello_timeout)
        except TimeoutError:
            conn.send(
                Error(code=ErrorCode.HELLO_FIRST, message=f"no hello within {self.config.hello_timeout:g} seconds")
            )
            conn.end(CloseCode.HELLO_FIRST, "no hello")
            return False
        message = parse_frame(frame, self.config.max_message_bytes)
        if isinstance(message, Error) or not isinstance(message, Hello):
            problem = message if isinstance(message, Error) else None
            conn.send(
                Error(
                    code=ErrorCode.HELLO_FIRST,
                    ref=problem.ref if problem else None,
                    request=problem.request if problem else getattr(message, "type", None),
                    field=problem.field if problem else None,
                    message="the first message must be a hello" + (f" ({problem.message})" if problem else ""),
                )
            )
            conn.end(CloseCode.HELLO_FIRST, "hello expected")
            return False
        if message.protocol not in SUPPORTED_PROTOCOLS:
            older = ", ".join(str(v) for v in SUPPORTED_PROTOCOLS if v != PROTOCOL_VERSION)
            conn.send(
                Error(
                    code=ErrorCode.VERSION_MISMATCH,
                    request="hello",
                    ref=message.ref,
                    message=f"this server speaks protocol {PROTOCOL_VERSION} (and {older}, for guests), the client "
                    f"protocol {message.protocol}",
                )
            )
            conn.end(CloseCode.VERSION_MISMATCH, "protocol version")
            return False
        host = conn.address
        verdict = await self.guesses.check(host, message.password, self.config.password)
        if verdict is not Verdict.WELCOME:
            if verdict is Verdict.BUSY:
                text = f"too many wrong passwords from your address: try again in {self.guesses.retry_in(host):g} s"
            else:
                text = "this server needs a password" if message.password is None else "wrong password"
            conn.send(Error(code=ErrorCode.BAD_PASSWORD, request="hello", ref=message.ref, message=text))
            conn.end(CloseCode.BAD_PASSWORD, "password")
            return False
        conn.words = message.words
        conn.protocol = message.protocol
        peers = self.lobby.directory.peers
        conn.client_name = message.client
        session_problem = await self._sign_in(conn, message.session)
        conn.send(
            Welcome(
                ref=message.ref,
                protocol=conn.protocol,
                nodes=[conn.loopback.url(u) for u in peers] if conn.loopback else peers,
                accounts=self.desk.accounts.mode,
                account=None if conn.signed is None else conn.signed.info,
                session_problem=session_problem,
                limits={
                    "max_message_bytes": self.config.max_message_bytes,
                    "messages_per_second": self.config.messages_per_second,
                    "burst": self.config.burst,
                    "min_turn_seconds": self.config.min_turn_seconds,
                },
            )
        )
        return True

    async def _sign_in(self, conn: Connection, token: str | None) -> str | None:
        """Sign a new connection in with the session its hello names, or else its page's cookie; returns why that
        session signs nothing in (the connection is then a guest's), if it does not."""
        accounts = self.desk.accounts
        if token is None and conn.ws.request is not None:
            token = session_cookie(conn.ws.request)
        if token is None or not accounts.on:
            return None
        try:
            found = await accounts.session(token)
        except Refusal as refusal:
            return refusal.message
        if isinstance(found, str):
            return found
        conn.signed = found
        return None

    async def sessions_ended(self, hashes: set[str]) -> None:
        """Sessions ended (here, on another node, or by the operator): the connections they signed in are closed."""
        for conn in list(self.connections):
            if conn.signed is not None and conn.signed.token_hash in hashes:
                conn.send(SignedOut(everywhere=False))
                conn.end(CloseCode.SIGNED_OUT, "session ended")

    async def _serve(self, conn: Connection) -> None:
        async for frame in conn.ws:
            if conn.closing:
                continue  # read on, unheeded, so that the closing handshake is not stuck behind unread frames
            if not conn.rate.take():
                self._refuse(conn, rate_limited(frame, self.config.max_message_bytes, self.config.messages_per_second))
            else:
                message = parse_frame(frame, self.config.max_message_bytes)
                if isinstance(message, Error):
                    self._refuse(conn, message)
                else:
                    await self._carry_out(conn, message)

    async def _carry_out(self, conn: Connection, message: BaseModel) -> None:
        request = getattr(message, "type", None)
        game_id = getattr(message, "game_id", None)
        ref = getattr(message, "ref", None)
        began = stopwatch()
        try:
            await dispatch(self.lobby, self.desk, conn, message)  # type: ignore[arg-type]
            self.metrics.observe_request(request, stopwatch() - began)
        except Refusal as refusal:
            self.metrics.refused(refusal.code)
            conn.send(
                Error(
                    code=refusal.code,
                    message=refusal.message,
                    request=request,
                    game_id=game_id,
                    ref=ref,
                    field=refusal.field,
                )
            )
        except Redirect as moved:
            url = moved.url if moved.url is not None else await self.lobby.owner_url(moved.game_id)
            if url is None:
                self.metrics.refused(ErrorCode.GAME_MOVED)
                conn.send(
                    Error(
                        code=ErrorCode.GAME_MOVED,
                        request=request,
                        game_id=moved.game_id,
                        ref=ref,
                        message=f"game {moved.game_id} moved to another node of this server: try again in a moment",
                    )
                )
            else:
                self.metrics.redirects.inc()
                conn.send(RedirectMessage(game_id=moved.game_id, url=url, request=request, ref=ref))
        except StorageError as exc:  # a store that failed where no match turned it into a refusal (a new game)
            logger.error("connection %s: %s not kept: %s", conn.label, request, exc)
            self.metrics.refused(ErrorCode.STORAGE_FAILED)
            conn.send(
                Error(
                    code=ErrorCode.STORAGE_FAILED,
                    request=request,
                    game_id=game_id,
                    ref=ref,
                    message="the server could not save this change, so it did not happen; try again",
                )
            )
        except Exception:
            logger.exception("connection %s: %s failed", conn.label, request)
            self.metrics.refused(ErrorCode.INTERNAL)
            conn.send(
                Error(
                    code=ErrorCode.INTERNAL,
                    message="the server failed on this request",
                    request=request,
                    game_id=game_id,
                    ref=ref,
                )
            )

    def _refuse(self, conn: Connection, error: Error) -> None:
        self.metrics.refused(error.code)
        conn.send(error)
        if not conn.bad_frames.take():
            logger.warning(
                "connection %s: disconnected after too many refused frames (last: %s)", conn.label, error.code
            )
            conn.end(CloseCode.ABUSE, "too many refused messages")

    async def stop(self, message: str = "the server is shutting down") -> None:
        """Tell every client, let them receive it, then close every connection (code 1001)."""
        if self._server is None:
            return
        self._server.server.close()  # no new connections from here on
        self.guesses.close()
        await self.keepalive.stop()
        for conn in list(self.connections):
            conn.send(ShuttingDown(message=message))
            conn.end(1001, "server shutting down")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._drain(), self.config.shutdown_grace)
        self._server.close(close_connections=True)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._server.wait_closed(), self.config.shutdown_grace)

    async def _drain(self) -> None:
        while self.connections:
            await asyncio.sleep(0.02)


def _try_later(connection: ServerConnection, status: http.HTTPStatus, why: str) -> Response:
    """A connection refused for now (the server full, or its address): why, and when to try again."""
    response = connection.respond(status, why + "\n")
    response.headers["Retry-After"] = "30"
    return response
