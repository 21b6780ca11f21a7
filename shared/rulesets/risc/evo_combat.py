"""E9: combat between units of levels. Each round pairs one attacking unit with one defending unit; each side rolls a
d20 (the attacker's first) and adds its unit's bonus; the lower total loses that unit, the defender winning ties.

The pairs alternate, taken afresh from the survivors each round: in the first round (and every odd one) the
attacker's highest-level unit meets the defender's lowest, in the second (and every even one) the attacker's lowest
meets the defender's highest. That is the one reading of the handout's example that fits it: attackers 15, 8, 1, 0
(bonuses) against defenders 8, 8, 3, 1 fight A15 v D1, then A0 v D8, then A15 v D3 — the third pair is again the
attacker's highest against the defender's lowest, and D3 is the defender's lowest only once D1 has fallen, so the
pairs are chosen among the units still standing (A15 won the first round; the second, whatever its outcome, leaves
A15 and D3 for the third).

Rolled round by round: units of different levels make every round different, and a force rarely outgrows a few
hundred units in a game, so there is no shortcut as in Evolution 1's `fight`.
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.game.random import GameRandom
from shared.rulesets.risc.levels import BONUS, LEVELS, Levels


def pairing(attackers: Sequence[int], defenders: Sequence[int], round_index: int) -> tuple[int, int]:
    """The levels that meet in round `round_index` (0-based), among the units standing: (attacker's, defender's)."""
    present_a = [level for level in range(LEVELS) if attackers[level] > 0]
    present_d = [level for level in range(LEVELS) if defenders[level] > 0]
    if round_index % 2 == 0:
        return present_a[-1], present_d[0]
    return present_a[0], present_d[-1]


def fight_levels(attacking: Sequence[int], defending: Sequence[int], rng: GameRandom) -> tuple[Levels, Levels]:
    """One attacking force against one territory's defenders until one side has no units: the survivors of each,
    per level."""
    if any(n < 0 for n in (*attacking, *defending)):
        raise ValueError("forces cannot be negative")
    attackers, defenders = list(attacking), list(defending)
    left_a, left_d = sum(attackers), sum(defenders)
    round_index = 0
    while left_a > 0 and left_d > 0:
        a, d = pairing(attackers, defenders, round_index)
        if rng.d20() + BONUS[a] > rng.d20() + BONUS[d]:
            defenders[d] -= 1
            left_d -= 1
        else:
            attackers[a] -= 1
            left_a -= 1
        round_index += 1
    return tuple(attackers), tuple(defenders)
