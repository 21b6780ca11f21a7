"""Saving maps: what each format keeps of the file it came from, what it cannot hold, and the atomic write.

../shared/spec/map-formats.md describes the two .map formats; the writers must produce files those games read, and
the editor must never leave half a map behind.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from shared.maps import Continent, Territory, build_map, check_map_file, load_map
from shared.maps.conquest_writer import write_conquest
from shared.maps.domination_writer import PALETTE, write_domination
from shared.maps.editor import EditorState
from shared.maps.saving import MapFormat, format_findings, render_map, write_atomically
from shared.maps.text import decode_map_text
from shared.maps.validate import MapRules
from tests.map_editor_support import Session, shared_maps

# --- what the source file held is kept ---------------------------------------------------------------------------


def edited_copy(relative: str, tmp_path: Path, name: str, rules: MapRules = MapRules.COURSE) -> tuple[Path, Path]:
    """Open a real map, add one territory beside the first one, save it as `name`: (source, saved)."""
    source = shared_maps() / relative
    session = Session.open(source, rules)
    first = session.map.territories[0]
    session.ok(f'editcountry -add Newland "{first.continent}"')
    session.ok(f'editneighbor -add Newland "{first.name}"')
    session.ok(f'savemap "{tmp_path / name}"')
    return source, tmp_path / name


def test_a_domination_map_keeps_its_comments_preamble_files_colours_and_positions(tmp_path: Path) -> None:
    source, saved = edited_copy("domination/risk.map", tmp_path, "risk.map")
    before, after = load_map(source), load_map(saved)
    assert check_map_file(saved).format == "domination"
    assert (
        after.details.files
        == before.details.files
        == (("pic", "risk_pic.png"), ("map", "risk_map.gif"), ("crd", "risk.cards"), ("prv", "risk.jpg"))
    )
    assert after.details.colours[:6] == before.details.colours
    assert after.details.colours[:2] == (("North-America", "yellow"), ("South-America", "green"))
    assert after.description == before.description and after.name == before.name == "Risk Map"
    assert all(after.territory(t.name) == t for t in before.territories)
    text = decode_map_text(saved.read_bytes())
    assert text.startswith("; Yura Mamyrin\r\n; Risk Map\r\n")
    assert "\r\n[files]\r\npic risk_pic.png\r\nmap risk_map.gif\r\ncrd risk.cards\r\nprv risk.jpg\r\n" in text


def test_a_domination_preamble_line_other_than_the_name_is_kept(tmp_path: Path) -> None:
    source = tmp_path / "tiny.map"
    source.write_bytes(
        b"; a tiny map\nname Tiny\nver 2\ntest\n\n[continents]\nOne 1 #00ff00\n\n[countries]\n"
        b"1 A 1 10 20\n2 B 1 30 40\n\n[borders]\n1 2\n2 1\n"
    )
    session = Session.open(source)
    session.ok("editcountry -add C One")
    session.ok("editneighbor -add C B")
    session.ok("savemap")
    lines = source.read_bytes().decode("ascii").split("\r\n")
    assert lines[:5] == ["; a tiny map", "", "name Tiny", "ver 2", "test"]
    assert "One 1 #00ff00" in lines and "3 C 1 0 0" in lines


def test_a_new_domination_continent_gets_a_colour_no_other_continent_has(tmp_path: Path) -> None:
    session = Session.open(shared_maps() / "domination/risk.map")
    session.ok("editcontinent -add Atlantis 1")
    session.ok("editcountry -add Poseidonis Atlantis")
    session.ok("editneighbor -add Poseidonis Alaska")
    session.ok(f"savemap {tmp_path / 'out.map'}")
    colours = dict(load_map(tmp_path / "out.map").details.colours)
    assert colours["Atlantis"] in PALETTE
    assert colours["Atlantis"] not in [c for name, c in colours.items() if name != "Atlantis"]


def test_a_conquest_map_keeps_its_map_settings_as_written(tmp_path: Path) -> None:
    source, saved = edited_copy("conquest/World.map", tmp_path, "world.map")
    assert check_map_file(saved).format == "conquest"
    text = decode_map_text(saved.read_bytes())
    assert text.startswith(
        "[Map]\r\nauthor=Sean O'Connor\r\nimage=world.bmp\r\nwrap=no\r\nscroll=horizontal\r\n"
        "warn=yes\r\n\r\n[Continents]\r\n"
    )
    before, after = load_map(source), load_map(saved)
    assert all(after.territory(t.name) == t for t in before.territories)


def test_a_lower_case_map_section_keeps_its_keys(tmp_path: Path) -> None:
    source = tmp_path / "lower.map"
    source.write_bytes(b"[map]\nAuthor=Me\nimage=x.bmp\n[Continents]\nC=1\n[Territories]\nA,1,2,C,B\nB,3,4,C,A\n")
    session = Session.open(source)
    session.ok("savemap")
    assert source.read_bytes().startswith(b"[Map]\r\nAuthor=Me\r\nimage=x.bmp\r\n\r\n[Continents]\r\nC=1\r\n")


def test_a_map_new_to_conquest_gets_settings_and_its_picture_beside_it(tmp_path: Path) -> None:
    game_map = load_map("cataract")
    text = render_map(game_map, MapFormat.CONQUEST, tmp_path / "falls.map").decode("latin-1")
    assert text.startswith("[Map]\r\nimage=falls.bmp\r\nwrap=no\r\nscroll=none\r\nwarn=no\r\n")  # one-way borders


def test_saving_in_another_format_says_what_it_does_not_keep(tmp_path: Path) -> None:
    session = Session.open(shared_maps() / "domination/risk.map")
    said = session.ok(f"savemap {tmp_path / 'risk.map'} -format conquest")
    assert (
        "not kept in the Conquest format: the description; Domination's [files] entries (map, crd, "
        "prv); the continents' colours" in said
    )
    assert b"\r\nimage=risk_pic.png\r\n" in (tmp_path / "risk.map").read_bytes()  # the picture is kept
    said = Session.open(shared_maps() / "conquest/World.map").ok(f"savemap {tmp_path / 'world.toml'}")
    assert "not kept in the native format: Conquest's [Map] settings (author, wrap, scroll, warn)" in said
    assert load_map(tmp_path / "world.toml").details.picture == "world.bmp"


def test_starting_groups_are_said_to_be_lost_outside_the_native_format() -> None:
    findings = format_findings(load_map("seed"), MapFormat.DOMINATION)
    assert any("not kept in the Domination format: the starting groups for 3 players" in f.message for f in findings)
    assert format_findings(load_map("seed"), MapFormat.NATIVE) == []


# --- what each format can hold ------------------------------------------------------------------------------------


def test_one_way_borders_survive_a_domination_and_a_conquest_file(tmp_path: Path) -> None:
    artic = load_map(shared_maps() / "domination/artic.map")
    for fmt in (MapFormat.DOMINATION, MapFormat.CONQUEST):
        path = tmp_path / f"artic-{fmt.value}.map"
        path.write_bytes(render_map(artic, fmt, path))
        back = load_map(path)
        assert back.neighbours("North_Pole") == frozenset()
        assert "North_Pole" in back.neighbours("Inuvik")


def test_a_territory_in_no_continent_cannot_go_in_a_map_file() -> None:
    seed = load_map("seed")
    for fmt in (MapFormat.DOMINATION, MapFormat.CONQUEST):
        problems = [f for f in format_findings(seed, fmt) if f.severity == "error"]
        assert [f.code.value for f in problems] == ["no-continent"]
        assert set(problems[0].territories) == set(seed.names)


def test_the_risc_rules_save_a_map_risc_plays_but_a_map_file_cannot_hold(tmp_path: Path) -> None:
    path = tmp_path / "seed.toml"
    path.write_bytes(render_map(load_map("seed"), MapFormat.NATIVE, path))
    session = Session.open(path, MapRules.RISC)
    session.ok(f"savemap {tmp_path / 'again.toml'}")
    said = session.fails(f"savemap {tmp_path / 'seed.map'}")
    assert "a Domination map needs a continent for every territory" in said


def test_course_rules_refusing_a_native_save_point_to_the_risc_rules(tmp_path: Path) -> None:
    path = tmp_path / "seed.toml"
    path.write_bytes(render_map(load_map("seed"), MapFormat.NATIVE, path))
    said = Session.open(path).fails(f"savemap {tmp_path / 'again.toml'}")
    assert "territories in no continent" in said and "edit it with --rules risc" in said


@pytest.mark.parametrize(
    ("names", "fmt", "words"),
    [
        (("A B", "A_B"), MapFormat.DOMINATION, 'would all be written as "A_B"'),
        (("Gondor", "gondor"), MapFormat.CONQUEST, "Conquest matches names ignoring case"),
        (("A,B", "C"), MapFormat.CONQUEST, "cannot be written in a Conquest file"),
        ((";A", "C"), MapFormat.CONQUEST, "cannot be written in a Conquest file"),
    ],
)
def test_names_a_format_cannot_hold_are_refused(names: tuple[str, str], fmt: MapFormat, words: str) -> None:
    first, second = names
    game_map = build_map(
        "m", [Territory(first, "K"), Territory(second, "K")], {first: [second], second: [first]}, [Continent("K", 1)]
    )
    errors = [f for f in format_findings(game_map, fmt) if f.severity == "error"]
    assert len(errors) == 1 and words in errors[0].message
    with pytest.raises(ValueError):
        render_map(game_map, fmt, Path("m.map"))


def test_names_beyond_ascii_are_written_so_that_each_game_reads_them(tmp_path: Path) -> None:
    """Domination reads UTF-8 only behind a byte-order mark; Conquest files are Latin-1 where they can be."""
    game_map = build_map(
        "m",
        [Territory("Łódź", "Środek"), Territory("Zürich", "Środek")],
        {"Łódź": ["Zürich"], "Zürich": ["Łódź"]},
        [Continent("Środek", 1)],
    )
    domination = write_domination(game_map)
    assert domination.startswith(b"\xef\xbb\xbf") and "Łódź".encode() in domination
    latin = build_map(
        "m",
        [Territory("Zürich", "Mitte"), Territory("Genève", "Mitte")],
        {"Zürich": ["Genève"], "Genève": ["Zürich"]},
        [Continent("Mitte", 1)],
    )
    assert "Zürich".encode("latin-1") in write_conquest(latin, "m.bmp")
    assert "Łódź".encode() in write_conquest(game_map, "m.bmp")
    for data, name in (
        (domination, "d.map"),
        (write_conquest(latin, "m.bmp"), "l.map"),
        (write_conquest(game_map, "m.bmp"), "u.map"),
    ):
        (tmp_path / name).write_bytes(data)
        assert set(load_map(tmp_path / name).names) <= {"Łódź", "Zürich", "Genève"}


def test_positions_are_whole_pixels_in_map_files_and_kept_exact_in_native(tmp_path: Path) -> None:
    game_map = build_map(
        "m", [Territory("A", "K", x=10.4, y=20.6), Territory("B", "K")], {"A": ["B"], "B": ["A"]}, [Continent("K", 1)]
    )
    for fmt, expected in (
        (MapFormat.DOMINATION, ((10, 21), (0, 0))),
        (MapFormat.CONQUEST, ((10, 21), (0, 0))),
        (MapFormat.NATIVE, ((10.4, 20.6), (None, None))),
    ):
        path = tmp_path / ("m.toml" if fmt is MapFormat.NATIVE else f"m-{fmt.value}.map")
        path.write_bytes(render_map(game_map, fmt, path))
        back = load_map(path)
        assert tuple((t.x, t.y) for t in back.territories) == expected


# --- the atomic write -------------------------------------------------------------------------------------------


@pytest.fixture
def saved_session(tmp_path: Path) -> Session:
    session = Session.new(tmp_path / "world.map")
    session.ok("editcontinent -add K 1")
    session.ok("editcountry -add A K -add B K")
    session.ok("editneighbor -add A B")
    session.ok("savemap")
    session.ok("editcountry -add C K")
    session.ok("editneighbor -add C B")
    return session


def test_a_save_that_fails_to_rename_leaves_the_old_file_and_no_temporary_file(
    saved_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    from client.map_editor import EditorSession

    path = saved_session.state.path
    old = path.read_bytes()

    def refuse(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    editor = EditorSession(saved_session.state)
    reply = editor.run("savemap")
    assert reply is not None and not reply.ok
    assert reply.lines == (f"error: cannot write {path}: No space left on device; nothing was changed",)
    assert path.read_bytes() == old
    assert sorted(p.name for p in path.parent.iterdir()) == ["world.map"]
    assert editor.state.unsaved


def test_a_save_that_fails_in_the_middle_of_writing_leaves_the_old_file(
    saved_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = saved_session.state.path
    old = path.read_bytes()
    real_fsync = os.fsync

    def crash(descriptor: int) -> None:
        os.write(descriptor, b"half a ma")  # some bytes reached the temporary file, then the disk failed
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", crash)
    with pytest.raises(OSError):
        write_atomically(path, b"new contents" * 1000)
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert path.read_bytes() == old
    assert sorted(p.name for p in path.parent.iterdir()) == ["world.map"]


def test_a_save_replaces_the_file_whole_and_keeps_its_permissions(saved_session: Session) -> None:
    path = saved_session.state.path
    path.chmod(0o640)
    saved_session.ok("savemap")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert "C" in load_map(path)
    assert sorted(p.name for p in path.parent.iterdir()) == ["world.map"]


def test_a_save_through_a_symbolic_link_replaces_the_file_it_points_to(saved_session: Session, tmp_path: Path) -> None:
    link = tmp_path / "link.map"
    link.symlink_to(saved_session.state.path)
    saved_session.state = EditorState(saved_session.map, link, MapFormat.DOMINATION, saved_session.state.saved)
    saved_session.ok("savemap")
    assert link.is_symlink() and "C" in load_map(saved_session.state.path.resolve())
