"""R20 at any size: the fast combat has the distribution of rolling every round.

Each test compares sampled outcomes with the exact distribution (a dynamic programme over the rounds) by a
chi-square test. Seeds are fixed, so the tests cannot flake; the critical values are for p = 0.001.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from functools import cache

import pytest

from shared.game.random import GameRandom
from shared.rulesets.risc.combat import P_ATTACKER_WINS_ROUND, fight, roll_round_by_round


def exact_outcomes(attackers: int, defenders: int) -> dict[tuple[int, int], float]:
    """P(final survivors = (a, d)) for a battle of R20."""
    p = P_ATTACKER_WINS_ROUND

    @cache
    def reach(a: int, d: int) -> float:
        """Probability that the battle passes through the state (a, d)."""
        if a == attackers and d == defenders:
            return 1.0
        total = 0.0
        if d + 1 <= defenders and a > 0:  # came from (a, d + 1) by an attacker's winning round
            total += reach(a, d + 1) * p
        if a + 1 <= attackers and d > 0:  # came from (a + 1, d) by a defender's winning round
            total += reach(a + 1, d) * (1 - p)
        return total

    outcomes = {(a, 0): reach(a, 1) * p for a in range(1, attackers + 1)}
    outcomes.update({(0, d): reach(1, d) * (1 - p) for d in range(1, defenders + 1)})
    return outcomes


def chi_square_critical(df: int, z: float = 3.090) -> float:
    """Wilson-Hilferty: the chi-square quantile for the normal quantile z (3.090 is p = 0.001)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def chi_square(samples: Counter[tuple[int, int]], exact: dict[tuple[int, int], float]) -> tuple[float, int]:
    n = sum(samples.values())
    # Pool the rare outcomes so that every expected count is at least 5.
    bins: list[tuple[float, int]] = []
    pooled_expected, pooled_seen = 0.0, 0
    for outcome, prob in sorted(exact.items(), key=lambda kv: kv[1], reverse=True):
        if prob * n >= 5:
            bins.append((prob * n, samples.get(outcome, 0)))
        else:
            pooled_expected += prob * n
            pooled_seen += samples.get(outcome, 0)
    if pooled_expected > 0:
        bins.append((pooled_expected, pooled_seen))
    assert sum(samples.values()) == sum(seen for _, seen in bins) + sum(samples[o] for o in samples if o not in exact)
    statistic = sum((seen - expected) ** 2 / expected for expected, seen in bins)
    return statistic, len(bins) - 1


def test_exact_distribution_sums_to_one() -> None:
    assert math.isclose(sum(exact_outcomes(9, 7).values()), 1.0)


@pytest.mark.parametrize(("attackers", "defenders"), [(4, 9), (10, 1), (7, 7), (12, 5)])
def test_R20_rolling_every_round_matches_the_exact_distribution(attackers: int, defenders: int) -> None:
    rng = GameRandom("dice-loop", attackers * 100 + defenders)
    samples = Counter(roll_round_by_round(attackers, defenders, rng) for _ in range(20000))
    statistic, df = chi_square(samples, exact_outcomes(attackers, defenders))
    assert statistic < chi_square_critical(df), (statistic, df)


@pytest.mark.parametrize(("attackers", "defenders"), [(7, 7), (12, 5), (40, 40), (60, 35)])
def test_R20_fast_combat_matches_the_exact_distribution(attackers: int, defenders: int) -> None:
    rng = GameRandom("fast", attackers * 100 + defenders)
    # dice_below=1 forces the binomial shortcut down to the last unit: the part under test.
    samples = Counter(fight(attackers, defenders, rng, dice_below=1) for _ in range(20000))
    statistic, df = chi_square(samples, exact_outcomes(attackers, defenders))
    assert statistic < chi_square_critical(df), (statistic, df)


def test_R20_fast_and_dice_loop_agree_on_medium_armies() -> None:
    """Win rates at 150 vs 150, where the exact table is large: both methods within 4 standard errors."""
    n = 4000
    fast_rng, dice_rng = GameRandom("fast-150"), GameRandom("dice-150")
    fast = sum(fight(150, 150, fast_rng)[0] > 0 for _ in range(n)) / n
    dice = sum(roll_round_by_round(150, 150, dice_rng)[0] > 0 for _ in range(n)) / n
    standard_error = math.sqrt(2 * 0.25 / n)
    assert abs(fast - dice) < 4 * standard_error


def test_R20_a_million_against_a_million_resolves_to_a_single_survivor_side() -> None:
    for seed in range(5):
        attackers, defenders = fight(1_000_000, 1_000_000, GameRandom(seed))
        assert (attackers == 0) != (defenders == 0)
        assert 0 <= attackers <= 1_000_000 and 0 <= defenders <= 1_000_000


@pytest.mark.parametrize(("n", "p"), [(30, 0.475), (5, 0.3), (200, 0.475), (10_000, 0.525)])
def test_binomial_sampler_matches_the_binomial_distribution(n: int, p: float) -> None:
    rng = GameRandom("binomial", n)
    draws = 20000
    samples = Counter((rng.binomial(n, p), 0) for _ in range(draws))
    mean = sum(k * c for (k, _), c in samples.items()) / draws
    assert abs(mean - n * p) < 4 * math.sqrt(n * p * (1 - p) / draws)
    if n <= 200:
        exact = {(k, 0): math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}
        statistic, df = chi_square(samples, exact)
        assert statistic < chi_square_critical(df), (statistic, df)


def test_binomial_edge_cases() -> None:
    rng = GameRandom(1)
    assert rng.binomial(0, 0.5) == 0
    assert rng.binomial(10, 0.0) == 0
    assert rng.binomial(10, 1.0) == 10
    with pytest.raises(ValueError):
        rng.binomial(-1, 0.5)


@pytest.mark.parametrize("seed", [0, 1, 7, "a1b2c3"])
def test_a_d20_is_what_randrange_rolled_from_the_same_seed_so_stored_games_replay(seed: int | str) -> None:
    """The dice are drawn faster than through randrange, but they are the same dice: a game stored by an earlier
    release replays roll for roll (risc replay), between draws of every other kind."""
    ours, theirs = GameRandom(seed, 5), random.Random(f"risc:{seed}:5")
    for _ in range(300):
        assert ours.d20() == theirs.randrange(20) + 1
        assert ours.below(9) == theirs.randrange(9)
        assert ours.uniform() == theirs.random()
