"""The six-sided dice of Risk's battles, shared by the games that roll them (classic Risk, the grid game): the
attacker's dice and the defender's, each sorted highest first, compared pair by pair; the higher die wins and a tie
goes to the defender (the grid game's seed says it the other way round, "the attacker loses on a tie": the same rule).

`outcomes` enumerates every equally likely roll, so the exact odds come from the same comparison the games play, for
the tests and the computer players.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

from shared.game.random import GameRandom

FACES = 6


def compare(attack: tuple[int, ...], defence: tuple[int, ...]) -> tuple[int, int]:
    """The (attacker, defender) losses of one roll; dice in any order."""
    attacker_losses = defender_losses = 0
    for a, d in zip(sorted(attack, reverse=True), sorted(defence, reverse=True), strict=False):
        if a > d:
            defender_losses += 1
        else:  # the lower die loses; a tie costs the attacker
            attacker_losses += 1
    return attacker_losses, defender_losses


def roll(rng: GameRandom, attack_dice: int, defence_dice: int) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """Roll: the attacker's dice and the defender's, each highest first, then the (attacker, defender) losses."""
    attack = tuple(sorted((rng.d6() for _ in range(attack_dice)), reverse=True))
    defence = tuple(sorted((rng.d6() for _ in range(defence_dice)), reverse=True))
    return (attack, defence, *compare(attack, defence))


@cache
def outcomes(attack_dice: int, defence_dice: int) -> dict[tuple[int, int], Fraction]:
    """The exact chance of each (attacker losses, defender losses) of one roll, over all 6^(a+d) rolls."""
    counts: Counter[tuple[int, int]] = Counter()
    for faces in product(range(1, FACES + 1), repeat=attack_dice + defence_dice):
        counts[compare(faces[:attack_dice], faces[attack_dice:])] += 1
    total = FACES ** (attack_dice + defence_dice)
    return {losses: Fraction(n, total) for losses, n in sorted(counts.items())}
