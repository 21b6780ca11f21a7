"""Saving and reading back: every valid real map in every format, and the seed's map built from nothing.

A map read and saved by the editor must read back as the same map: the same territories in the same continents,
the same continents with the same values, the same borders, and the same positions where the format holds them.
Two things change on purpose, and the tests say so rather than hide them: Domination names hold no spaces, so a
space is written as `_` (the format's own convention); and a .map line needs a position, so a territory without one
is written at 0 0.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from shared.maps import GameMap, Severity, check_map_file, load_map
from shared.maps.domination_writer import domination_name
from shared.maps.saving import MapFormat
from shared.maps.validate import MapRules, validate_map
from tests.map_editor_support import Session, shared_maps, two_way, valid_real_maps, valid_real_maps_or_missing

SUFFIX = {MapFormat.NATIVE: ".toml", MapFormat.DOMINATION: ".map", MapFormat.CONQUEST: ".map"}


def _same(name: str) -> str:
    return name


def assert_same_map(before: GameMap, after: GameMap, fmt: MapFormat) -> None:
    rename: Callable[[str], str] = domination_name if fmt is MapFormat.DOMINATION else _same
    assert after.names == tuple(rename(n) for n in before.names)
    assert [(c.name, c.bonus) for c in after.continents] == [(rename(c.name), c.bonus) for c in before.continents]
    assert [after.territory(rename(t.name)).continent for t in before.territories] == [
        rename(t.continent) if t.continent is not None else None for t in before.territories
    ]
    for t in before.territories:
        assert after.neighbours(rename(t.name)) == {rename(n) for n in before.neighbours(t.name) if n != t.name}, t.name
    for t in before.territories:
        back = after.territory(rename(t.name))
        if fmt is MapFormat.NATIVE:
            assert (back.x, back.y) == (t.x, t.y), t.name
        else:  # whole pixels, and 0 0 where the map had no position
            assert (back.x, back.y) == (round(t.x or 0), round(t.y or 0)), t.name


VALID = valid_real_maps_or_missing()


def test_the_readme_table_gives_the_valid_maps_of_both_formats() -> None:
    valid = valid_real_maps()
    assert len([m for m in valid if m.startswith("domination/")]) >= 20
    assert len([m for m in valid if m.startswith("conquest/")]) >= 8


@pytest.mark.parametrize("fmt", list(MapFormat))
@pytest.mark.parametrize("relative", VALID)
def test_a_valid_real_map_saved_in_each_format_reads_back_the_same(
    relative: str, fmt: MapFormat, tmp_path: Path
) -> None:
    source = shared_maps() / relative
    session = Session.open(source)
    before = session.map
    assert session.ok("validatemap").startswith("the map is valid under the course rules")
    target = tmp_path / f"copy{SUFFIX[fmt]}"
    session.ok(f'savemap "{target}" -format {fmt.value}')
    report = check_map_file(target)
    assert report.playable, [str(f) for f in report.findings]
    assert report.format == fmt.value
    assert report.game_map is not None
    assert_same_map(before, report.game_map, fmt)
    assert [str(f) for f in validate_map(report.game_map, MapRules.COURSE) if f.severity is Severity.ERROR] == []


# --- the seed's map, built from nothing ----------------------------------------------------------------------

SEED_SESSION = """
# The map of the RISC requirements' example, with the example's three colours as continents.
editcontinent -add Green 3 -add Blue 3 -add Red 3
editcountry -add Narnia Green -add Midkemia Green -add Oz Green
editcountry -add Elantris Blue -add Roshar Blue -add Scadrial Blue
editcountry -add Gondor Red -add Mordor Red -add Hogwarts Red
editneighbor -add Narnia Elantris -add Narnia Midkemia
editneighbor -add Midkemia Elantris -add Midkemia Scadrial -add Midkemia Oz
editneighbor -add Oz Scadrial -add Oz Mordor -add Oz Gondor
editneighbor -add Elantris Roshar -add Elantris Scadrial
editneighbor -add Roshar Hogwarts -add Roshar Scadrial
editneighbor -add Scadrial Hogwarts -add Scadrial Mordor
editneighbor -add Gondor Mordor -add Mordor Hogwarts
validatemap
"""


def seed_session(tmp_path: Path) -> Session:
    session = Session.new(tmp_path / "seed.map")
    for line in SEED_SESSION.splitlines():
        if line.strip() and not line.startswith("#"):
            session.ok(line)
    return session


def test_the_seed_map_built_from_nothing_has_the_seed_adjacency(tmp_path: Path) -> None:
    session = seed_session(tmp_path)
    seed = load_map("seed")
    assert set(session.map.names) == set(seed.names)
    assert two_way(session.map) == two_way(seed)
    assert session.replies[-1].lines == ("the map is valid under the course rules (seed, 9 territories, 3 continents)",)


@pytest.mark.parametrize("fmt", list(MapFormat))
def test_the_seed_map_built_from_nothing_saves_in_each_format_and_reads_back_equal(
    fmt: MapFormat, tmp_path: Path
) -> None:
    session = seed_session(tmp_path)
    built = session.map
    target = tmp_path / f"seed-{fmt.value}{SUFFIX[fmt]}"
    session.ok(f"savemap {target} -format {fmt.value}")
    back = load_map(target)
    assert_same_map(built, back, fmt)
    assert two_way(back) == two_way(load_map("seed"))
    assert {t.name: t.continent for t in back.territories} == {
        "Narnia": "Green",
        "Midkemia": "Green",
        "Oz": "Green",
        "Elantris": "Blue",
        "Roshar": "Blue",
        "Scadrial": "Blue",
        "Gondor": "Red",
        "Mordor": "Red",
        "Hogwarts": "Red",
    }
