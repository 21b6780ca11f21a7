"""Webhooks: a URL of the account's choosing that each notification is POSTed to, as JSON signed with HMAC-SHA256.

A webhook is a way into the server's own network, so its URL is checked when it is set and again at each send,
after its name is resolved, and the connection goes to the address that was checked (a name that resolves anew
between the check and the connection cannot slip in another): https only; never a loopback, private, link-local,
shared, multicast, reserved or cloud metadata address, unless the operator allows the URL's host by name
(`--webhook-allow`, which also lets that host be reached over plain http); no redirect followed; a short timeout;
at most a few kilobytes of the answer read.

The body is a message Discord and Slack incoming webhooks accept as it is (`content` and `text`), with the
notification itself beside it (`risc`). Headers: `X-Risc-Delivery` (the notification's id: the same after a retry,
for a receiver to drop a duplicate), `X-Risc-Timestamp`, and `X-Risc-Signature: sha256=HEX`, the HMAC-SHA256 of
`TIMESTAMP.BODY` under the account's secret.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import ipaddress
import json
import socket
import ssl
from collections.abc import Collection, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

TIMEOUT = 5.0
"""Seconds a webhook has to answer, and its name to resolve."""
RESOLVERS = 4
"""Threads that look webhooks' names up, apart from every other thread of the server: the event loop's own lookups
share the pool the store reads in, and twelve names that never resolved took it all (nobody could sign in)."""
ANSWER_BYTES = 4096
"""The most of an answer read: its status line and a little of what follows."""
METADATA = frozenset(
    {
        ipaddress.ip_address("169.254.169.254"),  # AWS, GCP, Azure, OpenStack, DigitalOcean
        ipaddress.ip_address("169.254.170.2"),  # AWS ECS task metadata
        ipaddress.ip_address("100.100.100.200"),  # Alibaba Cloud
        ipaddress.ip_address("fd00:ec2::254"),  # AWS over IPv6
    }
)
METADATA_NAMES = frozenset({"metadata.google.internal", "metadata", "instance-data", "instance-data.ec2.internal"})


class Unsendable(Exception):
    """A webhook URL the server will not send to, with why (for the account)."""


@dataclass(frozen=True)
class Target:
    """A webhook URL checked: where to connect (an address that was checked) and what to ask there."""

    scheme: str
    host: str
    port: int
    path: str
    address: str


def _forbidden(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    """Why the server never sends to this address, or None. An IPv6 address that carries an IPv4 one (mapped, or
    6to4, which a host with a 6to4 tunnel sends to the IPv4 address it carries) is judged by the address it carries."""
    if isinstance(address, ipaddress.IPv6Address):
        carried = address.ipv4_mapped or address.sixtofour
        if carried is not None:
            return _forbidden(carried)
        if address.is_site_local:
            return "a private address"
    if address in METADATA:
        return "a cloud metadata address"
    if address.is_loopback:
        return "a loopback address"
    if address.is_link_local:
        return "a link-local address"
    if address.is_private:
        return "a private address"
    if address.is_multicast or address.is_unspecified or address.is_reserved or not address.is_global:
        return "not an address on the internet"
    return None


def parse(url: str, allowed: Collection[str]) -> tuple[str, str, int, str]:
    """The URL's scheme, host, port and path, or Unsendable: https (or http to a host the operator allows), no
    credentials in it, a host."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise Unsendable(f"that is not a URL ({exc})") from None
    host = (parts.hostname or "").lower().rstrip(".")
    if not host:
        raise Unsendable("the URL names no host")
    if parts.username or parts.password:
        raise Unsendable("a webhook URL carries no user name or password")
    if parts.scheme != "https" and not (parts.scheme == "http" and host in allowed):
        raise Unsendable("a webhook URL must be https")
    if host in METADATA_NAMES and host not in allowed:
        raise Unsendable("that is a cloud metadata address")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, host, port or (443 if parts.scheme == "https" else 80), path


