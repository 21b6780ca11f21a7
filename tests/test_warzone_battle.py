"""W7 against the exact distribution: defenders lost ~ min(defenders, Binomial(attackers, 0.6)), attackers lost ~
min(attackers, Binomial(defenders, 0.7)), drawn independently.

Each statistical test samples with a fixed seed and compares with the exact law by a chi-square test (or a
binomial bound) at p < 1e-6, so it can neither flake nor pass a wrong distribution by luck.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest

from shared.game.random import GameRandom
from shared.rulesets.warzone.battle import (
    P_ATTACKER_KILLS,
    P_DEFENDER_KILLS,
    attackers_needed,
    binomial_pmf,
    volley,
    win_probability,
)

Z = 4.753
"""The normal quantile of p = 1e-6 (one-sided)."""

SAMPLES = 20_000


def capped_law(n: int, p: float, cap: int) -> dict[int, float]:
    """The law of min(cap, Binomial(n, p))."""
    law = {k: binomial_pmf(n, p, k) for k in range(min(n, cap))}
    law[min(n, cap)] = 1.0 - sum(law.values())
    return law


def chi_square_critical(df: int, z: float = Z) -> float:
    """Wilson-Hilferty's chi-square quantile for the normal quantile z."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def chi_square(seen: Counter[object], law: dict[object, float]) -> tuple[float, int]:
    """The statistic and its degrees of freedom, rare outcomes pooled so that every expected count is >= 5."""
    n = sum(seen.values())
    assert set(seen) <= set(law), f"outcomes the law does not allow: {set(seen) - set(law)}"
    bins: list[tuple[float, int]] = []
    pooled_expected, pooled_seen = 0.0, 0
    for outcome, prob in law.items():
        if prob * n >= 5:
            bins.append((prob * n, seen.get(outcome, 0)))
        else:
            pooled_expected += prob * n
            pooled_seen += seen.get(outcome, 0)
    if pooled_expected > 0:
        bins.append((pooled_expected, pooled_seen))
    return sum((s - e) ** 2 / e for e, s in bins), len(bins) - 1


@pytest.mark.parametrize(("attackers", "defenders"), [(1, 1), (5, 3), (3, 5), (10, 10), (12, 4), (40, 25), (300, 200)])
def test_W7_each_side_s_losses_follow_the_capped_binomial(attackers: int, defenders: int) -> None:
    rng = GameRandom(f"marginals/{attackers}/{defenders}")
    attacker_losses, defender_losses = Counter[object](), Counter[object]()
    for _ in range(SAMPLES):
        lost_a, lost_d = volley(attackers, defenders, rng)
        attacker_losses[lost_a] += 1
        defender_losses[lost_d] += 1
    for seen, law in (
        (defender_losses, capped_law(attackers, P_ATTACKER_KILLS, defenders)),
        (attacker_losses, capped_law(defenders, P_DEFENDER_KILLS, attackers)),
    ):
        statistic, df = chi_square(seen, dict(law))
        assert df >= 1
        assert statistic < chi_square_critical(df), (statistic, df)


@pytest.mark.parametrize(("attackers", "defenders"), [(4, 3), (7, 6)])
def test_W7_the_two_volleys_are_simultaneous_and_independent(attackers: int, defenders: int) -> None:
    rng = GameRandom(f"joint/{attackers}/{defenders}")
    seen = Counter[object](volley(attackers, defenders, rng) for _ in range(SAMPLES))
    lost_a = capped_law(defenders, P_DEFENDER_KILLS, attackers)
    lost_d = capped_law(attackers, P_ATTACKER_KILLS, defenders)
    law: dict[object, float] = {(a, d): pa * pd for a, pa in lost_a.items() for d, pd in lost_d.items()}
    statistic, df = chi_square(seen, law)
    assert statistic < chi_square_critical(df), (statistic, df)


@pytest.mark.parametrize(("attackers", "defenders"), [(2, 1), (5, 3), (10, 6), (17, 10), (60, 35)])
def test_W7_the_chance_to_conquer_is_every_defender_destroyed_and_an_attacker_left(
    attackers: int, defenders: int
) -> None:
    # From the rule itself: sum over the joint law of the outcomes that conquer.
    exact = sum(
        binomial_pmf(attackers, P_ATTACKER_KILLS, k) * binomial_pmf(defenders, P_DEFENDER_KILLS, j)
        for k in range(defenders, attackers + 1)
        for j in range(0, attackers)
    )
    assert win_probability(attackers, defenders) == pytest.approx(exact, abs=1e-12)
    rng = GameRandom(f"conquer/{attackers}/{defenders}")
    wins = 0
    for _ in range(SAMPLES):
        lost_a, lost_d = volley(attackers, defenders, rng)
        wins += lost_d == defenders and lost_a < attackers
    bound = Z * math.sqrt(exact * (1 - exact) / SAMPLES) + 1e-9
    assert abs(wins / SAMPLES - exact) <= bound


def test_W7_no_battle_when_a_side_is_empty() -> None:
    rng = GameRandom(0)
    assert volley(5, 0, rng) == (0, 0)
    assert volley(0, 5, rng) == (0, 0)
    assert win_probability(1, 0) == 1.0 and win_probability(0, 3) == 0.0


def test_W7_fewer_attackers_than_defenders_never_conquer() -> None:
    assert win_probability(4, 5) == 0.0
    rng = GameRandom(1)
    assert all(volley(4, 5, rng)[1] <= 4 for _ in range(1000))


def test_the_fewest_attackers_needed_reach_the_confidence_and_one_fewer_does_not() -> None:
    for defenders in (1, 2, 5, 13, 40):
        for confidence in (0.5, 0.9, 0.99):
            need = attackers_needed(defenders, confidence)
            assert win_probability(need, defenders) >= confidence > win_probability(need - 1, defenders)
