"""What a board of RISC Evolutions 2 and 3 holds beyond Evolution 1's owners and units.

An Evolution 1 board has none of it (`RiscBoard.evo` is None), so boards stored before the evolutions existed load
unchanged and dump the same. Every collection is keyed by name (territory or player), as the rest of the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from shared.rulesets.risc.levels import Levels
from shared.rulesets.risc.resources import Land, Stock


@dataclass(frozen=True)
class Sighting:
    """E12: what a player last saw of a territory, and on which turn (the turn whose orders they gave seeing it)."""

    turn: int
    owner: str | None
    levels: Levels


@dataclass(frozen=True)
class EvoState:
    land: Mapping[str, Land]
    """E1: each territory's size and production, fixed for the game."""
    levels: Mapping[str, Levels]
    """E2: units per level on each territory; their sum is the board's `units` for it."""
    stocks: Mapping[str, Stock]
    """E2: each player's food and technology."""
    tech_level: Mapping[str, int]
    """E2, E6: each player's maximum technology level."""
    cloaking: tuple[str, ...] = ()
    """E14: players who have researched cloaking."""
    cloaked: Mapping[str, int] = field(default_factory=dict)
    """E14: territories hidden from other players' adjacency view, to the last turn they stay hidden."""
    spies: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """E13: each player's spies, by territory."""
    memory: Mapping[str, Mapping[str, Sighting]] = field(default_factory=dict)
    """E12: what each player last saw of each territory they have ever seen (Evolution 3)."""

    def evolve(self, **changes: Any) -> EvoState:
        return replace(self, **changes)

    def spies_of(self, player: str) -> Mapping[str, int]:
        return self.spies.get(player, {})
