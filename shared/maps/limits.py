"""How large a map may be: what a map file may make the server (or `risc maps check`) read and build.

A map can be given as a file's path by any client that creates a game, so reading one must cost little whatever
the file holds. The readers are linear in the file's size; these limits bound the size itself, and what is built
from it (every later step, from validation to starting groups to the views sent each turn, grows with the numbers
of territories and borders). The largest real maps have a few hundred territories, a thousand borders and tens of
kilobytes; the limits leave them far behind.
"""

from __future__ import annotations

from shared.maps.findings import Finding, FindingCode, error

MAX_MAP_BYTES = 1024 * 1024
"""A map file larger than this is refused unread."""

MAX_TERRITORIES = 5_000
MAX_BORDERS = 50_000
"""Borders as listed: each neighbour each territory names (a two-way border is two)."""
MAX_CONTINENTS = 5_000

MAX_SUGGESTIONS = 20
"""Unknown section headers of one file for which a close match is suggested ("did you mean [borders]?")."""


def too_large(size: int) -> Finding:
    return error(
        FindingCode.TOO_LARGE,
        f"the map has {size:,} bytes; a map may have at most {MAX_MAP_BYTES:,} "
        f"({MAX_MAP_BYTES // 1024} KiB): it was not read",
    )


def too_many(what: str, limit: int, line: int | None = None) -> Finding:
    """The finding for a map past one of the limits: reading stopped there, and no map was built."""
    return error(
        FindingCode.TOO_LARGE,
        f"the map has more than {limit:,} {what}; a map may have at most {limit:,}: it was not read further",
        line=line,
    )
