"""Every message of the protocol: JSON objects in WebSocket text frames, told apart by their "type" field.

One union per direction: ClientMessage (client to server) and ServerMessage (server to client). Orders, events and
views are the engine's own dataclasses, so there is one definition of each concept. Any client message may carry a
"ref" of the client's choosing; the server copies it into the reply (or the error) that answers it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from shared.protocol.codes import PROTOCOL_VERSION, ErrorCode
from shared.protocol.lobby import GameId, GameSettings, GameSummary, PlayerName
from shared.protocol.log import SequencedEvent
from shared.rules.errors import RuleCode
from shared.rules.orders import AttackOrder, MoveOrder, PlaceOrder
from shared.rules.view import GameView

OrderField = Annotated[PlaceOrder | MoveOrder | AttackOrder, Field(discriminator="kind")]
Ref = Annotated[str | None, Field(default=None, max_length=64,
                                  description="copied into the reply, so a client can pair them")]
Token = Annotated[str, Field(min_length=1, max_length=128)]


class _Client(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ref: Ref = None


# ---- client to server -------------------------------------------------------------------------------------------

class Hello(_Client):
    """The first message of every connection. The server answers welcome, or error then close."""

    type: Literal["hello"] = "hello"
    protocol: int = PROTOCOL_VERSION
    password: Annotated[str | None, Field(max_length=256)] = None
    client: Annotated[str | None, Field(max_length=64, description="the client program's name")] = None


class ListGames(_Client):
    type: Literal["list_games"] = "list_games"


class CreateGame(_Client):
    """Create a game (the creator is not seated: they join it like anyone else)."""

    type: Literal["create_game"] = "create_game"
    settings: GameSettings


class JoinGame(_Client):
    """Take a free seat. `group` is required when the game's players choose their starting groups (R8)."""

    type: Literal["join_game"] = "join_game"
    game_id: GameId
    name: PlayerName
    group: Annotated[int | None, Field(ge=0, le=64)] = None


class LeaveGame(_Client):
    """Free one's seat before the game starts, or stop following a game one watches or has lost."""

    type: Literal["leave_game"] = "leave_game"
    game_id: GameId


class WatchGame(_Client):
    """Follow a game as a spectator (D2: everything a player sees, minus any orders)."""

    type: Literal["watch_game"] = "watch_game"
    game_id: GameId
    last_seq: Annotated[int | None, Field(ge=0)] = None


class Resume(_Client):
    """Come back to one's seat with its token (D3); the events after `last_seq` follow, or a fresh snapshot."""

    type: Literal["resume"] = "resume"
    game_id: GameId
    token: Token
    last_seq: Annotated[int | None, Field(ge=0)] = None


class IssueOrder(_Client):
    """One order for turn `turn` (0 is placement). Answered order_accepted or error at once (R12, R15)."""

    type: Literal["issue_order"] = "issue_order"
    game_id: GameId
    turn: int
    order: OrderField


class WithdrawOrder(_Client):
    type: Literal["withdraw_order"] = "withdraw_order"
    game_id: GameId
    turn: int
    index: Annotated[int, Field(ge=0, description="0-based position in the list of one's orders")]


class ListOrders(_Client):
    type: Literal["list_orders"] = "list_orders"
    game_id: GameId


class Commit(_Client):
    """Done for this turn (or with placement): the orders are checked again as a batch, then final."""

    type: Literal["commit"] = "commit"
    game_id: GameId
    turn: int


class Rematch(_Client):
    """After the game ends (R27): once every player has asked, a new game with the same settings seats them all."""

    type: Literal["rematch"] = "rematch"
    game_id: GameId


ClientMessage = Annotated[
    Hello | ListGames | CreateGame | JoinGame | LeaveGame | WatchGame | Resume | IssueOrder | WithdrawOrder
    | ListOrders | Commit | Rematch,
    Field(discriminator="type"),
]
CLIENT_TYPES = ("hello", "list_games", "create_game", "join_game", "leave_game", "watch_game", "resume",
                "issue_order", "withdraw_order", "list_orders", "commit", "rematch")


