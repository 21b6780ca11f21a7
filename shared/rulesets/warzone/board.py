"""A Warzone board: owners and units, pools, hands and the deck, who is out, who won, and every turn's statistics.

Never changed once made: a turn's execution works on copies and makes a new board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from shared.rulesets.warzone.cards import Card
from shared.rulesets.warzone.events import TurnStats

Owner = str | None
"""A player's name, or None for a neutral territory (W12)."""


class Phase(StrEnum):
    ORDERS = "orders"
    FINISHED = "finished"


@dataclass(frozen=True)
class WarzoneBoard:
    phase: Phase
    turn: int
    owner: Mapping[str, Owner]
    units: Mapping[str, int]
    pools: Mapping[str, int]
    hands: Mapping[str, tuple[Card, ...]]
    deck: tuple[Card, ...]
    eliminated: tuple[str, ...] = ()
    winner: str | None = None
    history: tuple[TurnStats, ...] = field(default=())
    """W14: the statistics of every turn played, for the end's table."""

    def evolve(self, **changes: Any) -> WarzoneBoard:
        return replace(self, **changes)

    def territories_of(self, player: Owner) -> list[str]:
        return [t for t, held in self.owner.items() if held == player]

    def alive(self, players: tuple[str, ...]) -> list[str]:
        return [p for p in players if p not in self.eliminated]
