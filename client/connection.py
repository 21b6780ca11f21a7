"""The link to the server: connect and say hello, pair each request with its reply, and reconnect when the link drops.

Requests carry a `ref` the server copies into its answer, so `request()` returns exactly the reply (or the error) to
that request; everything else the server sends (updates, and replies nobody waits for) goes to `on_message` in the
order it arrived. When the link drops, requests under way fail with ConnectionLost, and the connection retries with a
growing, jittered delay until it is back; then `on_reconnect` runs, which is where the game resumes its seat. Refusals
that another try cannot cure (a wrong password, another protocol version) end the connection for good.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import time
from collections.abc import Awaitable, Callable

from pydantic import BaseModel, ValidationError
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from client.link import SIGNED_OUT, LinkState
from shared.protocol.codes import PROTOCOL_VERSION, CloseCode, ErrorCode
from shared.protocol.deflate import SparingClientDeflateFactory
from shared.protocol.messages import Error, Hello, ServerMessage, Welcome, decode_server, encode
from shared.protocol.pacing import TokenBucket

CLIENT_NAME = "risc-text-client"
FATAL_CLOSE_CODES = frozenset({CloseCode.VERSION_MISMATCH, CloseCode.BAD_PASSWORD})
FATAL_ERRORS = frozenset({ErrorCode.VERSION_MISMATCH, ErrorCode.BAD_PASSWORD})
PACE_MARGIN = 0.9
"""The client keeps to this share of the rate the server announces, so that timing jitter on the way does not push
a fast sender (a computer player, a script) over the server's limit."""


def pacer_for(welcome: Welcome) -> TokenBucket | None:
    """A bucket holding this client to the server's announced limits; None if the server announced none."""
    rate = welcome.limits.get("messages_per_second")
    burst = welcome.limits.get("burst")
    if not rate or not burst:
        return None
    return TokenBucket(max(1.0, burst * PACE_MARGIN), rate * PACE_MARGIN, time.monotonic)


async def paced(pacer: TokenBucket | None) -> None:
    """Wait until `pacer` allows one more message, and count it (no wait without a pacer)."""
    if pacer is not None:
        while (delay := pacer.wait_time()) > 0:
            await asyncio.sleep(delay)
        pacer.take()


def spawn(tasks: set[asyncio.Task[None]], work: Awaitable[None]) -> None:
    """Run `work` in the background, kept in `tasks` (to be cancelled on close) until it is done."""

    async def run() -> None:
        await work

    task = asyncio.get_running_loop().create_task(run())
    tasks.add(task)
    task.add_done_callback(tasks.discard)


class ConnectionFailed(Exception):
    """The server cannot be reached, or refused us. `fatal`: another try will not change it (password, version)."""

    def __init__(self, message: str, fatal: bool = False) -> None:
        super().__init__(message)
        self.fatal = fatal


class ConnectionLost(Exception):
    """The link dropped before the reply came: the request may or may not have been carried out."""


class Backoff:
    """Delays between reconnection attempts: doubling from `first` up to `most`, each shortened by up to a quarter at
    random, so a whole room of clients does not knock on a restarted server at the same instant."""

    def __init__(self, first: float = 0.5, most: float = 10.0) -> None:
        self.first, self.most = first, most
        self._next = first

    def next_delay(self) -> float:
        delay = self._next
        self._next = min(self.most, self._next * 2)
        return delay * random.uniform(0.75, 1.0)

    def reset(self) -> None:
        self._next = self.first


