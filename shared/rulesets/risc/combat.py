"""Combat (R20): rounds of one d20 each side, the lower roll loses a unit, the defender wins ties.

Rolling every round costs time linear in the armies. `fight` gets the same distribution in about log(n) steps:
while both sides hold more than k units, the next k - 1 rounds cannot end the battle, so the defender's losses
over them are exactly Binomial(k - 1, P_ATTACKER_WINS_ROUND); only the last few rounds are rolled one by one.
"""

from __future__ import annotations

from shared.game.random import GameRandom

P_ATTACKER_WINS_ROUND = 190 / 400
"""Of the 400 equally likely pairs of d20 rolls, the attacker's is strictly higher in 190."""

DICE_BELOW = 8
"""Under this many units on the smaller side, dice are rolled round by round."""


def roll_round_by_round(attackers: int, defenders: int, rng: GameRandom) -> tuple[int, int]:
    """R20 literally: returns the survivors (attackers, defenders); exactly one of them is 0."""
    while attackers > 0 and defenders > 0:
        if rng.d20() > rng.d20():
            defenders -= 1
        else:
            attackers -= 1
    return attackers, defenders


def fight(attackers: int, defenders: int, rng: GameRandom, dice_below: int = DICE_BELOW) -> tuple[int, int]:
    """R20 at any size, with the round-by-round distribution: returns the survivors (attackers, defenders)."""
    if attackers < 0 or defenders < 0:
        raise ValueError("armies cannot be negative")
    while min(attackers, defenders) > max(dice_below, 1):
        safe_rounds = min(attackers, defenders) - 1
        defender_losses = rng.binomial(safe_rounds, P_ATTACKER_WINS_ROUND)
        defenders -= defender_losses
        attackers -= safe_rounds - defender_losses
    return roll_round_by_round(attackers, defenders, rng)
