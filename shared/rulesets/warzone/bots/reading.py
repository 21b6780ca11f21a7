"""One Warzone player's reading of the board (shared/game/board_reading.py), with their pool, cards and continents,
what threatens a territory and how far it is from the front, in the map's own territory order as the rest.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from shared.game.board_reading import BoardReading
from shared.maps.model import GameMap
from shared.rulesets.warzone.cards import Card
from shared.rulesets.warzone.continents import ContinentInfo, continents
from shared.rulesets.warzone.view import WarzoneView


class Reading(BoardReading):
    def __init__(self, view: WarzoneView, game_map: GameMap, me: str) -> None:
        super().__init__(view, game_map, me)
        self.view = view
        self.game_map = game_map
        self.pool: int = view.players[me].pool if me in view.players else 0
        self.hand: dict[Card, int] = {Card(c): n for c, n in (view.hand or {}).items()}
        self.continents: tuple[ContinentInfo, ...] = continents(game_map)
        self.continent_of: dict[str, ContinentInfo] = {t: c for c in self.continents for t in c.members}

    def threat(self, name: str) -> int:
        """The largest force one other player has next to `name` now."""
        by_player: dict[str, int] = {}
        for source in self.attackers_of(name):
            holder = self.owner[source]
            if holder is not None:
                by_player[holder] = by_player.get(holder, 0) + self.units[source]
        return max(by_player.values(), default=0)

    def fronts(self) -> tuple[str, ...]:
        """Own territories next to someone else's."""
        return tuple(n for n in self.mine if self.targets(n) or self.attackers_of(n))

    def bombable(self) -> tuple[str, ...]:
        """W8: territories not the player's that one of the player's territories borders."""
        found = {t for s in self.mine for t in self.out[s] if self.owner[t] != self.me}
        return tuple(n for n in self.names if n in found)

    def step_towards(self, goals: Iterable[str]) -> dict[str, str]:
        """For each own territory not in `goals`, the own neighbour one step nearer to one of them (through own
        territories); territories that cannot reach any are left out."""
        goal_set = set(goals)
        nxt: dict[str, str] = {}
        queue = deque(n for n in self.mine if n in goal_set)
        seen = set(queue)
        while queue:
            here = queue.popleft()
            for before in self.into[here]:
                if before not in seen and self.owner[before] == self.me:
                    seen.add(before)
                    nxt[before] = here
                    queue.append(before)
        return nxt
