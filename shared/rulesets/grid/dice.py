"""G4: one attack's dice. The attacker rolls m dice (m in 1..3, m < s), the defender n (n in 1..2, n <= t, the most,
automatically); highest against highest, second against second; the lower die loses one troop, and on a tie the
attacker loses.

(The spec calls the tie rule unlike classic Risk's; it is in fact the same rule, classic's "the defender wins ties",
told from the other side. The rule sets keep their own copies: each follows its own rules page.)
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

from shared.game.random import GameRandom

MAX_ATTACK = 3
MAX_DEFENCE = 2
FACES = 6


def compare(attack: tuple[int, ...], defence: tuple[int, ...]) -> tuple[int, int]:
    """The (attacker, defender) losses; dice in any order."""
    attacker_losses = defender_losses = 0
    for a, d in zip(sorted(attack, reverse=True), sorted(defence, reverse=True), strict=False):
        if a > d:
            defender_losses += 1
        else:  # the lower die loses; a tie costs the attacker
            attacker_losses += 1
    return attacker_losses, defender_losses


def most_attacking(troops: int) -> int:
    """G4: m <= 3 and m < s."""
    return min(MAX_ATTACK, troops - 1)


def defending(troops: int) -> int:
    """G4: n <= 2 and n <= t, the most the defender may."""
    return min(MAX_DEFENCE, troops)


def roll(rng: GameRandom, attack_dice: int, defence_dice: int) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    attack = tuple(sorted((rng.d6() for _ in range(attack_dice)), reverse=True))
    defence = tuple(sorted((rng.d6() for _ in range(defence_dice)), reverse=True))
    return (attack, defence, *compare(attack, defence))


@cache
def outcomes(attack_dice: int, defence_dice: int) -> dict[tuple[int, int], Fraction]:
    """The exact chance of each (attacker losses, defender losses) of one roll."""
    counts: Counter[tuple[int, int]] = Counter()
    for faces in product(range(1, FACES + 1), repeat=attack_dice + defence_dice):
        counts[compare(faces[:attack_dice], faces[attack_dice:])] += 1
    total = FACES ** (attack_dice + defence_dice)
    return {losses: Fraction(n, total) for losses, n in sorted(counts.items())}
