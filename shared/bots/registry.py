"""Strategies by name: what `risc tournament -P` and bot seats accept."""

from __future__ import annotations

from shared.bots.aggressive import AggressiveStrategy
from shared.bots.base import Strategy
from shared.bots.defensive import DefensiveStrategy
from shared.bots.random_strategy import RandomStrategy
from shared.bots.strategist import StrategistStrategy

STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (RandomStrategy, AggressiveStrategy, DefensiveStrategy, StrategistStrategy)
}


def make_strategy(name: str) -> Strategy:
    """A fresh player of the named strategy; ValueError naming the known ones otherwise."""
    try:
        cls = STRATEGIES[name]
    except KeyError:
        known = ", ".join(sorted(STRATEGIES))
        raise ValueError(f'unknown strategy "{name}" (known: {known})') from None
    return cls()
