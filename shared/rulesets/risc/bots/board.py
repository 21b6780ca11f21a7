"""One RISC player's reading of the board (shared/game/board_reading.py), with where their units can walk (R13) and
how much each holder has.
"""

from __future__ import annotations

from collections import deque

from shared.game.board_reading import BoardReading
from shared.maps.model import GameMap
from shared.rulesets.risc.board import Owner
from shared.rulesets.risc.view import RiscView


class Board(BoardReading):
    def __init__(self, view: RiscView, game_map: GameMap, me: str) -> None:
        super().__init__(view, game_map, me)
        self.territory_count: dict[Owner, int] = {}
        self.unit_count: dict[Owner, int] = {}
        for name in self.names:
            holder = self.owner[name]
            self.territory_count[holder] = self.territory_count.get(holder, 0) + 1
            self.unit_count[holder] = self.unit_count.get(holder, 0) + self.units[name]
        self._reach: dict[str, tuple[str, ...]] = {}

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
