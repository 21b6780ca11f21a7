"""The map editor gives a map the picture it is drawn over (`editpicture FILE`), or takes it away (`-remove`): a
picture file beside the map, looked at before it is taken, kept by savemap in the map's own format, undone like
any edit, and refused with the reason when it is no picture the page can show."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from shared.maps import load_map
from shared.maps.edit_commands import CommandError, EditPicture, parse_command
from shared.maps.editor import Action
from tests.map_editor_support import Session, shared_maps
from tests.picture_support import beside_a_picture, png

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def risk(tmp_path: Path) -> Session:
    """Domination's risk.map in a folder of its own, its picture (677 x 425 pixels) beside it."""
    path = beside_a_picture(shared_maps() / "domination" / "risk.map", tmp_path, png(677, 425))
    return Session.open(path)


def test_the_command_reads_a_file_or_remove() -> None:
    assert parse_command("editpicture europe.png") == EditPicture("europe.png", "editpicture europe.png")
    assert parse_command('picture "Twin Volcano.bmp"') == EditPicture("Twin Volcano.bmp", 'picture "Twin Volcano.bmp"')
    assert parse_command("editpicture -remove") == EditPicture(None, "editpicture -remove")
    for line in ("editpicture", "editpicture a.png -remove"):
        command = parse_command(line)
        assert isinstance(command, CommandError) and "editpicture takes a FILE or -remove" in command.message


def test_a_picture_taken_away_and_given_again_is_saved_in_the_maps_own_format(risk: Session) -> None:
    assert "drawn over risk_pic.png" in risk.ok("showmap").splitlines()[0]
    assert risk.ok("editpicture -remove") == "the map has no picture now (it was drawn over risk_pic.png)"
    assert risk.state.unsaved
    risk.ok("savemap")
    saved = risk.state.path.read_text(encoding="latin-1")
    assert "pic " not in saved and "map risk_map.gif" in saved  # the other [files] entries stay
    assert load_map(str(risk.state.path)).details.picture is None
    assert "error: the map has no picture to remove" in risk.fails("editpicture -remove")

    said = risk.ok("editpicture risk_pic.png")
    assert said == "the map is drawn over risk_pic.png (677 x 425 pixels)"
    risk.ok("savemap")
    assert load_map(str(risk.state.path)).details.picture == "risk_pic.png"


def test_a_picture_is_undone_like_any_edit_and_quitting_asks_first(risk: Session) -> None:
    risk.ok("editpicture -remove")
    reply = risk.run("quit")
    assert reply.action is Action.CONFIRM_QUIT
    assert risk.ok("undo") == "undid: editpicture -remove"
    assert risk.map.details.picture == "risk_pic.png" and not risk.state.unsaved


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("editpicture sea.png", "there is no file sea.png beside the map"),
        ("editpicture ../risk_pic.png", "named without a folder"),
        ("editpicture notes.txt", "a .png, .jpg, .gif or .bmp file"),
        ("editpicture fake.png", "is not a PNG, JPEG, GIF or BMP picture"),
    ],
)
def test_what_is_no_picture_beside_the_map_is_refused_and_changes_nothing(risk: Session, line: str, said: str) -> None:
    (risk.state.path.parent / "fake.png").write_text("not a picture at all")
    (risk.state.path.parent / "notes.txt").write_text("notes")
    risk.ok("editpicture -remove")
    reply = risk.fails(line)
    assert said in reply and "(nothing was changed)" in reply
    assert risk.map.details.picture is None


def test_a_new_map_gains_a_picture_and_is_told_what_lies_outside_it(tmp_path: Path) -> None:
    (tmp_path / "sea.png").write_bytes(png(40, 30))
    session = Session.new(tmp_path / "islands.toml")
    session.ok("editcontinent -add Reef 1")
    session.ok("editcountry -add Atoll Reef -add Lagoon Reef")
    session.ok("editneighbor -add Atoll Lagoon")
    said = session.ok("editpicture sea.png")
    assert said.splitlines()[0] == "the map is drawn over sea.png (40 x 30 pixels)"
    assert "2 territories have no position yet" in said
    session.ok("savemap -format native")
    assert 'picture = "sea.png"' in (tmp_path / "islands.toml").read_text()
    # a picture smaller than the map's positions: the author is told which territories fall outside it
    risk = beside_a_picture(shared_maps() / "domination" / "risk.map", tmp_path / "small", png(200, 100))
    said = Session.open(risk).ok("editpicture risk_pic.png")
    assert "territories lie outside it (" in said and "a territory's position is a pixel of the picture" in said


def test_the_editor_of_the_command_line_looks_at_the_picture_file(tmp_path: Path) -> None:
    path = beside_a_picture(shared_maps() / "domination" / "risk.map", tmp_path, png(677, 425))
    (tmp_path / "fake.png").write_text("not a picture")
    commands = tmp_path / "commands.txt"
    commands.write_text("editpicture -remove\neditpicture risk_pic.png\nsavemap\neditpicture fake.png\n")
    done = subprocess.run(
        [sys.executable, "-m", "risc", "maps", "edit", str(path), "--commands", str(commands)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    out = done.stdout + done.stderr
    assert done.returncode != 0  # the last command failed, which stops the run
    assert "fake.png: the file is not a PNG, JPEG, GIF or BMP picture" in out, out
    assert "the map is drawn over risk_pic.png (677 x 425 pixels)" in out, out
    assert load_map(str(path)).details.picture == "risk_pic.png"
