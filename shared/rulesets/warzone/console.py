"""The COMP 345 Warzone console's core: what the console says, decided without a terminal.

client/warzone_console.py is the face that reads the commands and prints; what it shows of a map or a game comes
from here, so the face names nothing of Warzone's own.
"""

from __future__ import annotations

from shared.maps.model import GameMap
from shared.rulesets.warzone.continents import continents


def describe_map(game_map: GameMap) -> str:
    """The map before a game: continents with their bonus and territories, each with its neighbours."""
    lines = [f"{game_map.name}: {len(game_map.territories)} territories"]
    for continent in continents(game_map):
        lines.append(f"{continent.name} (bonus {continent.bonus}):")
        for name in continent.members:
            lines.append(f"  {name}: next to {', '.join(game_map.neighbours_in_order(name))}")
    return "\n".join(lines)
