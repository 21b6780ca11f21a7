"""One player's reading of the board: who holds what, where their units can walk, what can strike them.

Everything here iterates in the map's own territory order (never over a set), so a strategy given the same view and
the same random generator makes the same choices in any process, whatever Python's string hashing does.
"""

from __future__ import annotations

from collections import deque

from shared.maps.model import GameMap
from shared.rulesets.risc.board import Owner
from shared.rulesets.risc.view import RiscView


class Board:
    def __init__(self, view: RiscView, game_map: GameMap, me: str) -> None:
        self.me: str = me
        self.names: tuple[str, ...] = game_map.names
        self.rank: dict[str, int] = {name: i for i, name in enumerate(self.names)}
        self.owner: dict[str, Owner] = {name: view.territories[name].owner for name in self.names}
        self.units: dict[str, int] = {name: view.territories[name].units for name in self.names}
        # Borders may be one-way: `out` is where a territory can send units, `into` who can send units to it.
        self.out: dict[str, tuple[str, ...]] = {n: game_map.neighbours_in_order(n) for n in self.names}
        into: dict[str, list[str]] = {n: [] for n in self.names}
        for name in self.names:
            for nxt in self.out[name]:
                into[nxt].append(name)
        self.into: dict[str, tuple[str, ...]] = {n: tuple(v) for n, v in into.items()}
        self.mine: tuple[str, ...] = tuple(n for n in self.names if self.owner[n] == self.me)
        self.opponents: tuple[str, ...] = tuple(
            name for name, p in view.players.items() if not p.eliminated and name != self.me
        )
        self.territory_count: dict[Owner, int] = {}
        self.unit_count: dict[Owner, int] = {}
        for name in self.names:
            holder = self.owner[name]
            self.territory_count[holder] = self.territory_count.get(holder, 0) + 1
            self.unit_count[holder] = self.unit_count.get(holder, 0) + self.units[name]
        self._reach: dict[str, tuple[str, ...]] = {}

    def is_mine(self, name: str) -> bool:
        return self.owner[name] == self.me

    def targets(self, source: str) -> tuple[str, ...]:
        """What `source` can attack: adjacent territories someone else holds (R14)."""
        return tuple(n for n in self.out[source] if self.owner[n] != self.me)

    def attackers_of(self, name: str) -> tuple[str, ...]:
        """Territories of other players that border `name` (neutrals never act, R7)."""
        return tuple(n for n in self.into[name] if self.owner[n] not in (self.me, None))

    def reach(self, source: str) -> tuple[str, ...]:
        """Own territories that units in `source` can move to this turn (R13), `source` first, then by distance."""
        found = self._reach.get(source)
        if found is None:
            seen = {source}
            order = [source]
            queue = deque([source])
            while queue:
                for nxt in self.out[queue.popleft()]:
                    if nxt not in seen and self.owner[nxt] == self.me:
                        seen.add(nxt)
                        order.append(nxt)
                        queue.append(nxt)
            found = tuple(order)
            self._reach[source] = found
        return found

    def can_move(self, source: str, target: str) -> bool:
        return target in self.reach(source)

    def frontier(self) -> tuple[str, ...]:
        """Own territories that can attack or be attacked."""
        return tuple(n for n in self.mine if self.targets(n) or self.attackers_of(n))

    def threat(self, name: str) -> int:
        """The largest force one other player has on territories bordering `name` right now."""
        by_player: dict[Owner, int] = {}
        for source in self.attackers_of(name):
            holder = self.owner[source]
            by_player[holder] = by_player.get(holder, 0) + self.units[source]
        return max(by_player.values(), default=0)

    def groups(self) -> list[tuple[str, ...]]:
        """Own territories in groups whose units can all gather anywhere in the group (two-way reach)."""
        left = list(self.mine)
        result: list[tuple[str, ...]] = []
        while left:
            first = left[0]
            members = {n for n in self.reach(first) if first in self.reach(n)}
            group = tuple(n for n in left if n in members)
            result.append(group)
            left = [n for n in left if n not in members]
        return result
