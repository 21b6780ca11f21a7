"""A RISC board: owners and units, the placement pools, who is out and who won. Never mutated once made."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

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

    def evolve(self, **changes: Any) -> RiscBoard:
        return replace(self, **changes)

    def territories_of(self, player: Owner) -> list[str]:
        return [t for t, held in self.owner.items() if held == player]
