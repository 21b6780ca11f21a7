"""E3-E7: orders naming levels, what moves, attacks, upgrades and research cost, and checks at issue against what the
player's earlier orders of the turn leave."""

from __future__ import annotations

from typing import Any

import pytest

from shared.game import turns
from shared.game.errors import RuleError
from shared.game.game import Game
from shared.rulesets.risc.board import Phase, RiscBoard
from shared.rulesets.risc.checker import Code
from shared.rulesets.risc.evo_checker import EvoCode
from shared.rulesets.risc.evo_events import Battle
from shared.rulesets.risc.evo_orders import (
    CloakOrder,
    LevelAttackOrder,
    LevelMoveOrder,
    ResearchOrder,
    SpyOrder,
    UpgradeOrder,
)
from shared.rulesets.risc.evo_view import EvoView
from shared.rulesets.risc.options import RiscOptions
from shared.rulesets.risc.orders import AttackOrder, MoveOrder
from tests.evolution_support import (
    SEED_OWNERS,
    SEED_UNITS,
    graph_map,
    issued,
    levels,
    line_map,
    make_game,
    of_kind,
    play_turn,
    refusal,
    rules,
    seed_game,
    seed_map,
)


def stocks_after(game: Game[RiscBoard, Any], player: str) -> tuple[int, int]:
    evo = game.board.evo
    assert evo is not None
    return evo.stocks[player].food, evo.stocks[player].technology


def left_in_view(game: Game[RiscBoard, Any], player: str) -> tuple[int | None, int | None]:
    seen = rules(game).view(game, player)
    assert isinstance(seen, EvoView)
    return seen.food_left, seen.technology_left


# ---- E3 ------------------------------------------------------------------------------------------------------------


def test_E3_move_and_attack_orders_name_how_many_units_of_which_level() -> None:
    game = seed_game()
    game = make_game(
        game.game_map, dict(game.board.owner), {**game.board.units, "Narnia": levels((0, 3), (3, 2))}, tech={"green": 3}
    )
    issued(game, "green", LevelMoveOrder(2, 3, "Narnia", "Midkemia"), LevelMoveOrder(3, 0, "Narnia", "Oz"))
    problem = refusal(game, "green", LevelAttackOrder(3, 3, "Narnia", "Elantris"))
    assert problem.code == Code.NOT_ENOUGH_UNITS
    assert "2 level-3 units" in problem.message


def test_E3_an_order_without_levels_is_refused_and_says_how_to_name_them() -> None:
    for order in (MoveOrder(3, "Narnia", "Oz"), AttackOrder(3, "Narnia", "Elantris")):
        problem = refusal(seed_game(), "green", order)
        assert problem.code == EvoCode.NOT_IN_THIS_EVOLUTION
        assert f"{order.kind} 3@0 Narnia" in problem.message


def test_E3_upgrade_and_research_are_orders_of_evolution_2_but_spies_and_cloaks_are_not() -> None:
    issued(seed_game(), "green", UpgradeOrder(2, "Narnia", 0, 1), ResearchOrder())
    for order in (SpyOrder(1, "Narnia"), CloakOrder("Narnia")):
        assert refusal(seed_game(), "green", order).code == EvoCode.NOT_IN_THIS_EVOLUTION


def test_E3_evolution_2_orders_are_refused_in_evolution_1() -> None:
    board = RiscBoard(Phase.ORDERS, 1, dict(SEED_OWNERS), dict(SEED_UNITS))
    game: Game[RiscBoard, Any] = Game("risc", seed_map(), ("green", "blue", "red"), RiscOptions(), board)
    result = turns.issue(rules(game), game, "green", LevelMoveOrder(1, 0, "Narnia", "Oz"))
    assert isinstance(result, RuleError) and result.code == EvoCode.NOT_IN_THIS_EVOLUTION


# ---- E4 ------------------------------------------------------------------------------------------------------------


