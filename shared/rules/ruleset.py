"""The seam between a game's rules and the match that runs it.

A match knows nothing about moves or dice. It asks the ruleset who must still act (`awaiting`), checks each order as
it is issued and each batch as it is committed, and once nobody is awaited, asks it to resolve. RISC and Warzone await
every player and resolve once per turn; a turn-by-turn game such as classic Risk awaits only the active player and
sets `resolves_each_order`, so that each order is committed and resolved as it arrives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from shared.maps.model import GameMap
from shared.rules.errors import RuleError
from shared.rules.events import Event
from shared.rules.orders import Order
from shared.rules.random import GameRandom
from shared.rules.state import GameState


@dataclass(frozen=True)
class GameOptions:
    """What a game's creator may choose. None means the ruleset's default for the map and player count."""

    initial_units: int | None = None
    neutral_units: int = 3
    random_groups: bool = True


class Ruleset(Protocol):
    name: str
    resolves_each_order: bool

    def setup(self, game_map: GameMap, players: Sequence[str], options: GameOptions, rng: GameRandom,
              chosen_groups: Mapping[str, int] | None = None) -> GameState:
        """The state before anyone has acted: groups assigned (R6-R8), pools handed out (R9)."""
        ...

    def check_order(self, state: GameState, player: str, order: Order) -> RuleError | None:
        """Is `order` legal after the orders `player` has already issued this turn?"""
        ...

    def check_commit(self, state: GameState, player: str) -> RuleError | None:
        """May `player` commit the orders they have issued, taken as a whole?"""
        ...

    def awaiting(self, state: GameState) -> frozenset[str]:
        """Players whose commit the next resolution waits for."""
        ...

    def complete_for_timeout(self, state: GameState, player: str) -> GameState:
        """Make `player`'s issued orders committable when the turn's time runs out (D3)."""
        ...

    def resolve(self, state: GameState, orders_by_player: Mapping[str, Sequence[Order]],
                rng: GameRandom) -> tuple[GameState, list[Event]]:
        """Execute every awaited player's batch (an empty one where they issued nothing)."""
        ...
