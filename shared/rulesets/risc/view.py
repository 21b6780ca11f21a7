"""What one viewer may see of a RISC game (D2).

A player sees the whole map, their own orders and pool; of the others, nothing of their orders (whether they have
committed is the framework's to say). A spectator (viewer None) sees the same minus any orders. Collections are keyed
by name, so that an update can carry only the entries that changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import TypeAdapter

from shared.game.game import Game
from shared.rulesets.risc.board import Phase, RiscBoard
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, Order, PlaceOrder


@dataclass(frozen=True)
class TerritoryState:
    owner: str | None = None
    units: int = 0


@dataclass(frozen=True)
class PlayerState:
    territories: int = 0
    units: int = 0
    eliminated: bool = False


@dataclass(frozen=True)
class RiscView:
    phase: Phase
    turn: int
    territories: dict[str, TerritoryState]
    players: dict[str, PlayerState]
    your_orders: list[Order] = field(default_factory=list)
    pool_left: int = 0
    """Units the viewer still has to place (placement only)."""
    winner: str | None = None
    kind: Literal["risc"] = "risc"


VIEW: TypeAdapter[RiscView] = TypeAdapter(RiscView)


def _board(
    game: Game[RiscBoard, PlaceOrder | MoveOrder | AttackOrder],
) -> tuple[dict[str, TerritoryState], dict[str, PlayerState]]:
    """The territories and players every viewer sees alike, as the view's objects: made once per board
    (Game.cached), whoever asks, and shared by their views (never changed)."""
    territories, players = _values_of(game)
    return (
        {name: TerritoryState(t.get("owner"), t["units"]) for name, t in territories.items()},
        {name: PlayerState(p["territories"], p["units"], p["eliminated"]) for name, p in players.items()},
    )


def _own(
    game: Game[RiscBoard, PlaceOrder | MoveOrder | AttackOrder], viewer: str | None
) -> tuple[list[PlaceOrder | MoveOrder | AttackOrder], int]:
    """What the viewer alone sees: their orders, and the units they still have to place (a spectator: none)."""
    if viewer is None or viewer not in game.players:
        return [], 0
    board, orders = game.board, list(game.orders_of(viewer))
    if board.phase is not Phase.PLACEMENT:
        return orders, 0
    return orders, board.pools.get(viewer, 0) - sum(o.units for o in orders if isinstance(o, PlaceOrder))


def view(game: Game[RiscBoard, PlaceOrder | MoveOrder | AttackOrder], viewer: str | None) -> RiscView:
    board = game.board
    territories, players = game.cached("risc_view_board", lambda: _board(game))
    orders, pool_left = _own(game, viewer)
    return RiscView(board.phase, board.turn, territories, players, orders, pool_left, board.winner)


_ORDERS: TypeAdapter[list[Order]] = TypeAdapter(list[Order])


def _board_values(game: Game[RiscBoard, PlaceOrder | MoveOrder | AttackOrder]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The territories and players every viewer sees alike as JSON values (without null fields, as `dump_view` leaves
    them): each territory's owner and units, each player's territories, units and whether they are out. Made once
    per board and shared by every viewer's values and the view's objects (`_board`), never changed."""
    board = game.board
    territories: dict[str, Any] = {}
    held: dict[str | None, list[int]] = {}
    for name in game.game_map.names:
        owner, units = board.owner[name], board.units[name]
        territories[name] = {"units": units} if owner is None else {"owner": owner, "units": units}
        tally = held.setdefault(owner, [0, 0])
        tally[0] += 1
        tally[1] += units
    none = [0, 0]
    players = {
        p: {"territories": held.get(p, none)[0], "units": held.get(p, none)[1], "eliminated": p in board.eliminated}
        for p in game.players
    }
    return territories, players


def _values_of(game: Game[RiscBoard, PlaceOrder | MoveOrder | AttackOrder]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The board's values (`_board_values`), made once per board."""
    found: tuple[dict[str, Any], dict[str, Any]] = game.cached("risc_view_values", lambda: _board_values(game))
    return found


def standings(game: Game[RiscBoard, PlaceOrder | MoveOrder | AttackOrder]) -> dict[str, tuple[int, int]] | None:
    """Each player's (territories, units), as a spectator's view shows them (RiscPresentation.standings), without
    the view: none while the units are placed."""
    if game.board.phase is Phase.PLACEMENT:
        return None
    _, players = _values_of(game)
    return {name: (p["territories"], p["units"]) for name, p in players.items()} or None


def view_values(game: Game[RiscBoard, PlaceOrder | MoveOrder | AttackOrder], viewer: str | None) -> dict[str, Any]:
    """`VIEW.dump_python(view(game, viewer), mode="json", exclude_none=True)`, made without the view: the board's
    part once per board (an update after a resolution carries a view for every seat)."""
    board = game.board
    territories, players = _values_of(game)
    orders, pool_left = _own(game, viewer)
    values: dict[str, Any] = {
        "phase": board.phase.value,
        "turn": board.turn,
        "territories": territories,
        "players": players,
        "your_orders": _ORDERS.dump_python(orders, mode="json", exclude_none=True) if orders else [],
        "pool_left": pool_left,
    }
    if board.winner is not None:
        values["winner"] = board.winner
    values["kind"] = "risc"
    return values
