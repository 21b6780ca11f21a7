"""W7: the 60/70 battle, one volley each way, drawn exactly.

Every attacking unit destroys one defender with probability 0.6 and, at the same time, every defending unit destroys
one attacker with probability 0.7: the defenders lost are Binomial(attackers, 0.6) and the attackers lost
Binomial(defenders, 0.7), each capped at the size of the side. GameRandom.binomial draws them exactly in constant
expected time, so a battle of thousands costs what a battle of three does.

The exact probabilities are here too: the tests compare the draws with them, and computer players size their
attacks by them.
"""

from __future__ import annotations

import bisect
import math
from functools import lru_cache

from shared.game.random import GameRandom

P_ATTACKER_KILLS = 0.6
P_DEFENDER_KILLS = 0.7


def volley(attackers: int, defenders: int, rng: GameRandom) -> tuple[int, int]:
    """The losses (attacker's, defender's) of one battle. Defenders' losses are drawn first."""
    if attackers < 0 or defenders < 0:
        raise ValueError("armies cannot be negative")
    defender_losses = min(defenders, rng.binomial(attackers, P_ATTACKER_KILLS)) if attackers and defenders else 0
    attacker_losses = min(attackers, rng.binomial(defenders, P_DEFENDER_KILLS)) if attackers and defenders else 0
    return attacker_losses, defender_losses


def binomial_pmf(n: int, p: float, k: int) -> float:
    """P(Binomial(n, p) = k), in logarithms so that large armies neither overflow nor underflow."""
    if k < 0 or k > n:
        return 0.0
    if p <= 0.0 or p >= 1.0:
        return float(k == (n if p >= 1.0 else 0))
    log = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * math.log(p) + (n - k) * math.log1p(-p)
    return math.exp(log)


@lru_cache(maxsize=65_536)
def _at_least(n: int, p: float, k: int) -> float:
    """P(Binomial(n, p) >= k)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return min(1.0, sum(binomial_pmf(n, p, j) for j in range(k, n + 1)))


def win_probability(attackers: int, defenders: int) -> float:
    """The chance that `attackers` take a territory held by `defenders` in one battle: every defender destroyed
    and at least one attacker left (the two volleys are independent)."""
    if attackers <= 0:
        return 0.0
    if defenders <= 0:
        return 1.0
    return _at_least(attackers, P_ATTACKER_KILLS, defenders) * (1.0 - _at_least(defenders, P_DEFENDER_KILLS, attackers))


def attackers_needed(defenders: int, confidence: float, limit: int = 100_000) -> int:
    """The fewest attackers that take `defenders` with at least `confidence` (`limit` + 1 if none up to it)."""
    if defenders <= 0:
        return 1
    low = defenders  # fewer than `defenders` attackers can never destroy them all
    high = max(low, 2 * defenders + 4)
    while win_probability(high, defenders) < confidence:
        if high > limit:
            return limit + 1
        high *= 2
    return bisect.bisect_left(range(low, high), True, key=lambda n: win_probability(n, defenders) >= confidence) + low
