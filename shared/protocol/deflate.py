"""Per-message compression (RFC 7692) for the frames where it pays: large ones, each compressed once.

A client that offers permessage-deflate (browsers and websockets' own client do) gets the server's large frames
compressed — a turn's update on a big map, the map itself — and its small ones as they are: a frame under
COMPRESS_FROM bytes gains a few bytes at best and would cost a zlib stream's set-up on both sides. The RFC lets a
sender leave any message uncompressed (its RSV1 bit unset). The text client sends the same way (its orders are
small: the server then has nothing to inflate).

Both directions are negotiated without context takeover, so no zlib stream outlives its message: an idle connection
holds no compressor (a kept one cost about 70 KB a connection), and each large frame is compressed alone. That makes
the compressed bytes a function of the frame alone, so a frame broadcast to every follower of a game (one text for
all of them) is compressed once and the result reused (a small cache of the latest large frames).
"""

from __future__ import annotations

import zlib
from collections import OrderedDict
from collections.abc import Sequence

from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import Frame, Opcode
from websockets.typing import ExtensionParameter

COMPRESS_FROM = 2048
"""Frames of fewer bytes than this go uncompressed (orders, acceptances, commits and their notes)."""

LEVEL = 1
"""zlib's level: the fastest. On bigeurope's map (28.7 KB of JSON) it takes 38 us for 5.2 KB, where the default
level (6) takes 286 us for 4.5 KB."""

KEPT = 64
"""Compressed large frames kept for reuse: a broadcast's followers ask for the same one within the same moment."""

_EMPTY_BLOCK = b"\x00\x00\xff\xff"


class CompressedFrames:
    """The latest large frames compressed, by their bytes: each distinct frame is compressed once."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._made: OrderedDict[tuple[int, bytes], bytes] = OrderedDict()
        self.compressed = 0
        """Frames compressed (not taken from the cache): for tests and benches."""

    def get(self, data: bytes, window_bits: int) -> bytes:
        key = (window_bits, bytes(data))  # a window the client did not agree to could not be read back
        found = self._made.get(key)
        if found is not None:
            self._made.move_to_end(key)
            return found
        encoder = zlib.compressobj(LEVEL, zlib.DEFLATED, -window_bits)
        made = encoder.compress(key[1]) + encoder.flush(zlib.Z_SYNC_FLUSH)
        made = made[:-4] if made.endswith(_EMPTY_BLOCK) else made
        self.compressed += 1
        self._made[key] = made
        if len(self._made) > self._kept:
            self._made.popitem(last=False)
        return made


FRAMES = CompressedFrames()


class SparingDeflate(PerMessageDeflate):
    """permessage-deflate that compresses only whole frames of COMPRESS_FROM bytes or more, through FRAMES."""

    def encode(self, frame: Frame) -> Frame:
        if frame.opcode not in (Opcode.TEXT, Opcode.BINARY) or not frame.fin or len(frame.data) < COMPRESS_FROM:
            return frame  # control frames, fragments (the server sends none) and small frames go as they are
        data = FRAMES.get(bytes(frame.data), self.local_max_window_bits)
        return Frame(frame.opcode, data, frame.fin, True, frame.rsv2, frame.rsv3)


class SparingDeflateFactory(ServerPerMessageDeflateFactory):
    """Accepts a client's permessage-deflate offer without context takeover either way, as SparingDeflate."""

    def __init__(self) -> None:
        super().__init__(server_no_context_takeover=True, client_no_context_takeover=True)

    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, negotiated = super().process_request_params(params, accepted_extensions)
        return response, SparingDeflate(
            negotiated.remote_no_context_takeover,
            negotiated.local_no_context_takeover,
            negotiated.remote_max_window_bits,
            negotiated.local_max_window_bits,
        )


class SparingClientDeflateFactory(ClientPerMessageDeflateFactory):
    """Offers permessage-deflate without context takeover either way, as SparingDeflate: the text client's side."""

    def __init__(self) -> None:
        super().__init__(server_no_context_takeover=True, client_no_context_takeover=True)

    def process_response_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> PerMessageDeflate:
        negotiated = super().process_response_params(params, accepted_extensions)
        return SparingDeflate(
            negotiated.remote_no_context_takeover,
            negotiated.local_no_context_takeover,
            negotiated.remote_max_window_bits,
            negotiated.local_max_window_bits,
        )
