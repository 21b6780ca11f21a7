"""W1, W3: continents and the reinforcements they bring.

A map without continents counts as one continent with bonus 0 (so W3's formula reads the same on every map);
territories a map leaves outside every continent belong to no continent and count only towards the base.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from shared.maps.model import GameMap

WHOLE_MAP = "(whole map)"
"""The one continent of a map that names none."""

MIN_REINFORCEMENT = 3
TERRITORIES_PER_UNIT = 3


@dataclass(frozen=True)
class ContinentInfo:
    name: str
    bonus: int
    members: tuple[str, ...]


def continents(game_map: GameMap) -> tuple[ContinentInfo, ...]:
    """Every continent with its bonus and members, in the map's order."""
    cached: tuple[ContinentInfo, ...] | None = game_map.__dict__.get("_warzone_continents")
    if cached is not None:
        return cached
    if game_map.continents:
        members = game_map.continent_members()
        found = tuple(ContinentInfo(c.name, c.bonus, tuple(members[c.name])) for c in game_map.continents)
    else:
        found = (ContinentInfo(WHOLE_MAP, 0, game_map.names),)
    object.__setattr__(game_map, "_warzone_continents", found)
    return found


def holder(continent: ContinentInfo, owner: Mapping[str, str | None]) -> str | None:
    """The player who owns every territory of the continent, if any (an empty continent has no holder)."""
    if not continent.members:
        return None
    first = owner.get(continent.members[0])
    if first is None:
        return None
    return first if all(owner.get(t) == first for t in continent.members) else None


def base_reinforcement(territories: int) -> int:
    """W3: floor(territories / 3), never fewer than 3."""
    return max(MIN_REINFORCEMENT, territories // TERRITORIES_PER_UNIT)


def reinforcement(game_map: GameMap, owner: Mapping[str, str | None], player: str) -> tuple[int, int, tuple[str, ...]]:
    """W3: (total, base, continents held whole) for `player` on this board."""
    held = sum(1 for t in owner.values() if t == player)
    whole = tuple(c.name for c in continents(game_map) if holder(c, owner) == player)
    bonus = sum(c.bonus for c in continents(game_map) if c.name in whole)
    base = base_reinforcement(held)
    return base + bonus, base, whole
