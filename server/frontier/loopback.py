"""A browser on the nodes' own computer, at http://127.0.0.1:PORT/: sent to the other nodes of that computer at the
same loopback address, and its page accepted there.

A node's public address is this computer's network address (docs/scaling.md), which is what a redirect names. A page
opened at `http://127.0.0.1:8765/` (what the server prints as "this computer only") that followed its game there
would open a WebSocket to `ws://192.168.1.5:8766/` from the origin `http://127.0.0.1:8765`, which the other node
cannot tell from a page of any site: it refuses it (403), and the page would try again for ever. So a connection
whose handshake asked for a loopback host is told the addresses of the nodes on this computer (those whose public
address has this node's host, or a loopback one) at that loopback host, keeping each one's port and path; and a
handshake to a loopback host is accepted from the loopback origins of those nodes' ports. A page reaches a loopback
address only from a browser on this computer, so no page of another computer gains anything by it.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit, urlunsplit

from server.frontier.origins import Origin

LOOPBACK_NAMES = ("localhost",)


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or an address, IPv6 with or without brackets) is this computer's loopback."""
    bare = host.strip("[]").lower()
    if bare in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(bare).is_loopback
    except ValueError:
        return False


def host_of(header: str | None) -> str | None:
    """The host a Host header names (without its port), or None."""
    if not header:
        return None
    try:
        return urlsplit(f"//{header.strip()}").hostname
    except ValueError:
        return None


def _here(url: str, own_host: str | None) -> tuple[str, int | None] | None:
    """The (host, port) of a node's address when that node runs on this computer, else None."""
    try:
        split = urlsplit(url)
        port = split.port
    except ValueError:
        return None
    host = split.hostname
    if host is None or not (is_loopback(host) or (own_host is not None and host == own_host)):
        return None
    return host, port


class Loopback:
    """How a connection that came in at a loopback host is told of this computer's nodes."""

    def __init__(self, host: str, own_url: str) -> None:
        self.host = host
        self._own_host = urlsplit(own_url).hostname if own_url else None

    def url(self, url: str) -> str:
        """`url` at this connection's loopback host when its node runs on this computer, else as it is."""
        if _here(url, self._own_host) is None:
            return url
        split = urlsplit(url)
        shown = f"[{self.host}]" if ":" in self.host else self.host
        netloc = shown if split.port is None else f"{shown}:{split.port}"
        return urlunsplit((split.scheme, netloc, split.path, split.query, split.fragment))


def for_handshake(host_header: str | None, own_url: str) -> Loopback | None:
    """The loopback way of naming nodes, for a connection whose handshake asked for a loopback host (a node of
    several only: `own_url`), else None."""
    host = host_of(host_header)
    if not own_url or host is None or not is_loopback(host):
        return None
    return Loopback(host, own_url)


def page_origins(host_header: str | None, own_url: str, peers: Iterable[str]) -> set[Origin]:
    """The loopback origins of the pages of this computer's nodes, accepted on a handshake to a loopback host."""
    host = host_of(host_header)
    if not own_url or host is None or not is_loopback(host):
        return set()
    own_host = urlsplit(own_url).hostname
    found: set[Origin] = set()
    for url in peers:
        here = _here(url, own_host)
        if here is None:
            continue
        port = here[1] or (443 if url.startswith("wss:") else 80)
        for name in ("127.0.0.1", "localhost", "::1", host.lower()):
            for scheme in ("http", "https"):
                found.add((scheme, name, port))
    return found
