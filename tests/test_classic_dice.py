"""C5: the exact odds of one roll, and the dice the game rolls (fresh for every action, GameRandom(seed, step))
checked against them with a chi-square bound at p < 1e-6, on fixed seeds, so these tests never flake."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from shared.game.random import GameRandom, dice_of
from shared.rulesets.classic.bots.position import win_probability
from shared.rulesets.classic.dice import outcomes, roll
from shared.rulesets.classic.events import DiceRolled
from shared.rulesets.classic.orders import Attack
from tests.classic_support import act, game_at

CHI2_P_1E6 = {1: 23.93, 2: 27.63}
"""Chi-square critical values at p = 1e-6 for 1 and 2 degrees of freedom."""

# The classic tables: (attacker losses, defender losses) -> chance, over all 6^(a+d) rolls.
EXACT = {
    (1, 1): {(0, 1): Fraction(15, 36), (1, 0): Fraction(21, 36)},
    (2, 1): {(0, 1): Fraction(125, 216), (1, 0): Fraction(91, 216)},
    (3, 1): {(0, 1): Fraction(855, 1296), (1, 0): Fraction(441, 1296)},
    (1, 2): {(0, 1): Fraction(55, 216), (1, 0): Fraction(161, 216)},
    (2, 2): {(0, 2): Fraction(295, 1296), (1, 1): Fraction(420, 1296), (2, 0): Fraction(581, 1296)},
    (3, 2): {(0, 2): Fraction(2890, 7776), (1, 1): Fraction(2611, 7776), (2, 0): Fraction(2275, 7776)},
}


@pytest.mark.parametrize("dice", list(EXACT))
def test_C5_the_exact_odds_of_one_roll(dice: tuple[int, int]) -> None:
    assert outcomes(*dice) == EXACT[dice]


def chi_square(counts: Counter[tuple[int, int]], expected: dict[tuple[int, int], Fraction], n: int) -> float:
    assert set(counts) <= set(expected)
    return sum((counts[k] - n * float(p)) ** 2 / (n * float(p)) for k, p in expected.items())


@pytest.mark.parametrize("dice", list(EXACT))
def test_C5_rolled_dice_follow_the_exact_odds(dice: tuple[int, int]) -> None:
    n = 20_000
    counts: Counter[tuple[int, int]] = Counter()
    faces: Counter[int] = Counter()
    for step in range(n):
        attack, defence, lost, killed = roll(GameRandom(f"odds{dice}", step), *dice)
        counts[(lost, killed)] += 1
        faces.update(attack + defence)
    assert chi_square(counts, EXACT[dice], n) < CHI2_P_1E6[len(EXACT[dice]) - 1]
    assert set(faces) == {1, 2, 3, 4, 5, 6}


def test_C5_three_dice_against_two_in_play_2890_2611_2275_out_of_7776() -> None:
    """The same check through the game itself: each attack is one action, with the dice of its own step."""
    n = 6_000
    game = game_at("aaaabbb", [3, 1, 1, 10_000, 10_000, 1, 1])
    dice = dice_of("three-against-two")
    counts: Counter[tuple[int, int]] = Counter()
    for _ in range(n):
        game, events = act(game, Attack("D", "E", 3), dice)
        (rolled,) = [e for e in events if isinstance(e, DiceRolled)]
        assert len(rolled.attack) == 3 and len(rolled.defence) == 2
        counts[(rolled.attacker_losses, rolled.defender_losses)] += 1
    assert chi_square(counts, EXACT[(3, 2)], n) < CHI2_P_1E6[2]
    assert game.step == n


def test_C5_each_action_draws_fresh_dice_and_a_replay_draws_the_same() -> None:
    game = game_at("aaaabbb", [3, 1, 1, 50, 50, 1, 1])
    first, _ = act(game, Attack("D", "E", 3), dice_of("fresh"))
    again, _ = act(game, Attack("D", "E", 3), dice_of("fresh"))
    assert first.board == again.board
    rolls = set()
    for _ in range(30):
        game, events = act(game, Attack("D", "E", 3), dice_of("fresh"))
        rolls.add(events[0].attack + events[0].defence)
    assert len(rolls) > 20


def test_the_all_out_odds_the_computer_players_use_are_exact() -> None:
    one_die = Fraction(15, 36)
    two_dice = Fraction(125, 216)
    assert win_probability(2, 1) == pytest.approx(float(one_die))
    assert win_probability(3, 1) == pytest.approx(float(two_dice + (1 - two_dice) * one_die))
    assert win_probability(1, 1) == 0.0 and win_probability(5, 0) == 1.0
    assert win_probability(30, 5) > 0.99 > 0.01 > win_probability(3, 20)
