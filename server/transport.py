"""Connections: the opening hello, one task reading and one writing per client, limits, and GET /healthz.

Each connection reads its frames one at a time and hands each validated message to the lobby or a match; what the
server sends goes through a bounded queue, so a slow reader cannot hold up a game (it is disconnected instead).
"""

from __future__ import annotations

import asyncio
import contextlib
import http
import itertools
import logging
import time

from pydantic import BaseModel
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from server.config import ServerConfig
from server.dispatch import dispatch
from server.frames import parse_frame, rate_limited
from server.lobby import Lobby
from server.match import Refusal
from server.seats import password_matches
from server.storage import StorageError
from shared.protocol.codes import PROTOCOL_VERSION, CloseCode, ErrorCode
from shared.protocol.messages import Error, Hello, ShuttingDown, Welcome, encode
from shared.protocol.pacing import TokenBucket

logger = logging.getLogger("risc.server")

HARD_SIZE_FACTOR = 4
"""Frames up to this many times the message limit are read and refused with an error; larger ones end the
connection at once (close code 1009), as reading them would already cost too much."""


class Connection:
    """One client: what it follows, its limits, and the queue of what is to be sent to it."""

    _numbers = itertools.count(1)

    def __init__(self, ws: ServerConnection, config: ServerConfig) -> None:
        self.ws = ws
        self.games: set[str] = set()
        self.number = next(Connection._numbers)
        self.rate = TokenBucket(config.burst, config.messages_per_second, time.monotonic)
        self.bad_frames = TokenBucket(config.bad_frames_burst, config.bad_frames_per_second, time.monotonic)
        self._limit = config.outbound_queue
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._close: tuple[int, str] = (1000, "")
        self.closing = False
        self._writer = asyncio.get_running_loop().create_task(self._write())

    @property
    def label(self) -> str:
        address = self.ws.remote_address
        where = f"{address[0]}:{address[1]}" if isinstance(address, tuple) and len(address) >= 2 else "?"
        return f"#{self.number} ({where})"

    def send(self, message: BaseModel, text: str | None = None) -> None:
        if self.closing:
            return
        if self._queue.qsize() >= self._limit:
            logger.warning("connection %s: disconnected, it reads too slowly", self.label)
            self.end(CloseCode.TOO_SLOW, "too many unread messages")
            return
        self._queue.put_nowait(encode(message) if text is None else text)

    def end(self, code: int = 1000, reason: str = "") -> None:
        """Send what is queued, then close with `code`. Later messages are dropped."""
        if not self.closing:
            self.closing = True
            self._close = (code, reason)
            self._queue.put_nowait(None)

    async def _write(self) -> None:
        try:
            while (text := await self._queue.get()) is not None:
                await self.ws.send(text)
            await self.ws.close(*self._close)
        except ConnectionClosed:
            pass

    async def finished(self, timeout: float) -> None:
        self.end()
        try:
            await asyncio.wait_for(asyncio.shield(self._writer), timeout)
        except TimeoutError:
            self._writer.cancel()
            self.ws.transport.abort()


