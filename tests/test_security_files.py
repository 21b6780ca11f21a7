"""The trust boundary, tried from the outside: nothing a client sends makes the server open a file it names, tells
whether a file exists, or quotes a file's lines back. A client picks a map of the server's catalogue by id, or sends
a map file's text; the operator's map folder is never named to clients."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.server_support import FAST, Client, running_server

SECRET = "the operator's secret line"

GOOD_MAP = """name = "Two rooms"

[territories.West]
borders = ["East"]

[territories.East]
borders = ["West"]
"""


def create(map_id: str) -> dict[str, object]:
    return {"type": "create_game", "settings": {"map": map_id, "players": 2}}


async def test_a_map_named_by_a_path_is_refused_alike_whether_the_file_exists_or_not(tmp_path: Path) -> None:
    folder = tmp_path / "maps"
    folder.mkdir()
    (folder / "rooms.toml").write_text(GOOD_MAP)
    secret = tmp_path / "secret.toml"
    secret.write_text(f'name = "{SECRET}"\n{GOOD_MAP.split(chr(10), 1)[1]}')
    async with running_server(maps=(folder,), **FAST) as server:
        client = await Client.connect(server)
        listed = await client.request(type="list_maps")
        assert "rooms" in [m["id"] for m in listed["maps"]]
        tried = [
            str(secret),
            str(tmp_path / "no-such.toml"),
            "../secret.toml",
            "../../secret",
            str(folder / "rooms.toml"),
            "/etc/passwd",
            "/etc/hostname",
            "/dev/zero",
            "rooms.toml",
            "..",
            "/",
        ]
        answers = []
        for name in tried:
            reply = await client.request(**create(name))
            assert reply["type"] == "error" and reply["code"] == "bad-map", (name, reply)
            answers.append(re.sub(r'no map "[^"]*"', "no map NAME", reply["message"]))
        assert len(set(answers)) == 1, "every refusal says the same: which files exist is not told"
        assert server.lobby.matches == {}
        assert (await client.request(**create("rooms")))["type"] == "game_created"
        frames = "\n".join(client.raw)
        assert SECRET not in frames, "no frame quotes a file the client named"
        assert str(folder) not in json.dumps(listed), "the catalogue names maps by id, never by where they are"


async def test_an_upload_is_read_from_its_text_never_from_the_file_its_name_names() -> None:
    hostname = Path("/etc/hostname")
    lines = [line for line in hostname.read_text().splitlines() if line.strip()] if hostname.is_file() else []
    async with running_server(**FAST) as server:
        client = await Client.connect(server)
        broken = "[territories.Lonely]\nborders = [\n"
        refused = await client.request(
            type="create_game", settings={"players": 2}, map_upload={"name": str(hostname), "text": broken}
        )
        assert refused["type"] == "error" and refused["code"] == "bad-map", refused
        assert not any(line in refused["message"] for line in lines), "the upload's own text was read, not the file"
        created = await client.request(
            type="create_game", settings={"players": 2}, map_upload={"name": "/etc/passwd", "text": GOOD_MAP}
        )
        assert created["type"] == "game_created", created
        assert created["game"]["map_name"] == "Two rooms", "the map is the text sent, whatever its name says"
        assert "root:" not in "\n".join(client.raw)
