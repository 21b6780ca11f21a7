"""A player's view turned back into a game, so that bots check their orders with the rules' own checker.

A view (D2) holds everything the order rules read: owners, units, the viewer's pool and issued orders. Rebuilding a
game from it lets a bot run the very checker the server runs, instead of a second copy of the rules that could drift
from the first. What a view hides (other players' orders and pools) plays no part in checking one's own.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from shared.game.game import Game
from shared.game.ruleset import AnyRuleSet
from shared.game.strategy import legal_only as keep_legal
from shared.maps.model import GameMap
from shared.rulesets.risc.board import Phase, RiscBoard
from shared.rulesets.risc.options import RiscOptions
from shared.rulesets.risc.orders import PlaceOrder
from shared.rulesets.risc.view import RiscView


def game_from_view(view: RiscView, game_map: GameMap, me: str | None) -> Game[RiscBoard, Any]:
    """The game as far as `view` tells it: every rule about the viewer's own orders judges it as the server would."""
    if list(view.territories) != list(game_map.names):
        raise ValueError(f'the view\'s territories differ from those of the map "{game_map.name}"')
    orders: dict[str, tuple[Any, ...]] = {}
    pools: dict[str, int] = {}
    if me is not None:
        if view.your_orders:
            orders[me] = tuple(view.your_orders)
        if view.phase is Phase.PLACEMENT:
            placed = sum(o.units for o in view.your_orders if isinstance(o, PlaceOrder))
            pools[me] = view.pool_left + placed
    board = RiscBoard(
        phase=view.phase,
        turn=view.turn,
        owner={name: t.owner for name, t in view.territories.items()},
        units={name: t.units for name, t in view.territories.items()},
        pools=pools,
        eliminated=tuple(p for p, s in view.players.items() if s.eliminated),
        winner=view.winner,
    )
    return Game("risc", game_map, tuple(view.players), RiscOptions(max_players=8), board, orders=orders)


def legal_only(ruleset: AnyRuleSet, view: RiscView, game_map: GameMap, me: str, orders: Iterable[Any]) -> list[Any]:
    """The orders the server would accept, in order, each judged after those kept before it (R15)."""
    game = game_from_view(view, game_map, me)
    return keep_legal(ruleset.variant(game.options), game, me, orders)
