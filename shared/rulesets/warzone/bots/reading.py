"""One player's reading of the board: who holds what, what borders whom, how far a territory is from the front.

Everything iterates in the map's own territory order (never over a set), so a strategy given the same view and the
same generator makes the same choices in any process, whatever Python's string hashing does.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from shared.maps.model import GameMap
from shared.rulesets.warzone.cards import Card
from shared.rulesets.warzone.continents import ContinentInfo, continents
from shared.rulesets.warzone.view import WarzoneView


class Reading:
    def __init__(self, view: WarzoneView, game_map: GameMap, me: str) -> None:
        self.view = view
        self.game_map = game_map
        self.me = me
        self.names: tuple[str, ...] = game_map.names
        self.rank: dict[str, int] = {n: i for i, n in enumerate(self.names)}
        self.owner: dict[str, str | None] = {n: view.territories[n].owner for n in self.names}
        self.units: dict[str, int] = {n: view.territories[n].units for n in self.names}
        self.out: dict[str, tuple[str, ...]] = {n: game_map.neighbours_in_order(n) for n in self.names}
        into: dict[str, list[str]] = {n: [] for n in self.names}
        for name in self.names:
            for nxt in self.out[name]:
                into[nxt].append(name)
        self.into: dict[str, tuple[str, ...]] = {n: tuple(v) for n, v in into.items()}
        self.mine: tuple[str, ...] = tuple(n for n in self.names if self.owner[n] == me)
        self.opponents: tuple[str, ...] = tuple(p for p, s in view.players.items() if p != me and not s.eliminated)
        self.pool: int = view.players[me].pool if me in view.players else 0
        self.hand: dict[Card, int] = {Card(c): n for c, n in (view.hand or {}).items()}
        self.continents: tuple[ContinentInfo, ...] = continents(game_map)
        self.continent_of: dict[str, ContinentInfo] = {t: c for c in self.continents for t in c.members}

    def is_mine(self, name: str) -> bool:
        return self.owner[name] == self.me

    def enemies_next_to(self, name: str) -> tuple[str, ...]:
        """Where `name` can advance to that is not the player's: other players' and neutral territories."""
        return tuple(n for n in self.out[name] if self.owner[n] != self.me)

    def threats_to(self, name: str) -> tuple[str, ...]:
        """Other players' territories that can advance into `name` (neutrals never act, W12)."""
        return tuple(n for n in self.into[name] if self.owner[n] not in (self.me, None))

    def threat(self, name: str) -> int:
        """The largest force one other player has next to `name` now."""
        by_player: dict[str, int] = {}
        for source in self.threats_to(name):
            holder = self.owner[source]
            if holder is not None:
                by_player[holder] = by_player.get(holder, 0) + self.units[source]
        return max(by_player.values(), default=0)

    def fronts(self) -> tuple[str, ...]:
        """Own territories next to someone else's."""
        return tuple(n for n in self.mine if self.enemies_next_to(n) or self.threats_to(n))

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