class Transport:
    def __init__(self, config: ServerConfig, lobby: Lobby) -> None:
        self.config = config
        self.lobby = lobby
        self.connections: set[Connection] = set()
        self._server: Server | None = None

    async def start(self) -> None:
        hard_limit = HARD_SIZE_FACTOR * self.config.max_message_bytes
        self._server = await serve(self._handle, self.config.host, self.config.port, process_request=self._http,
                                   max_size=hard_limit, close_timeout=2, ping_interval=20, ping_timeout=20,
                                   compression=None)  # deflate cost an eighth of the CPU and 70 KB a connection

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        """Plain HTTP on the game's port: GET /healthz answers 200 while the server runs."""
        if request.path.split("?", 1)[0] == "/healthz":
            return connection.respond(http.HTTPStatus.OK, "ok\n")
        return None

    async def _handle(self, ws: ServerConnection) -> None:
        conn = Connection(ws, self.config)
        self.connections.add(conn)
        try:
            if await self._greet(conn):
                await self._serve(conn)
        except ConnectionClosed:
            pass
        except Exception:
            logger.exception("connection %s: failed", conn.label)
        finally:
            self.connections.discard(conn)
            try:
                await self.lobby.disconnect(conn)
            except Exception:
                logger.exception("connection %s: failed to leave its games", conn.label)
            await conn.finished(self.config.shutdown_grace)

    async def _greet(self, conn: Connection) -> bool:
        try:
            frame = await asyncio.wait_for(conn.ws.recv(), self.config.hello_timeout)
        except TimeoutError:
            conn.send(Error(code=ErrorCode.HELLO_FIRST,
                            message=f"no hello within {self.config.hello_timeout:g} seconds"))
            conn.end(CloseCode.HELLO_FIRST, "no hello")
            return False
        message = parse_frame(frame, self.config.max_message_bytes)
        if isinstance(message, Error) or not isinstance(message, Hello):
            problem = message if isinstance(message, Error) else None
            conn.send(Error(code=ErrorCode.HELLO_FIRST,
                            message="the first message must be a hello"
                                    + (f" ({problem.message})" if problem else "")))
            conn.end(CloseCode.HELLO_FIRST, "hello expected")
            return False
        if message.protocol != PROTOCOL_VERSION:
            conn.send(Error(code=ErrorCode.VERSION_MISMATCH, request="hello", ref=message.ref,
                            message=f"this server speaks protocol {PROTOCOL_VERSION}, "
                                    f"the client protocol {message.protocol}"))
            conn.end(CloseCode.VERSION_MISMATCH, "protocol version")
            return False
        if not password_matches(message.password, self.config.password):
            logger.warning("connection %s: refused, wrong password", conn.label)
            conn.send(Error(code=ErrorCode.BAD_PASSWORD, request="hello", ref=message.ref,
                            message="this server needs a password" if message.password is None
                            else "wrong password"))
            conn.end(CloseCode.BAD_PASSWORD, "password")
            return False
        conn.send(Welcome(ref=message.ref, limits={
            "max_message_bytes": self.config.max_message_bytes,
            "messages_per_second": self.config.messages_per_second,
            "burst": self.config.burst,
        }))
        return True

    async def _serve(self, conn: Connection) -> None:
        async for frame in conn.ws:
            if conn.closing:
                continue  # read on, unheeded, so that the closing handshake is not stuck behind unread frames
            if not conn.rate.take():
                self._refuse(conn, rate_limited(frame, self.config.max_message_bytes,
                                                self.config.messages_per_second))
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
        try:
            await dispatch(self.lobby, conn, message)  # type: ignore[arg-type]
        except Refusal as refusal:
            conn.send(Error(code=refusal.code, message=refusal.message, request=request, game_id=game_id, ref=ref))
        except StorageError as exc:  # a store that failed where no match turned it into a refusal (a new game)
            logger.error("connection %s: %s not kept: %s", conn.label, request, exc)
            conn.send(Error(code=ErrorCode.STORAGE_FAILED, request=request, game_id=game_id, ref=ref,
                            message="the server could not save this change, so it did not happen; try again"))
        except Exception:
            logger.exception("connection %s: %s failed", conn.label, request)
            conn.send(Error(code=ErrorCode.INTERNAL, message="the server failed on this request",
                            request=request, game_id=game_id, ref=ref))

    def _refuse(self, conn: Connection, error: Error) -> None:
        conn.send(error)
        if not conn.bad_frames.take():
            logger.warning("connection %s: disconnected after too many refused frames (last: %s)",
                           conn.label, error.code)
            conn.end(CloseCode.ABUSE, "too many refused messages")

    async def stop(self, message: str = "the server is shutting down") -> None:
        """Tell every client, let them receive it, then close every connection (code 1001)."""
        if self._server is None:
            return
        self._server.server.close()  # no new connections from here on
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
