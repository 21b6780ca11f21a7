"""Where a player's armies can go on the map as it stands: what attacks, fortifications and the defaults of C9 read.

Borders are directed (a Domination map may have one-way borders): a country attacks, and armies move, along the
borders its own line lists.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping

from shared.maps.model import GameMap


def reach(game_map: GameMap, owner: Mapping[str, str], source: str) -> set[str]:
    """C7: every country joined to `source` by a path of countries of the same owner (`source` included)."""
    player = owner[source]
    seen = {source}
    queue = deque([source])
    while queue:
        for nxt in game_map.neighbours(queue.popleft()):
            if nxt not in seen and owner.get(nxt) == player:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def enemies_of(game_map: GameMap, owner: Mapping[str, str], country: str) -> list[str]:
    """The countries `country` may attack: its neighbours another player holds, in map order."""
    return [n for n in game_map.neighbours_in_order(country) if owner[n] != owner[country]]


def attacks(
    game_map: GameMap, owner: Mapping[str, str], armies: Mapping[str, int], player: str
) -> Iterator[tuple[str, str]]:
    """C5: every (from, to) the player may attack now: an own country with 2 armies or more, an enemy neighbour."""
    for name in game_map.names:
        if owner[name] == player and armies[name] >= 2:
            for target in enemies_of(game_map, owner, name):
                yield name, target


def can_attack(game_map: GameMap, owner: Mapping[str, str], armies: Mapping[str, int], player: str) -> bool:
    return next(attacks(game_map, owner, armies, player), None) is not None


def fortify_targets(game_map: GameMap, owner: Mapping[str, str], source: str, adjacent_only: bool) -> list[str]:
    """C7: where armies from `source` may go, in map order."""
    if adjacent_only:
        return [n for n in game_map.neighbours_in_order(source) if owner[n] == owner[source]]
    joined = reach(game_map, owner, source)
    return [n for n in game_map.names if n in joined and n != source]


def can_fortify(game_map: GameMap, owner: Mapping[str, str], armies: Mapping[str, int], player: str) -> bool:
    """Any fortification at all: a path's first step is a border, so the same test serves both options."""
    for name in game_map.names:
        if owner[name] != player or armies[name] < 2:
            continue
        if any(owner[n] == player for n in game_map.neighbours(name)):
            return True
    return False


def borders(game_map: GameMap, owner: Mapping[str, str], player: str) -> list[str]:
    """The player's countries next to an enemy one, in map order."""
    return [
        name
        for name in game_map.names
        if owner[name] == player and any(owner[n] != player for n in game_map.neighbours(name))
    ]
