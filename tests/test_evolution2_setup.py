"""E1-E2: territory sizes and production, starting stocks, technology level and units; the evolution option."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from shared.maps import Territory, build_map, bundled_map_names, load_map
from shared.maps.groups import neutral_territories, starting_groups
from shared.maps.native import read_native, write_native
from shared.rulesets.risc.levels import LEVELS
from shared.rulesets.risc.resources import Land, fair, map_land, totals
from tests.evolution_support import RISC, new_game, place_all, play_turn

SQUARE = """
name = "Square"
[territories.A]
borders = ["B", "C"]
size = 2
food = 10
technology = 4
[territories.B]
borders = ["D"]
size = 1
food = 6
technology = 8
[territories.C]
borders = ["D"]
size = 1
food = 6
technology = 8
[territories.D]
size = 2
food = 10
technology = 4
[starting_groups]
2 = [["A", "B"], ["C", "D"]]
"""


def test_E1_a_native_map_may_give_each_territory_its_size_and_production() -> None:
    game_map, findings = read_native(SQUARE)
    assert game_map is not None and not findings
    assert game_map.territory("A") == Territory("A", size=2, food=10, technology=4)
    again, _ = read_native(write_native(game_map))
    assert again == game_map


def test_E1_a_game_on_such_a_map_is_played_with_the_map_s_figures() -> None:
    game_map, _ = read_native(SQUARE)
    assert game_map is not None
    game = new_game(game_map, ("p", "q"), seed=3, evolution=2)
    assert game.board.evo is not None
    assert dict(game.board.evo.land) == {
        "A": Land(2, 10, 4),
        "B": Land(1, 6, 8),
        "C": Land(1, 6, 8),
        "D": Land(2, 10, 4),
    }


@pytest.mark.parametrize("name", bundled_map_names())
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_E1_every_starting_group_has_the_same_total_size_and_production(name: str, players: int) -> None:
    game_map = load_map(name)
    assert RISC.map_problem(game_map, RISC.options({"evolution": 2}), players) is None
    groups = starting_groups(game_map, players)
    for seed in range(5):
        game = new_game(game_map, [f"p{i}" for i in range(players)], seed=seed, evolution=2)
        assert game.board.evo is not None
        land = game.board.evo.land
        assert set(land) == set(game_map.names)
        assert all(land[n].size >= 1 and land[n].food >= 0 and land[n].technology >= 0 for n in land)
        assert len({totals(g, land) for g in groups}) == 1, [totals(g, land) for g in groups]


@pytest.mark.parametrize("name", bundled_map_names())
def test_E1_every_bundled_map_gives_figures_fair_for_its_own_starting_groups(name: str) -> None:
    game_map = load_map(name)
    land = map_land(game_map)
    assert land is not None
    for players in game_map.starting_groups:
        assert fair(starting_groups(game_map, players), land), players
        game = new_game(game_map, [f"p{i}" for i in range(players)], seed=1, evolution=2)
        assert game.board.evo is not None and game.board.evo.land == land


def test_E1_a_map_without_figures_gets_them_from_the_seed() -> None:
    game_map = build_map(
        "plain", [Territory(n) for n in "ABCDEF"], {"A": {"B"}, "B": {"C"}, "C": {"D"}, "D": {"E"}, "E": {"F"}}
    )
    assert map_land(game_map) is None
    first = new_game(game_map, ("a", "b", "c"), seed="one", evolution=2)
    again = new_game(game_map, ("a", "b", "c"), seed="one", evolution=2)
    assert first.board.evo is not None and again.board.evo is not None
    assert first.board.evo.land == again.board.evo.land
    others = [new_game(game_map, ("a", "b", "c"), seed=s, evolution=2).board.evo for s in ("two", "three")]
    assert any(o is not None and o.land != first.board.evo.land for o in others)


def test_E1_a_map_whose_figures_are_unfair_for_the_groups_gets_fair_ones_instead() -> None:
    names = ["A", "B", "C", "D"]
    borders = {"A": {"B"}, "B": {"A", "C"}, "C": {"B", "D"}, "D": {"C"}}
    game_map = build_map(
        "unfair", [Territory(n, size=1, food=20 if n == "A" else 1, technology=1) for n in names], borders
    )
    groups = starting_groups(game_map, 2)
    given = map_land(game_map)
    assert given is not None and not fair(groups, given)
    game = new_game(game_map, ("p", "q"), seed=1, evolution=2)
    assert game.board.evo is not None
    assert fair(groups, game.board.evo.land)


def test_E1_neutral_territories_get_figures_too() -> None:
    game_map = load_map("seed")
    groups = starting_groups(game_map, 2)
    (neutral,) = neutral_territories(game_map, groups)
    game = new_game(game_map, ("p", "q"), seed=9, evolution=2)
    assert game.board.evo is not None and game.board.evo.land[neutral].size >= 1
    assert game.board.owner[neutral] is None


def test_E2_every_player_starts_with_100_food_and_technology_and_technology_level_1() -> None:
    game = new_game(load_map("seed"), ("a", "b", "c"), seed=1, evolution=2)
    evo = game.board.evo
    assert evo is not None
    assert {p: (s.food, s.technology) for p, s in evo.stocks.items()} == dict.fromkeys("abc", (100, 100))
    assert dict(evo.tech_level) == dict.fromkeys("abc", 1)


def test_E2_the_starting_stocks_are_a_game_option() -> None:
    game = new_game(load_map("seed"), ("a", "b"), seed=1, evolution=3, food=40, technology=250)
    assert game.board.evo is not None
    assert {(s.food, s.technology) for s in game.board.evo.stocks.values()} == {(40, 250)}


def test_E2_starting_units_and_per_turn_units_are_level_0() -> None:
    game = place_all(
        new_game(load_map("seed"), ("a", "b", "c"), seed=2, evolution=2, neutral_units=4), random.Random(2)
    )
    game, _ = play_turn(game, {})  # resolves the placement
    evo = game.board.evo
    assert evo is not None
    assert all(counts[1:] == (0,) * (LEVELS - 1) for counts in evo.levels.values())
    assert sum(counts[0] for counts in evo.levels.values()) == 3 * 30
    game, _ = play_turn(game, {})  # a turn with no orders: one new level-0 unit per territory
    assert game.board.evo is not None
    assert all(
        after[0] == before[0] + 1 and after[1:] == before[1:]
        for after, before in zip(game.board.evo.levels.values(), evo.levels.values(), strict=True)
    )


def test_E2_the_evolution_is_an_option_of_the_risc_rule_set_from_1_to_3() -> None:
    assert RISC.options({}).evolution == 1
    assert RISC.options({"evolution": 3}).evolution == 3
    for wrong in (0, 4, "two"):
        with pytest.raises(ValidationError):
            RISC.options({"evolution": wrong})
