"""What a server's notifications reach in the tests: a real SMTP server (aiosmtpd) and a real HTTPS receiver, both on
127.0.0.1 in the test's event loop, reading what arrived."""

from __future__ import annotations

import asyncio
import email
import email.policy
import json
import subprocess
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from aiosmtpd.smtp import SMTP, Envelope, Session

from server.notify import webhooks


@dataclass
class Mailbox:
    """An SMTP server's handler: every message accepted, addresses it refuses for good (a bounce), and a hold that
    keeps a message's DATA unanswered (a send caught mid-way)."""

    messages: list[EmailMessage] = field(default_factory=list)
    refuse: set[str] = field(default_factory=set)
    hold: asyncio.Event | None = None
    data_reached: asyncio.Event = field(default_factory=asyncio.Event)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if address in self.refuse:
            return "550 5.1.1 no such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.data_reached.set()
        if self.hold is not None:
            await self.hold.wait()
        content = envelope.original_content or b""
        self.messages.append(email.message_from_bytes(content, policy=email.policy.default))  # type: ignore[arg-type]
        self.changed.set()
        return "250 OK"


async def smtp_server(mailbox: Mailbox) -> tuple[asyncio.Server, int]:
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(mailbox, hostname="mail.test", loop=loop), "127.0.0.1", 0)
    return server, int(server.sockets[0].getsockname()[1])


@dataclass
class Delivery:
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> dict[str, Any]:
        found: dict[str, Any] = json.loads(self.body)
        return found


@dataclass
class Receiver:
    """An HTTPS endpoint taking webhook deliveries, answering `status` to each."""

    status: int = 200
    got: list[Delivery] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            headers = {k.lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:] if ln)}
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            self.got.append(Delivery(headers, body))
            self.changed.set()
            reason = "OK" if self.status < 300 else "No"
            writer.write(f"HTTP/1.1 {self.status} {reason}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".encode())
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    def verified(self, secret: str) -> list[Delivery]:
        """The deliveries whose signature is the server's under `secret`, as a receiver checks it."""
        return [
            d
            for d in self.got
            if d.headers.get("x-risc-signature")
            == webhooks.signature(secret, d.headers.get("x-risc-timestamp", ""), d.body)
        ]


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (and its key), made with openssl: the receiver's, and what the server
    checks it against (`webhook_cafile`)."""
    cert, key = folder / "receiver.pem", folder / "receiver.key"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
            "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


async def https_receiver(receiver: Receiver, folder: Path) -> tuple[asyncio.Server, int, Path]:
    import ssl

    cert, key = certificate(folder)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    server = await asyncio.start_server(receiver.handle, "127.0.0.1", 0, ssl=context)
    return server, int(server.sockets[0].getsockname()[1]), cert


async def arrived(source: Mailbox | Receiver, count: int, timeout: float = 10.0) -> None:
    """Until `count` messages (or deliveries) have arrived, woken by each arrival."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while len(source.messages if isinstance(source, Mailbox) else source.got) < count:
        source.changed.clear()
        await asyncio.wait_for(source.changed.wait(), max(0.001, end - loop.time()))
