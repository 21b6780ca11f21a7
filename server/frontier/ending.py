"""A connection's end leaves nothing for the cycle collector.

websockets keeps on each connection's protocol the generator that parses what it reads, suspended for good once the
connection is over, and the exception that ended it abnormally (a dropped link, a bad frame, a failed handshake) with
its traceback; each holds a frame of the protocol's own, so every connection that ended would stay a cycle of
references that only the collector frees, and a server of thousands of connections walks what it holds whole only
rarely (server/collector.py). Once the connection is lost, websockets never steps its parser again: the parser is
closed, and those exceptions let go of their tracebacks (their words stay).
"""

from __future__ import annotations

from websockets.protocol import Protocol

from server.frontier.bodies import SmallBodies


class CleanEnd(SmallBodies):
    """The websockets connection of the game's port: a small body let through (server/frontier/bodies.py), and an
    end that reference counting frees whole."""

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        untangle(self.protocol)


def untangle(protocol: Protocol) -> None:
    """Break the cycles a closed connection's protocol holds (module docstring)."""
    protocol.parser.close()
    failures: list[BaseException | None] = [protocol.parser_exc, getattr(protocol, "handshake_exc", None)]
    seen: set[int] = set()
    while failures:
        failure = failures.pop()
        if failure is None or id(failure) in seen:
            continue
        seen.add(id(failure))
        failure.__traceback__ = None
        failures += [failure.__cause__, failure.__context__]
