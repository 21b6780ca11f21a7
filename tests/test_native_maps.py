"""The project's own maps (R5) and the native TOML format: reading, writing, and refusing broken maps (R4, R6-R7)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shared.maps import (
    Finding,
    FindingCode,
    GameMap,
    MapError,
    Severity,
    bundled_map_names,
    check_map_file,
    load_map,
)
from shared.maps.groups import neutral_territories, starting_groups
from shared.maps.loader import bundled_maps_dir
from shared.maps.native import read_native, write_native
from shared.maps.validate import components
from shared.rulesets.risc.board import Phase
from shared.rulesets.risc.events import Combat
from tests.engine_support import RISC
from tests.playthrough import Event, GameState, play_random_game

# The seed's own listing of the example map ("next to: ..."), transcribed with its two slips mended: Scadrial's line
# spells Hogwarts "Hogwats" and names Elantris twice.
SEED_NEIGHBOURS = {
    "Narnia": {"Elantris", "Midkemia"},
    "Midkemia": {"Narnia", "Elantris", "Scadrial", "Oz"},
    "Oz": {"Midkemia", "Scadrial", "Mordor", "Gondor"},
    "Elantris": {"Roshar", "Scadrial", "Midkemia", "Narnia"},
    "Roshar": {"Hogwarts", "Scadrial", "Elantris"},
    "Scadrial": {"Elantris", "Roshar", "Hogwarts", "Mordor", "Oz", "Midkemia"},
    "Gondor": {"Oz", "Mordor"},
    "Mordor": {"Hogwarts", "Gondor", "Oz", "Scadrial"},
    "Hogwarts": {"Mordor", "Scadrial", "Roshar"},
}
# Green, blue and red each start with three territories in the seed's example.
SEED_GROUPS = {
    frozenset({"Narnia", "Midkemia", "Oz"}),
    frozenset({"Elantris", "Roshar", "Scadrial"}),
    frozenset({"Gondor", "Mordor", "Hogwarts"}),
}
EQUAL_GROUPS_MAP = "meridian"
# Warnings a bundled map gives on purpose; any other warning on a bundled map is a slip in the map.
DELIBERATE_WARNINGS = {"cataract": {FindingCode.ONE_WAY_BORDER}}

MAPS = bundled_map_names()
MAP_DOCS = Path(__file__).resolve().parent.parent / "docs" / "maps.md"


def is_contiguous(game_map: GameMap, group: tuple[str, ...]) -> bool:
    members = set(group)
    graph = game_map.undirected()
    return len(components({n: graph[n] & members for n in group}, group)) == 1


def codes(findings: list[Finding]) -> set[FindingCode]:
    return {f.code for f in findings if f.severity is Severity.ERROR}


def messages(findings: list[Finding]) -> list[str]:
    return [f.message for f in findings if f.severity is Severity.ERROR]


def write(tmp_path: Path, text: str, name: str = "broken.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- the bundled maps -----------------------------------------------------------------------------------------------


def test_the_project_ships_the_seed_map_an_equal_groups_map_and_more() -> None:
    assert {"seed", EQUAL_GROUPS_MAP} <= set(MAPS)
    assert len(MAPS) >= 4


@pytest.mark.parametrize("name", MAPS)
def test_every_bundled_map_loads_with_no_error(name: str) -> None:
    report = check_map_file(name)
    assert report.playable, [str(f) for f in report.findings]
    warnings = {f.code for f in report.findings if f.severity is Severity.WARNING}
    assert warnings == DELIBERATE_WARNINGS.get(name, set()), [str(f) for f in report.findings]


@pytest.mark.parametrize("name", MAPS)
def test_every_bundled_map_is_readable_by_a_person(name: str) -> None:
    text = (bundled_maps_dir() / f"{name}.toml").read_text(encoding="utf-8")
    assert text.startswith("# "), "a bundled map opens with a comment header"
    assert load_map(name).description.strip()


def test_the_seed_map_has_the_seed_s_nine_territories() -> None:
    assert set(load_map("seed").names) == set(SEED_NEIGHBOURS)
    assert len(load_map("seed").names) == 9


@pytest.mark.parametrize("territory", sorted(SEED_NEIGHBOURS))
def test_the_seed_map_has_the_seed_s_adjacency(territory: str) -> None:
    game_map = load_map("seed")
    assert game_map.neighbours(territory) == SEED_NEIGHBOURS[territory]


def test_the_seed_map_starts_three_players_with_the_seed_s_groups() -> None:
    game_map = load_map("seed")
    groups = starting_groups(game_map, 3)
    assert {frozenset(g) for g in groups} == SEED_GROUPS
    assert neutral_territories(game_map, groups) == ()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_equal_groups_map_splits_evenly_with_no_neutral(players: int) -> None:
    game_map = load_map(EQUAL_GROUPS_MAP)
    groups = starting_groups(game_map, players)
    assert len(groups) == players
    assert {len(g) for g in groups} == {len(game_map.names) // players}
    assert neutral_territories(game_map, groups) == ()
    grouped = [name for g in groups for name in g]
    assert sorted(grouped) == sorted(game_map.names), "every territory in exactly one group"
    for group in groups:
        assert is_contiguous(game_map, group), group


@pytest.mark.parametrize(
    ("name", "players"), [(name, players) for name in MAPS for players in sorted(load_map(name).starting_groups)]
)
def test_a_map_s_own_groups_are_contiguous(name: str, players: int) -> None:
    game_map = load_map(name)
    for group in starting_groups(game_map, players):
        assert is_contiguous(game_map, group), group


def test_the_river_map_has_one_way_drops_and_no_dead_end() -> None:
    report = check_map_file("cataract")
    game_map = load_map("cataract")
    assert "Plungepool" in game_map.neighbours("Fallshead")
    assert "Fallshead" not in game_map.neighbours("Plungepool")
    assert "Reedmouth" in game_map.neighbours("Whitewater")
    assert "Whitewater" not in game_map.neighbours("Reedmouth")
    assert FindingCode.UNREACHABLE not in {f.code for f in report.findings}


@pytest.mark.parametrize(("name", "players"), [(name, players) for name in MAPS for players in range(2, 6)])
def test_every_bundled_map_plays_a_game_of_2_to_5(name: str, players: int) -> None:
    """Random legal orders, with the rules' invariants checked after every turn (tests/playthrough.py)."""
    conquests = 0

    def count(before: GameState, after: GameState, events: list[Event]) -> None:
        nonlocal conquests
        conquests += sum(isinstance(e, Combat) and e.attacker_won for e in events)

    state = play_random_game(load_map(name), players, seed=players, max_turns=60, observe=count)
    assert conquests > 0
    assert state.board.phase is Phase.FINISHED or len(RISC.status(state).acting) >= 2


