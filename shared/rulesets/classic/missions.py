"""C11 mission mode: the secret mission cards, made for the map at hand, and when one is fulfilled.

The classic deck is written for the 42 countries of the standard board: "conquer 24 countries", "18 countries with
at least 2 armies each", six pairs of continents, and one "destroy this army" per player. Any map can host a game
here, so the deck is made from the map: the two counts are scaled to its size (24 and 18 on 42 countries), and the
continent pairs are those holding between a quarter and a half of the map, the six nearest to the classic pairs'
three eighths. A player told to eliminate themselves, or whose target someone else eliminates, must take the
scaled 24 countries instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from shared.maps.model import GameMap

CLASSIC_COUNTRIES = 42
COUNTRIES_GOAL = 24
ARMIES_GOAL = 18
ARMIES_EACH = 2
CONTINENT_PAIRS = 6


class MissionKind(StrEnum):
    CONTINENTS = "continents"
    COUNTRIES = "countries"
    ARMIES = "armies"
    ELIMINATE = "eliminate"


@dataclass(frozen=True)
class Mission:
    kind: MissionKind
    continents: tuple[str, ...] = ()
    countries: int = 0
    """COUNTRIES and ARMIES: how many; ELIMINATE: the count it falls back to."""
    armies: int = 0
    """ARMIES: the least on each of those countries."""
    player: str | None = None
    """ELIMINATE: whom."""

    def __str__(self) -> str:
        if self.kind is MissionKind.CONTINENTS:
            return "conquer " + " and ".join(c.replace("_", " ") for c in self.continents)
        if self.kind is MissionKind.COUNTRIES:
            return f"conquer {self.countries} countries"
        if self.kind is MissionKind.ARMIES:
            return f"hold {self.countries} countries with at least {self.armies} armies on each"
        return f"eliminate {self.player} (else {self.countries} countries)"


def scaled(goal: int, countries: int) -> int:
    """A count written for the 42-country board, for a map of `countries`."""
    return max(1, min(countries, round(goal * countries / CLASSIC_COUNTRIES)))


def mission_deck(game_map: GameMap, seats: Sequence[str]) -> list[Mission]:
    size = len(game_map.names)
    countries = scaled(COUNTRIES_GOAL, size)
    deck = [
        Mission(MissionKind.COUNTRIES, countries=countries),
        Mission(MissionKind.ARMIES, countries=scaled(ARMIES_GOAL, size), armies=ARMIES_EACH),
    ]
    members = {name: held for name, held in game_map.continent_members().items() if held}
    pairs = [(a, b) for a, b in combinations(members, 2) if size / 4 <= len(members[a]) + len(members[b]) <= size / 2]
    pairs.sort(key=lambda p: abs(len(members[p[0]]) + len(members[p[1]]) - 3 * size / 8))
    deck += [Mission(MissionKind.CONTINENTS, continents=pair) for pair in pairs[:CONTINENT_PAIRS]]
    deck += [Mission(MissionKind.ELIMINATE, countries=countries, player=p) for p in seats]
    return deck


def effective(mission: Mission, holder: str, eliminated_by: Mapping[str, str]) -> Mission:
    """What the holder must do now: an eliminate mission that can no longer be theirs falls back to countries."""
    if mission.kind is not MissionKind.ELIMINATE:
        return mission
    target = mission.player or holder
    if target == holder or eliminated_by.get(target, holder) != holder:
        return Mission(MissionKind.COUNTRIES, countries=mission.countries)
    return mission


def fulfilled(
    mission: Mission,
    holder: str,
    game_map: GameMap,
    owner: Mapping[str, str],
    armies: Mapping[str, int],
    eliminated_by: Mapping[str, str],
) -> bool:
    mission = effective(mission, holder, eliminated_by)
    if mission.kind is MissionKind.ELIMINATE:
        return eliminated_by.get(mission.player or "") == holder
    own = [name for name in game_map.names if owner[name] == holder]
    if mission.kind is MissionKind.COUNTRIES:
        return len(own) >= mission.countries
    if mission.kind is MissionKind.ARMIES:
        return sum(armies[name] >= mission.armies for name in own) >= mission.countries
    members = game_map.continent_members()
    return all(owner[name] == holder for continent in mission.continents for name in members.get(continent, ()))
