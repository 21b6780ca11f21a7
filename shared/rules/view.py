"""What one viewer may see of a game (D2): the one function every outgoing state passes through.

A player sees the whole map, their own orders and pool, and of the others only whether they have committed.
A spectator (viewer None) sees the same minus any orders.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.rules.orders import Order, PlaceOrder
from shared.rules.state import GameState, Owner, Phase


@dataclass(frozen=True)
class TerritoryView:
    name: str
    owner: Owner
    units: int
    neighbours: tuple[str, ...]
    continent: str | None = None


@dataclass(frozen=True)
class PlayerStatus:
    name: str
    committed: bool
    eliminated: bool
    territories: int
    units: int


@dataclass(frozen=True)
class GameView:
    map_name: str
    ruleset: str
    phase: Phase
    turn: int
    viewer: str | None
    players: tuple[PlayerStatus, ...]
    territories: tuple[TerritoryView, ...]
    your_orders: tuple[Order, ...] = ()
    pool_left: int = 0
    winner: str | None = None


def view(state: GameState, viewer: str | None) -> GameView:
    game_map = state.game_map
    counts: dict[Owner, list[int]] = {}
    for name in game_map.names:
        tally = counts.setdefault(state.owner[name], [0, 0])
        tally[0] += 1
        tally[1] += state.units[name]
    players = tuple(
        PlayerStatus(p, p in state.committed or p in state.eliminated, p in state.eliminated,
                     *counts.get(p, [0, 0]))
        for p in state.players)
    territories = tuple(
        TerritoryView(t.name, state.owner[t.name], state.units[t.name],
                      game_map.neighbours_in_order(t.name), t.continent)
        for t in game_map.territories)
    orders: tuple[Order, ...] = ()
    pool_left = 0
    if viewer is not None and viewer in state.players:
        orders = state.orders_of(viewer)
        if state.phase is Phase.PLACEMENT:
            pool_left = state.pools.get(viewer, 0) - sum(o.units for o in orders if isinstance(o, PlaceOrder))
    return GameView(game_map.name, state.ruleset, state.phase, state.turn,
                    viewer if viewer in state.players else None, players, territories, orders, pool_left,
                    state.winner)
