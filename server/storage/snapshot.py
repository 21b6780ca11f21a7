"""The engine's state as JSON values and back: maps and states are stdlib dataclasses, which pydantic reads as-is."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from shared.maps.model import GameMap
from shared.rules.orders import Order
from shared.rules.state import GameState

_MAP = TypeAdapter(GameMap)
_STATE = TypeAdapter(GameState)
_ORDER: TypeAdapter[Order] = TypeAdapter(Order)  # type: ignore[arg-type]  # a union is a type to pydantic


def map_to_dict(game_map: GameMap) -> dict[str, Any]:
    data: dict[str, Any] = _MAP.dump_python(game_map, mode="json")
    data["borders"] = {name: sorted(targets) for name, targets in data["borders"].items()}  # stable text
    return data


def map_from_dict(data: dict[str, Any]) -> GameMap:
    return _MAP.validate_python(data)


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The state without its map, which the game's record holds once."""
    data: dict[str, Any] = _STATE.dump_python(state, mode="json", exclude={"game_map"})
    data["committed"] = sorted(data["committed"])
    return data


def state_from_dict(data: dict[str, Any], game_map: GameMap) -> GameState:
    return _STATE.validate_python({**data, "game_map": game_map})  # the map object is taken as it is


def order_to_json(order: Order) -> str:
    """One order as JSON text, as state_to_dict gives it among the state's orders."""
    return _ORDER.dump_json(order).decode()
