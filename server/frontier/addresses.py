"""Where others on the network reach a server that listens on every interface: the addresses of this computer's
interfaces, loopback and link-local ones left out (a player on the LAN cannot type `127.0.0.1`, nor use `fe80::`
without naming an interface), so that the one who starts a server can read out the address to the table."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct
import sys
from pathlib import Path

ALL_INTERFACES = ("0.0.0.0", "::", "")

SIOCGIFADDR = 0x8915
"""Linux's ioctl for an interface's IPv4 address."""


def _usable(text: str) -> bool:
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return False
    return not (address.is_loopback or address.is_link_local or address.is_unspecified or address.is_multicast)


def _linux_addresses() -> list[str]:
    """Every interface's IPv4 address (ioctl), and its IPv6 addresses (/proc/net/if_inet6)."""
    found: list[str] = []
    if not sys.platform.startswith("linux"):
        return found
    import fcntl

    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            with contextlib.suppress(OSError):
                packed = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
                found.append(socket.inet_ntoa(packed[20:24]))
    with contextlib.suppress(OSError):
        for row in Path("/proc/net/if_inet6").read_text().splitlines():
            digits = row.split()[0]
            found.append(str(ipaddress.IPv6Address(bytes.fromhex(digits))))
    return found


def _routed_addresses() -> list[str]:
    """The address this computer would send from to a private network, each family: no packet is sent (a UDP
    socket's connect only picks the route). Works where interfaces cannot be listed."""
    found = []
    for family, probe in ((socket.AF_INET, "10.254.254.254"), (socket.AF_INET6, "fd00::1")):
        with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as sock:
            sock.connect((probe, 9))
            found.append(str(sock.getsockname()[0]))
    return found


def lan_addresses() -> list[str]:
    """This computer's addresses others on the network may reach it at: IPv4 first, each once."""
    found = [a for a in dict.fromkeys(_linux_addresses() + _routed_addresses()) if _usable(a)]
    return sorted(found, key=lambda a: ":" in a)


def url_host(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def where_to_connect(host: str, port: int, web: bool) -> list[str]:
    """What a starting server says about where to reach it: on every interface, each LAN address for the web page and
    for `risc client`, with this computer's own; else the one address it listens on."""
    if host not in ALL_INTERFACES:
        hosts = [host]
    else:  # 0.0.0.0 listens on IPv4 alone; :: (and no host at all) on both
        hosts = [a for a in lan_addresses() if host != "0.0.0.0" or ":" not in a] + ["127.0.0.1"]
    lines = []
    for one in hosts:
        local = " (this computer only)" if one == "127.0.0.1" and len(hosts) > 1 else ""
        page = f"the web page at http://{url_host(one)}:{port}/, " if web else ""
        lines.append(f"players reach it at {page}risc client ws://{url_host(one)}:{port}{local}")
    return lines
