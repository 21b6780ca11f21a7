"""Clients that misbehave on purpose, at the byte level: a WebSocket client over a raw TCP socket that sends whatever
it is told and reads only when told to (a client that stops reading), with a receive buffer as small as the OS
allows. Loopback only."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
from typing import Any

HOST = "127.0.0.1"


def client_frame(text: str | bytes, opcode: int = 0x1) -> bytes:
    """One masked frame, as a client must send it (RFC 6455 5.2)."""
    payload = text.encode() if isinstance(text, str) else text
    head = bytes([0x80 | opcode])
    if len(payload) < 126:
        head += bytes([0x80 | len(payload)])
    elif len(payload) < 1 << 16:
        head += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", len(payload))
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class RawClient:
    """A WebSocket connection driven by hand. It reads nothing unless asked, so what the server sends piles up in
    the server (the socket's buffers hold only a few kilobytes: SO_RCVBUF is set as small as the OS allows)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def connect(
        cls, port: int, *, headers: dict[str, str] | None = None, source: str = HOST, small_buffer: bool = True
    ) -> tuple[RawClient, str]:
        """Connect and send the opening handshake; returns the client and the server's HTTP response head (which
        a refused handshake ends with)."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if small_buffer:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        sock.bind((source, 0))
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (HOST, port))
        reader, writer = await asyncio.open_connection(sock=sock, limit=1 << 20)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            "GET / HTTP/1.1",
            f"Host: {HOST}:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
        ]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await writer.drain()
        head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)).decode("latin-1")
        return cls(reader, writer), head

    async def send(self, **message: Any) -> None:
        self.writer.write(client_frame(json.dumps(message)))
        await self.writer.drain()

    async def send_many(self, messages: list[dict[str, Any]]) -> None:
        self.writer.write(b"".join(client_frame(json.dumps(m)) for m in messages))
        await self.writer.drain()

    async def read_frame(self, timeout: float = 5.0) -> tuple[int, bytes]:
        """(opcode, payload) of the next frame from the server (server frames are not masked)."""
        first, second = await asyncio.wait_for(self.reader.readexactly(2), timeout)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", await self.reader.readexactly(2))[0]
        elif length == 127:
            length = struct.unpack("!Q", await self.reader.readexactly(8))[0]
        return first & 0x0F, await asyncio.wait_for(self.reader.readexactly(length), timeout)

    async def close_code(self, timeout: float = 10.0) -> int | None:
        """Read on until the server's close frame; its code, or None if the connection ended without one."""
        try:
            while True:
                opcode, payload = await self.read_frame(timeout)
                if opcode == 0x8:
                    return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
        except (asyncio.IncompleteReadError, ConnectionError):
            return None

    def abort(self) -> None:
        self.writer.transport.abort()
