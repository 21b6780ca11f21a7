"""The web page's files over plain HTTP on the game's port: content types, caching, 404s, and nothing outside the
page's folder, however a request names it (raw requests, as an attacker would send them)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from risc.commands.play import WebPlay
from server.app import RiscServer
from server.config import ServerConfig
from server.frontier.web import bundle_path
from server.storage import MemoryStorage
from tests.server_support import Client, running_server
from tests.web_support import web_server


async def get(port: int, target: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One raw GET, the target sent exactly as given."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = [
        f"GET {target} HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Connection: close",
        *(f"{k}: {v}" for k, v in (headers or {}).items()),
    ]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    found = {}
    for line in header_lines:
        key, _, value = line.partition(":")
        found[key.strip().lower()] = value.strip()
    return int(status_line.split()[1]), found, body


async def test_the_page_its_styles_and_scripts_come_with_their_content_types() -> None:
    async with web_server() as server:
        status, headers, body = await get(server.port, "/")
        assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
        assert b'<script type="module" src="js/main.js">' in body
        assert "default-src 'self'" in headers["content-security-policy"]
        for target, kind in [
            ("/index.html", "text/html"),
            ("/style.css", "text/css"),
            ("/js/main.js", "text/javascript"),
            ("/js/rulesets/generic.js", "text/javascript"),
        ]:
            status, headers, body = await get(server.port, target)
            assert status == 200, target
            assert headers["content-type"].startswith(kind), target
            assert int(headers["content-length"]) == len(body) > 0
            assert headers["x-content-type-options"] == "nosniff"


async def test_files_are_revalidated_by_etag() -> None:
    async with web_server() as server:
        _, headers, _ = await get(server.port, "/js/board.js")
        assert headers["cache-control"] == "no-cache"
        etag = headers["etag"]
        status, again, body = await get(server.port, "/js/board.js", {"If-None-Match": etag})
        assert status == 304 and body == b"" and again["etag"] == etag
        status, _, body = await get(server.port, "/js/board.js", {"If-None-Match": '"something else"'})
        assert status == 200 and body


async def test_a_missing_file_is_a_404_with_a_sentence() -> None:
    async with web_server() as server:
        status, headers, body = await get(server.port, "/no-such-file.js")
        assert status == 404
        assert headers["content-type"].startswith("text/plain")
        assert body.decode().endswith(".\n") and "no such page" in body.decode()


async def test_nothing_outside_the_page_can_be_read() -> None:
    attempts = [
        "/../pyproject.toml",
        "/js/../../webpage.py",
        "/%2e%2e/webpage.py",
        "/%2E%2E/%2e%2e/README.md",
        "/js/%2e%2e/%2e%2e/webpage.py",
        "/%252e%252e/webpage.py",
        "/..%2fwebpage.py",
        "/..%5cwebpage.py",
        "/js\\..\\..\\webpage.py",
        "//etc/passwd",
        "/%2fetc/passwd",
        "/C:/Windows/win.ini",
        "/etc/passwd",
        "/js/main.js%00.png",
        "/%ff%fe",
        "/./index.html",
        "/.hidden",
        "/js/",
    ]
    async with web_server() as server:
        for target in attempts:
            status, _, body = await get(server.port, target)
            assert status in (400, 404), (target, status)
            assert b"root:" not in body and b"def web_root" not in body and b"[project]" not in body, target


async def test_a_symlink_out_of_the_page_folder_is_not_served(tmp_path: Path) -> None:
    root = tmp_path / "web"
    root.mkdir()
    (root / "index.html").write_text("<!doctype html><title>t</title>")
    secret = tmp_path / "secret.txt"
    secret.write_text("the seed of every game")
    (root / "leak.txt").symlink_to(secret)
    (root / "inside.txt").write_text("fine")
    (root / "alias.txt").symlink_to(root / "inside.txt")
    config = ServerConfig(host="127.0.0.1", port=0, web_root=root)
    async with RiscServer(config, MemoryStorage()) as server:
        assert (await get(server.port, "/leak.txt"))[0] == 404
        assert (await get(server.port, "/alias.txt"))[0] == 200
        assert (await get(server.port, "/"))[0] == 200


async def test_healthz_and_websockets_stay_where_they_were() -> None:
    async with web_server() as server:
        status, _, body = await get(server.port, "/healthz")
        assert status == 200 and body == b"ok\n"
        client = await Client.connect(server)
        reply = await client.request(type="list_maps")
        assert reply["type"] == "maps"
        await client.close()


async def test_a_server_without_a_page_serves_none() -> None:
    async with running_server() as server:
        status, _, _ = await get(server.port, "/")
        assert status != 200
        status, _, _ = await get(server.port, "/index.html")
        assert status != 200
        assert (await get(server.port, "/healthz"))[0] == 200


def test_request_paths_are_read_as_the_bundle_names_its_files() -> None:
    assert bundle_path("/") == "index.html"
    assert bundle_path("/?x=1") == "index.html"
    assert bundle_path("/js/main.js?v=2") == "js/main.js"
    assert bundle_path("/js/") == "js/index.html"
    for refused in ["/..", "/a/../b", "/%2e%2e/b", "/%252E%252E/b", "/a\\b", "relative", "/a/./b", "/c:/x"]:
        assert bundle_path(refused) is None, refused


async def test_risc_play_web_serves_the_page_and_the_game_it_created() -> None:
    web = WebPlay(None, 1, "random", None, port=0, open_browser=False)
    running = asyncio.get_running_loop().create_task(web.run())
    await asyncio.wait_for(web.ready.wait(), 10)
    assert web.server is not None and web.game is not None and web.url is not None
    assert web.url.endswith(f"/#game={web.game.game.game_id}")
    status, _, body = await get(web.server.port, "/")
    assert status == 200 and b"js/main.js" in body
    summary = web.server.lobby.get(web.game.game.game_id).summary()
    assert summary.free == 1 and [s.name for s in summary.seats] == ["bot-random-1"]
    web.stop.set()
    assert await asyncio.wait_for(running, 10) == 0
