"""G4: one attack's dice. The attacker rolls m dice (m in 1..3, m < s), the defender n (n in 1..2, n <= t, the most,
automatically); highest against highest, second against second; the lower die loses one troop, and on a tie the
attacker loses (shared/game/dice.py rolls and compares them).

The spec calls the tie rule unlike classic Risk's; it is in fact the same rule, classic's "the defender wins ties",
told from the other side, so both games roll the same dice.
"""

from __future__ import annotations

from shared.game.dice import compare, outcomes, roll

__all__ = ["MAX_ATTACK", "MAX_DEFENCE", "compare", "defending", "most_attacking", "outcomes", "roll"]

MAX_ATTACK = 3
MAX_DEFENCE = 2


def most_attacking(troops: int) -> int:
    """G4: m <= 3 and m < s."""
    return min(MAX_ATTACK, troops - 1)


def defending(troops: int) -> int:
    """G4: n <= 2 and n <= t, the most the defender may."""
    return min(MAX_DEFENCE, troops)
