"""Exact odds of RISC combat (R20), for strategies that weigh an attack before ordering it.

One fight is a race: the attacker takes a territory once the defenders have lost `d` rounds, before the attackers
have lost `a`. That happens exactly when the attacker wins at least `d` of the first `a + d - 1` rounds, so
P(attacker wins) is a binomial tail. Summed exactly for the sizes a game reaches in its first hundred turns; past
that a normal approximation is within a thousandth, far below what a strategy's choice turns on.
"""

from __future__ import annotations

import bisect
import math
from functools import lru_cache

from shared.rulesets.risc.combat import P_ATTACKER_WINS_ROUND

EXACT_ROUNDS = 600
"""Up to this many rounds the tail is summed term by term; beyond it, the normal approximation takes over."""

_P = P_ATTACKER_WINS_ROUND
_Q = 1.0 - _P
_LOG_P = math.log(_P)
_LOG_Q = math.log(_Q)


@lru_cache(maxsize=1 << 16)
def win_probability(attackers: int, defenders: int) -> float:
    """P(the attackers take the territory): `attackers` units against `defenders` units, defender wins ties."""
    if attackers <= 0:
        return 0.0
    if defenders <= 0:
        return 1.0
    rounds = attackers + defenders - 1
    if rounds > EXACT_ROUNDS:
        mean = rounds * _P
        spread = math.sqrt(rounds * _P * _Q)
        return 0.5 * math.erfc((defenders - 0.5 - mean) / (spread * math.sqrt(2.0)))
    # Sum over k = attacker losses before the last defender falls: C(d-1+k, k) p^d q^k, k < a, in log space.
    log_term = defenders * _LOG_P
    total = 0.0
    for k in range(attackers):
        if k:
            log_term += math.log((defenders - 1 + k) / k) + _LOG_Q
        total += math.exp(log_term)
    return min(total, 1.0)


@lru_cache(maxsize=1 << 14)
def attackers_needed(defenders: int, confidence: float) -> int:
    """The fewest attackers that take `defenders` with probability at least `confidence` (0 < confidence < 1)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError("confidence must lie strictly between 0 and 1")
    if defenders <= 0:
        return 1
    low, high = 1, max(2, 2 * defenders + 4)
    while win_probability(high, defenders) < confidence:
        low, high = high, high * 2
    return bisect.bisect_left(range(low, high), True, key=lambda n: win_probability(n, defenders) >= confidence) + low


def expected_attacker_losses(attackers: int, defenders: int) -> float:
    """Roughly what a won fight costs: each defender falls after q/p attacker losses on average."""
    return min(float(attackers), defenders * _Q / _P)
