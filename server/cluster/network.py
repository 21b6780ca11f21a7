"""This machine's addresses as others reach it: what a node tells its clients (and other nodes) to connect to."""

from __future__ import annotations

import contextlib
import socket


def lan_address() -> str:
    """The address this machine's default route leaves from (no packet is sent), or 127.0.0.1 without a network."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, only routed
        address = str(probe.getsockname()[0])
        if address and not address.startswith("0."):
            return address
    return "127.0.0.1"


def default_public_url(host: str, port: int) -> str:
    """Where clients reach a server listening on `host`: that host, or this machine's address when it listens on
    every interface."""
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"ws://{shown}:{port}/"


def default_node_id(port: int) -> str:
    """A node's name when none is given: this machine's name and its port."""
    return f"{socket.gethostname()}-{port}"
