"""A game's event log: what happened, in order, each entry numbered so a returning client asks for what it missed.

The log is public: every entry may be shown to every player and spectator. The engine's own events (placements,
moves, combats, ...) enter it only when a turn resolves, so nothing secret is ever logged before its time (R10, R16).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from shared.rules.events import (
    Combat,
    GameWon,
    PlayerEliminated,
    TurnStarted,
    UnitsMoved,
    UnitsPlaced,
    UnitsReceived,
)
from shared.rules.orders import Order


class GameCreated(BaseModel):
    kind: Literal["game_created"] = "game_created"


class PlayerJoined(BaseModel):
    player: str
    kind: Literal["player_joined"] = "player_joined"


class PlayerLeft(BaseModel):
    player: str
    kind: Literal["player_left"] = "player_left"


class GameStarted(BaseModel):
    players: list[str]
    kind: Literal["game_started"] = "game_started"


class PlayerCommitted(BaseModel):
    """Who committed, never what (R16)."""

    player: str
    turn: int
    kind: Literal["player_committed"] = "player_committed"


class TimeRanOut(BaseModel):
    """D3: the turn's time limit committed these players with what they had issued."""

    turn: int
    players: list[str]
    kind: Literal["time_ran_out"] = "time_ran_out"


class OrdersRevealed(BaseModel):
    """Every player's committed orders for `turn`, logged as the turn resolves, once every player has
    committed (R16), so a stored
    game can be replayed from its seed."""

    turn: int
    orders: dict[str, list[Order]]
    kind: Literal["orders_revealed"] = "orders_revealed"


class RematchRequested(BaseModel):
    player: str
    kind: Literal["rematch_requested"] = "rematch_requested"


class RematchStarted(BaseModel):
    game_id: str
    kind: Literal["rematch_started"] = "rematch_started"


LogEvent = Annotated[
    GameCreated | PlayerJoined | PlayerLeft | GameStarted | PlayerCommitted | TimeRanOut | RematchRequested
    | RematchStarted | OrdersRevealed
    | UnitsPlaced | UnitsMoved | Combat | UnitsReceived | PlayerEliminated | GameWon | TurnStarted,
    Field(discriminator="kind"),
]


class SequencedEvent(BaseModel):
    """One log entry with its number: numbers start at 1 and rise by one per entry in each game."""

    seq: int
    event: LogEvent
