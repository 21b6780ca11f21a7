"""E13-E14: spies and cloaking."""

from __future__ import annotations

from typing import Any

import pytest

from shared.game.game import Game
from shared.game.ruleset import Private
from shared.rulesets.risc.board import RiscBoard
from shared.rulesets.risc.checker import Code
from shared.rulesets.risc.evo_checker import EvoCode
from shared.rulesets.risc.evo_events import Battle, CloakingResearched, SpiesMoved, SpiesTrained, TerritoryCloaked
from shared.rulesets.risc.evo_orders import (
    CloakingResearchOrder,
    CloakOrder,
    LevelAttackOrder,
    LevelMoveOrder,
    ResearchOrder,
    SpyMoveOrder,
    SpyOrder,
)
from shared.rulesets.risc.evo_view import EvoView
from tests.evolution_support import (
    LoadedDice,
    issued,
    levels,
    line_map,
    make_game,
    play_turn,
    refusal,
    rules,
    seed_game,
)


def evo_view(game: Game[RiscBoard, Any], viewer: str | None) -> EvoView:
    seen = rules(game).view(game, viewer)
    assert isinstance(seen, EvoView)
    return seen


def spies(game: Game[RiscBoard, Any], player: str) -> dict[str, int]:
    assert game.board.evo is not None
    return dict(game.board.evo.spies_of(player))


def stock(game: Game[RiscBoard, Any], player: str) -> tuple[int, int]:
    assert game.board.evo is not None
    held = game.board.evo.stocks[player]
    return held.food, held.technology


# ---- E13 -----------------------------------------------------------------------------------------------------------


def test_E13_a_level_0_unit_becomes_a_spy_for_20_technology() -> None:
    game, events = play_turn(seed_game(3), {"green": [SpyOrder(2, "Narnia")]})
    assert spies(game, "green") == {"Narnia": 2}
    assert game.board.units["Narnia"] == 10 - 2 + 1
    assert stock(game, "green") == (100, 100 - 40)
    (told,) = [e for e in events if isinstance(e, Private) and isinstance(e.event, SpiesTrained)]
    assert told.audience == {"green"}


def test_E13_only_level_0_units_on_own_territories_become_spies() -> None:
    game = make_game(line_map("A", "B"), {"A": "p", "B": "q"}, {"A": levels((0, 1), (1, 3)), "B": 1}, evolution=3)
    assert refusal(game, "p", SpyOrder(2, "A")).code == Code.NOT_ENOUGH_UNITS
    assert refusal(game, "p", SpyOrder(1, "B")).code == Code.NOT_YOUR_TERRITORY
    assert refusal(game, "p", SpyOrder(1, "A"), SpyOrder(1, "A")).code == Code.NOT_ENOUGH_UNITS
    assert (
        refusal(
            make_game(game.game_map, dict(game.board.owner), {"A": 5, "B": 1}, evolution=3, stocks={"p": (100, 39)}),
            "p",
            SpyOrder(2, "A"),
        ).code
        == EvoCode.NOT_ENOUGH_TECHNOLOGY
    )


def test_E13_a_spy_is_never_seen_by_other_players() -> None:
    game = seed_game(3, spies={"green": {"Elantris": 1, "Mordor": 2}})
    for viewer in ("blue", "red", None):
        assert all(t.spies == 0 for t in evo_view(game, viewer).territories.values())
    assert evo_view(game, "green").territories["Mordor"].spies == 2
    _, events = play_turn(game, {"green": [SpyMoveOrder(1, "Mordor", "Hogwarts")]})
    (moved,) = [e for e in events if isinstance(e, Private) and isinstance(e.event, SpiesMoved)]
    assert moved.audience == {"green"}