# ---- server to client -------------------------------------------------------------------------------------------

class _Server(BaseModel):
    ref: Ref = None


class Welcome(_Server):
    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL_VERSION
    server: str = "risc"
    limits: dict[str, float] = Field(default_factory=dict,
                                     description="max_message_bytes, messages_per_second, burst")


class Error(_Server):
    """A refused frame or request. Nothing changed because of it."""

    type: Literal["error"] = "error"
    code: ErrorCode | RuleCode
    message: str
    request: str | None = Field(default=None, description="the type of the refused message, when known")
    game_id: str | None = None


class Games(_Server):
    type: Literal["games"] = "games"
    games: list[GameSummary]


class GameCreated(_Server):
    type: Literal["game_created"] = "game_created"
    game: GameSummary


class Joined(_Server):
    """Sent to the seat's owner only: the token is the one way back to this seat."""

    type: Literal["joined"] = "joined"
    game_id: str
    player: str
    token: str


class Resumed(_Server):
    type: Literal["resumed"] = "resumed"
    game_id: str
    player: str


class Watching(_Server):
    type: Literal["watching"] = "watching"
    game_id: str


class Left(_Server):
    type: Literal["left"] = "left"
    game_id: str


class OrderAccepted(_Server):
    type: Literal["order_accepted"] = "order_accepted"
    game_id: str
    turn: int
    index: int
    order: OrderField
    orders: list[OrderField]


class OrderWithdrawn(_Server):
    type: Literal["order_withdrawn"] = "order_withdrawn"
    game_id: str
    turn: int
    index: int
    orders: list[OrderField]


class Orders(_Server):
    type: Literal["orders"] = "orders"
    game_id: str
    turn: int
    orders: list[OrderField]
    committed: bool


class CommitAccepted(_Server):
    type: Literal["commit_accepted"] = "commit_accepted"
    game_id: str
    turn: int


class RematchPending(_Server):
    type: Literal["rematch_pending"] = "rematch_pending"
    game_id: str
    accepted: list[str]
    waiting_for: list[str]


class Update(_Server):
    """What changed in a game, for one viewer: the new log entries and that viewer's own view (D2).

    `snapshot` is true when the server could not send every entry after the client's last_seq: `view` and `game`
    are then the whole truth and `events` is empty. `view` is null while the game is in its lobby.
    """

    type: Literal["update"] = "update"
    game_id: str
    seq: int
    events: list[SequencedEvent]
    game: GameSummary
    view: GameView | None
    you: str | None = Field(default=None, description="the seat this connection holds, or null for a spectator")
    deadline_in: float | None = Field(default=None, description="seconds left before the turn's time runs out")
    snapshot: bool = False


class ShuttingDown(_Server):
    """Sent to everyone just before the server closes their connection (close code 1001)."""

    type: Literal["shutting_down"] = "shutting_down"
    message: str


ServerMessage = Annotated[
    Welcome | Error | Games | GameCreated | Joined | Resumed | Watching | Left | OrderAccepted | OrderWithdrawn
    | Orders | CommitAccepted | RematchPending | Update | ShuttingDown,
    Field(discriminator="type"),
]

# Annotated unions: pydantic reads the discriminator from the Annotated metadata.
CLIENT_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
SERVER_ADAPTER: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


def encode(message: BaseModel) -> str:
    """One frame's text. Fields left at None are kept, so every message always has the same keys."""
    return message.model_dump_json()


def decode_server(text: str | bytes) -> ServerMessage:
    return SERVER_ADAPTER.validate_json(text)


def schemas() -> dict[str, Any]:
    """The JSON Schema of both directions, for anyone writing a client in another language."""
    return {
        "protocol": PROTOCOL_VERSION,
        "client_to_server": CLIENT_ADAPTER.json_schema(),
        "server_to_client": SERVER_ADAPTER.json_schema(),
    }
