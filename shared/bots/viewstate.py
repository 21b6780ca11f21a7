"""A player's view turned back into a game state, so that bots check their orders with the engine's own checker.

A view (D2) holds everything the order rules read: owners, units, the viewer's pool and issued orders. Rebuilding a
state from it lets a bot run the very OrderChecker the server runs, instead of a second copy of the rules that
could drift from the first. What a view hides (other players' orders and pools) plays no part in checking one's own.
"""

from __future__ import annotations

from collections.abc import Iterable

from shared.maps.model import GameMap
from shared.rules.orders import Order, PlaceOrder
from shared.rules.risc import OrderChecker
from shared.rules.state import GameState, Phase
from shared.rules.view import GameView


def state_from_view(view: GameView, game_map: GameMap) -> GameState:
    """The state as far as `view` tells it: every rule about the viewer's own orders judges it as the server would."""
    names = [t.name for t in view.territories]
    if names != list(game_map.names):
        raise ValueError(f'the view is of a game on "{view.map_name}", whose territories differ from those of '
                         f'the map "{game_map.name}"')
    viewer = view.viewer
    orders: dict[str, tuple[Order, ...]] = {}
    pools: dict[str, int] = {}
    if viewer is not None:
        if view.your_orders:
            orders[viewer] = view.your_orders
        if view.phase is Phase.PLACEMENT:
            placed = sum(o.units for o in view.your_orders if isinstance(o, PlaceOrder))
            pools[viewer] = view.pool_left + placed
    return GameState(
        game_map=game_map,
        ruleset=view.ruleset,
        players=tuple(p.name for p in view.players),
        phase=view.phase,
        turn=view.turn,
        owner={t.name: t.owner for t in view.territories},
        units={t.name: t.units for t in view.territories},
        pools=pools,
        orders=orders,
        committed=frozenset(p.name for p in view.players if p.committed and not p.eliminated),
        eliminated=tuple(p.name for p in view.players if p.eliminated),
        winner=view.winner,
    )


def legal_only(view: GameView, game_map: GameMap, orders: Iterable[Order]) -> list[Order]:
    """The orders the server would accept, in order, each judged after those kept before it (R15)."""
    viewer = view.viewer
    if viewer is None or view.phase is Phase.FINISHED:
        return []
    status = next((p for p in view.players if p.name == viewer), None)
    if status is None or status.eliminated or status.committed:
        return []
    checker = OrderChecker(state_from_view(view, game_map), viewer)
    for earlier in view.your_orders:
        checker.check(earlier)
    return [order for order in orders if checker.check(order) is None]
