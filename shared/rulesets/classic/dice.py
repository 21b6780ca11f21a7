"""C5: one roll of the dice. Highest against highest, then second against second when both rolled two or more;
the higher die wins, the defender wins ties; each lost comparison costs one army.

`outcomes` enumerates every equally likely roll, so the exact odds (3 dice against 2: the defender loses 2 in
2890/7776, each loses 1 in 2611/7776, the attacker loses 2 in 2275/7776) come from the same comparison the game
plays, for the tests and the computer players.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

from shared.game.random import GameRandom

MAX_ATTACK_DICE = 3
MAX_DEFENCE_DICE = 2
FACES = 6


def compare(attack: tuple[int, ...], defence: tuple[int, ...]) -> tuple[int, int]:
    """The (attacker, defender) losses of one roll; dice in any order."""
    attacker_losses = defender_losses = 0
    for a, d in zip(sorted(attack, reverse=True), sorted(defence, reverse=True), strict=False):
        if a > d:
            defender_losses += 1
        else:
            attacker_losses += 1
    return attacker_losses, defender_losses


def defence_dice(armies: int) -> int:
    """C5: the defender rolls the most it may, automatically: 2, or 1 with a single army."""
    return min(MAX_DEFENCE_DICE, armies)


def most_attack_dice(armies: int) -> int:
    """C5: at most 3, and at most the attacking country's armies - 1."""
    return min(MAX_ATTACK_DICE, armies - 1)


def roll(rng: GameRandom, attack_dice: int, defence: int) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """Roll: the attacker's dice and the defender's, each highest first, then the (attacker, defender) losses."""
    attack = tuple(sorted((rng.d6() for _ in range(attack_dice)), reverse=True))
    defended = tuple(sorted((rng.d6() for _ in range(defence)), reverse=True))
    attacker_losses, defender_losses = compare(attack, defended)
    return attack, defended, attacker_losses, defender_losses


@cache
def outcomes(attack_dice: int, defence: int) -> dict[tuple[int, int], Fraction]:
    """The exact chance of each (attacker losses, defender losses) of one roll, over all 6^(a+d) rolls."""
    counts: Counter[tuple[int, int]] = Counter()
    for faces in product(range(1, FACES + 1), repeat=attack_dice + defence):
        counts[compare(faces[:attack_dice], faces[attack_dice:])] += 1
    total = FACES ** (attack_dice + defence)
    return {losses: Fraction(n, total) for losses, n in sorted(counts.items())}
