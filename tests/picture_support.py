"""Pictures for the tests of maps drawn over a picture: real PNG files made here (no imaging library), and a real
map file copied into a folder of its own beside one.

`land_and_sea` draws what a map's picture shows: sea, and land around each territory in its continent's shade, at
the map's own pixel coordinates, so that a board drawn over it can be seen to sit where the picture says.
"""

from __future__ import annotations

import math
import shutil
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

from shared.maps.model import GameMap

Colour = tuple[int, int, int]
SEA: Colour = (120, 170, 205)
SHADES: tuple[Colour, ...] = ((226, 214, 170), (206, 222, 168), (232, 200, 160), (214, 206, 226), (200, 226, 214))


def png(width: int, height: int, colour: Callable[[int, int], Colour] = lambda x, y: SEA) -> bytes:
    """A true-colour PNG, each pixel's colour as `colour(x, y)` says."""
    rows = b"".join(b"\x00" + b"".join(struct.pack("BBB", *colour(x, y)) for x in range(width)) for y in range(height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def land_and_sea(game_map: GameMap, width: int, height: int, reach: float = 28.0) -> bytes:
    """The map's picture: land within `reach` pixels of a territory, shaded by its continent, sea elsewhere."""
    continents = {c.name: i for i, c in enumerate(game_map.continents)}
    cell = max(1, int(reach))
    buckets: dict[tuple[int, int], list[tuple[float, float, int]]] = {}
    for t in game_map.territories:
        if t.x is None or t.y is None:
            continue
        shade = continents.get(t.continent or "", 0)
        buckets.setdefault((int(t.x) // cell, int(t.y) // cell), []).append((t.x, t.y, shade))

    def colour(x: int, y: int) -> Colour:
        best, shade = reach, -1
        for i in (-1, 0, 1):
            for j in (-1, 0, 1):
                for tx, ty, s in buckets.get((x // cell + i, y // cell + j), ()):
                    d = math.hypot(tx - x, ty - y)
                    if d < best:
                        best, shade = d, s
        return SEA if shade < 0 else SHADES[shade % len(SHADES)]

    return png(width, height, colour)


def beside_a_picture(source: Path, folder: Path, picture: bytes, name: str | None = None) -> Path:
    """A copy of the map file `source` in `folder`, with `picture` beside it under the name the map gives it (or
    `name`); returns the map's path."""
    folder.mkdir(parents=True, exist_ok=True)
    copied = folder / source.name
    shutil.copyfile(source, copied)
    if name is None:
        from shared.maps.loader import load_map

        name = load_map(str(copied)).details.picture
        assert name is not None, f"{source.name} names no picture"
    (folder / name).write_bytes(picture)
    return copied
