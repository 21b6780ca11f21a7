"""Map files crafted to exhaust the readers (issue 19, item 2): reading is linear and bounded.

A file larger than the size limit is refused unread; a map past the limits on territories, borders or continents is
refused with a finding naming the limit, before anything is built from it; the crafted shapes that took quadratic
time read in work that grows as their size does. Work is counted (lines of the map code run), not timed: the times
are in bench/map_attack.py.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from bench.map_attack import SHAPES
from shared.maps import MapError, check_map_file, load_map
from shared.maps import groups as groups_module
from shared.maps.conquest import read_conquest
from shared.maps.domination import read_domination
from shared.maps.findings import FindingCode, Severity
from shared.maps.groups import starting_groups
from shared.maps.limits import MAX_BORDERS, MAX_CONTINENTS, MAX_MAP_BYTES, MAX_TERRITORIES
from shared.maps.native import read_native
from tests.server_support import Client, running_server

MAPS_CODE = str(Path(__file__).resolve().parents[1] / "shared" / "maps")


@contextmanager
def counted_lines() -> Iterator[list[int]]:
    """Count the lines of shared/maps run inside the block (each loop turn counts): the work done, as a number."""
    count = [0]

    def local(frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        if event == "line":
            count[0] += 1
        return local

    def calls(frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        return local if frame.f_code.co_filename.startswith(MAPS_CODE) else None

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        yield count
    finally:
        sys.settrace(previous)


def errors(findings: list[Any]) -> list[Any]:
    return [f for f in findings if f.severity is Severity.ERROR]


# ---- the size limit ----------------------------------------------------------------------------------------------


def test_a_map_file_larger_than_the_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.map"
    path.write_bytes(b"[countries]\n" + b"x" * MAX_MAP_BYTES)
    report = check_map_file(path)
    assert report.game_map is None and report.format == "unread"
    [finding] = report.findings
    assert finding.code is FindingCode.TOO_LARGE and f"at most {MAX_MAP_BYTES:,}" in finding.message
    with pytest.raises(MapError, match="at most 1,048,576"):
        load_map(path)


def test_each_reader_refuses_a_text_larger_than_the_limit_given_to_it_directly() -> None:
    data = b"[countries]\n" + b" " * MAX_MAP_BYTES
    for game_map, findings in (read_domination(data), read_conquest(data), read_native(data.decode())):
        assert game_map is None and [f.code for f in findings] == [FindingCode.TOO_LARGE]


@pytest.mark.parametrize("shape", list(SHAPES))
def test_a_crafted_file_of_each_shape_at_the_size_limit_is_read_to_a_verdict(shape: str, tmp_path: Path) -> None:
    suffix, make = SHAPES[shape]
    path = tmp_path / f"crafted{suffix}"
    path.write_text(make(MAX_MAP_BYTES), encoding="utf-8")
    assert MAX_MAP_BYTES * 0.7 < path.stat().st_size <= MAX_MAP_BYTES
    report = check_map_file(path)
    assert errors(report.findings), report.findings[:3]  # every one of these is unplayable at this size
    if report.game_map is not None:
        assert len(report.game_map.territories) <= MAX_TERRITORIES


# ---- the limits on what is built -----------------------------------------------------------------------------------


def domination(countries: int, borders_each: int = 1) -> bytes:
    lines = ["[continents]", "c 1 red", "[countries]"]
    lines += [f"{i} t{i} 1 0 0" for i in range(1, countries + 1)]
    lines.append("[borders]")
    for i in range(1, countries + 1):
        targets = [(i + k) % countries + 1 for k in range(borders_each)] + [(i - 2) % countries + 1]
        lines.append(" ".join(map(str, [i, *targets])))
    return "\n".join(lines).encode()


def test_a_map_of_as_many_territories_as_the_limit_is_read_and_one_more_is_refused() -> None:
    game_map, findings = read_domination(domination(MAX_TERRITORIES))
    assert game_map is not None and len(game_map.territories) == MAX_TERRITORIES and not errors(findings)
    game_map, findings = read_domination(domination(MAX_TERRITORIES + 1))
    assert game_map is None
    assert findings[-1].code is FindingCode.TOO_LARGE
    assert f"more than {MAX_TERRITORIES:,} countries" in findings[-1].message


def test_a_map_past_the_border_limit_is_refused() -> None:
    game_map, findings = read_domination(domination(2_000, borders_each=MAX_BORDERS // 2_000))
    assert game_map is None and f"more than {MAX_BORDERS:,} borders" in findings[-1].message
    rows = "".join(f"t{i},0,0,C,{','.join(f't{j}' for j in range(30))}\n" for i in range(MAX_BORDERS // 30 + 1))
    game_map, findings = read_conquest(f"[Continents]\nC=1\n[Territories]\n{rows}".encode())
    assert game_map is None and f"more than {MAX_BORDERS:,} borders" in findings[-1].message


def test_native_maps_keep_to_the_same_limits() -> None:
    territories = "".join(f'[territories.t{i}]\nborders = ["t{i + 1}"]\n' for i in range(MAX_TERRITORIES + 1))
    game_map, findings = read_native(f'name = "big"\n{territories}')
    assert game_map is None and f"more than {MAX_TERRITORIES:,} territories" in findings[-1].message
    continents = "".join(f"[continents.c{i}]\nbonus = 1\n" for i in range(MAX_CONTINENTS + 1))
    game_map, findings = read_native(f'name = "big"\n{continents}[territories.a]\nborders = []\n')
    assert game_map is None and f"more than {MAX_CONTINENTS:,} continents" in findings[-1].message


# ---- linear work -------------------------------------------------------------------------------------------------


def work_to_read(make: Callable[[int], str], size: int, suffix: str, folder: Path) -> int:
    path = folder / f"crafted-{size}{suffix}"
    path.write_text(make(size), encoding="utf-8")
    with counted_lines() as count:
        check_map_file(path)
    return count[0]


@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_work_of_reading_a_crafted_file_grows_as_its_size_does(shape: str, tmp_path: Path) -> None:
    """Four times the bytes, about four times the work (quadratic work would be sixteen times): sizes below the
    limits, where everything is read, built and validated."""
    suffix, make = SHAPES[shape]
    small = work_to_read(make, 4 * 1024, suffix, tmp_path)
    large = work_to_read(make, 16 * 1024, suffix, tmp_path)
    assert large < 6 * small, (small, large)


@pytest.mark.parametrize("shape", ["conquest: star", "domination: chain of countries"])
def test_starting_groups_on_a_crafted_map_of_thousands_of_territories_keep_to_their_work_budget(
    shape: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Starting groups are computed when a game is created. Their repair (swapping strays until groups are
    contiguous) looks at whole groups for each swap it tries, so it stops at a budget of territories looked at;
    the real maps never reach it (test_groups checks they are repaired to contiguous groups)."""
    suffix, make = SHAPES[shape]
    path = tmp_path / f"crafted{suffix}"
    path.write_text(make(130 * 1024 if "star" in shape else 120 * 1024), encoding="utf-8")
    game_map = load_map(path)
    assert len(game_map.territories) > 3_000
    looked_at = [0]
    pieces = groups_module._pieces

    def counting(graph: Any, group: Any) -> Any:
        looked_at[0] += len(group)
        return pieces(graph, group)

    monkeypatch.setattr(groups_module, "_pieces", counting)
    groups = starting_groups(game_map, 3)
    assert [len(g) for g in groups] == [len(game_map.territories) // 3] * 3
    attempts_scored = 2 * len(game_map.territories)  # each seeding's groups are counted in pieces once
    assert looked_at[0] <= 4 * (groups_module.REPAIR_WORK + len(game_map.territories)) + attempts_scored


async def test_a_map_file_past_the_limit_in_the_servers_folder_is_left_out_unread(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "huge.map").write_bytes(b"[countries]\n" + b"1 a 1 0 0\n" * (MAX_MAP_BYTES // 10 + 1))
    (tmp_path / "small.map").write_bytes(domination(12))
    caplog.set_level(logging.WARNING, "risc")
    async with running_server(maps=(tmp_path,)) as server:
        client = await Client.connect(server)
        listed = await client.request(type="list_maps")
        ids = [m["id"] for m in listed["maps"]]
        assert "small" in ids and "huge" not in ids
        reply = await client.request(type="create_game", settings={"map": "huge"})
        assert reply["type"] == "error" and reply["code"] == "bad-map" and 'no map "huge"' in reply["message"]
    assert "huge.map left out of the catalogue: larger than 1,048,576 bytes" in caplog.text
