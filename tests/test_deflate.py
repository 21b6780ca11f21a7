"""Per-message compression as a client sees it on the wire: large frames compressed, small ones not, no context kept,
the same messages either way, and a frame broadcast to many followers compressed once."""

from __future__ import annotations

import argparse
import asyncio
import json
import zlib
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode

from client.connection import Connection
from server.app import add_arguments, config_from_args
from shared.protocol import deflate
from shared.protocol.codes import PROTOCOL_VERSION
from shared.protocol.messages import ListGames
from tests.server_support import Client, create_game, running_server

BIGEUROPE = Path(__file__).resolve().parents[2] / "shared" / "maps" / "domination" / "bigeurope.map"


class Counting(ClientConnection):
    """A client connection that counts the bytes the socket delivered, before any decoding."""

    received = 0

    def data_received(self, data: bytes) -> None:
        self.received += len(data)
        super().data_received(data)


def header(size: int) -> int:
    return 2 if size < 126 else 4 if size < 65536 else 10


async def open_counting(port: int, compression: str | None) -> Counting:
    ws = await connect(f"ws://127.0.0.1:{port}", max_size=None, compression=compression, create_connection=Counting)
    assert isinstance(ws, Counting)
    return ws


async def hello(ws: Counting) -> tuple[str, int]:
    """Say hello; the welcome's text and its bytes on the wire (nothing else is under way meanwhile)."""
    before = ws.received
    await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION}))
    text = await ws.recv()
    assert isinstance(text, str) and json.loads(text)["type"] == "welcome", text
    return text, ws.received - before


async def watch(ws: Counting, game_id: str) -> tuple[list[str], int]:
    """Watch a game until its reply, map and first update are in: their texts (the map's first) and the bytes they
    took on the wire together (nothing else is under way meanwhile)."""
    before = ws.received
    await ws.send(json.dumps({"type": "watch_game", "game_id": game_id, "ref": "w"}))
    texts: dict[str, str] = {}
    while len(texts) < 3:
        text = await ws.recv()
        assert isinstance(text, str)
        texts[json.loads(text)["type"]] = text
    assert set(texts) == {"watching", "game_map", "update"}, list(texts)
    return [texts["game_map"], texts["update"], texts["watching"]], ws.received - before


def plain_size(texts: list[str]) -> int:
    return sum(len(t.encode()) + header(len(t.encode())) for t in texts)


async def a_bigeurope_game(server_port: Any) -> str:
    owner = await Client.connect(server_port)
    game_id = await create_game(owner, upload=(BIGEUROPE.name, BIGEUROPE.read_text(encoding="utf-8")), players=5)
    await owner.close()
    return game_id


@pytest.mark.asyncio
async def test_the_server_accepts_deflate_without_context_takeover() -> None:
    async with running_server() as server:
        ws = await open_counting(server.port, "deflate")
        extensions = ws.response.headers.get("Sec-WebSocket-Extensions") if ws.response else None
        assert extensions is not None and "permessage-deflate" in extensions
        assert "server_no_context_takeover" in extensions and "client_no_context_takeover" in extensions
        await ws.close()


@pytest.mark.asyncio
async def test_small_frames_go_uncompressed_and_large_ones_compressed() -> None:
    async with running_server() as server:
        game_id = await a_bigeurope_game(server)
        ws = await open_counting(server.port, "deflate")
        welcome, wire = await hello(ws)
        assert len(welcome) < deflate.COMPRESS_FROM
        assert wire == plain_size([welcome]), "a small frame is sent as it is"
        texts, wire = await watch(ws, game_id)
        assert len(texts[0]) >= deflate.COMPRESS_FROM
        assert wire < plain_size(texts) / 3, f"{wire} bytes on the wire for {plain_size(texts)} uncompressed"
        await ws.close()


@pytest.mark.asyncio
async def test_a_client_without_compression_gets_the_same_messages_uncompressed() -> None:
    async with running_server() as server:
        game_id = await a_bigeurope_game(server)
        plain = await open_counting(server.port, None)
        packed = await open_counting(server.port, "deflate")
        await hello(plain)
        await hello(packed)
        plain_texts, plain_wire = await watch(plain, game_id)
        packed_texts, packed_wire = await watch(packed, game_id)
        assert plain_texts[0] == packed_texts[0], "the same map, whether compressed or not"
        assert plain_wire == plain_size(plain_texts)
        assert packed_wire < plain_wire / 3
        await plain.close()
        await packed.close()


