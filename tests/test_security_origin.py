"""The WebSocket handshake checks its Origin (issue 19, item 4): a page from another site that a player's browser
opens must not be able to play, or read the lobby, in that player's name.

A handshake whose Origin header is present is accepted only from the server's own origin (the host and port of the
request's Host header, over http or https) or from an origin the operator allowed (`--allow-origin`). Programs send
no Origin (the text client, bots) and are accepted. A refusal is an HTTP 403 that says why.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os

import pytest

from server.app import add_arguments, config_from_args
from tests.server_support import Client, running_server


async def handshake(
    port: int,
    *,
    host: str | None = None,
    origins: tuple[str, ...] = (),
    path: str = "/",
    extra: tuple[str, ...] = (),
) -> tuple[int, str]:
    """Send a WebSocket opening handshake with these headers (`extra`: whole header lines, after the usual ones);
    (HTTP status, response body)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        f"GET {path} HTTP/1.1",
        f"Host: {host or f'127.0.0.1:{port}'}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
    ]
    lines += [f"Origin: {origin}" for origin in origins]
    lines += extra
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    await writer.drain()
    head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)).decode("latin-1")
    status = int(head.split()[1])
    body = b""
    if status != 101:
        length = next(
            (int(line.split(":", 1)[1]) for line in head.split("\r\n") if line.lower().startswith("content-length:")), 0
        )
        body = await asyncio.wait_for(reader.readexactly(length), 5)
    writer.close()
    return status, body.decode()


async def test_a_handshake_without_origin_is_accepted_as_programs_send_none() -> None:
    async with running_server() as server:
        assert (await handshake(server.port))[0] == 101
        client = await Client.connect(server)  # the project's own clients
        assert (await client.request(type="list_games"))["type"] == "games"


async def test_a_handshake_from_the_servers_own_origin_is_accepted_over_http_or_https() -> None:
    async with running_server() as server:
        port = server.port
        for origin, host in (
            (f"http://127.0.0.1:{port}", None),
            (f"https://127.0.0.1:{port}", None),
            (f"http://LOCALHOST:{port}", f"localhost:{port}"),
            ("http://risc.lan", "risc.lan"),
            ("https://risc.lan", "risc.lan"),
            ("http://risc.lan:80", "risc.lan"),
            ("https://risc.lan", "risc.lan:443"),
            ("http://[::1]:8765", "[::1]:8765"),
        ):
            assert (await handshake(port, host=host, origins=(origin,)))[0] == 101, (origin, host)


async def test_a_handshake_from_another_origin_is_refused_with_a_403_that_says_why() -> None:
    async with running_server() as server:
        port = server.port
        for origin, host in (
            ("http://evil.example", None),
            ("null", None),
            (f"http://127.0.0.1:{port + 1}", None),
            (f"ws://127.0.0.1:{port}", None),
            ("http://risc.lan.evil.example", "risc.lan"),
            ("http://risc.lan:8080", "risc.lan"),
            ("not a url", None),
        ):
            status, body = await handshake(port, host=host, origins=(origin,))
            assert status == 403, (origin, host)
            assert "origin" in body.lower() and "--allow-origin" in body, body
        status, body = await handshake(port, origins=(f"http://127.0.0.1:{port}", "http://evil.example"))
        assert status == 403 and "more than one Origin" in body


async def test_an_allowed_origin_is_accepted_and_only_it() -> None:
    async with running_server(allowed_origins=("https://risc.example.org", "http://game.lan:8080")) as server:
        port = server.port
        for origin in ("https://risc.example.org", "https://RISC.example.org:443", "http://game.lan:8080"):
            assert (await handshake(port, origins=(origin,)))[0] == 101, origin
        for origin in ("http://risc.example.org", "http://game.lan:8081", "https://game.lan:8080"):
            assert (await handshake(port, origins=(origin,)))[0] == 403, origin


async def test_healthz_answers_whatever_its_origin() -> None:
    async with running_server() as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nOrigin: http://evil.example\r\nConnection: close\r\n\r\n")
        await writer.drain()
        assert (await asyncio.wait_for(reader.read(), 5)).startswith(b"HTTP/1.1 200")
        writer.close()


def parsed(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(["--memory", *argv])


def test_allow_origin_is_repeatable_and_checked_at_start() -> None:
    config = config_from_args(
        parsed("--allow-origin", "https://risc.example.org/", "--allow-origin", "http://Game.LAN:8080")
    )
    assert config.allowed_origins == ("https://risc.example.org", "http://game.lan:8080")
    for bad in ("risc.example.org", "ftp://risc.example.org", "https://risc.example.org/play", "https://"):
        with pytest.raises(ValueError, match="--allow-origin"):
            config_from_args(parsed("--allow-origin", bad))


async def test_a_handshake_with_two_host_headers_is_a_bad_request_told_in_one_log_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 35: which Host it meant decides which origins are its own, so a request with two cannot be judged; it
    was an HTTP 500 with a traceback in the log, every time."""
    async with running_server() as server:
        for _ in range(3):
            status, body = await handshake(server.port, extra=("Host: elsewhere.example:80",))
            assert status == 400 and "Host" in body, body
        assert (await handshake(server.port))[0] == 101, "a handshake of one Host is taken as ever"
    told = [r for r in caplog.records if "repeated its Host header" in r.getMessage()]
    assert len(told) == 1 and told[0].levelname == "WARNING"
    assert not [r for r in caplog.records if r.exc_info is not None or r.levelname == "ERROR"]