# --- refusing broken maps ---------------------------------------------------------------------------------------------

GOOD_TAIL = """
[territories.Gondor]
borders = ["Mordor"]

[territories.Mordor]
borders = ["Gondor"]
"""


def test_an_unknown_territory_in_borders_names_both(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """name = "Middle"
[territories.Gondor]
borders = ["Mordr"]

[territories.Mordor]
borders = ["Gondor"]
""",
    )
    report = check_map_file(path)
    assert not report.playable
    assert 'unknown territory "Mordr" in the borders of "Gondor"' in messages(report.findings)


def test_an_unknown_territory_in_one_way_borders_is_named(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "Middle"\n' + GOOD_TAIL + 'one_way = ["Rohan"]\n')
    report = check_map_file(path)
    assert 'unknown territory "Rohan" in the borders of "Mordor"' in messages(report.findings)


def test_a_territory_cut_off_is_named(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'name = "Middle"\n'
        + GOOD_TAIL
        + """
[territories.Numenor]
borders = ["Tolfalas"]

[territories.Tolfalas]
""",
    )
    report = check_map_file(path)
    assert FindingCode.DISCONNECTED in codes(report.findings)
    assert 'the map falls into 2 pieces; cut off from the rest: "Numenor", "Tolfalas"' in messages(report.findings)


def test_a_territory_with_no_border_is_named(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "Middle"\n' + GOOD_TAIL + "\n[territories.Erebor]\n")
    report = check_map_file(path)
    assert 'territories with no border at all: "Erebor"' in messages(report.findings)


def test_an_unknown_continent_is_named(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """name = "Middle"
[continents.Eriador]
bonus = 2

[territories.Gondor]
borders = ["Mordor"]
continent = "Eriador"

[territories.Mordor]
continent = "Rhovanion"
""",
    )
    report = check_map_file(path)
    assert '"Mordor" is in continent "Rhovanion", which is not defined' in messages(report.findings)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('name = "Middle"\n[territories.Gondor]\nborders = ["Mordor"\n', 3),
        ('name = "Middle"\n\n[territories.Gondor]\nborders = [Mordor]\n', 4),
        ('name = "Middle"\n[territories.Gondor]\n[territories.Mordor]\n[territories.Gondor]\n', 4),
    ],
)
def test_bad_toml_is_reported_with_its_line(tmp_path: Path, text: str, line: int) -> None:
    path = write(tmp_path, text)
    report = check_map_file(path)
    assert report.game_map is None
    [problem] = report.findings
    assert problem.code is FindingCode.PARSE
    assert problem.line == line
    assert f"{path}:{line}: error: not valid TOML" in str(problem)