def test_E4_a_move_costs_the_total_size_of_its_path_both_ends_included_times_the_units() -> None:
    game_map = line_map("A", "B", "C", "D", sizes=[1, 2, 3, 4])
    game = make_game(game_map, dict.fromkeys("ABCD", "p"), {"A": 10}, players=("p", "q"))
    game = issued(game, "p", LevelMoveOrder(5, 0, "A", "D"))
    assert left_in_view(game, "p") == (100 - (1 + 2 + 3 + 4) * 5, 100)
    after, _ = play_turn(game, {})
    assert stocks_after(after, "p") == (50, 100)


def test_E4_the_cheapest_path_of_own_territories_is_taken() -> None:
    game_map = graph_map({"A": ["B", "C"], "B": ["D"], "C": ["D"], "D": ["E"]}, sizes={"B": 5, "C": 1, "A": 2})
    mine = {"A": "p", "B": "p", "C": "p", "D": "p", "E": "q"}
    game = issued(make_game(game_map, mine, {"A": 10, "E": 1}), "p", LevelMoveOrder(3, 0, "A", "D"))
    assert left_in_view(game, "p")[0] == 100 - (2 + 1 + 1) * 3
    # With C in other hands the path must go through B.
    game = issued(make_game(game_map, {**mine, "C": "q"}, {"A": 10, "E": 1}), "p", LevelMoveOrder(3, 0, "A", "D"))
    assert left_in_view(game, "p")[0] == 100 - (2 + 5 + 1) * 3


def test_E4_an_attack_costs_1_food_per_attacking_unit() -> None:
    game = issued(
        seed_game(), "green", LevelAttackOrder(7, 0, "Midkemia", "Scadrial"), LevelAttackOrder(2, 0, "Oz", "Mordor")
    )
    assert left_in_view(game, "green") == (91, 100)
    after, _ = play_turn(game, {})
    assert stocks_after(after, "green")[0] == 91


def test_E4_a_move_or_attack_the_food_left_cannot_pay_is_refused() -> None:
    game = seed_game(stocks={"green": (20, 100)})
    problem = refusal(game, "green", LevelMoveOrder(7, 0, "Narnia", "Oz"))  # 3 territories of size 1: 21 food
    assert problem.code == EvoCode.NOT_ENOUGH_FOOD and "21 food" in problem.message
    assert refusal(game, "green", LevelAttackOrder(21, 0, "Narnia", "Elantris")).code == Code.NOT_ENOUGH_UNITS
    issued(game, "green", LevelAttackOrder(10, 0, "Narnia", "Elantris"), LevelMoveOrder(1, 0, "Midkemia", "Oz"))
    assert (
        refusal(
            game,
            "green",
            LevelAttackOrder(10, 0, "Narnia", "Elantris"),
            LevelAttackOrder(11, 0, "Midkemia", "Scadrial"),
        ).code
        == EvoCode.NOT_ENOUGH_FOOD
    )


# ---- E5 ------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("units", "level", "to_level", "cost"),
    [
        (4, 0, 1, 4 * 3),
        (1, 0, 2, 11),
        (3, 1, 2, 3 * 8),
        (2, 2, 3, 2 * 19),
        (1, 3, 4, 25),
        (1, 4, 5, 35),
        (1, 5, 6, 50),
        (2, 0, 6, 280),
        (1, 2, 6, 129),
    ],
)
def test_E5_an_upgrade_costs_units_times_the_difference_of_the_totals(
    units: int, level: int, to_level: int, cost: int
) -> None:
    game = seed_game(tech={"green": 6}, stocks={"green": (100, 1000)})
    game = make_game(
        game.game_map,
        dict(game.board.owner),
        {**game.board.units, "Narnia": levels((level, 5))},
        tech={"green": 6},
        stocks={"green": (100, 1000)},
    )
    game = issued(game, "green", UpgradeOrder(units, "Narnia", level, to_level))
    after, _ = play_turn(game, {})
    assert stocks_after(after, "green") == (100, 1000 - cost)
    assert after.board.evo is not None
    assert after.board.evo.levels["Narnia"][to_level] == units
    assert after.board.evo.levels["Narnia"][level] == 5 - units + (1 if level == 0 else 0)


