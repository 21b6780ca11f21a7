"""A computer player's reading of a board of territories: who holds what and how many units, where units can go and
come from, in the map's own territory order (never a set's), so that a strategy given the same view and the same
random generator makes the same choices in any process, whatever Python's string hashing does. Each rule set's
computer players add what their game has (RISC's reach, Warzone's cards and continents)."""

from __future__ import annotations

from typing import Any

from shared.maps.model import GameMap


class BoardReading:
    def __init__(self, view: Any, game_map: GameMap, me: str) -> None:
        """`view`: the player's view, whose `territories` have an `owner` and `units` and whose `players` say who
        is `eliminated`."""
        self.me: str = me
        self.names: tuple[str, ...] = game_map.names
        self.rank: dict[str, int] = {name: i for i, name in enumerate(self.names)}
        self.owner: dict[str, str | None] = {name: view.territories[name].owner for name in self.names}
        self.units: dict[str, int] = {name: view.territories[name].units for name in self.names}
        # Borders may be one-way: `out` is where a territory can send units, `into` who can send units to it.
        self.out: dict[str, tuple[str, ...]] = {n: game_map.neighbours_in_order(n) for n in self.names}
        into: dict[str, list[str]] = {n: [] for n in self.names}
        for name in self.names:
            for nxt in self.out[name]:
                into[nxt].append(name)
        self.into: dict[str, tuple[str, ...]] = {n: tuple(v) for n, v in into.items()}
        self.mine: tuple[str, ...] = tuple(n for n in self.names if self.owner[n] == me)
        self.opponents: tuple[str, ...] = tuple(p for p, s in view.players.items() if p != me and not s.eliminated)

    def is_mine(self, name: str) -> bool:
        return self.owner[name] == self.me

    def targets(self, source: str) -> tuple[str, ...]:
        """Where units of `source` can go that is not the player's: other players' and neutral territories."""
        return tuple(n for n in self.out[source] if self.owner[n] != self.me)

    def attackers_of(self, name: str) -> tuple[str, ...]:
        """Other players' territories that can send units into `name` (neutrals never act)."""
        return tuple(n for n in self.into[name] if self.owner[n] not in (self.me, None))
