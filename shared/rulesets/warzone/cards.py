"""W13: the five cards and the deck of 50.

The deck is a tuple drawn from the front: a played card, and the hand of an eliminated player, go to the back. It is
shuffled once, by the game's generator, when the game is set up; after that nothing in it is left to chance, so
replaying a game's orders deals the same cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from shared.game.random import GameRandom


class Card(StrEnum):
    BOMB = "bomb"
    REINFORCEMENT = "reinforcement"
    BLOCKADE = "blockade"
    AIRLIFT = "airlift"
    DIPLOMACY = "diplomacy"


def a_card(card: Card) -> str:
    """A card in a sentence, with its article: "a bomb card", "an airlift card"."""
    article = "an" if card.value[0] in "aeiou" else "a"
    return f"{article} {card.value} card"


COPIES = 10
"""W13: ten of each card, 50 in all."""

REINFORCEMENT_UNITS = 5
"""W4: a reinforcement card adds this many units to the turn's pool."""


def new_deck(rng: GameRandom) -> tuple[Card, ...]:
    cards = [card for card in Card for _ in range(COPIES)]
    rng.shuffle(cards)
    return tuple(cards)


def count(hand: Sequence[Card]) -> dict[Card, int]:
    """How many of each card a hand holds, every card named (0 where none)."""
    return {card: sum(1 for held in hand if held is card) for card in Card}
