"""C5: one roll of the dice. Highest against highest, then second against second when both rolled two or more;
the higher die wins, the defender wins ties; each lost comparison costs one army (shared/game/dice.py rolls and
compares them).

The exact odds of 3 dice against 2: the defender loses 2 in 2890/7776, each loses 1 in 2611/7776, the attacker
loses 2 in 2275/7776.
"""

from __future__ import annotations

from shared.game.dice import compare, outcomes, roll

__all__ = ["MAX_ATTACK_DICE", "MAX_DEFENCE_DICE", "compare", "defence_dice", "most_attack_dice", "outcomes", "roll"]

MAX_ATTACK_DICE = 3
MAX_DEFENCE_DICE = 2


def defence_dice(armies: int) -> int:
    """C5: the defender rolls the most it may, automatically: 2, or 1 with a single army."""
    return min(MAX_DEFENCE_DICE, armies)


def most_attack_dice(armies: int) -> int:
    """C5: at most 3, and at most the attacking country's armies - 1."""
    return min(MAX_ATTACK_DICE, armies - 1)
