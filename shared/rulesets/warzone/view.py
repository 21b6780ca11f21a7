"""What one viewer may see of a Warzone game (W4, W13).

Public: every territory's owner and units, the continents with their bonus and holder, each player's pool (it follows
from public facts: the reinforcements told each turn and the reinforcement cards told when played) and how many cards
they hold. Secret: a player's hand (only its size is public) and their orders, seen by that player alone until the
turn executes. A spectator (viewer None) sees no hand and no orders. Collections are keyed by name, so an update
carries only the entries that changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import TypeAdapter

from shared.game.game import Game
from shared.rulesets.warzone.board import Phase, WarzoneBoard
from shared.rulesets.warzone.cards import REINFORCEMENT_UNITS, count
from shared.rulesets.warzone.continents import continents, holder, reinforcement
from shared.rulesets.warzone.events import TurnStats
from shared.rulesets.warzone.orders import DeployOrder, Order, ReinforceOrder


@dataclass(frozen=True)
class TerritoryState:
    owner: str | None = None
    units: int = 0


@dataclass(frozen=True)
class ContinentState:
    bonus: int = 0
    territories: int = 0
    holder: str | None = None
    """The player who holds every territory of it, if any."""


@dataclass(frozen=True)
class PlayerState:
    territories: int = 0
    units: int = 0
    pool: int = 0
    """Units to deploy this turn (before any reinforcement card played this turn)."""
    cards: int = 0
    """How many cards the player holds (which ones is secret)."""
    income: int = 0
    """W3: what the player would receive if the turn ended on this board."""
    eliminated: bool = False


@dataclass(frozen=True)
class WarzoneView:
    phase: Phase
    turn: int
    territories: dict[str, TerritoryState]
    continents: dict[str, ContinentState]
    players: dict[str, PlayerState]
    your_orders: list[Order] = field(default_factory=list)
    hand: dict[str, int] | None = None
    """The viewer's own cards by name (every card named, 0 where none); None for a spectator."""
    pool_left: int = 0
    """The viewer's pool less what their issued deploys take, plus their reinforcement cards issued."""
    winner: str | None = None
    statistics: list[TurnStats] | None = None
    """W14: every turn's statistics, once the game is over."""
    max_turns: int = 0
    blockade_multiplier: int = 3
    allow_cheaters: bool = False
    kind: Literal["warzone"] = "warzone"


VIEW: TypeAdapter[WarzoneView] = TypeAdapter(WarzoneView)


def _board(
    game: Game[WarzoneBoard, Any],
) -> tuple[dict[str, TerritoryState], dict[str, ContinentState], dict[str, PlayerState]]:
    """The territories, continents and players every viewer sees alike: made once per board (Game.cached), whoever
    asks, and shared by their views and values (never changed)."""
    board, game_map = game.board, game.game_map
    territories: dict[str, TerritoryState] = {}
    held: dict[str | None, list[int]] = {}
    for name in game_map.names:
        owner, units = board.owner[name], board.units[name]
        territories[name] = TerritoryState(owner, units)
        tally = held.setdefault(owner, [0, 0])
        tally[0] += 1
        tally[1] += units
    conts = {c.name: ContinentState(c.bonus, len(c.members), holder(c, board.owner)) for c in continents(game_map)}
    players = {}
    for p in game.players:
        out = p in board.eliminated
        income = 0 if out or board.phase is Phase.FINISHED else reinforcement(game_map, board.owner, p)[0]
        players[p] = PlayerState(
            held.get(p, [0, 0])[0],
            held.get(p, [0, 0])[1],
            board.pools.get(p, 0),
            len(board.hands.get(p, ())),
            income,
            out,
        )
    return territories, conts, players


def _own(game: Game[WarzoneBoard, Any], viewer: str | None) -> tuple[list[Any], dict[str, int] | None, int]:
    """What the viewer alone sees: their orders, their hand by card, and their pool left (a spectator: none)."""
    if viewer is None or viewer not in game.players:
        return [], None, 0
    board = game.board
    orders = list(game.orders_of(viewer))
    hand = {card.value: n for card, n in count(board.hands.get(viewer, ())).items()}
    pool_left = (
        board.pools.get(viewer, 0)
        - sum(o.units for o in orders if isinstance(o, DeployOrder))
        + REINFORCEMENT_UNITS * sum(1 for o in orders if isinstance(o, ReinforceOrder))
    )
    return orders, hand, pool_left


def view(game: Game[WarzoneBoard, Any], viewer: str | None) -> WarzoneView:
    board = game.board
    territories, conts, players = game.cached("warzone_view_board", lambda: _board(game))
    orders, hand, pool_left = _own(game, viewer)
    statistics = list(board.history) if board.phase is Phase.FINISHED else None
    options = game.options
    return WarzoneView(
        board.phase,
        board.turn,
        territories,
        conts,
        players,
        orders,
        hand,
        pool_left,
        board.winner,
        statistics,
        options.max_turns,
        options.blockade_multiplier,
        options.allow_cheaters,
    )


_ORDERS: TypeAdapter[list[Order]] = TypeAdapter(list[Order])
_STATISTICS: TypeAdapter[list[TurnStats]] = TypeAdapter(list[TurnStats])


def _board_values(game: Game[WarzoneBoard, Any]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """`_board` as JSON values without null fields (as `dump_view` leaves them): once per board, shared by every
    viewer's values, never changed."""
    territories, conts, players = game.cached("warzone_view_board", lambda: _board(game))
    return (
        {
            n: {"units": t.units} if t.owner is None else {"owner": t.owner, "units": t.units}
            for n, t in territories.items()
        },
        {
            n: {"bonus": c.bonus, "territories": c.territories}
            if c.holder is None
            else {"bonus": c.bonus, "territories": c.territories, "holder": c.holder}
            for n, c in conts.items()
        },
        {
            n: {
                "territories": p.territories,
                "units": p.units,
                "pool": p.pool,
                "cards": p.cards,
                "income": p.income,
                "eliminated": p.eliminated,
            }
            for n, p in players.items()
        },
    )


def view_values(game: Game[WarzoneBoard, Any], viewer: str | None) -> dict[str, Any]:
    """`VIEW.dump_python(view(game, viewer), mode="json", exclude_none=True)`, made without the view: the board's
    part once per board."""
    board, options = game.board, game.options
    territories, conts, players = game.cached("warzone_view_values", lambda: _board_values(game))
    orders, hand, pool_left = _own(game, viewer)
    values: dict[str, Any] = {
        "phase": board.phase.value,
        "turn": board.turn,
        "territories": territories,
        "continents": conts,
        "players": players,
        "your_orders": _ORDERS.dump_python(orders, mode="json", exclude_none=True) if orders else [],
    }
    if hand is not None:
        values["hand"] = hand
    values["pool_left"] = pool_left
    if board.winner is not None:
        values["winner"] = board.winner
    if board.phase is Phase.FINISHED:
        values["statistics"] = _STATISTICS.dump_python(list(board.history), mode="json", exclude_none=True)
    values["max_turns"] = options.max_turns
    values["blockade_multiplier"] = options.blockade_multiplier
    values["allow_cheaters"] = options.allow_cheaters
    values["kind"] = "warzone"
    return values
