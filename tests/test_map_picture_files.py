"""A map's picture: named by the map (Domination's [files] pic, Conquest's image, the native `picture`), kept when
the map is saved in any format, read by a server from beside a catalogue map and served by the map's id only, with
its size in pixels told to the game's followers, and never a file a request names."""

from __future__ import annotations

import json
import logging
import struct
from pathlib import Path

import pytest

from server.lobby.catalogue import Catalogue
from shared.maps.loader import load_map
from shared.maps.model import NO_DETAILS
from shared.maps.pictures import MAX_PICTURE_BYTES, MAX_PICTURE_SIDE, PictureFacts, name_problem, read_picture
from shared.maps.saving import MapFormat, read_rendered, render_map
from tests.map_editor_support import shared_maps
from tests.picture_support import beside_a_picture, land_and_sea, png
from tests.server_support import Client, create_game, join
from tests.test_web_static import get
from tests.web_support import web_server

RISK = "domination/risk.map"


def test_a_picture_says_its_kind_and_size_from_its_first_bytes() -> None:
    assert read_picture(png(7, 5)) == PictureFacts("image/png", 7, 5)
    assert read_picture(b"GIF89a" + struct.pack("<HH", 640, 480) + b"\x00" * 8) == PictureFacts("image/gif", 640, 480)
    bmp = b"BM" + b"\x00" * 12 + struct.pack("<Iii", 40, 677, -425) + b"\x00" * 30  # a top-down bitmap
    assert read_picture(bmp) == PictureFacts("image/bmp", 677, 425)
    # a JPEG's size is in its frame header, after whatever segments come first
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00" + b"\x00" * 9
    sof = b"\xff\xc0" + struct.pack(">HBHH", 17, 8, 425, 677) + b"\x03" + b"\x00" * 9
    assert read_picture(b"\xff\xd8" + app0 + sof + b"\xff\xd9") == PictureFacts("image/jpeg", 677, 425)


def test_what_is_no_picture_or_too_large_is_refused_with_the_reason() -> None:
    assert "not a PNG, JPEG, GIF or BMP" in str(read_picture(b"<svg xmlns='http://www.w3.org/2000/svg'/>"))
    assert "cut short" in str(read_picture(b"\xff\xd8\xff\xe0\x00\x10JFIF"))
    assert "at most 8192 on either side" in str(read_picture(png(1, 1)[:16] + struct.pack(">II", 9000, 10)))
    assert f"at most {MAX_PICTURE_BYTES:,}" in str(read_picture(png(1, 1) + b"\x00" * MAX_PICTURE_BYTES))
    assert MAX_PICTURE_SIDE == 8192


@pytest.mark.parametrize("name", ["../risk_pic.png", "maps/risk_pic.png", "/etc/hosts.png", "C:risk.png", ".x.png"])
def test_a_picture_is_named_by_its_file_name_alone(name: str) -> None:
    assert "named without a folder" in str(name_problem(name))


def test_a_picture_is_a_kind_the_page_shows() -> None:
    assert "a .png, .jpg, .gif or .bmp file" in str(name_problem("risk.svg"))
    assert name_problem("risk_pic.png") is None and name_problem("Twin Volcano.bmp") is None


def test_each_format_names_its_picture_and_keeps_one_named_in_another(tmp_path: Path) -> None:
    risk = load_map(str(shared_maps() / RISK))
    assert risk.details.picture == "risk_pic.png"
    assert load_map(str(shared_maps() / "conquest/World.map")).details.picture == "world.bmp"
    assert load_map(str(shared_maps() / "conquest/WrongFormat2-DupicateConnections.map")).details.picture is None
    formats = [(MapFormat.NATIVE, "risk.toml"), (MapFormat.CONQUEST, "risk.map"), (MapFormat.DOMINATION, "r.map")]
    for fmt, name in formats:
        data = render_map(risk, fmt, tmp_path / name)
        again = read_rendered(data, fmt, tmp_path / name)
        assert again is not None and again.details.picture == "risk_pic.png", fmt
    # a map gains a picture, or loses it, where its own format keeps it
    assert NO_DETAILS.with_picture("sea.png").picture == "sea.png"
    assert risk.details.with_picture("other.jpg").files[0] == ("pic", "other.jpg")
    assert risk.details.with_picture(None).picture is None and ("map", "risk_map.gif") in risk.details.files
    world = load_map(str(shared_maps() / "conquest/World.map")).details
    assert world.with_picture(None).picture is None and world.with_picture("w.png").picture == "w.png"


def catalogue_of(folder: Path) -> Catalogue:
    return Catalogue([folder], bundled=False)


