"""A game as the framework holds it: the seats, a step counter, the orders under way, and the rule set's board.

The framework's part (who plays, how many resolutions so far, who issued what and who has committed) is kept apart
from the board, which only the game's rule set reads or changes (boardgame.io's `ctx` and `G`). Games are immutable:
every change makes a new one, so a change that cannot be saved leaves the old game exactly as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from shared.maps.model import GameMap

BoardT = TypeVar("BoardT")
OrderT = TypeVar("OrderT")


@dataclass(frozen=True)
class Game(Generic[BoardT, OrderT]):
    ruleset: str
    game_map: GameMap
    players: tuple[str, ...]
    options: Any
    """The rule set's options, validated (its own model)."""
    board: BoardT
    step: int = 0
    """Resolutions so far: a turn of a simultaneous game, an action of a turn-by-turn one. Dice come from it."""
    orders: Mapping[str, tuple[OrderT, ...]] = field(default_factory=dict)
    """Each player's orders issued and not yet resolved, in the order issued."""
    committed: frozenset[str] = frozenset()
    tallies: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """What each player's issued orders use up, as their rule set counts it: kept so that checking one more order
    does not replay the earlier ones. A cache: rebuilt from `orders` whenever it is missing."""

    def orders_of(self, player: str) -> tuple[OrderT, ...]:
        return self.orders.get(player, ())

    def evolve(self, **changes: Any) -> Game[BoardT, OrderT]:
        return replace(self, **changes)
