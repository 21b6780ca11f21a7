"""A map's picture: the image a map is drawn over, named by its file (Domination's `[files] pic`, Conquest's
`[Map] image`, the native format's `picture`) and sitting beside it.

A picture is only ever named by a bare file name in the map's own folder: never a folder, never a path, so that
reading a map cannot make anyone open a file elsewhere. What a picture holds is checked from its first bytes alone
(its kind and its size in pixels, which the map's coordinates are measured in): a file that is no picture, or one
too large to send or to draw, is refused with the reason. Pure: the bytes come from whoever read them.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

MAX_PICTURE_BYTES = 4 * 1024 * 1024
"""A picture larger than this is not used: the pictures of real maps are a few hundred kilobytes."""
MAX_PICTURE_SIDE = 8192
"""Pixels along either side: a larger picture would cost a browser more memory than the game is worth."""
MAX_NAME = 120

SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".bmp")
NO_PICTURE = frozenset({"", "none", "no"})
"""What a Conquest map writes where it has no picture."""


@dataclass(frozen=True)
class PictureFacts:
    """What a picture's bytes are: its kind, as a content type, and its size in pixels."""

    content_type: str
    width: int
    height: int


def picture_name(named: str | None) -> str | None:
    """The picture a map names, or None where it names none ("none" and "no" in Conquest)."""
    if named is None or named.strip().casefold() in NO_PICTURE:
        return None
    return named.strip()


def name_problem(name: str) -> str | None:
    """Why `name` cannot name a map's picture, or None: a picture is a file beside the map, named alone."""
    if not name or len(name) > MAX_NAME:
        return f"a picture's name has 1 to {MAX_NAME} characters"
    if any(c in name for c in "/\\:\x00") or name.startswith(".") or any(ord(c) < 32 for c in name):
        return f'"{name}" is not a file name alone: a map\'s picture sits beside the map, named without a folder'
    if not name.lower().endswith(SUFFIXES):
        return f'"{name}" is not a picture this game shows: a .png, .jpg, .gif or .bmp file'
    return None


def read_picture(data: bytes) -> PictureFacts | str:
    """The picture's facts from its bytes, or why they are not a picture the game can show."""
    if len(data) > MAX_PICTURE_BYTES:
        return f"the picture has {len(data):,} bytes; a map's picture may have at most {MAX_PICTURE_BYTES:,}"
    facts = _sniffed(data)
    if facts is None:
        return "the file is not a PNG, JPEG, GIF or BMP picture, or it is cut short"
    if not (0 < facts.width <= MAX_PICTURE_SIDE and 0 < facts.height <= MAX_PICTURE_SIDE):
        return (
            f"the picture is {facts.width} x {facts.height} pixels; a map's picture may be at most "
            f"{MAX_PICTURE_SIDE} on either side"
        )
    return facts


def _sniffed(data: bytes) -> PictureFacts | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return PictureFacts("image/png", width, height)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return PictureFacts("image/gif", width, height)
    if data.startswith(b"BM") and len(data) >= 26:
        header = struct.unpack("<I", data[14:18])[0]
        if header == 12:
            width, height = struct.unpack("<HH", data[18:22])
        else:
            width, height = struct.unpack("<ii", data[18:26])
        return PictureFacts("image/bmp", abs(width), abs(height))
    if data.startswith(b"\xff\xd8"):
        return _jpeg(data)
    return None


_JPEG_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
"""The markers that start a frame (baseline, progressive, ...) and say its size; C4, C8 and CC are not frames."""


def _jpeg(data: bytes) -> PictureFacts | None:
    """A JPEG's size, from the first frame header among its segments."""
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # padding before a marker
            at += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # markers without a length
            at += 2
            continue
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        if marker in _JPEG_FRAMES:
            if at + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return PictureFacts("image/jpeg", width, height)
        if length < 2:
            return None
        at += 2 + length
    return None
