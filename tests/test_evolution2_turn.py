"""E8-E11: the order of execution, combat between levels, production at the end of the turn, what a player sees."""

from __future__ import annotations

import math

import pytest

from shared.game.random import GameRandom
from shared.game.ruleset import Private
from shared.rulesets.risc.evo_combat import fight_levels, pairing
from shared.rulesets.risc.evo_events import (
    Battle,
    LevelMoved,
    StocksReport,
    TechnologyResearched,
    UnitsUpgraded,
)
from shared.rulesets.risc.evo_orders import LevelAttackOrder, LevelMoveOrder, ResearchOrder, UpgradeOrder
from shared.rulesets.risc.evo_view import EvoView
from shared.rulesets.risc.levels import BONUS
from shared.rulesets.risc.resources import Land
from tests.evolution_support import (
    LoadedDice,
    issued,
    levels,
    line_map,
    make_game,
    of_kind,
    plain,
    play_turn,
    rules,
    seed_game,
)

# ---- E8 ------------------------------------------------------------------------------------------------------------


def test_E8_upgrades_execute_before_attacks_so_upgraded_units_defend_at_their_new_level() -> None:
    game = seed_game()
    game, events = play_turn(
        game, {"green": [LevelAttackOrder(8, 0, "Midkemia", "Scadrial")], "blue": [UpgradeOrder(5, "Scadrial", 0, 1)]}
    )
    (battle,) = of_kind(events, Battle)
    assert battle.defending == levels((1, 5))


def test_E8_moves_execute_before_attacks_and_units_moved_in_defend() -> None:
    _, events = play_turn(
        seed_game(),
        {"blue": [LevelAttackOrder(4, 0, "Scadrial", "Hogwarts")], "red": [LevelMoveOrder(6, 0, "Mordor", "Hogwarts")]},
    )
    (battle,) = of_kind(events, Battle)
    assert (battle.attacking, battle.defending) == (levels((0, 4)), levels((0, 9)))


def test_E8_upgrades_then_moves_then_attacks_then_research() -> None:
    game = issued(
        seed_game(),
        "green",
        ResearchOrder(),
        LevelMoveOrder(2, 0, "Narnia", "Oz"),
        UpgradeOrder(3, "Oz", 0, 1),
        LevelAttackOrder(3, 1, "Oz", "Mordor"),
    )
    _, events = play_turn(game, {})
    kinds = [
        type(e) for e in plain(events) if isinstance(e, UnitsUpgraded | LevelMoved | Battle | TechnologyResearched)
    ]
    assert kinds == [UnitsUpgraded, LevelMoved, Battle, TechnologyResearched]


# ---- E9 ------------------------------------------------------------------------------------------------------------

HANDOUT_ATTACKERS = levels((6, 1), (4, 1), (1, 1), (0, 1))  # bonuses 15, 8, 1, 0
HANDOUT_DEFENDERS = levels((4, 2), (2, 1), (1, 1))  # bonuses 8, 8, 3, 1


def bonuses(pair: tuple[int, int]) -> tuple[int, int]:
    return BONUS[pair[0]], BONUS[pair[1]]


def test_E9_the_handout_s_example_pairs_A15_D1_then_A0_D8_then_A15_D3() -> None:
    attackers, defenders = list(HANDOUT_ATTACKERS), list(HANDOUT_DEFENDERS)
    assert bonuses(pairing(attackers, defenders, 0)) == (15, 1)
    defenders[1] -= 1  # A15 beats D1
    assert bonuses(pairing(attackers, defenders, 1)) == (0, 8)
    for second_round_loser in ("attacker", "defender"):  # whoever loses the second round, the third pair is A15 v D3
        a, d = list(attackers), list(defenders)
        if second_round_loser == "attacker":
            a[0] -= 1
        else:
            d[4] -= 1
        assert bonuses(pairing(a, d, 2)) == (15, 3)


def test_E9_the_handout_s_example_fought_with_loaded_dice() -> None:
    # Round 1, A15 v D1: 20+15 > 1+1. Round 2, A0 v D8: 1+0 < 20+8. Round 3, A15 v D3: 1+15 > 12+3 (against a D8
    # the attacker would lose, 16 < 20; an A8 against D3 would too, 9 < 15). Rounds 4 and 5: A1 v D8, then A15 v D8,
    # each 20+bonus against 1+8.
    dice = LoadedDice([(20, 1), (1, 20), (1, 12), (20, 1), (20, 1)])
    attackers_left, defenders_left = fight_levels(HANDOUT_ATTACKERS, HANDOUT_DEFENDERS, dice)
    assert attackers_left == levels((6, 1), (4, 1), (1, 1))
    assert defenders_left == levels()


def test_E9_a_unit_s_bonus_adds_to_its_roll_and_the_defender_wins_ties() -> None:
    # A level-2 attacker (+3) rolling 10 ties a level-0 defender rolling 13: the defender wins.
    assert fight_levels(levels((2, 1)), levels((0, 1)), LoadedDice([(10, 13)])) == (levels(), levels((0, 1)))
    # A level-1 defender (+1) rolling 12 loses to the same attacker rolling 11 (14 > 13).
    assert fight_levels(levels((2, 1)), levels((1, 1)), LoadedDice([(11, 12)])) == (levels((2, 1)), levels())


