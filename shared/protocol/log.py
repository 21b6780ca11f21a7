"""A game's event log: what happened, in order, each entry numbered so a returning client asks for what it missed.

The framework's own entries are below; a rule set's events (placements, combats, cards, dice...) are logged beside
them, as the rule set serialises them, each with a `kind`. An entry may be private to some players (a card drawn,
a combat in the fog): nobody else is told of it until the game is over, so numbers a client sees may skip some.
Nothing secret is ever logged before its time: a player's orders enter the log only when they resolve (R10, R16).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, cast

from pydantic import BaseModel, Field, TypeAdapter


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
    """D3: the turn's time limit played for these players (committed them with what they had issued, or played
    their turn as the rule set's defaults)."""

    turn: int
    players: list[str]
    kind: Literal["time_ran_out"] = "time_ran_out"


class OrdersRevealed(BaseModel):
    """The orders one resolution carried out, logged as it resolves (once every player has committed, R16), so a
    stored game can be replayed from its seed. Under fog of war it is kept from everyone until the game is over."""

    turn: int
    orders: dict[str, list[dict[str, Any]]]
    step: int | None = None
    kind: Literal["orders_revealed"] = "orders_revealed"


class SeatHandedOver(BaseModel):
    """A seat whose player was gone too long is played by the server's computer player from now on."""

    player: str
    strategy: str
    by: list[str]
    kind: Literal["seat_handed_over"] = "seat_handed_over"


class SeatTakenBack(BaseModel):
    """A player whose seat the computer played came back and plays it again."""

    player: str
    kind: Literal["seat_taken_back"] = "seat_taken_back"


class RematchImpossible(BaseModel):
    """Everyone still at the table asked for a rematch, but too few are left for one."""

    reason: str
    kind: Literal["rematch_impossible"] = "rematch_impossible"


class RematchRequested(BaseModel):
    player: str
    kind: Literal["rematch_requested"] = "rematch_requested"


class RematchDeclined(BaseModel):
    """A player left a finished game instead of asking for a rematch: the others go on without them."""

    player: str
    kind: Literal["rematch_declined"] = "rematch_declined"


class PlayerResigned(BaseModel):
    """A player gave up the game: they are out from now on, and watch as one who lost does. What becomes of what they
    held is the rule set's decision; its events follow. `step`: the game's step when it happened (a resignation does
    not count as a resolution: nobody's orders of the turn are undone by it), for replays."""

    player: str
    turn: int
    step: int
    booted: bool = Field(
        default=False,
        description="true: the player did not give up, the game's boot put them out (their time ran out too many "
        "turns running)",
    )
    kind: Literal["player_resigned"] = "player_resigned"


class ChatSaid(BaseModel):
    """A word said in the game's chat. `to`: the one player it was said to (told to them and the speaker alone, for
    good); `watchers`: said among those who do not play (spectators and players who are out), told to the players
    still in only once the game is over; else said to everyone. `watching`: the speaker does not play the game (a
    spectator, under the name they gave)."""

    player: str
    text: str
    to: str | None = None
    watchers: bool = False
    watching: bool = False
    kind: Literal["chat"] = "chat"


class Standings(BaseModel):
    """Each player's territories and units as everyone may know them, when a turn begins (`turn`) and when the game
    ends (`final`): so that whoever follows a game late, or comes back to it, reads its story from its start. Not
    logged where the rules hide them from spectators (RISC's fog of war), until the end."""

    turn: int
    players: dict[str, tuple[int, int]] = Field(description="each player's [territories, units]")
    final: bool = False
    kind: Literal["standings"] = "standings"


class RematchStarted(BaseModel):
    game_id: str
    players: list[str] = Field(default_factory=list)
    kind: Literal["rematch_started"] = "rematch_started"


FrameworkEntry = Annotated[
    GameCreated
    | PlayerJoined
    | PlayerLeft
    | GameStarted
    | PlayerCommitted
    | TimeRanOut
    | OrdersRevealed
    | SeatHandedOver
    | SeatTakenBack
    | PlayerResigned
    | ChatSaid
    | Standings
    | RematchRequested
    | RematchDeclined
    | RematchImpossible
    | RematchStarted,
    Field(discriminator="kind"),
]
FRAMEWORK_ENTRY: TypeAdapter[Any] = TypeAdapter(cast(Any, FrameworkEntry))
FRAMEWORK_KINDS = frozenset(
    model.model_fields["kind"].default
    for model in (
        GameCreated,
        PlayerJoined,
        PlayerLeft,
        GameStarted,
        PlayerCommitted,
        TimeRanOut,
        OrdersRevealed,
        SeatHandedOver,
        SeatTakenBack,
        PlayerResigned,
        ChatSaid,
        Standings,
        RematchRequested,
        RematchDeclined,
        RematchImpossible,
        RematchStarted,
    )
)


WHEN_ASKED = "x-sent-when-asked"
"""Marks, in the published schema, a property the server sends only to a connection that asked for it: the one kind
of key a frame may leave out."""


class SequencedEvent(BaseModel):
    """One log entry with its number: the number of the change to the game that logged it (numbers start at 1 and
    rise by one per change; the entries of one change share it). `event` is one of the framework's entries or one of
    the game's rule set's events, told apart by its `kind`."""

    seq: int
    event: dict[str, Any]
    text: str | None = Field(
        default=None,
        description="the entry in words, to a connection that asked for them "
        "(hello's `words`): each event of the game's rule set, and "
        "the orders an orders_revealed entry carries; left out "
        "for a connection that did not ask",
        json_schema_extra={WHEN_ASKED: True},
    )