async def check(url: str, allowed: Collection[str]) -> Target:
    """The URL checked as the server sends to it: parsed, its name resolved, and every address it resolves to one
    the server may reach (an allowed host's may be any). Unsendable says why not."""
    scheme, host, port, path = parse(url, allowed)
    lookup = functools.partial(socket.getaddrinfo, host, port, type=socket.SOCK_STREAM)
    try:
        found = await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(_resolvers(), lookup), TIMEOUT)
    except TimeoutError:
        raise Unresolved(f"{host} did not resolve within {TIMEOUT:g} s") from None
    except (OSError, UnicodeError) as exc:
        raise Unsendable(f"{host} cannot be found ({exc})") from None
    addresses = list(dict.fromkeys(str(info[4][0]) for info in found))
    if not addresses:
        raise Unsendable(f"{host} has no address")
    if host not in allowed:
        for text in addresses:
            why = _forbidden(ipaddress.ip_address(text.split("%")[0]))
            if why is not None:
                raise Unsendable(f"{host} is {why} ({text}): the server sends webhooks to the internet only")
    return Target(scheme, host, port, path, addresses[0])


@functools.cache
def _resolvers() -> ThreadPoolExecutor:
    """The threads webhooks' names are looked up in (made at the first lookup): a lookup that never ends holds one of
    them, never a thread another part of the server waits on; one still waiting when its time is up is dropped."""
    return ThreadPoolExecutor(RESOLVERS, thread_name_prefix="risc-webhook-names")


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """What `X-Risc-Signature` carries: sha256= and the HMAC-SHA256 of `TIMESTAMP.BODY` under the secret."""
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def payload(text: str, notification: Mapping[str, Any]) -> bytes:
    """The body: a message Discord (`content`, at most 2,000 characters) and Slack (`text`) show as it is, and the
    notification for a program (`risc`)."""
    shown = text if len(text) <= 1900 else text[:1899] + "…"
    body = {"content": shown, "text": shown, "username": "RISC", "risc": dict(notification)}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


class Failed(Exception):
    """A delivery that did not go through (refused, no answer, an answer that is not a 2xx): tried again later."""


class Unresolved(Unsendable, Failed):
    """A webhook's name that did not resolve in time: refused when it is set, tried again later at a send (a slow
    name server is no reason to pause it at once)."""


async def post(
    url: str,
    body: bytes,
    headers: Mapping[str, str],
    allowed: Collection[str],
    context: ssl.SSLContext | None = None,
    timeout: float = TIMEOUT,
) -> int:
    """POST `body` to the webhook, checked again now; the answer's status (2xx), or Failed / Unsendable."""
    target = await check(url, allowed)
    try:
        return await asyncio.wait_for(_post(target, body, headers, context), timeout)
    except TimeoutError:
        raise Failed(f"{target.host} did not answer within {timeout:g} s") from None
    except (OSError, ssl.SSLError, ValueError) as exc:
        raise Failed(f"{target.host}: {exc}") from None


async def _post(target: Target, body: bytes, headers: Mapping[str, str], context: ssl.SSLContext | None) -> int:
    tls = None
    if target.scheme == "https":
        tls = context or ssl.create_default_context()
    reader, writer = await asyncio.open_connection(
        target.address, target.port, ssl=tls, server_hostname=target.host if tls is not None else None
    )
    try:
        host = target.host if target.port in (80, 443) else f"{target.host}:{target.port}"
        lines = [
            f"POST {target.path} HTTP/1.1",
            f"Host: {host}",
            "User-Agent: risc-server",
            "Content-Type: application/json",
            f"Content-Length: {len(body)}",
            "Connection: close",
            *(f"{name}: {value}" for name, value in headers.items()),
        ]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        await writer.drain()
        answer = await reader.read(ANSWER_BYTES)
    finally:
        writer.close()
    status_line = answer.split(b"\r\n", 1)[0].decode("latin-1", "replace")
    parts = status_line.split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        raise Failed(f"{target.host} gave no HTTP answer")
    status = int(parts[1])
    if 300 <= status < 400:
        raise Failed(f"{target.host} answered {status}: a webhook follows no redirect")
    if not 200 <= status < 300:
        raise Failed(f"{target.host} answered {status_line.strip()[:80]}")
    return status