@pytest.mark.asyncio
async def test_a_frame_sent_to_many_followers_is_compressed_once() -> None:
    async with running_server() as server:
        game_id = await a_bigeurope_game(server)
        followers = [await open_counting(server.port, "deflate") for _ in range(4)]
        for ws in followers:
            await hello(ws)
        before = deflate.FRAMES.compressed
        seen = [await watch(ws, game_id) for ws in followers]
        assert len({texts[0] for texts, _ in seen}) == 1, "every spectator gets the same map"
        # Of what a spectator of a game in its lobby gets, only the map is large: compressed once for all four.
        assert deflate.FRAMES.compressed - before == 1
        for ws in followers:
            await ws.close()


@pytest.mark.asyncio
async def test_a_compressed_frame_from_a_client_is_read() -> None:
    async with running_server() as server:
        ws = await open_counting(server.port, "deflate")
        await hello(ws)
        await ws.send(json.dumps({"type": "list_games", "ref": "r"}))  # websockets' client compresses every frame
        message = json.loads(await ws.recv())
        assert message["type"] == "games"
        await ws.send(json.dumps({"type": "list_games", "ref": "r", "padding": "x" * 5000}))
        message = json.loads(await ws.recv())
        assert message["type"] == "error" and "padding" in message["message"], message
        await ws.close()


def test_compressed_frames_are_kept_for_reuse_a_bounded_number() -> None:
    frames = deflate.CompressedFrames(kept=2)
    texts = [json.dumps({"n": n, "pad": "y" * 3000}).encode() for n in range(3)]
    first = frames.get(texts[0], 15)
    assert frames.get(texts[0], 15) == first and frames.compressed == 1
    frames.get(texts[1], 15)
    frames.get(texts[2], 15)
    frames.get(texts[0], 15)
    assert frames.compressed == 4, "the oldest was let go once a third came"


@pytest.mark.asyncio
async def test_a_compressed_bomb_is_refused_without_being_inflated() -> None:
    async with running_server() as server:
        bystander = await open_counting(server.port, "deflate")
        await hello(bystander)
        vandal = await open_counting(server.port, "deflate")
        await hello(vandal)
        await vandal.send(" " * 20_000_000)  # about 20 KB compressed: inflating stops at the server's hard limit
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(vandal.recv(), 5)
        assert vandal.close_code == 1009  # message too big
        await bystander.send(json.dumps({"type": "list_games", "ref": "r"}))
        assert json.loads(await bystander.recv())["type"] == "games"
        await bystander.close()


def test_a_frame_is_compressed_again_for_another_window() -> None:
    frames = deflate.CompressedFrames()
    text = json.dumps({"pad": "z" * 5000}).encode()
    frames.get(text, 15)
    frames.get(text, 10)
    assert frames.compressed == 2
    for bits in (15, 10):
        assert zlib.decompressobj(-bits).decompress(frames.get(text, bits) + b"\x00\x00\xff\xff") == text


def test_small_frames_go_as_they_are_and_large_ones_compressed_and_readable() -> None:
    sparing = deflate.SparingDeflate(True, True, 15, 15)
    small = Frame(Opcode.TEXT, b'{"type":"commit"}')
    assert sparing.encode(small) is small
    large = Frame(Opcode.TEXT, json.dumps({"pad": "q" * 9000}).encode())
    packed = sparing.encode(large)
    assert packed.rsv1 and len(packed.data) < len(large.data) / 10
    reader = PerMessageDeflate(True, True, 15, 15)
    assert reader.decode(packed).data == large.data and reader.decode(small).data == small.data


@pytest.mark.asyncio
async def test_the_text_client_negotiates_compression_that_spares_small_frames() -> None:
    async with running_server() as server:
        connection = Connection(f"ws://127.0.0.1:{server.port}", on_message=lambda message: None)
        await connection.open()
        try:
            assert (await connection.request(ListGames())).type == "games"
            ws = connection._ws  # the link's websocket: which extension it agreed on
            assert ws is not None
            assert [type(e) for e in ws.protocol.extensions] == [deflate.SparingDeflate]
        finally:
            await connection.close()


@pytest.mark.asyncio
async def test_a_server_started_without_compression_declines_it() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert config_from_args(parser.parse_args(["--memory"])).compression
    config = config_from_args(parser.parse_args(["--memory", "--no-compression"]))
    assert not config.compression
    async with running_server(compression=False) as server:
        ws = await open_counting(server.port, "deflate")
        assert ws.response is not None and ws.response.headers.get("Sec-WebSocket-Extensions") is None
        welcome, wire = await hello(ws)
        assert wire == plain_size([welcome])
        await ws.close()