def test_a_catalogue_map_offers_the_picture_beside_it(tmp_path: Path) -> None:
    risk = load_map(str(shared_maps() / RISK))
    beside_a_picture(shared_maps() / RISK, tmp_path, land_and_sea(risk, 677, 425))
    catalogue = catalogue_of(tmp_path)
    (info,) = catalogue.infos()
    assert info.picture
    picture = catalogue.picture(info.id)
    assert picture is not None and picture.facts == PictureFacts("image/png", 677, 425)
    told = catalogue.picture_for(info.id, catalogue.get(info.id))
    assert told is not None and (told.url, told.width, told.height) == (f"/maps/{info.id}/picture", 677, 425)


@pytest.mark.parametrize(
    ("how", "said"),
    [
        ("missing", "cannot be read"),
        ("not a picture", "is not a PNG, JPEG, GIF or BMP picture"),
        ("too large", f"at most {MAX_PICTURE_BYTES:,}"),
        ("outside", "not a file beside the map"),
        ("folder", "named without a folder"),
    ],
)
def test_a_map_whose_picture_cannot_be_had_is_offered_without_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, how: str, said: str
) -> None:
    folder = tmp_path / "maps"
    text = (shared_maps() / RISK).read_text(encoding="latin-1")
    folder.mkdir()
    name = "risk_pic.png"
    if how == "not a picture":
        (folder / name).write_text("<html>not a picture</html>")
    elif how == "too large":
        (folder / name).write_bytes(png(2, 2) + b"\x00" * MAX_PICTURE_BYTES)
    elif how == "outside":  # a link out of the maps' folder, to a file the operator never offered
        (tmp_path / "secret.png").write_bytes(png(2, 2))
        (folder / name).symlink_to(tmp_path / "secret.png")
    elif how == "folder":
        text = text.replace("pic risk_pic.png", "pic ../secret.png")
    (folder / "risk.map").write_text(text, encoding="latin-1")
    with caplog.at_level(logging.WARNING, logger="risc.server"):
        catalogue = catalogue_of(folder)
    (info,) = catalogue.infos()
    assert not info.picture and catalogue.picture(info.id) is None
    assert catalogue.picture_for(info.id, catalogue.get(info.id)) is None
    assert any("offered without its picture" in r.message and said in r.message for r in caplog.records), caplog.text


async def test_the_page_gets_the_picture_by_the_maps_id_and_nothing_else(tmp_path: Path) -> None:
    risk = load_map(str(shared_maps() / RISK))
    picture = land_and_sea(risk, 677, 425)
    beside_a_picture(shared_maps() / RISK, tmp_path, picture)
    (tmp_path / "secret.txt").write_text("the operator's own file")
    async with web_server(maps=(tmp_path,)) as server:
        status, headers, body = await get(server.port, "/maps/risk/picture")
        assert (status, headers["content-type"], body) == (200, "image/png", picture)
        assert headers["x-content-type-options"] == "nosniff"
        status, _, _ = await get(server.port, "/maps/risk/picture", {"If-None-Match": headers["etag"]})
        assert status == 304
        for target in [
            "/maps/risk_pic.png",
            "/maps/risk/risk_pic.png",
            "/maps/risk/picture/x",
            "/maps/../maps/risk/picture",
            "/maps/%2e%2e/secret.txt",
            "/maps/secret.txt/picture",
            "/maps/RISK/picture",
            "/maps/cataract/picture",  # a map without a picture
            "/maps/risk%2fpicture",
        ]:
            status, _, body = await get(server.port, target)
            assert status == 404, target
            assert b"operator" not in body and not body.startswith(b"\x89PNG"), target

        # a game on the map is told of its picture; a game on the same map uploaded is not
        owner = await Client.connect(server)
        try:
            on_catalogue = await create_game(owner, map="risk", players=2)
            text = (shared_maps() / RISK).read_text(encoding="latin-1")
            uploaded = await create_game(owner, upload=("risk.map", text), players=2)
            told = {}
            for game_id in (on_catalogue, uploaded):
                await owner.request(type="watch_game", game_id=game_id)
                found = await owner.wait_type("game_map", game_id=game_id)
                told[game_id] = found["picture"]
            assert told[on_catalogue] == {"url": "/maps/risk/picture", "width": 677, "height": 425}
            assert told[uploaded] is None
            maps = await owner.request(type="list_maps")
            assert {m["id"]: m["picture"] for m in maps["maps"]}["risk"] is True

            # a finished game's replay is drawn over the picture too
            player = await Client.connect(server)
            game_id = await create_game(player, map="risk", players=2, bots=1)
            await join(player, game_id, "Alice")
            assert (await player.request(type="resign", game_id=game_id))["type"] == "resigned"
            await player.wait_for(lambda m: m["type"] == "update" and m["game"] and m["game"]["status"] == "finished")
            opened = await player.request(type="open_replay", game_id=game_id)
            assert opened["picture"] == {"url": "/maps/risk/picture", "width": 677, "height": 425}
            await player.ws.close()
        finally:
            await owner.ws.close()
    assert json.dumps(told)  # what was told is plain JSON
