"""A map as JSON values and back: how the server keeps a game's map and sends it to the game's followers."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from shared.maps.model import GameMap

_MAP = TypeAdapter(GameMap)


def map_to_dict(game_map: GameMap) -> dict[str, Any]:
    data: dict[str, Any] = _MAP.dump_python(game_map, mode="json")
    data["borders"] = {name: sorted(targets) for name, targets in data["borders"].items()}  # stable text
    return data


def map_from_dict(data: dict[str, Any]) -> GameMap:
    return _MAP.validate_python(data)