def test_E13_a_spy_never_fights_and_stays_when_its_territory_changes_hands() -> None:
    game = make_game(line_map("A", "B"), {"A": "p", "B": "q"}, {"A": 3, "B": 1}, evolution=3, spies={"q": {"B": 1}})
    after, events = play_turn(game, {"p": [LevelAttackOrder(3, 0, "A", "B")]}, rng=LoadedDice([(20, 1)]))
    battles = {e.event for e in events if isinstance(e, Private) and isinstance(e.event, Battle)}
    assert {b.defending for b in battles} == {levels((0, 1))}
    assert after.board.owner["B"] == "p"
    assert spies(after, "q") == {"B": 1}
    assert evo_view(after, "q").territories["B"].fog == "clear"


def test_E13_a_territory_holding_a_spy_is_visible_to_its_owner_cloaked_or_not() -> None:
    game = seed_game(3, spies={"green": {"Hogwarts": 1}}, cloaking=("red",), cloaked={"Hogwarts": 3})
    seen = evo_view(game, "green").territories["Hogwarts"]
    assert (seen.fog, seen.owner, seen.units) == ("clear", "red", 3)
    assert evo_view(game, "blue").territories["Hogwarts"].fog != "clear"  # cloaked, next to blue's Roshar


def test_E13_a_spy_moves_through_own_territories_paying_food_like_a_unit() -> None:
    game = make_game(
        line_map("A", "B", "C", "D", sizes=[1, 2, 3, 1]),
        {"A": "p", "B": "p", "C": "p", "D": "q"},
        {"A": 1, "B": 1, "C": 1, "D": 1},
        evolution=3,
        spies={"p": {"A": 2}},
    )
    after, _ = play_turn(game, {"p": [SpyMoveOrder(2, "A", "C")]})
    assert spies(after, "p") == {"C": 2}
    assert stock(after, "p")[0] == 100 - (1 + 2 + 3) * 2


def test_E13_a_spy_steps_at_most_one_territory_a_turn_into_other_players_land() -> None:
    game_map = line_map("A", "B", "C", "D", sizes=[1, 2, 3, 4])
    game = make_game(
        game_map,
        {"A": "p", "B": "p", "C": "q", "D": "q"},
        {"A": 1, "B": 1, "C": 1, "D": 1},
        evolution=3,
        spies={"p": {"A": 1}},
    )
    # Through A and B, then one step into C: 1 + 2 + 3 food.
    after, _ = play_turn(game, {"p": [SpyMoveOrder(1, "A", "C")]})
    assert spies(after, "p") == {"C": 1} and stock(after, "p")[0] == 100 - 6
    assert refusal(game, "p", SpyMoveOrder(1, "A", "D")).code == EvoCode.NO_SPY_PATH
    # A spy that stepped abroad this turn goes no further this turn...
    assert refusal(game, "p", SpyMoveOrder(1, "A", "C"), SpyMoveOrder(1, "C", "D")).code == EvoCode.NOT_ENOUGH_SPIES
    # ...and the next turn it may take one more step, from abroad: 3 + 4 food.
    later, _ = play_turn(after, {"p": [SpyMoveOrder(1, "C", "D")]})
    assert spies(later, "p") == {"D": 1} and stock(later, "p")[0] == 100 - 6 - 7


def test_E13_a_spy_abroad_may_come_home_through_own_territories() -> None:
    game = make_game(
        line_map("A", "B", "C"),
        {"A": "p", "B": "p", "C": "q"},
        {"A": 1, "B": 1, "C": 1},
        evolution=3,
        spies={"p": {"C": 1}},
    )
    issued(game, "p", SpyMoveOrder(1, "C", "A"))


def test_E13_spies_are_part_of_evolution_3_only() -> None:
    assert refusal(seed_game(2), "green", SpyOrder(1, "Narnia")).code == EvoCode.NOT_IN_THIS_EVOLUTION


# ---- E14 -----------------------------------------------------------------------------------------------------------


