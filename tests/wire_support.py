"""A WebSocket relay between real clients and a real server, keeping every frame that passes, both ways.

Clients connect to the relay as they would to the server (its URL instead of the server's); for each, the relay
opens a connection of its own to the server and passes every frame on, unchanged, in order, each side's compression
negotiated with that side, and a close on either side closes the other. What passes is kept as text, with the
connection it belongs to and its direction: the frames as the protocol has them, whatever client sent them.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed


@dataclass(frozen=True)
class Frame:
    connection: int
    """Which client connection, numbered in the order they came."""
    direction: str
    """"client" (client to server) or "server" (server to client)."""
    text: str


@dataclass
class Relay:
    target: str
    frames: list[Frame] = field(default_factory=list)
    port: int = 0
    _numbers: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    async def _handle(self, client: ServerConnection) -> None:
        number = next(self._numbers)
        async with connect(self.target, max_size=None) as server:
            await asyncio.gather(
                self._pass(client, server, number, "client"), self._pass(server, client, number, "server")
            )

    async def _pass(
        self,
        source: ServerConnection | ClientConnection,
        sink: ServerConnection | ClientConnection,
        number: int,
        direction: str,
    ) -> None:
        try:
            async for message in source:
                assert isinstance(message, str), "the protocol has text frames only"
                self.frames.append(Frame(number, direction, message))
                await sink.send(message)
        except ConnectionClosed:
            pass
        finally:
            code = source.close_code or 1000
            with contextlib.suppress(Exception):
                await sink.close(code if code not in (1005, 1006) else 1000, source.close_reason or "")

    def of(self, direction: str) -> list[Frame]:
        return [f for f in self.frames if f.direction == direction]


@contextlib.asynccontextmanager
async def relayed(target: str) -> AsyncIterator[Relay]:
    """A relay in front of the server at `target`, for as long as the block runs."""
    relay = Relay(target)
    async with serve(relay._handle, "127.0.0.1", 0, max_size=None) as server:
        relay.port = int(next(iter(server.sockets)).getsockname()[1])
        yield relay