def test_wrong_types_and_unknown_keys_are_named_all_at_once(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """name = "Middle"
[continents.Eriador]
bonus = "lots"

[territories.Gondor]
bordrs = ["Mordor"]

[territories.Mordor]
borders = "Gondor"
size = 0
""",
    )
    report = check_map_file(path)
    found = messages(report.findings)
    assert len(found) == 4, found
    assert any(m.startswith("continents.Eriador.bonus: ") and "integer" in m for m in found)
    assert any(m.startswith("territories.Gondor.bordrs: ") and "not permitted" in m for m in found)
    assert any(m.startswith("territories.Mordor.borders: ") and "list" in m for m in found)
    assert any(m.startswith("territories.Mordor.size: ") for m in found)


def test_a_missing_name_is_reported(tmp_path: Path) -> None:
    report = check_map_file(write(tmp_path, GOOD_TAIL))
    assert messages(report.findings) == ["name: Field required"]


@pytest.mark.parametrize(
    ("groups", "expected"),
    [
        ('2 = [["Gondor", "Mordor"], ["Rohan"]]', "starting groups for 2 players: groups differ in size (2, 1)"),
        (
            '2 = [["Gondor", "Mordor"], ["Mordor", "Rohan"]]',
            'starting groups for 2 players: "Mordor" is in more than one group',
        ),
        ('2 = [["Gondor", "Mordor"], ["Rohan", "Mordr"]]', 'starting groups for 2 players: unknown territory "Mordr"'),
        ('3 = [["Gondor"], ["Mordor"]]', "starting groups for 3 players: 2 groups given, 3 needed"),
        (
            'three = [["Gondor"], ["Mordor"], ["Rohan"]]',
            'starting_groups: "three" is not a player count (a whole number such as 3)',
        ),
    ],
)
def test_bad_starting_groups_are_refused(tmp_path: Path, groups: str, expected: str) -> None:
    path = write(
        tmp_path,
        'name = "Middle"\n'
        + GOOD_TAIL
        + """
[territories.Rohan]
borders = ["Gondor"]

[starting_groups]
"""
        + groups
        + "\n",
    )
    report = check_map_file(path)
    assert not report.playable
    assert expected in messages(report.findings)


BROKEN_EVERYWHERE = """name = "Middle"
[continents.Eriador]
bonus = 2

[territories.Gondor]
borders = ["Mordr", "Rohan"]

[territories.Rohan]
continent = "Rhovanion"

[territories.Numenor]
borders = ["Tolfalas"]

[territories.Tolfalas]

[starting_groups]
2 = [["Gondor", "Rohan"], ["Gondor"]]
"""
BROKEN_EVERYWHERE_ERRORS = [
    'unknown territory "Mordr" in the borders of "Gondor"',
    'the map falls into 2 pieces; cut off from the rest: "Numenor", "Tolfalas"',
    '"Rohan" is in continent "Rhovanion", which is not defined',
    "starting groups for 2 players: groups differ in size (2, 1)",
    'starting groups for 2 players: "Gondor" is in more than one group',
]


def test_every_problem_of_a_map_is_reported_at_once(tmp_path: Path) -> None:
    report = check_map_file(write(tmp_path, BROKEN_EVERYWHERE))
    found = messages(report.findings)
    for expected in BROKEN_EVERYWHERE_ERRORS:
        assert expected in found


