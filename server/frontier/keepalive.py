"""Keeping connections alive: a connection the server has heard nothing from for a while is pinged, and one that
stays silent after its ping is disconnected, so that a client that vanished (a laptop closed, a network gone) does
not hold its seat, its memory and its file forever.

The WebSocket library's own keepalive pings every connection every interval from a task of its own: at 19,000
connections that is about 950 pings a second and 19,000 tasks, each with its timer, about 5 % of a core at the
pace people play (docs/performance.md). Here one task visits a twentieth of the connections each twentieth of the
interval, and pings only those it has heard nothing from (no frame of any kind, pongs included) for the interval: a
player who sent orders lately is not pinged at all. A connection is pinged once it has been silent for one to two
intervals, and disconnected (1011, "keepalive ping timeout") if still silent when visited again, an interval after
its ping: a client that answers pings stays however long it says nothing else, and one that vanished is let go two
to three intervals after it was last heard.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.frames import CloseCode
from websockets.protocol import State

from server.frontier.ending import CleanEnd
from server.frontier.guesses import address_of
from server.frontier.room import Admission

SLICES = 20
"""The connections are visited in this many parts, one each 1/SLICES of the interval."""
CLOSE_WITHIN = 2.0
"""Seconds a connection that did not answer its ping is given to receive its close frame before it is cut off."""


class HeardFrom(CleanEnd):
    """The websockets connection of the game's port (server/frontier/ending.py), knowing when it last received a
    frame of any kind (data, ping, pong, close), where it comes from, and counted by its server's admission
    (server/frontier/room.py) from the moment it is accepted until it is lost."""

    admission: Admission | None = None
    """The server's (`admitted_by` makes the class of a server's connections)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.heard = self.loop.time()
        self.pinged: float | None = None
        """When it was pinged, while that ping is unanswered (None: nothing unanswered)."""
        self.peer = "?"
        """The client's network address, as the connection was accepted (read once: a socket reset by the client
        before it is asked has none to give)."""
        self.peer_port: int | None = None
        self.counted = "?"
        """What its address is counted as (address_of: an IPv6 address by its /64)."""
        self.admitted = False
        """Let through by the admission (a handshake or a page request within the room and the address's share)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        if isinstance(peer, tuple) and peer:
            self.peer = str(peer[0])
            self.peer_port = peer[1] if len(peer) > 1 and isinstance(peer[1], int) else None
        self.counted = address_of(self.peer)
        keep = self.admission is None or self.admission.accepted(self.counted)
        super().connection_made(transport)
        if not keep:  # past the room and its slack, or its address's share and the slack: no answer
            if isinstance(transport, asyncio.WriteTransport):
                transport.abort()
            else:
                transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.admission is not None:
            self.admission.lost(self.counted, self.admitted)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self.heard = self.loop.time()
        self.pinged = None
        super().data_received(data)


def admitted_by(admission: Admission) -> type[HeardFrom]:
    """The class of a server's connections, counted by its `admission`."""

    class Admitted(HeardFrom):
        pass

    Admitted.admission = admission
    return Admitted


class Keepalive:
    """The connections being kept alive, in SLICES parts, and the task visiting one part at a time."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self._parts: list[set[HeardFrom]] = [set() for _ in range(SLICES)]
        self._next = 0
        self._task: asyncio.Task[None] | None = None
        self.pings = 0
        """Pings sent (the metrics and the tests read it)."""
        self.cut_off = 0
        """Connections disconnected for not answering a ping."""
        self.changed = asyncio.Event()
        """Set whenever a ping is sent or a connection cut off (what a watcher of the counts waits on)."""

    def add(self, ws: ServerConnection, number: int) -> None:
        if isinstance(ws, HeardFrom):
            self._parts[number % SLICES].add(ws)

    def remove(self, ws: ServerConnection, number: int) -> None:
        if isinstance(ws, HeardFrom):
            self._parts[number % SLICES].discard(ws)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._visit_forever(), name="keepalive")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _visit_forever(self) -> None:
        while True:
            await asyncio.sleep(self.interval / SLICES)
            part, self._next = self._parts[self._next], (self._next + 1) % SLICES
            self.visit(part, asyncio.get_running_loop().time())

    def visit(self, part: set[HeardFrom], now: float) -> None:
        for ws in list(part):
            if ws.protocol.state is not State.OPEN:
                continue
            if ws.pinged is not None:
                if now - ws.pinged >= self.interval:
                    self._cut_off(ws)
                    self.changed.set()
            elif now - ws.heard >= self.interval and not ws.paused:  # a client being written to is not silent
                ws.protocol.send_ping(os.urandom(4))
                ws.send_data()
                ws.pinged = now
                self.pings += 1
                self.changed.set()

    def _cut_off(self, ws: HeardFrom) -> None:
        """Close with 1011 as the WebSocket library's keepalive does; cut the link if the close is not taken."""
        self.cut_off += 1
        ws.protocol.fail(CloseCode.INTERNAL_ERROR, "keepalive ping timeout")
        ws.send_data()
        ws.loop.call_later(CLOSE_WITHIN, ws.transport.abort)
