"""C4: the deck of cards, what makes a set, and what a set is worth on each schedule.

A card is a plain value (a country and its symbol, or a wildcard); a hand is a tuple in the order the cards came,
and a player names a set by positions in it (`exchangecards 1 3 4`), as the SOEN 6441 grammar has it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from shared.rulesets.classic.options import CardSchedule

SET_SIZE = 3
MUST_TRADE_AT = 5
"""C4: a player holding this many cards at reinforcement must trade until fewer remain."""
WILDCARDS = 2


class Symbol(StrEnum):
    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"
    WILDCARD = "wildcard"


SYMBOLS = (Symbol.INFANTRY, Symbol.CAVALRY, Symbol.ARTILLERY)
"""The three symbols a country card may show, dealt in this order down the map's countries."""

FIXED_VALUES = {Symbol.INFANTRY: 4, Symbol.CAVALRY: 6, Symbol.ARTILLERY: 8}
FIXED_ONE_OF_EACH = 10
INCREASING_START = (4, 6, 8, 10, 12, 15)
"""Domination's increasing sets: these, then 5 more with each trade."""


@dataclass(frozen=True)
class Card:
    symbol: Symbol
    country: str | None = None
    """None for a wildcard."""

    def __str__(self) -> str:
        return "wildcard" if self.country is None else f"{self.country} ({self.symbol})"


def make_deck(countries: Sequence[str]) -> list[Card]:
    """One card per country, the symbols in equal shares by the map's order, and the two wildcards (C4)."""
    deck = [Card(SYMBOLS[i % len(SYMBOLS)], name) for i, name in enumerate(countries)]
    deck += [Card(Symbol.WILDCARD) for _ in range(WILDCARDS)]
    return deck


def is_set(cards: Sequence[Card]) -> bool:
    """Three of a kind, one of each, or either completed by wildcards (any three cards with a wildcard among them)."""
    if len(cards) != SET_SIZE:
        return False
    plain = [c.symbol for c in cards if c.symbol is not Symbol.WILDCARD]
    if len(plain) < SET_SIZE:
        return True
    kinds = len(set(plain))
    return kinds in (1, SET_SIZE)


def fixed_value(cards: Sequence[Card]) -> int:
    """Domination's fixed sets. A wildcard counts as whatever makes the set worth most, as Domination reckons it:
    with two cards alike it completes three of a kind, otherwise one of each."""
    plain = Counter(c.symbol for c in cards if c.symbol is not Symbol.WILDCARD)
    if len(plain) == 1:
        ((symbol, count),) = plain.items()
        if count >= 2:
            return FIXED_VALUES[symbol]
    return FIXED_ONE_OF_EACH


def schedule_value(schedule: CardSchedule, trades_before: int) -> int:
    """What the next set is worth on an increasing schedule, after `trades_before` trades by anyone."""
    if schedule is CardSchedule.SEED:
        return 5 * (trades_before + 1)
    if trades_before < len(INCREASING_START):
        return INCREASING_START[trades_before]
    return INCREASING_START[-1] + 5 * (trades_before - len(INCREASING_START) + 1)


def trade_value(schedule: CardSchedule, trades_before: int, cards: Sequence[Card]) -> int:
    if schedule is CardSchedule.FIXED:
        return fixed_value(cards)
    return schedule_value(schedule, trades_before)


def sets_in(hand: Sequence[Card]) -> list[tuple[int, int, int]]:
    """Every set in a hand, as 1-based positions (the grammar's numbering), in order."""
    found: list[tuple[int, int, int]] = []
    for a, b, c in combinations(range(len(hand)), SET_SIZE):
        if is_set((hand[a], hand[b], hand[c])):
            found.append((a + 1, b + 1, c + 1))
    return found


def best_set(hand: Sequence[Card], schedule: CardSchedule, trades_before: int) -> tuple[int, int, int] | None:
    """The set worth most (the first such, spending wildcards last), or None."""
    best: tuple[int, int, int] | None = None
    best_key = (-1, 0)
    for positions in sets_in(hand):
        cards = [hand[p - 1] for p in positions]
        wild = sum(c.symbol is Symbol.WILDCARD for c in cards)
        key = (trade_value(schedule, trades_before, cards), -wild)
        if key > best_key:
            best, best_key = positions, key
    return best