def test_load_map_refuses_a_broken_map_with_every_error_in_its_message(tmp_path: Path) -> None:
    path = write(tmp_path, BROKEN_EVERYWHERE)
    with pytest.raises(MapError) as caught:
        load_map(path)
    text = str(caught.value)
    assert text.startswith(f"{path} cannot be played:")
    for expected in BROKEN_EVERYWHERE_ERRORS:
        assert expected in text
    assert len(caught.value.findings) >= len(BROKEN_EVERYWHERE_ERRORS)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('name = "Middle"\n[territories.Gondor\n', "not valid TOML"),
        ('name = "Middle"\n[territories.Gondor]\nbordrs = ["Mordor"]\n', "territories.Gondor.bordrs"),
        ('name = "Middle"\n[territories]\n', "the map has no territories"),
    ],
)
def test_load_map_raises_map_error_never_a_parser_s_exception(tmp_path: Path, text: str, expected: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(MapError) as caught:
        load_map(path)
    assert expected in str(caught.value)


def test_an_unknown_map_name_is_a_map_error_naming_the_bundled_maps() -> None:
    with pytest.raises(MapError) as caught:
        load_map("no-such-map")
    assert '"no-such-map"' in str(caught.value)
    assert "seed" in str(caught.value)


# --- writing -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MAPS)
def test_write_native_then_read_native_gives_the_same_map(name: str, tmp_path: Path) -> None:
    original = load_map(name)
    again, findings = read_native(write_native(original))
    assert again is not None, [str(f) for f in findings]
    assert findings == []
    assert (again.name, again.description) == (original.name, original.description)
    assert again.territories == original.territories  # order, continent, size, x and y
    assert dict(again.borders) == dict(original.borders)  # directed: one-way borders stay one-way
    assert again.continents == original.continents
    assert dict(again.starting_groups) == dict(original.starting_groups)

    path = write(tmp_path, write_native(original), f"{name}.toml")
    assert load_map(path).borders == original.borders


# --- the map authors' page -----------------------------------------------------------------------------------------


def _docs_section(heading: str) -> str:
    text = MAP_DOCS.read_text(encoding="utf-8")
    start = text.index(f"\n{heading}\n")
    end = text.find("\n## ", start + len(heading) + 2)
    return text[start : end if end >= 0 else len(text)]


def test_the_complete_example_in_the_docs_is_a_playable_map(tmp_path: Path) -> None:
    [example, *_] = re.findall(r"```toml\n(.*?)```", _docs_section("## The native format"), re.S)
    report = check_map_file(write(tmp_path, example, "two-rivers.toml"))
    assert report.playable, [str(f) for f in report.findings]
    assert [f.code for f in report.findings] == [FindingCode.ONE_WAY_BORDER]
    assert report.game_map is not None
    assert sorted(report.game_map.starting_groups) == [2, 3]


def test_the_failing_example_in_the_docs_fails_as_the_docs_say(tmp_path: Path) -> None:
    section = _docs_section("## What validation reports")
    [broken] = re.findall(r"```toml\n(.*?)```", section, re.S)
    [shown] = re.findall(r"```\n(middle.toml cannot be played:.*?)```", section, re.S)
    path = write(tmp_path, broken, "middle.toml")
    with pytest.raises(MapError) as caught:
        load_map(path)
    assert str(caught.value).replace(str(path), "middle.toml") == shown.rstrip("\n")


def test_the_table_of_bundled_maps_in_the_docs_is_true() -> None:
    rows = [line for line in _docs_section("## The bundled maps").splitlines() if line.startswith("| `")]
    table: dict[str, tuple[str, int, int, list[int]]] = {}
    for row in rows:
        name, title, territories, continents, equal, _notes = (cell.strip() for cell in row.strip("|").split("|"))
        table[name.strip("`")] = (
            title,
            int(territories),
            int(continents),
            [int(n) for n in equal.split(",") if n.strip()],
        )
    assert sorted(table) == MAPS
    for name, claimed in table.items():
        game_map = load_map(name)
        even = [n for n in range(2, 6) if not neutral_territories(game_map, starting_groups(game_map, n))]
        assert claimed == (game_map.name, len(game_map.names), len(game_map.continents), even), name
