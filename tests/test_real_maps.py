"""Every real Domination and Conquest file in ../shared/maps: what RISC decides about it, and play on it.

The table below restates ../shared/maps/README.md (territory and continent counts, VALID or not) next to what
RISC decides. The README's verdict applies strict course rules; in RISC a continent in several pieces, a one-way
border or an empty continent is a warning (the map plays), while an unknown name, a name defined twice, a line
that does not parse, an empty map or a map in several pieces is an error (R4; docs/maps.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.maps import FindingCode, GameMap, Severity, check_map_file
from shared.maps.native import read_native, write_native
from shared.maps.validate import cannot_reach_all
from shared.rulesets.risc.board import Phase
from shared.rulesets.risc.events import Combat, UnitsReceived
from tests.engine_support import RISC
from tests.playthrough import Event, GameState, check_board, check_resolution, play_random_game

MAPS = Path(__file__).resolve().parents[1].parent / "shared" / "maps"

E, W = Severity.ERROR, Severity.WARNING
C = FindingCode


@dataclass(frozen=True)
class Fault:
    """A finding that must be there: its code, and where given its line, words of its message, its territories."""

    code: FindingCode
    line: int | None = None
    text: str = ""
    territories: tuple[str, ...] | None = None
    count: int | None = None  # how many findings with this code, when the README counts them


@dataclass(frozen=True)
class Expected:
    readme_t: int
    readme_c: int
    readme_valid: bool
    playable: bool
    codes: frozenset[tuple[Severity, FindingCode]] = frozenset()
    faults: tuple[Fault, ...] = ()
    read_counts: tuple[int, int] | None = None  # where RISC reads other counts than the README's, and why


def ok(t: int, c: int) -> Expected:
    return Expected(t, c, readme_valid=True, playable=True)


def plays(
    t: int, c: int, *codes: tuple[Severity, FindingCode], readme_valid: bool = False, faults: tuple[Fault, ...] = ()
) -> Expected:
    return Expected(t, c, readme_valid=readme_valid, playable=True, codes=frozenset(codes), faults=faults)


def refused(
    t: int,
    c: int,
    *codes: tuple[Severity, FindingCode],
    faults: tuple[Fault, ...],
    read_counts: tuple[int, int] | None = None,
) -> Expected:
    return Expected(
        t, c, readme_valid=False, playable=False, codes=frozenset(codes), faults=faults, read_counts=read_counts
    )


TABLE: dict[str, Expected] = {
    # --- domination/ -------------------------------------------------------------------------------------------
    "domination/RiskEurope.map": ok(46, 9),
    "domination/ameroki.map": ok(42, 6),
    "domination/eurasien.map": ok(52, 5),  # CRLF, no final newline, trailing white space
    "domination/geoscape.map": ok(42, 6),
    "domination/lotr.map": ok(64, 9),
    "domination/luca.map": ok(42, 6),
    "domination/risk.map": ok(42, 6),
    "domination/roman_empire.map": ok(44, 6),
    "domination/sersom.map": ok(42, 6),
    "domination/teg.map": ok(50, 6),
    "domination/tube.map": ok(61, 1),
    "domination/uk.map": ok(75, 6),
    "domination/world.map": ok(42, 6),
    "domination/board.map": ok(42, 6),
    "domination/godstorm.map": ok(42, 6),
    "domination/risk2.map": ok(48, 6),
    "domination/risk2210.map": ok(55, 11),
    "domination/europe.map": ok(24, 4),
    "domination/Hawaii.map": ok(70, 5),  # UTF-8 names
    "domination/bigeurope.map": ok(180, 18),
    "domination/canada.map": ok(31, 6),
    "domination/solar.map": ok(52, 10),  # trailing spaces
    "domination/cologne.map": ok(86, 9),
    "domination/kosova.map": ok(30, 7),  # Latin-1
    "domination/estonia.map": plays(
        15,
        4,
        (W, C.MISSING_COORDINATES),
        readme_valid=True,
        faults=(Fault(C.MISSING_COORDINATES, line=25, territories=("Ida_Virumaa",), count=1),),
    ),
    "domination/france.map": plays(
        96,
        22,
        (W, C.DUPLICATE_BORDER),
        readme_valid=True,
        faults=(Fault(C.DUPLICATE_BORDER, line=212, territories=("Seine-et-Marne", "Aisne"), count=2),),
    ),
    # README: INVALID (continent-not-connected): America 4 parts, Germany 3, United-Kingdom 4, Neutrals 10.
    "domination/aa.map": plays(
        70,
        6,
        (W, C.CONTINENT_SPLIT),
        faults=(
            Fault(C.CONTINENT_SPLIT, text='"America" is in 4 pieces', count=4),
            Fault(C.CONTINENT_SPLIT, text='"Germany" is in 3 pieces'),
            Fault(C.CONTINENT_SPLIT, text='"United-Kingdom" is in 4 pieces'),
            Fault(C.CONTINENT_SPLIT, text='"Neutrals" is in 10 pieces'),
        ),
    ),
    # README: INVALID (asymmetric(10)): North_Pole is a one-way sink.
    "domination/artic.map": plays(
        54,
        6,
        (W, C.ONE_WAY_BORDER),
        (W, C.UNREACHABLE),
        faults=(
            Fault(C.ONE_WAY_BORDER, text="10 one-way border(s)"),
            Fault(C.UNREACHABLE, territories=("North_Pole",)),
        ),
    ),
    # README: INVALID (continent-not-connected): Mordor_League in 2 parts.
    "domination/middleearth.map": plays(
        56,
        8,
        (W, C.CONTINENT_SPLIT),
        faults=(Fault(C.CONTINENT_SPLIT, text='"Mordor_League" is in 2 pieces', count=1),),
    ),
    "domination/invalid1.map": refused(
        24,
        0,
        (E, C.PARSE),
        (E, C.UNKNOWN_CONTINENT),
        faults=(
            Fault(C.PARSE, line=11, text="[continents] header missing"),
            Fault(
                C.UNKNOWN_CONTINENT,
                line=17,
                text="continent number 1 does not exist",
                territories=("England", "Scotland", "N_Ireland", "Rep_Ireland", "Wales", "Belgum", "Netherlands"),
            ),
        ),
    ),
    "domination/invalid2.map": refused(
        0,
        4,
        (E, C.PARSE),
        (E, C.UNKNOWN_TERRITORY),
        (E, C.EMPTY),
        faults=(Fault(C.PARSE, line=17, text="[countries] header missing", count=24), Fault(C.EMPTY)),
    ),
    "domination/invalid3.map": refused(
        47,
        4,
        (E, C.PARSE),
        (E, C.NO_BORDERS),
        (E, C.DISCONNECTED),
        (W, C.CONTINENT_SPLIT),
        faults=(
            Fault(C.PARSE, line=43, text="[borders] header missing"),
            Fault(C.PARSE, text="no [borders] section"),
            Fault(C.DISCONNECTED, text="24 pieces"),
        ),
        # The README counts the 23 border lines that fall into [countries] as countries; they do not parse.
        read_counts=(24, 4),
    ),
    "domination/solarInvalid.map": refused(
        6, 2, (E, C.DISCONNECTED), faults=(Fault(C.DISCONNECTED, territories=("Pluto-East", "Pluto-West")),)
    ),
    "domination/smallsolarduplicates.map": refused(
        6,
        2,
        (E, C.DUPLICATE_TERRITORY),
        (E, C.DISCONNECTED),
        (W, C.DUPLICATE_BORDER),
        (W, C.SELF_BORDER),
        faults=(
            Fault(C.DUPLICATE_TERRITORY, line=17, territories=("Neptune-West",)),
            Fault(C.DISCONNECTED, territories=("Pluto-East", "Pluto-West")),
        ),
        # Country 3 repeats the name of country 1: one territory of that name, and its borders merged.
        read_counts=(5, 2),
    ),
    "domination/brasilBadMap.map": refused(
        28,
        0,
        (E, C.UNKNOWN_CONTINENT),
        faults=(Fault(C.UNKNOWN_CONTINENT, line=11, text="no continent is defined", count=5),),
    ),
    # --- conquest/ ---------------------------------------------------------------------------------------------
    "conquest/World.map": ok(42, 6),
    "conquest/Africa.map": ok(41, 7),
    "conquest/_61_ CASTLE MOONBAT.map": ok(128, 11),
    "conquest/_10_ All For One.map": ok(100, 1),
    "conquest/Africa_noMapSection.map": ok(41, 7),  # no [Map], mixed CRLF/LF
    "conquest/ABC_Map.map": plays(
        116,
        6,
        (W, C.CASE_MISMATCH),
        readme_valid=True,
        faults=(Fault(C.CASE_MISMATCH, text='"b14" is defined as "B14"', territories=("B14",)),),
    ),
    "conquest/Aldawin.map": plays(
        65,
        12,
        (W, C.CASE_MISMATCH),
        readme_valid=True,
        faults=(Fault(C.CASE_MISMATCH, line=33, text='"Lucon\'s keep" is defined as "Lucon\'s Keep"'),),
    ),
    "conquest/4D_Hypercube.map": plays(
        81,
        9,
        (W, C.CASE_MISMATCH),
        readme_valid=True,
        faults=(Fault(C.CASE_MISMATCH, text='continent "beta_Low" is defined as "Beta_Low"', count=1),),
    ),
    "conquest/WrongFormat2-DupicateConnections.map": plays(
        4, 3, (W, C.DUPLICATE_BORDER), readme_valid=True, faults=(Fault(C.DUPLICATE_BORDER, line=16, count=2),)
    ),
    # README: INVALID (continent-not-connected), names match only case-insensitively.
    "conquest/Twin Volcano.map": plays(
        56,
        11,
        (W, C.CASE_MISMATCH),
        (W, C.CONTINENT_SPLIT),
        (W, C.CONTINENT_WORTHLESS),
        faults=(
            Fault(C.CASE_MISMATCH, text='"Pointless point" is defined as "Pointless Point"'),
            Fault(C.CASE_MISMATCH, text='"West point" is defined as "West Point"'),
            Fault(C.CONTINENT_SPLIT, text='"Barren Rocks" is in 4 pieces'),
            Fault(C.CONTINENT_WORTHLESS, text='"Barren Rocks"'),
        ),
    ),
    # README: INVALID (continent-not-connected): Eyes and Head in 2 parts each.
    "conquest/004_I72_Cobra.map": plays(
        119,
        9,
        (W, C.CONTINENT_SPLIT),
        faults=(
            Fault(C.CONTINENT_SPLIT, text='"Eyes" is in 2 pieces', count=2),
            Fault(C.CONTINENT_SPLIT, text='"Head" is in 2 pieces'),
        ),
    ),
    # README: INVALID (continent-not-connected): Malaysia, Naval Positions (bonus 0).
    "conquest/Asean.map": plays(
        71,
        11,
        (W, C.CONTINENT_SPLIT),
        (W, C.CONTINENT_WORTHLESS),
        faults=(
            Fault(C.CONTINENT_SPLIT, text='"Malaysia" is in 2 pieces', count=2),
            Fault(C.CONTINENT_WORTHLESS, text='"Naval Positions"'),
        ),
    ),
    # README: INVALID (continent-not-connected).
    "conquest/UnconnectedContinent.map": plays(
        4, 2, (W, C.CONTINENT_SPLIT), faults=(Fault(C.CONTINENT_SPLIT, territories=("T1", "T4")),)
    ),
    # README: INVALID (asymmetric(1)).
    "conquest/Z__1_way_relationship.map": plays(
        42,
        6,
        (W, C.ONE_WAY_BORDER),
        faults=(Fault(C.ONE_WAY_BORDER, text='1 one-way border(s): "Kamchatka" -> "Alaska"'),),
    ),
    # README: INVALID (empty-continent).
    "conquest/Z__continent_has_no_territory.map": plays(
        42, 7, (W, C.CONTINENT_EMPTY), faults=(Fault(C.CONTINENT_EMPTY, text='"Asean"'),)
    ),
    "conquest/Z__undefined_territory.map": refused(
        42,
        6,
        (E, C.UNKNOWN_TERRITORY),
        faults=(Fault(C.UNKNOWN_TERRITORY, line=17, territories=("Alaska", "Vietnam")),),
    ),
    "conquest/Z__undefined_continent.map": refused(
        43,
        5,
        (E, C.UNKNOWN_CONTINENT),
        (E, C.DUPLICATE_TERRITORY),
        faults=(
            Fault(C.UNKNOWN_CONTINENT, line=16, text='"North America"'),
            Fault(C.DUPLICATE_TERRITORY, line=17, territories=("Alaska",)),
        ),
        read_counts=(42, 5),
    ),  # the second "Alaska" line is refused, not counted
    "conquest/Z__duplicated_territories.map": refused(
        43,
        6,
        (E, C.DUPLICATE_TERRITORY),
        faults=(Fault(C.DUPLICATE_TERRITORY, line=18, territories=("Alaska",)),),
        read_counts=(42, 6),
    ),
    "conquest/Z__invalid_format_1.map": refused(
        42,
        0,
        (E, C.PARSE),
        (E, C.UNKNOWN_CONTINENT),
        faults=(
            Fault(C.PARSE, line=8, text="[Continent]"),
            Fault(C.UNKNOWN_CONTINENT, line=17, text='"North America"'),
        ),
    ),
    "conquest/Z__missing_coordination.map": refused(
        42, 6, (E, C.PARSE), faults=(Fault(C.PARSE, line=17, text="no y position", territories=("Alaska",)),)
    ),
    "conquest/invDisconnected.map": refused(
        20,
        4,
        (E, C.UNKNOWN_TERRITORY),
        (E, C.NO_BORDERS),
        (E, C.DISCONNECTED),
        (W, C.ONE_WAY_BORDER),
        (W, C.CONTINENT_SPLIT),
        faults=(
            Fault(C.UNKNOWN_TERRITORY, line=28, territories=("Minas-Morgul", "Darthung")),
            Fault(C.DISCONNECTED, territories=("Barad-Dur",)),
        ),
    ),
    "conquest/WrongFormat1-NotConnectedGraph.map": refused(
        4, 3, (E, C.DISCONNECTED), faults=(Fault(C.DISCONNECTED, territories=("c3", "c4")),)
    ),
}

FILES = sorted(TABLE)
PLAYABLE = [f for f in FILES if TABLE[f].playable]


def real_map(relative: str) -> Path:
    assert MAPS.is_dir(), (
        f"the real map files are missing: {MAPS} should hold domination/ and conquest/ "
        "(../shared/maps from the project root)"
    )
    path = MAPS / relative
    assert path.is_file(), f"{relative} is listed in the table but missing from {MAPS}"
    return path


def playable_map(relative: str) -> GameMap:
    report = check_map_file(real_map(relative))
    assert report.playable and report.game_map is not None, [str(f) for f in report.findings]
    return report.game_map


def test_the_table_covers_every_real_file() -> None:
    assert MAPS.is_dir(), f"the real map files are missing: {MAPS} (../shared/maps from the project root)"
    on_disk = {p.relative_to(MAPS).as_posix() for p in MAPS.glob("*/*.map")}
    assert on_disk == set(TABLE)
    assert len(TABLE) == 57
    assert sum(e.readme_valid for e in TABLE.values()) == 35


@pytest.mark.parametrize("relative", FILES)
def test_what_risc_decides(relative: str) -> None:
    expected = TABLE[relative]
    report = check_map_file(real_map(relative))
    findings = report.findings
    assert report.format == relative.split("/")[0]
    assert report.playable is expected.playable, [str(f) for f in findings]
    assert {(f.severity, f.code) for f in findings} == expected.codes, [str(f) for f in findings]
    assert report.game_map is not None
    counts = (len(report.game_map.territories), len(report.game_map.continents))
    assert counts == (expected.read_counts or (expected.readme_t, expected.readme_c))
    if expected.readme_valid:
        assert not [f for f in findings if f.severity is Severity.ERROR]
    for fault in expected.faults:
        same_code = [f for f in findings if f.code is fault.code]
        if fault.count is not None:
            assert len(same_code) == fault.count, [str(f) for f in same_code]
        matching = [
            f
            for f in same_code
            if (fault.line is None or f.line == fault.line)
            and fault.text in f.message
            and (fault.territories is None or set(fault.territories) <= set(f.territories))
        ]
        assert matching, f"no {fault} among {[str(f) for f in same_code]}"


def test_names_and_coordinates_come_through_as_written() -> None:
    hawaii = playable_map("domination/Hawaii.map")
    kosova = playable_map("domination/kosova.map")
    estonia = playable_map("domination/estonia.map")
    assert any(not n.isascii() for n in hawaii.names)  # UTF-8 without a BOM
    assert [c.name for c in kosova.continents][:2] == ["Mitrovicë", "Prishtinë"]  # Latin-1
    # The file itself holds two U+FFFD characters (mangled before it was published): kept as written.
    assert estonia.continents[0].name == "L\ufffd\ufffdne_Eesti"
    assert estonia.territory("Ida_Virumaa").x is None
    europe = playable_map("domination/europe.map")
    assert europe.territory("England") == europe.territories[0]
    assert (europe.territory("England").x, europe.territory("England").y) == (164, 126)
    assert europe.territory("England").continent == "North_Europe"
    assert [(c.name, c.bonus) for c in europe.continents] == [
        ("North_Europe", 5),
        ("East_Europe", 4),
        ("South_Europe", 5),
        ("West_Europe", 3),
    ]
    world = playable_map("conquest/World.map")
    assert world.name == "World"  # Conquest maps carry no name: the file's
    assert (world.territory("Alaska").x, world.territory("Alaska").y) == (70, 126)
    assert world.neighbours("Alaska") == {"Northwest Territory", "Alberta", "Kamchatka"}
    assert playable_map("domination/RiskEurope.map").name == "Europe Map"


def test_one_way_borders_stay_one_way() -> None:
    artic = playable_map("domination/artic.map")
    assert artic.neighbours("North_Pole") == frozenset()
    assert sum("North_Pole" in artic.neighbours(n) for n in artic.names) == 10
    one_way = playable_map("conquest/Z__1_way_relationship.map")
    assert "Alaska" in one_way.neighbours("Kamchatka")
    assert "Kamchatka" not in one_way.neighbours("Alaska")


def _graph(game_map: GameMap) -> dict[str, object]:
    return {
        "territories": [(t.name, t.continent, t.x, t.y) for t in game_map.territories],
        "borders": {n: set(game_map.neighbours(n)) for n in game_map.names},
        "continents": [(c.name, c.bonus) for c in game_map.continents],
    }


@pytest.mark.parametrize("relative", PLAYABLE)
def test_round_trip_through_the_native_format(relative: str) -> None:
    original = playable_map(relative)
    again, findings = read_native(write_native(original))
    assert again is not None, [str(f) for f in findings]
    assert not findings
    assert again.name == original.name
    assert _graph(again) == _graph(original)


TURNS_PER_GAME = 150


@pytest.mark.parametrize("relative", PLAYABLE)
def test_a_random_game_plays_to_the_turn_limit_or_a_winner(relative: str) -> None:
    game_map = playable_map(relative)
    index = FILES.index(relative)
    players = min(2 + index % 4, len(game_map.territories))
    conquests = 0

    def count(before: GameState, after: GameState, events: list[Event]) -> None:
        nonlocal conquests
        conquests += sum(isinstance(e, Combat) and e.attacker_won for e in events)

    state = play_random_game(game_map, players, seed=index, max_turns=TURNS_PER_GAME, observe=count)
    assert conquests > 0
    if state.board.phase is Phase.FINISHED:
        assert state.board.winner is not None
        assert set(state.board.owner.values()) == {state.board.winner}
    else:
        assert state.board.turn == TURNS_PER_GAME + 1
        assert len(RISC.status(state).acting) >= 2


def test_the_game_checks_catch_units_or_owners_the_events_do_not_explain() -> None:
    """The invariants the random games rely on are not vacuous: tampering with a resolved turn is caught."""
    game_map = playable_map("domination/europe.map")
    turns: list[tuple[GameState, GameState, list[Event]]] = []
    play_random_game(game_map, 3, seed=7, max_turns=5, observe=lambda b, a, e: turns.append((b, a, e)))
    before, after, events = next(t for t in turns[1:] if any(isinstance(e, Combat) for e in t[2]))
    check_resolution(before, after, events)
    name = game_map.names[0]
    extra = after.evolve(board=after.board.evolve(units={**after.board.units, name: after.board.units[name] + 1}))
    with pytest.raises(AssertionError, match="not explained by the events"):
        check_resolution(before, extra, events)
    without_income = [e for e in events if not isinstance(e, UnitsReceived)]
    with pytest.raises(AssertionError, match="units received"):
        check_resolution(before, after, without_income)
    stolen = after.evolve(board=after.board.evolve(owner={**after.board.owner, name: "nobody"}))
    with pytest.raises(AssertionError, match="not playing"):
        check_board(stolen)
    negative = after.evolve(board=after.board.evolve(units={**after.board.units, name: -1}))
    with pytest.raises(AssertionError, match="negative"):
        check_board(negative)


def _reach(graph: dict[str, list[str]], start: str) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 9).flatmap(
        lambda n: st.tuples(
            st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n)
        )
    )
)
def test_who_cannot_reach_everyone_matches_a_search_from_each_territory(
    case: tuple[int, list[tuple[int, int]]],
) -> None:
    """artic.map's UNREACHABLE warning comes from one linear search; it must agree with n searches."""
    size, edges = case
    names = [f"t{i}" for i in range(size)]
    graph: dict[str, list[str]] = {n: [] for n in names}
    for a, b in edges:
        graph[names[a]].append(names[b])
    expected = [n for n in names if len(_reach(graph, n)) < size]
    assert cannot_reach_all(graph, names) == expected
