"""Territory sizes and production, players' stocks, and what moving costs (E1, E2, E4).

E1: a native map may give every territory its size and its production of food and technology; otherwise they are
assigned from the map's starting groups and the game's seed so that every group has the same total size and the same
total production. The assignment deals each group the same hand of territory profiles, shuffled, so the totals are
equal by construction and the map's geography decides only where each profile lands. A map's own figures are kept
only when they are fair for the game's groups (the same totals in every group); a map that gives figures which are
unfair for this player count is assigned figures like any other, since E1 promises equal groups.

E4: a move costs the total size of the territories on the cheapest path of the player's own territories, both ends
included, times the units moved. `PathCosts` finds those paths (Dijkstra, the cost of a step being the size of the
territory stepped into), each source searched at most once per board.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from shared.game.random import GameRandom
from shared.maps.model import GameMap

SIZES = (1, 3)
FOOD = (5, 15)
TECHNOLOGY = (5, 15)
"""Ranges (inclusive) of the assigned profiles: a territory costs 1 to 3 to cross and yields 5 to 15 of each
resource a turn, so three territories feed a player about 30 of each, a few moves or upgrades a turn."""

STARTING_STOCK = 100
"""E2: food and technology each player holds at the start, unless the game's creator chose otherwise."""


@dataclass(frozen=True)
class Land:
    """What a territory is worth (E1): its size and its production of food and technology per turn."""

    size: int = 1
    food: int = 0
    technology: int = 0


@dataclass(frozen=True)
class Stock:
    """A player's stock of food and technology (E2)."""

    food: int = 0
    technology: int = 0


def map_land(game_map: GameMap) -> dict[str, Land] | None:
    """The map's own figures, when it gives production for every territory; None otherwise."""
    if any(t.food is None or t.technology is None for t in game_map.territories):
        return None
    return {t.name: Land(t.size, t.food or 0, t.technology or 0) for t in game_map.territories}


def totals(group: Sequence[str], land: Mapping[str, Land]) -> tuple[int, int, int]:
    return (sum(land[n].size for n in group), sum(land[n].food for n in group), sum(land[n].technology for n in group))


def fair(groups: Sequence[Sequence[str]], land: Mapping[str, Land]) -> bool:
    """E1: every group has the same total size, food and technology."""
    return len({totals(g, land) for g in groups}) <= 1


def _profile(rng: GameRandom) -> Land:
    return Land(
        SIZES[0] + rng.below(SIZES[1] - SIZES[0] + 1),
        FOOD[0] + rng.below(FOOD[1] - FOOD[0] + 1),
        TECHNOLOGY[0] + rng.below(TECHNOLOGY[1] - TECHNOLOGY[0] + 1),
    )


def assign_land(game_map: GameMap, groups: Sequence[Sequence[str]], rng: GameRandom) -> dict[str, Land]:
    """E1: one hand of profiles drawn from the seed, dealt shuffled to every group; neutrals drawn one by one."""
    size = len(groups[0]) if groups else 0
    hand = [_profile(rng) for _ in range(size)]
    land: dict[str, Land] = {}
    for group in groups:
        dealt = list(hand)
        rng.shuffle(dealt)
        for name, profile in zip(group, dealt, strict=True):
            land[name] = profile
    for name in game_map.names:
        if name not in land:
            land[name] = _profile(rng)
    return {name: land[name] for name in game_map.names}


def land_for_game(game_map: GameMap, groups: Sequence[Sequence[str]], rng: GameRandom) -> dict[str, Land]:
    """E1: the map's figures where it gives them and they are fair for these groups; assigned ones otherwise."""
    given = map_land(game_map)
    if given is not None and fair(groups, given):
        return given
    return assign_land(game_map, groups, rng)


class PathCosts:
    """E4: the cheapest total size of a path from a source to each territory it can reach through `passable`
    territories, both ends included. The source itself need not be passable (a spy may start abroad)."""

    def __init__(self, game_map: GameMap, sizes: Mapping[str, int], passable: Callable[[str], bool]) -> None:
        self._map = game_map
        self._sizes = sizes
        self._passable = passable
        self._costs: dict[str, dict[str, int]] = {}

    def from_source(self, source: str) -> dict[str, int]:
        found = self._costs.get(source)
        if found is None:
            found = {source: self._sizes[source]}
            queue = [(self._sizes[source], source)]
            while queue:
                cost, here = heapq.heappop(queue)
                if cost > found.get(here, cost):
                    continue
                for nxt in self._map.neighbours_in_order(here):
                    if not self._passable(nxt):
                        continue
                    through = cost + self._sizes[nxt]
                    if through < found.get(nxt, through + 1):
                        found[nxt] = through
                        heapq.heappush(queue, (through, nxt))
            self._costs[source] = found
        return found

    def cost(self, source: str, target: str) -> int | None:
        """The cheapest path's total size, or None when no such path leads there."""
        return self.from_source(source).get(target)

    def cost_into(self, source: str, target: str) -> int | None:
        """The cheapest path through passable territories and then one step into `target`, passable or not (a
        spy's way into other players' land, E13): None when no passable territory on the way borders it."""
        if self._passable(target):
            return self.cost(source, target)
        best: int | None = None
        for here, cost in self.from_source(source).items():
            if target in self._map.neighbours(here) and (best is None or cost < best):
                best = cost
        return None if best is None else best + self._sizes[target]
