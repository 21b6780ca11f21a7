"""A game as the framework holds it: the seats, a step counter, the orders under way, and the rule set's board.

The framework's part (who plays, how many resolutions so far, who issued what and who has committed) is kept apart
from the board, which only the game's rule set reads or changes (boardgame.io's `ctx` and `G`). Games are immutable:
every change makes a new one, so a change that cannot be saved leaves the old game exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
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
        """A copy with `changes`: made without going through __init__ (a game is copied once per order issued, and
        dataclasses.replace cost more than checking the order). What was worked out from the board (`cached`) is
        kept while the board and the players stay, and dropped with them."""
        unknown = changes.keys() - _FIELDS
        if unknown:
            return replace(self, **changes)  # raises the usual TypeError naming them
        made = object.__new__(type(self))
        state = made.__dict__
        state.update(self.__dict__)
        state.update(changes)
        if "board" in changes or "players" in changes:
            state.pop(CACHED, None)
        return made

    def cached(self, key: str, make: Callable[[], Any]) -> Any:
        """A value worked out once from the board and the players (games are immutable), such as the rule set's
        status: it serves this game and the games evolved from it with other orders or commitments."""
        values: dict[str, Any] | None = self.__dict__.get(CACHED)
        if values is None:
            values = {}
            object.__setattr__(self, CACHED, values)
        found = values.get(key, _MISSING)
        if found is _MISSING:
            found = values[key] = make()
        return found


CACHED = "_cached"
"""The attribute under which `Game.cached` keeps what it worked out (turns.status_of reads it first)."""
_MISSING = object()
_FIELDS = frozenset(f.name for f in fields(Game))