def test_E14_researching_cloaking_costs_100_technology_and_needs_technology_level_3() -> None:
    assert refusal(seed_game(3, tech={"green": 2}), "green", CloakingResearchOrder()).code == EvoCode.TECHNOLOGY_TOO_LOW
    assert (
        refusal(seed_game(3, tech={"green": 3}, stocks={"green": (100, 99)}), "green", CloakingResearchOrder()).code
        == EvoCode.NOT_ENOUGH_TECHNOLOGY
    )
    game, events = play_turn(seed_game(3, tech={"green": 3}), {"green": [CloakingResearchOrder()]})
    assert game.board.evo is not None and game.board.evo.cloaking == ("green",)
    assert stock(game, "green") == (100, 0)
    (told,) = [e for e in events if isinstance(e, Private) and isinstance(e.event, CloakingResearched)]
    assert told.audience == {"green"}
    assert refusal(game, "green", CloakingResearchOrder()).code == EvoCode.CLOAKING_KNOWN


def test_E14_cloaking_research_is_the_turn_s_one_research() -> None:
    game = seed_game(3, tech={"green": 3}, stocks={"green": (100, 500)})
    assert refusal(game, "green", ResearchOrder(), CloakingResearchOrder()).code == EvoCode.ONE_RESEARCH_A_TURN


def test_E14_a_cloak_costs_20_technology_and_needs_cloaking_researched() -> None:
    assert refusal(seed_game(3), "green", CloakOrder("Oz")).code == EvoCode.CLOAKING_UNKNOWN
    game = seed_game(3, cloaking=("green",))
    assert refusal(game, "green", CloakOrder("Mordor")).code == Code.NOT_YOUR_TERRITORY
    assert refusal(game, "green", CloakOrder("Oz"), CloakOrder("Oz")).code == EvoCode.ALREADY_CLOAKED
    after, events = play_turn(game, {"green": [CloakOrder("Oz")]})
    assert stock(after, "green") == (100, 80)
    (told,) = [e for e in events if isinstance(e, Private) and isinstance(e.event, TerritoryCloaked)]
    assert told.audience == {"green"} and told.event.until == 1 + 3


def test_E14_a_cloaked_territory_is_hidden_from_other_players_adjacency_view_for_the_next_3_turns() -> None:
    game = seed_game(3, cloaking=("green",))
    game, _ = play_turn(game, {"green": [CloakOrder("Oz")]})
    for turn in (2, 3, 4):
        assert game.board.turn == turn
        red = evo_view(game, "red").territories["Oz"]
        assert (red.fog, red.seen) == ("memory", 1), turn
        assert evo_view(game, "green").territories["Oz"].cloaked_until == 4
        game, _ = play_turn(game, {})
    assert game.board.turn == 5
    assert evo_view(game, "red").territories["Oz"].fog == "clear"


def test_E14_spies_still_see_a_cloaked_territory() -> None:
    game = seed_game(3, cloaking=("green",), spies={"red": {"Oz": 1}})
    game, _ = play_turn(game, {"green": [CloakOrder("Oz")]})
    assert evo_view(game, "red").territories["Oz"].fog == "clear"
    assert evo_view(game, "blue").territories["Oz"].fog == "memory"  # blue borders Oz through Scadrial


def test_E14_a_cloak_ends_when_its_territory_changes_hands() -> None:
    game = seed_game(3, cloaking=("green",))
    game = issued(game, "green", LevelMoveOrder(8, 0, "Oz", "Midkemia"), CloakOrder("Oz"))
    game, _ = play_turn(game, {"red": [LevelAttackOrder(1, 0, "Mordor", "Oz")]})
    assert game.board.owner["Oz"] == "red"
    assert game.board.evo is not None and "Oz" not in game.board.evo.cloaked
    assert stock(game, "green")[1] == 100  # a cloak on land lost in the turn is void and unpaid


@pytest.mark.parametrize("order", [CloakingResearchOrder(), CloakOrder("Oz")])
def test_E14_cloaking_is_part_of_evolution_3_only(order: Any) -> None:
    assert refusal(seed_game(2, tech={"green": 3}), "green", order).code == EvoCode.NOT_IN_THIS_EVOLUTION
