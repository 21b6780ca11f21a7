"""`risc maps check | show | convert` on real files, bundled maps and broken input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from risc.cli import main
from shared.maps import load_map
from shared.maps.groups import neutral_territories, starting_groups

MAPS = Path(__file__).resolve().parents[1].parent / "shared" / "maps"


def real(relative: str) -> str:
    assert MAPS.is_dir(), f"the real map files are missing: {MAPS} (../shared/maps from the project root)"
    path = MAPS / relative
    assert path.is_file(), f"{path} is missing"
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["maps", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_check_says_ok_for_a_clean_map(capsys: pytest.CaptureFixture[str]) -> None:
    path = real("domination/europe.map")
    status, out, _ = run(capsys, "check", path)
    assert status == 0
    assert out.splitlines() == [f"{path}: ok (Domination, 24 territories, 4 continents)"]


def test_check_lists_the_warnings_of_a_playable_map(capsys: pytest.CaptureFixture[str]) -> None:
    path = real("domination/artic.map")
    status, out, _ = run(capsys, "check", path)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == f"{path}: ok with 2 warnings (Domination, 54 territories, 6 continents)"
    assert lines[1].startswith("  warning: 10 one-way border(s)")
    assert any('cannot reach every other territory: "North_Pole"' in line for line in lines)


def test_check_refuses_a_broken_map_with_its_findings_and_lines(capsys: pytest.CaptureFixture[str]) -> None:
    path = real("conquest/Z__undefined_territory.map")
    status, out, _ = run(capsys, "check", path)
    assert status == 1
    assert out.splitlines() == [
        f"{path}: invalid: 1 error (Conquest, 42 territories, 6 continents)",
        '  line 17: error: "Alaska" borders "Vietnam", which is not a territory of the map',
    ]


def test_check_of_several_files_fails_if_any_cannot_be_played(capsys: pytest.CaptureFixture[str]) -> None:
    good, bad = real("conquest/World.map"), real("domination/solarInvalid.map")
    status, out, _ = run(capsys, "check", good, "seed", bad)
    assert status == 1
    assert f"{good}: ok (Conquest, 42 territories, 6 continents)" in out
    assert "seed: ok (native, 9 territories, 0 continents)" in out
    assert f"{bad}: invalid: 1 error" in out
    assert 'cut off from the rest: "Pluto-East", "Pluto-West"' in out
    assert out.splitlines()[-1] == "3 files: 2 can be played, 1 cannot"
    status, _, _ = run(capsys, "check", good, "seed")
    assert status == 0


def test_check_of_a_missing_file_names_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.map"
    status, out, _ = run(capsys, "check", str(missing))
    assert status == 1
    assert out.startswith(f'{missing}: invalid: no map file "{missing}"')


@pytest.mark.parametrize("content", [b"\x00\x01\xff\xfe garbage \x9c", b"[countries]\n1\n", b"name = ["])
def test_check_of_garbage_is_a_verdict_not_a_crash(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "garbage.map"
    path.write_bytes(content)
    status, out, _ = run(capsys, "check", str(path))
    assert status == 1
    assert out.startswith(f"{path}: invalid")
    assert "error:" in out


def test_the_console_command_never_prints_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "broken.map"
    path.write_bytes(b"[Territories]\nA,1,2,Nowhere,B\n")
    done = subprocess.run(
        [sys.executable, "-m", "risc", "maps", "check", str(path), str(tmp_path / "none.map")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stdout + done.stderr
    assert 'continent "Nowhere" is not defined' in done.stdout
    assert "no map file" in done.stdout


def test_show_gives_counts_continents_and_groups_for_2_to_5_players(capsys: pytest.CaptureFixture[str]) -> None:
    path = real("domination/europe.map")
    status, out, _ = run(capsys, "show", path)
    assert status == 0
    game_map = load_map(path)
    assert out.startswith(f"europe  (Domination, {path})")
    assert "  24 territories, 45 two-way borders, 0 one-way, 4 continents" in out
    assert "  North_Europe  bonus  5  7 territories" in out
    assert "  West_Europe   bonus  3  5 territories" in out
    flat = " ".join(out.split())
    for players in (2, 3, 4, 5):
        groups = starting_groups(game_map, players)
        neutral = neutral_territories(game_map, groups)
        assert f"{players} players: {players} groups of {24 // players}, {24 % players} neutral" in out
        for group in groups:
            assert ": " + ", ".join(group) in flat
        if neutral:
            assert "neutral: " + ", ".join(neutral) in flat


def test_show_of_a_map_with_its_own_groups_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "show", "seed", "--players", "3")
    assert status == 0
    assert "3 players: 3 groups of 3, 0 neutral (the map's own)" in out
    assert "A (in one piece): Narnia, Midkemia, Oz" in out
    assert "2 players" not in out


def test_show_names_one_way_borders_and_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "show", real("domination/artic.map"), "--players", "2")
    assert status == 0
    assert "10 one-way" in out
    assert "Warnings (2):" in out


def test_show_refuses_a_map_that_cannot_be_played(capsys: pytest.CaptureFixture[str]) -> None:
    path = real("conquest/Z__missing_coordination.map")
    status, out, err = run(capsys, "show", path)
    assert status == 1
    assert out == ""
    assert 'line 17: error: territory "Alaska" has no y position' in err


def test_show_of_too_many_players_for_the_map(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "show", real("conquest/UnconnectedContinent.map"), "--players", "5")
    assert status == 0
    assert "5 players: too few territories (4)" in out


def test_convert_writes_a_native_map_with_the_same_graph(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = real("conquest/Twin Volcano.map")
    out_path = tmp_path / "twin.toml"
    status, out, _ = run(capsys, "convert", source, "-o", str(out_path))
    assert status == 0
    assert out.startswith(f"wrote {out_path}: Twin Volcano, 56 territories, 11 continents (from Conquest)")
    assert "the map plays, with 4 warnings:" in out
    original, converted = load_map(source), load_map(out_path)
    assert converted.name == "Twin Volcano"
    assert converted.territories == original.territories
    assert dict(converted.borders) == dict(original.borders)
    assert converted.continents == original.continents
    status, out, _ = run(capsys, "check", str(out_path))
    assert status == 0 and "(native, 56 territories, 11 continents)" in out


def test_convert_refuses_a_map_that_cannot_be_played(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_path = tmp_path / "bad.toml"
    status, _, err = run(capsys, "convert", real("domination/invalid1.map"), "-o", str(out_path))
    assert status == 1
    assert not out_path.exists()
    assert "line 11: error:" in err and "[continents] header missing" in err


def test_convert_to_a_folder_that_does_not_exist(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "convert", "seed", "-o", str(tmp_path / "no" / "such" / "seed.toml"))
    assert status == 1
    assert err.startswith("cannot write ")