class Connection:
    def __init__(
        self,
        url: str,
        *,
        password: str | None = None,
        session: str | None = None,
        on_message: Callable[[ServerMessage], None] | None = None,
        on_link: Callable[[LinkState, str], None] | None = None,
        on_reconnect: Callable[[], Awaitable[None]] | None = None,
        backoff: Backoff | None = None,
        timeout: float = 10.0,
        reconnect: bool = True,
    ) -> None:
        """`reconnect`: come back by itself when the link drops (else it ends, CLOSED: a link to one node of several,
        whose games are then followed again through the entry link, client/routing.py)."""
        self.url = url
        self.reconnect = reconnect
        self.alternates: list[str] = []
        """Other addresses of the same server (the nodes its welcome listed), tried in turn when `url` cannot be
        reached while reconnecting: a server of several nodes goes on when the node this link reached dies."""
        self.password = password
        self.session = session
        """The account session the hello signs in with (protocol 5), if the player is signed in."""
        self.on_message = on_message or (lambda message: None)
        self.on_link = on_link or (lambda state, detail: None)
        self.on_reconnect = on_reconnect
        self.backoff = backoff or Backoff()
        self.timeout = timeout
        self.state = LinkState.CLOSED
        self.welcome: Welcome | None = None
        self._ws: ClientConnection | None = None
        self._pending: dict[str, asyncio.Future[ServerMessage]] = {}
        self._refs = itertools.count(1)
        self._supervisor: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False
        self._connected = asyncio.Event()
        self._pacer: TokenBucket | None = None
        self.hellos = 0
        """How many times the link has said hello and been welcomed."""
        self._welcomed = asyncio.Event()
        self._relinking = False
        """The server closed the link on purpose (the account's session ended): it comes back at once, and a
        request meanwhile waits for it rather than fail."""

    # ---- opening ------------------------------------------------------------------------------------------------

    async def open(self) -> Welcome:
        """Connect and say hello; raises ConnectionFailed with a sentence a person can act on."""
        ws, welcome = await self._dial()
        self._attach(ws, welcome)
        self._supervisor = asyncio.get_running_loop().create_task(self._supervise())
        return welcome

    async def _dial(self) -> tuple[ClientConnection, Welcome]:
        try:
            ws = await asyncio.wait_for(
                connect(
                    self.url,
                    open_timeout=self.timeout,
                    ping_interval=20,
                    ping_timeout=20,
                    close_timeout=2,
                    max_size=2**22,
                    compression=None,
                    extensions=[SparingClientDeflateFactory()],
                ),
                self.timeout,
            )
        except InvalidURI as exc:
            raise ConnectionFailed(f"{self.url} is not a websocket address (e.g. ws://host:8765)") from exc
        except InvalidStatus as exc:  # the server answered, and refused: its answer says why (a full server)
            said = exc.response.body.decode("utf-8", "replace").strip().splitlines() if exc.response.body else []
            why = said[0][:300] if said else str(exc)
            raise ConnectionFailed(
                f"{self.url} refused the connection (HTTP {exc.response.status_code}): {why}"
            ) from exc
        except (OSError, InvalidHandshake, TimeoutError) as exc:
            raise ConnectionFailed(f"cannot reach {self.url}: {exc or type(exc).__name__}") from exc
        try:
            await ws.send(
                encode(
                    Hello(
                        protocol=PROTOCOL_VERSION,
                        password=self.password,
                        client=CLIENT_NAME,
                        session=self.session,
                        ref="hello",
                    )
                )
            )
            reply = decode_server(await asyncio.wait_for(ws.recv(), self.timeout))
        except (ConnectionClosed, TimeoutError, ValidationError, OSError) as exc:
            await ws.close()
            raise ConnectionFailed(f"{self.url} did not answer the hello: {exc or type(exc).__name__}") from exc
        if isinstance(reply, Error):
            await ws.close()
            raise ConnectionFailed(f"the server refused us: {reply.message}", fatal=reply.code in FATAL_ERRORS)
        if not isinstance(reply, Welcome):
            await ws.close()
            raise ConnectionFailed(f"the server answered the hello with {reply.type}")
        return ws, reply

    def _attach(self, ws: ClientConnection, welcome: Welcome) -> None:
        self._ws, self.welcome = ws, welcome
        if welcome.nodes:
            self.alternates = [node for node in welcome.nodes if node.rstrip("/") != self.url.rstrip("/")]
        self._pacer = pacer_for(welcome)
        self.state = LinkState.CONNECTED
        self._relinking = False
        self.hellos += 1
        welcomed, self._welcomed = self._welcomed, asyncio.Event()
        welcomed.set()
        self._connected.set()

    # ---- requests -----------------------------------------------------------------------------------------------

    async def send(self, message: BaseModel) -> None:
        ws = self._ws
        if ws is None or self.state is not LinkState.CONNECTED:
            raise ConnectionLost("not connected to the server")
        await paced(self._pacer)
        try:
            await ws.send(encode(message))
        except ConnectionClosed as exc:
            raise ConnectionLost("the connection dropped") from exc

    async def request(self, message: BaseModel) -> ServerMessage:
        """Send `message` and wait for the server's answer to it: its reply, or an Error (a value, not raised)."""
        if self._relinking:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._connected.wait(), self.timeout)
        ref = f"r{next(self._refs)}"
        message = message.model_copy(update={"ref": ref})
        future: asyncio.Future[ServerMessage] = asyncio.get_running_loop().create_future()
        self._pending[ref] = future
        try:
            await self.send(message)
            return await asyncio.wait_for(future, self.timeout)
        except TimeoutError as exc:
            raise ConnectionLost("the server did not answer in time") from exc
        finally:
            self._pending.pop(ref, None)
            if future.done() and not future.cancelled():
                future.exception()  # failed by a drop while the request was still being sent: its error is raised
            else:
                future.cancel()

    async def wait_connected(self) -> None:
        await self._connected.wait()

    async def welcomed_since(self, hellos: int) -> None:
        """Wait until the link has said hello again since `hellos` counted that many (reconnected)."""
        while self.hellos <= hellos:
            await self._welcomed.wait()

    # ---- reading and reconnecting -------------------------------------------------------------------------------

    async def _supervise(self) -> None:
        while not self._closing:
            ws = self._ws
            assert ws is not None
            await self._read(ws)
            if self._closing:
                break
            code = ws.close_code
            self._connected.clear()
            self._fail_pending()
            if code in FATAL_CLOSE_CODES:
                self._set_state(LinkState.CLOSED, f"the server closed the connection: {ws.close_reason or code}")
                return
            signed_out = code == CloseCode.SIGNED_OUT
            if signed_out:
                self.session = None  # ended: the next hello is a guest's, never the dead session's again
                self._relinking = self.reconnect
            if not self.reconnect:
                self._set_state(LinkState.CLOSED, SIGNED_OUT if signed_out else "the connection to this node dropped")
                return
            dropped = "the connection dropped; reconnecting"
            self._set_state(LinkState.RECONNECTING, SIGNED_OUT if signed_out else dropped)
            if not await self._reconnect(at_once=signed_out):
                return
            self._set_state(LinkState.CONNECTED, "reconnected")
            if self.on_reconnect is not None:
                self._spawn(self.on_reconnect())

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for frame in ws:
                try:
                    message = decode_server(frame)
                except ValidationError:
                    continue  # a newer server's message this client does not know: nothing to act on
                self._deliver(message)
        except ConnectionClosed:
            pass

    def _deliver(self, message: ServerMessage) -> None:
        future = self._pending.get(message.ref) if message.ref is not None else None
        if future is not None and not future.done():
            future.set_result(message)
        else:
            self.on_message(message)

    def _fail_pending(self) -> None:
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ConnectionLost("the connection dropped before the server answered"))
        self._pending.clear()

    async def _reconnect(self, at_once: bool = False) -> bool:
        """Dial again until the server answers (`at_once`: the first try without waiting: the server closed the
        link on purpose, and is there)."""
        self.backoff.reset()
        tried = 0
        while not self._closing:
            if not at_once:
                await asyncio.sleep(self.backoff.next_delay())
            at_once = False
            if self._closing:
                return False
            try:
                ws, welcome = await self._dial()
            except ConnectionFailed as exc:
                if exc.fatal:
                    self._set_state(LinkState.CLOSED, str(exc))
                    return False
                if self.alternates:  # another node of the same server, in turn
                    tried += 1
                    self.alternates.append(self.url)
                    self.url = self.alternates.pop(0)
                    if tried <= len(self.alternates):
                        self.backoff.reset()  # the first round over the nodes goes at once
                continue
            if self._closing:
                await ws.close()
                return False
            self._attach(ws, welcome)
            return True
        return False

    def _set_state(self, state: LinkState, detail: str) -> None:
        self.state = state
        if state is LinkState.CLOSED:
            self._relinking = False
        self.on_link(state, detail)

    def _spawn(self, work: Awaitable[None]) -> None:
        spawn(self._tasks, work)

    async def drop(self) -> None:
        """Close the link as a network failure would, leaving reconnection to do its work (for tests and Ctrl-R)."""
        if self._ws is not None:
            self._ws.transport.abort()

    async def close(self) -> None:
        self._closing = True
        self.state = LinkState.CLOSED
        self._fail_pending()
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._supervisor is not None:
            self._supervisor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._supervisor
        for task in list(self._tasks):
            task.cancel()
