"""A RISC board: owners and units, the placement pools, who is out and who won, and in Evolutions 2 and 3 what
they add (`evo`). Never mutated once made."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from shared.rulesets.risc.evo_board import EvoState

Owner = str | None
"""A player's name, or None for a neutral territory (R7)."""


class Phase(StrEnum):
    PLACEMENT = "placement"
    ORDERS = "orders"
    FINISHED = "finished"


@dataclass(frozen=True)
class RiscBoard:
    phase: Phase
    turn: int
    owner: Mapping[str, Owner]
    units: Mapping[str, int]
    pools: Mapping[str, int] = field(default_factory=dict)
    eliminated: tuple[str, ...] = ()
    winner: str | None = None
    evo: EvoState | None = None
    """Evolutions 2 and 3 (levels, resources, technology, fog): None in Evolution 1."""

    def evolve(self, **changes: Any) -> RiscBoard:
        return replace(self, **changes)

    def territories_of(self, player: Owner) -> list[str]:
        return [t for t, held in self.owner.items() if held == player]
