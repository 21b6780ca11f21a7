"""Small request bodies on the game's port: websockets reads no request body and refuses a request that has one, but
a mail program's one-click unsubscribe (RFC 8058) is a POST whose body says `List-Unsubscribe=One-Click`. So a
connection's HTTP parser reads its request through a line reader that lets a body of at most `MOST` bytes through: its
Content-Length is told under another name, and the body is read and dropped once the headers end (what the server acts
on is the request's line and headers); a larger one is refused as before."""

from __future__ import annotations

import weakref
from collections.abc import Generator
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.server import ServerProtocol
from websockets.streams import StreamReader

MOST = 1024
BODY_HEADER = b"X-Risc-Body-Length:"


class _Lenient:
    """A request's line reader that lets a small body through (see above). The reader holds it, in place of its own
    `read_line`, so it holds the reader weakly: held strongly, every connection's reader would stay a cycle of
    references that only the cycle collector frees (server/frontier/ending.py)."""

    def __init__(self, reader: StreamReader) -> None:
        self._reader = weakref.ref(reader)
        self._body = 0

    def __call__(self, *args: Any) -> Generator[None, None, bytearray]:
        reader = self._reader()
        assert reader is not None, "only its reader reads through it"
        line = yield from StreamReader.read_line(reader, *args)
        name, colon, value = bytes(line).partition(b":")
        length = int(value.strip()) if colon and value.strip().isdigit() else MOST + 1
        if name.strip().lower() == b"content-length" and length <= MOST:
            self._body = length
            return bytearray(BODY_HEADER + value)
        if bytes(line) in (b"\r\n", b"\n") and self._body:
            yield from reader.read_exact(self._body)  # the body, dropped
            self._body = 0
        return line


class SmallBodies(ServerConnection):
    """A connection whose handshake may carry a small body (what is read of it is the request's headers only)."""

    def __init__(self, protocol: ServerProtocol, *args: Any, **kwargs: Any) -> None:
        setattr(protocol.reader, "read_line", _Lenient(protocol.reader))  # noqa: B010  # its method, replaced
        protocol.parser = protocol.parse()  # nothing was read yet: parse anew, through the lenient reader
        next(protocol.parser)
        super().__init__(protocol, *args, **kwargs)