def test_E5_units_go_no_higher_than_the_player_s_maximum_technology_level() -> None:
    game = seed_game(tech={"green": 2})
    issued(game, "green", UpgradeOrder(1, "Narnia", 0, 2))
    problem = refusal(game, "green", UpgradeOrder(1, "Narnia", 0, 3))
    assert problem.code == EvoCode.LEVEL_ABOVE_TECHNOLOGY


@pytest.mark.parametrize(("level", "to_level"), [(1, 1), (2, 1), (0, 7), (-1, 1)])
def test_E5_an_upgrade_goes_up_from_one_real_level_to_a_higher_one(level: int, to_level: int) -> None:
    assert (
        refusal(seed_game(tech={"green": 6}), "green", UpgradeOrder(1, "Narnia", level, to_level)).code
        == EvoCode.BAD_LEVEL
    )


def test_E5_an_upgrade_the_technology_left_cannot_pay_is_refused() -> None:
    game = seed_game(stocks={"green": (100, 10)})
    issued(game, "green", UpgradeOrder(3, "Narnia", 0, 1))
    problem = refusal(game, "green", UpgradeOrder(4, "Narnia", 0, 1))
    assert problem.code == EvoCode.NOT_ENOUGH_TECHNOLOGY and "12 technology" in problem.message


def test_E5_units_upgraded_this_turn_may_move_and_attack_this_turn() -> None:
    game = issued(
        seed_game(),
        "green",
        UpgradeOrder(6, "Midkemia", 0, 1),
        LevelMoveOrder(2, 1, "Midkemia", "Oz"),
        LevelAttackOrder(4, 1, "Midkemia", "Scadrial"),
    )
    after, events = play_turn(game, {})
    (battle,) = of_kind(events, Battle)
    assert battle.attacking == levels((1, 4))
    assert after.board.evo is not None
    assert after.board.evo.levels["Oz"] == levels((0, 8 + 1), (1, 2))


def test_E5_upgrades_only_on_own_territories() -> None:
    assert refusal(seed_game(), "green", UpgradeOrder(1, "Elantris", 0, 1)).code == Code.NOT_YOUR_TERRITORY


# ---- E6 ------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("level", "cost"), [(1, 50), (2, 75), (3, 125), (4, 200), (5, 300)])
def test_E6_research_raises_the_maximum_technology_level_by_one_for_its_cost(level: int, cost: int) -> None:
    game = issued(seed_game(tech={"green": level}, stocks={"green": (100, 400)}), "green", ResearchOrder())
    after, _ = play_turn(game, {})
    assert after.board.evo is not None
    assert after.board.evo.tech_level["green"] == level + 1
    assert stocks_after(after, "green") == (100, 400 - cost)


def test_E6_research_needs_the_technology() -> None:
    problem = refusal(seed_game(tech={"green": 2}, stocks={"green": (100, 74)}), "green", ResearchOrder())
    assert problem.code == EvoCode.NOT_ENOUGH_TECHNOLOGY and "75 technology" in problem.message


def test_E6_at_most_one_research_order_a_turn() -> None:
    problem = refusal(seed_game(stocks={"green": (100, 500)}), "green", ResearchOrder(), ResearchOrder())
    assert problem.code == EvoCode.ONE_RESEARCH_A_TURN


def test_E6_level_6_is_the_top() -> None:
    assert refusal(seed_game(tech={"green": 6}), "green", ResearchOrder()).code == EvoCode.TOP_TECHNOLOGY


def test_E6_the_new_level_counts_from_the_next_turn() -> None:
    game = issued(seed_game(stocks={"green": (100, 200)}), "green", ResearchOrder())
    assert refusal(game, "green", UpgradeOrder(1, "Narnia", 0, 2)).code == EvoCode.LEVEL_ABOVE_TECHNOLOGY
    after, _ = play_turn(game, {})
    issued(after, "green", UpgradeOrder(1, "Narnia", 0, 2))


# ---- E7 ------------------------------------------------------------------------------------------------------------


