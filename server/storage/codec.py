"""A game as JSON values and back, through its rule set: what storage keeps and replay reads.

The framework's part is kept as it is (players, step, issued orders, committed); the board is the rule set's own
JSON. A state saved before rule sets had boards of their own (every such game was RISC) held the board's fields at
the top level and counted no steps: its step was its turn, and the top level is its board.
"""

from __future__ import annotations

from typing import Any

from shared.game.game import Game
from shared.game.ruleset import AnyRuleSet
from shared.maps.codec import map_from_dict, map_to_dict
from shared.maps.model import GameMap

__all__ = ["game_from_dict", "game_to_dict", "map_from_dict", "map_to_dict", "order_to_json"]

_FRAMEWORK_KEYS = ("ruleset", "players", "step", "orders", "committed")


def game_to_dict(ruleset: AnyRuleSet, game: Game[Any, Any]) -> dict[str, Any]:
    """The game as JSON values. The board's are worked out once per board (a commit that does not resolve the turn
    saves the same board again) and shared: never change them."""
    return {
        "ruleset": game.ruleset,
        "players": list(game.players),
        "step": game.step,
        "board": game.cached("stored board", lambda: ruleset.dump_board(game.board)),
        "orders": {p: [ruleset.dump_order(o) for o in batch] for p, batch in game.orders.items()},
        "committed": sorted(game.committed),
    }


def game_from_dict(ruleset: AnyRuleSet, data: dict[str, Any], game_map: GameMap, options: Any) -> Game[Any, Any]:
    if "board" in data:
        board_data, step = data["board"], int(data["step"])
    else:  # saved before boards were the rule set's own
        board_data = {k: v for k, v in data.items() if k not in _FRAMEWORK_KEYS}
        step = int(data.get("turn", 0))
    orders = {p: tuple(ruleset.load_order(o) for o in batch) for p, batch in (data.get("orders") or {}).items()}
    return Game(
        ruleset.name,
        game_map,
        tuple(data["players"]),
        options,
        ruleset.load_board(board_data),
        step,
        orders,
        frozenset(data.get("committed") or ()),
    )


def order_to_json(ruleset: AnyRuleSet, order: Any) -> str:
    """One order as JSON text, as game_to_dict gives it among the game's orders."""
    return ruleset.order_type.dump_json(order).decode()
