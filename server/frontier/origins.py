"""Which web pages may open a game connection: the check of a WebSocket handshake's Origin header.

A browser sends the Origin of the page that opens a WebSocket, and lets any page open one to any address: without
this check, a page from anywhere that a player on the LAN visits could play, or read the lobby, in that player's
name. Programs (the text client, bots) send no Origin, and are accepted. A page is accepted from the server's own
origin — the host and port its browser asked for (the request's Host header), over http or https, since the game's
page is served on the game's port — or from an origin the operator allows (`risc server --allow-origin URL`).

websockets' own `origins` list cannot say "the host of this request", so the check runs in process_request, which
also lets the refusal say why.
"""

from __future__ import annotations

from collections.abc import Collection
from urllib.parse import urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443}

Origin = tuple[str, str, int]
"""(scheme, host in lower case, port)."""


def parse_origin(text: str) -> Origin | None:
    """An http or https origin, `scheme://host[:port]` (a trailing / is allowed), or None when `text` is not one."""
    try:
        split = urlsplit(text.strip())
        port = split.port
    except ValueError:
        return None
    if (
        split.scheme not in DEFAULT_PORTS
        or not split.hostname
        or split.path not in ("", "/")
        or split.query
        or split.fragment
        or split.username is not None
        or split.password is not None
    ):
        return None
    return split.scheme, split.hostname, port or DEFAULT_PORTS[split.scheme]


def page_origins(node_url: str) -> list[Origin]:
    """The origins of pages served by a node reached at `node_url` (ws://host:port/...): the same host and port over
    http and https. The nodes of one server accept each other's pages, since a page follows its game to the node
    that plays it."""
    try:
        split = urlsplit(node_url)
        port = split.port
    except ValueError:
        return []
    if not split.hostname or split.scheme not in ("ws", "wss"):
        return []
    default = 443 if split.scheme == "wss" else 80
    return [(scheme, split.hostname.lower(), port or default) for scheme in DEFAULT_PORTS]


def origin_text(origin: Origin) -> str:
    scheme, host, port = origin
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}" + ("" if port == DEFAULT_PORTS[scheme] else f":{port}")


def _host_header(text: str) -> tuple[str, int | None] | None:
    try:
        split = urlsplit(f"//{text.strip()}")
        port = split.port
    except ValueError:
        return None
    return (split.hostname, port) if split.hostname else None


def refusal(origins: list[str], host: str | None, allowed: Collection[Origin]) -> str | None:
    """Why a handshake with these Origin headers, to this Host, is refused; None when it is accepted."""
    if not origins:
        return None
    if len(origins) > 1:
        return "the handshake carries more than one Origin header"
    origin = parse_origin(origins[0])
    shown = origins[0][:200]
    if origin is None:
        return f'its Origin "{shown}" is not the origin of a web page (http or https)'
    if origin in allowed:
        return None
    asked = _host_header(host) if host else None
    if asked is not None and asked[0] == origin[1] and (asked[1] or DEFAULT_PORTS[origin[0]]) == origin[2]:
        return None
    return f"a page from {shown} may not open a game connection to this server"


def explain(reason: str) -> str:
    """The body of the 403 answer."""
    return (
        f"Forbidden: {reason}. A RISC server accepts game connections from programs (which send no Origin), "
        "from pages served at its own address, and from the origins its operator allows with "
        "`risc server --allow-origin URL`.\n"
    )