def test_E7_orders_are_checked_against_the_food_earlier_orders_leave() -> None:
    game = seed_game(stocks={"green": (40, 100)})
    game = issued(game, "green", LevelMoveOrder(6, 0, "Narnia", "Oz"))  # 18 food
    game = issued(game, "green", LevelMoveOrder(7, 0, "Midkemia", "Narnia"))  # 14 food: 8 left
    assert left_in_view(game, "green")[0] == 8
    assert refusal(game, "green", LevelAttackOrder(9, 0, "Oz", "Mordor")).code == EvoCode.NOT_ENOUGH_FOOD


def test_E7_orders_are_checked_against_the_technology_earlier_orders_leave() -> None:
    game = issued(seed_game(stocks={"green": (100, 60)}), "green", ResearchOrder())  # 50
    problem = refusal(game, "green", UpgradeOrder(4, "Oz", 0, 1))  # 12 > 10
    assert problem.code == EvoCode.NOT_ENOUGH_TECHNOLOGY
    issued(game, "green", UpgradeOrder(3, "Oz", 0, 1))


def test_E7_units_are_counted_per_level_and_territory_as_in_R15() -> None:
    game = make_game(
        line_map("A", "B", "C"),
        {"A": "p", "B": "p", "C": "q"},
        {"A": levels((0, 4), (1, 2)), "B": 0, "C": 1},
        tech={"p": 2},
    )
    game = issued(game, "p", LevelMoveOrder(2, 1, "A", "B"))
    assert refusal(game, "p", LevelMoveOrder(1, 1, "A", "B")).code == Code.NOT_ENOUGH_UNITS
    # Units moved in are there for later moves and attacks from their new territory (R15).
    issued(game, "p", LevelAttackOrder(2, 1, "B", "C"))
    assert refusal(game, "p", LevelAttackOrder(3, 1, "B", "C")).code == Code.NOT_ENOUGH_UNITS


def test_E7_units_moved_in_cannot_be_upgraded_this_turn_as_upgrades_execute_first() -> None:
    game = make_game(
        line_map("A", "B", "C"), {"A": "p", "B": "p", "C": "q"}, {"A": 4, "B": 1, "C": 1}, players=("p", "q")
    )
    game = issued(game, "p", LevelMoveOrder(4, 0, "A", "B"))
    problem = refusal(game, "p", UpgradeOrder(2, "B", 0, 1))
    assert problem.code == Code.NOT_ENOUGH_UNITS and "arrive after upgrades" in problem.message
    issued(game, "p", UpgradeOrder(1, "B", 0, 1))


def test_E7_an_upgrade_cannot_take_units_that_earlier_orders_send_away() -> None:
    game = make_game(
        line_map("A", "B", "C"), {"A": "p", "B": "p", "C": "q"}, {"A": 5, "B": 0, "C": 1}, players=("p", "q")
    )
    game = issued(game, "p", LevelMoveOrder(3, 0, "A", "B"), LevelMoveOrder(3, 0, "B", "A"))
    # A holds 5 again, but fell to 2 in between: the moves, which execute after upgrades, need the other 3 level 0.
    assert refusal(game, "p", UpgradeOrder(3, "A", 0, 1)).code == Code.NOT_ENOUGH_UNITS
    game = issued(game, "p", UpgradeOrder(2, "A", 0, 1))
    after, _ = play_turn(game, {})
    assert after.board.evo is not None
    assert after.board.evo.levels["A"] == levels((0, 3 + 1), (1, 2))


def test_E7_costs_are_paid_when_the_turn_executes() -> None:
    game = issued(seed_game(), "green", LevelMoveOrder(5, 0, "Narnia", "Oz"), UpgradeOrder(5, "Oz", 0, 1))
    assert stocks_after(game, "green") == (100, 100)
    assert left_in_view(game, "green") == (85, 85)
    after, _ = play_turn(game, {})
    assert stocks_after(after, "green") == (85, 85)


def test_E7_withdrawing_an_order_a_later_one_needs_is_refused() -> None:
    game = issued(seed_game(), "green", UpgradeOrder(5, "Oz", 0, 1), LevelAttackOrder(5, 1, "Oz", "Mordor"))
    result = turns.withdraw(rules(game), game, "green", 0)
    assert isinstance(result, RuleError) and result.code == Code.NOT_ENOUGH_UNITS
