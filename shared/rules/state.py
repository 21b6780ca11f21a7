"""The state of one game: everything the rules need, nothing about connections or clocks.

States are treated as immutable: every rule function returns a new one. The dicts inside are never mutated after
construction (the engine copies before changing), which keeps snapshots cheap to hand around and safe to share.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from shared.maps.model import GameMap
from shared.rules.orders import Order

Owner = str | None
"""A player's name, or None for a neutral territory (R7)."""


class Phase(StrEnum):
    PLACEMENT = "placement"
    ORDERS = "orders"
    FINISHED = "finished"


@dataclass(frozen=True)
class GameState:
    game_map: GameMap
    ruleset: str
    players: tuple[str, ...]
    phase: Phase
    turn: int
    owner: Mapping[str, Owner]
    units: Mapping[str, int]
    pools: Mapping[str, int] = field(default_factory=dict)
    orders: Mapping[str, tuple[Order, ...]] = field(default_factory=dict)
    committed: frozenset[str] = frozenset()
    eliminated: tuple[str, ...] = ()
    winner: str | None = None

    @property
    def alive(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.eliminated)

    def territories_of(self, player: Owner) -> list[str]:
        return [t for t in self.game_map.names if self.owner[t] == player]

    def orders_of(self, player: str) -> tuple[Order, ...]:
        return self.orders.get(player, ())

    def evolve(self, **changes: object) -> GameState:
        return replace(self, **changes)  # type: ignore[arg-type]