@pytest.mark.parametrize(("attacker", "defender"), [(2, 0), (0, 3), (6, 4)])
def test_E9_one_round_is_won_as_often_as_the_bonuses_say(attacker: int, defender: int) -> None:
    wins = sum(a + BONUS[attacker] > d + BONUS[defender] for a in range(1, 21) for d in range(1, 21))
    p = wins / 400
    n = 20_000
    rng = GameRandom("E9", 0)
    won = sum(sum(fight_levels(levels((attacker, 1)), levels((defender, 1)), rng)[0]) for _ in range(n))
    # A binomial bound at about 5.3 standard deviations: a sound die fails it less often than once in 10^7 runs.
    assert abs(won - n * p) <= 5.3 * math.sqrt(n * p * (1 - p)) + 1


def test_E9_a_whole_turn_s_combat_uses_the_levels_of_both_sides() -> None:
    game = seed_game()
    game = make_game(
        game.game_map,
        dict(game.board.owner),
        {**game.board.units, "Midkemia": levels((3, 2)), "Scadrial": levels((0, 1))},
    )
    # One round: A (level 3, +5) rolls 2 against D (level 0) rolling 6: 7 > 6, Scadrial falls.
    after, events = play_turn(
        game, {"green": [LevelAttackOrder(2, 3, "Midkemia", "Scadrial")]}, rng=LoadedDice([(2, 6)])
    )
    (battle,) = of_kind(events, Battle)
    assert (battle.attackers_left, battle.defenders_left, battle.new_owner) == (levels((3, 2)), levels(), "green")
    assert after.board.owner["Scadrial"] == "green"
    assert after.board.evo is not None and after.board.evo.levels["Scadrial"] == levels((3, 2), (0, 1))


# ---- E10 -----------------------------------------------------------------------------------------------------------


def test_E10_one_level_0_unit_per_owned_territory_then_the_production_of_what_each_player_holds_then() -> None:
    land = {
        "Narnia": Land(1, 5, 1),
        "Midkemia": Land(1, 6, 2),
        "Oz": Land(1, 7, 3),
        "Elantris": Land(1, 10, 20),
        "Roshar": Land(1, 1, 1),
        "Scadrial": Land(1, 2, 2),
    }
    game = seed_game(land=land)
    # Blue leaves Elantris empty; green walks in with one unit (a fight against nobody) and holds it at the end.
    after, events = play_turn(
        game,
        {"blue": [LevelMoveOrder(6, 0, "Elantris", "Roshar")], "green": [LevelAttackOrder(1, 0, "Narnia", "Elantris")]},
    )
    evo = after.board.evo
    assert evo is not None
    assert after.board.owner["Elantris"] == "green"
    assert evo.levels["Elantris"] == levels((0, 2))
    assert (evo.stocks["green"].food, evo.stocks["green"].technology) == (100 - 1 + 5 + 6 + 7 + 10, 100 + 26)
    assert (evo.stocks["blue"].food, evo.stocks["blue"].technology) == (100 - 2 * 6 + 1 + 2, 100 + 3)
    (report,) = [e for e in of_kind(events, StocksReport) if e.player == "green"]
    assert report == StocksReport("green", 1, 0, 28, 26, 127, 126)


def test_E10_neutral_territories_get_no_unit_and_produce_for_nobody() -> None:
    game = make_game(
        line_map("A", "B"),
        {"A": "p", "B": None},
        {"A": 1, "B": 2},
        players=("p", "q"),
        land={"A": Land(1, 3, 4), "B": Land(1, 50, 50)},
    )
    after, _ = play_turn(game, {})
    assert after.board.units == {"A": 2, "B": 2}
    assert after.board.evo is not None and after.board.evo.stocks["p"].food == 103


# ---- E11 -----------------------------------------------------------------------------------------------------------


def test_E11_everyone_sees_the_levels_of_every_unit_and_every_maximum_technology_level() -> None:
    game = seed_game(tech={"blue": 3})
    game = make_game(
        game.game_map,
        dict(game.board.owner),
        {**game.board.units, "Roshar": levels((0, 1), (3, 2))},
        tech={"blue": 3},
        land={n: Land(2, 4, 6) for n in game.game_map.names},
    )
    for viewer in ("green", "blue", "red", None):
        seen = rules(game).view(game, viewer)
        assert isinstance(seen, EvoView)
        assert seen.territories["Roshar"].levels == levels((0, 1), (3, 2))
        assert seen.territories["Roshar"].units == 3
        assert (seen.territories["Roshar"].size, seen.territories["Roshar"].food) == (2, 4)
        assert {p: s.tech_level for p, s in seen.players.items()} == {"green": 1, "blue": 3, "red": 1}


def test_E11_a_player_sees_their_own_stocks_and_nobody_else_s() -> None:
    game = seed_game(stocks={"green": (70, 30), "blue": (5, 6), "red": (7, 8)})
    seen = rules(game).view(game, "green")
    assert isinstance(seen, EvoView)
    assert {p: (s.food, s.technology) for p, s in seen.players.items()} == {
        "green": (70, 30),
        "blue": (None, None),
        "red": (None, None),
    }
    spectator = rules(game).view(game, None)
    assert isinstance(spectator, EvoView)
    assert all(s.food is None and s.technology is None for s in spectator.players.values())


def test_E11_stocks_are_told_to_their_owner_alone() -> None:
    _, events = play_turn(seed_game(), {})
    reports = [e for e in events if isinstance(e, Private) and isinstance(e.event, StocksReport)]
    assert {(e.event.player, e.audience) for e in reports} == {(p, frozenset({p})) for p in ("green", "blue", "red")}
    assert not [e for e in events if isinstance(e, StocksReport)]
