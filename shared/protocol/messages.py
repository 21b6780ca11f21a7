"""Every message of the protocol: JSON objects in WebSocket text frames, told apart by their "type" field.

One union per direction: ClientMessage (client to server) and ServerMessage (server to client). The protocol is the
same for every game: an order, a game event and a view are JSON objects of the game's rule set (each told apart by
its `kind`), which the server checks with that rule set (`risc protocol schema` gives every rule set's). Any client
message may carry a "ref" of the client's choosing; the server copies it into the reply (or the error) that answers.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal, cast

import orjson
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter

from shared.protocol.accounts import (
    AccountDeleted,
    AccountExport,
    AccountInfo,
    ChangePassword,
    DeleteAccount,
    EndSession,
    ExportAccount,
    Home,
    ListSessions,
    MyGames,
    PasswordChanged,
    SessionEnded,
    Sessions,
    SignedIn,
    SignedOut,
    SignIn,
    SignOut,
    SignUp,
)
from shared.protocol.codes import PROTOCOL_VERSION
from shared.protocol.envelope import ClientMessageBase as _Client
from shared.protocol.envelope import RequestId, Token
from shared.protocol.envelope import ServerMessageBase as _Server
from shared.protocol.lobby import (
    GameId,
    GameSettings,
    GameSummary,
    MapInfo,
    MapPicture,
    PlayerName,
    RuleSetInfo,
    TakenName,
)
from shared.protocol.log import SequencedEvent
from shared.protocol.names import INVISIBLE_CATEGORIES, marks_problem, shows_nothing
from shared.protocol.notifications import (
    AskNotifications,
    AskVacation,
    Looking,
    Notice,
    NotificationSettings,
    Nudge,
    Nudged,
    SetNotifications,
    VacationStatus,
)
from shared.protocol.numbers import WHOLE, Whole
from shared.protocol.ratings import (
    AnswerChallenge,
    AskGameRatings,
    AskLeaderboard,
    AskProfile,
    Challenge,
    ChallengeAnswered,
    ChallengeSent,
    GameRatings,
    Leaderboard,
    LeaveQuickPlay,
    Profile,
    QuickPlay,
    QuickPlayFound,
    QuickPlayLeft,
    QuickPlayWaiting,
)
from shared.protocol.statistics import GameStatistics

OrderData = Annotated[
    dict[str, Any],
    Field(
        description="one order of the game's rule set: a JSON object with a "
        "`kind` (risc protocol schema lists every rule set's)"
    ),
]

MAX_UPLOAD_CHARACTERS = 30_000
"""An uploaded map's text fits in one message of at most 64 KiB even with every line break escaped: the largest
real maps are about 12,000 characters, the largest bundled one 17,500."""


# ---- client to server -------------------------------------------------------------------------------------------


class Hello(_Client):
    """The first message of every connection. The server answers welcome, or error then close."""

    type: Literal["hello"] = "hello"
    protocol: Whole = Field(description="the protocol version the client speaks: a hello without it is refused")
    password: Annotated[str | None, Field(max_length=256)] = None
    client: Annotated[str | None, Field(max_length=64, description="the client program's name")] = None
    words: bool = Field(
        default=False,
        description="send each log entry of a game's rule set with its words "
        "(`text`): for a client that does not know the rule set",
    )
    session: Token | None = Field(
        default=None,
        description="the session token `signed_in` gave (protocol 5): the connection is signed in to its account",
    )


class ListGames(_Client):
    """The lobby, a page at a time, newest games first."""

    type: Literal["list_games"] = "list_games"
    offset: Annotated[int, Field(ge=0, le=1_000_000), WHOLE] = 0
    limit: Annotated[int, Field(ge=1, le=100), WHOLE] = 50
    watch: Annotated[
        bool,
        Field(
            description="from now on, tell this connection of every game created on the "
            "server, on whichever node (`game_listed`); false stops it"
        ),
    ] = False


class ListMaps(_Client):
    type: Literal["list_maps"] = "list_maps"


class ListRuleSets(_Client):
    type: Literal["list_rulesets"] = "list_rulesets"


class MapUpload(BaseModel):
    """A map file's text, in any format the server reads (native TOML, Domination or Conquest .map)."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[
        str,
        Field(
            min_length=1,
            max_length=64,
            description="the file's name: its extension tells the format (.toml native, .map otherwise)",
        ),
    ]
    text: Annotated[str, Field(max_length=MAX_UPLOAD_CHARACTERS)]


class CreateGame(_Client):
    """Create a game (the creator is not seated: they join it like anyone else). The map comes from the server's
    catalogue (`settings.map`) or is uploaded (`map_upload`), never from a path on the server."""

    type: Literal["create_game"] = "create_game"
    settings: GameSettings
    map_upload: MapUpload | None = None


class JoinGame(_Client):
    """Take a free seat. `group` is required when the game's players choose (e.g. RISC's starting groups, R8)."""

    type: Literal["join_game"] = "join_game"
    game_id: GameId
    name: TakenName
    group: Annotated[int, Field(ge=0, le=64), WHOLE] | None = None
    request_id: RequestId = None


class LeaveGame(_Client):
    """Free one's seat before the game starts, stop following a game one watches or has lost, or turn down the
    rematch of a finished game."""

    type: Literal["leave_game"] = "leave_game"
    game_id: GameId


class WatchGame(_Client):
    """Follow a game as a spectator. `follow`: see what one player sees, where the rule set allows it (under fog of
    war, an eliminated player may follow a survivor)."""

    type: Literal["watch_game"] = "watch_game"
    game_id: GameId
    last_seq: Annotated[int, Field(ge=0), WHOLE] | None = None
    follow: PlayerName | None = None


class Resume(_Client):
    """Come back to one's seat with its token (D3), or, signed in (protocol 5), to one's account's seat without one;
    the events after `last_seq` follow, or a fresh snapshot."""

    type: Literal["resume"] = "resume"
    game_id: GameId
    token: Token | None = None
    last_seq: Annotated[int, Field(ge=0), WHOLE] | None = None


class IssueOrder(_Client):
    """One order for turn `turn` (the game's turn as its summary gives it). Answered order_accepted or error at
    once; in a turn-by-turn game it also takes effect at once."""

    type: Literal["issue_order"] = "issue_order"
    game_id: GameId
    turn: Whole
    order: OrderData
    request_id: RequestId = None


MAX_BATCH_ORDERS = 100
"""The most orders one `issue_orders` carries: a request's work stays small and bounded (a turn's orders of the
largest real maps fit in a few)."""


class IssueOrders(_Client):
    """Several orders for turn `turn` in one message (a client that sends a prepared set: a bot's turn, a quick
    placement): each is checked and taken as `issue_order` would take it, in the order given, against what the
    earlier accepted ones left; a refused one changes nothing and those after it are still checked. Answered
    `orders_accepted` (the refusals by their position), or `error` when the whole request is refused."""

    type: Literal["issue_orders"] = "issue_orders"
    game_id: GameId
    turn: Whole
    orders: Annotated[list[OrderData], Field(min_length=1, max_length=MAX_BATCH_ORDERS)]
    commit: bool = Field(
        default=False,
        description="then done for this turn, as `commit` (a whole turn in one message, kept in one write): only if "
        "every order was taken; the answer says whether it was",
    )
    request_id: RequestId = None


class WithdrawOrder(_Client):
    type: Literal["withdraw_order"] = "withdraw_order"
    game_id: GameId
    turn: Whole
    index: Annotated[int, Field(ge=0, description="0-based position in the list of one's orders"), WHOLE]
    request_id: RequestId = None


class MoveOrderTo(_Client):
    """Put one of one's orders of this turn at another place in the list: the order at `index` goes to `to`, the
    others keeping their order (a game carries out each player's orders in the order given)."""

    type: Literal["move_order"] = "move_order"
    game_id: GameId
    turn: Whole
    index: Annotated[int, Field(ge=0, description="0-based position of the order to move"), WHOLE]
    to: Annotated[int, Field(ge=0, description="0-based position it takes"), WHOLE]
    request_id: RequestId = None


class ListOrders(_Client):
    type: Literal["list_orders"] = "list_orders"
    game_id: GameId


class LegalOrders(_Client):
    """Every order the player could issue now, as the rules see it (for clients that play by pointing)."""

    type: Literal["legal_orders"] = "legal_orders"
    game_id: GameId


class Commit(_Client):
    """Done for this turn: the orders are checked again as a batch, then final (simultaneous games only)."""

    type: Literal["commit"] = "commit"
    game_id: GameId
    turn: Whole
    request_id: RequestId = None


class Rematch(_Client):
    """After the game ends (R27): once every player still at the table has asked, a new game with the same settings
    seats them all."""

    type: Literal["rematch"] = "rematch"
    game_id: GameId


CHAT_CHARACTERS = 300
"""The longest word a chat takes: a few lines on a terminal of 80 columns."""


def _chat_text(value: object) -> object:
    """A chat's text as it shows: spaces at its ends taken off, and refused when it holds a character that shows
    nothing or moves the lines about (controls, format characters, line breaks), which could forge another line; when
    nothing of it shows (blank characters alone: U+3164, U+2800), a word nobody could read; or when it piles marks on
    a letter, which spill over the other lines of a screen."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if not text:
        raise ValueError("say something: the text is empty")
    hidden = next((c for c in text if unicodedata.category(c) in INVISIBLE_CATEGORIES), None)
    if hidden is not None:
        raise ValueError(f"the text holds U+{ord(hidden):04X}, a character that does not show: say it in plain words")
    if shows_nothing(text):
        raise ValueError(
            f"say something that shows: the text is made of blank characters only (U+{ord(text[0]):04X} ...)"
        )
    piled = marks_problem(text, "the text")
    if piled is not None:
        raise ValueError(piled)
    return text


ChatText = Annotated[str, Field(min_length=1, max_length=CHAT_CHARACTERS), BeforeValidator(_chat_text)]


class Chat(_Client):
    """A word in the chat: the lobby's (`game_id` null: to everyone in the lobby), or a game's: to everyone
    following it, or `to` one of its players. Those who do not play it (spectators, players who are out) talk among
    themselves while it runs: its players still in hear them once it is over. A spectator, or anyone in the lobby,
    speaks under `name` (a player of the game speaks as their seat)."""

    type: Literal["chat"] = "chat"
    game_id: GameId | None = None
    text: ChatText
    to: PlayerName | None = None
    name: TakenName | None = None


class Resign(_Client):
    """Give up a running game: one is out of it from then on, and watches it as a player who lost does (what becomes
    of what one held is the rule set's decision)."""

    type: Literal["resign"] = "resign"
    game_id: GameId


class HandOver(_Client):
    """Vote to have the server's computer player take the seat of `player`, who has been away too long, in a game
    with no time limit (the game's creator's vote, or every other player's, decides)."""

    type: Literal["hand_over"] = "hand_over"
    game_id: GameId
    player: PlayerName


class AskStatistics(_Client):
    """A finished game's statistics: territories, units, income, battles won and lost and cards played, per player
    per turn and in total, and who put whom out. Worked out once by the server from the stored game, played again;
    answered `statistics` (or not-finished while the game goes on)."""

    type: Literal["game_statistics"] = "game_statistics"
    game_id: GameId


class OpenReplay(_Client):
    """Open a finished game of the server (from its store, whether it is still listed or not) to step through it
    turn by turn. `sight`: see it with one player's eyes (under fog of war, what they saw and were told), or null:
    everything there was to see, the game being over. Answered `replay`; each turn then comes with `replay_turn`."""

    type: Literal["open_replay"] = "open_replay"
    game_id: GameId
    sight: PlayerName | None = None


class ReplayTurn(_Client):
    """One point of an opened replay's timeline (`index`: 0 is the game as set up, then one per turn): answered
    `replayed_turn`, the board after it and the turn's events, as `sight` saw them."""

    type: Literal["replay_turn"] = "replay_turn"
    game_id: GameId
    sight: PlayerName | None = None
    index: Annotated[int, Field(ge=0, le=1_000_000), WHOLE]


ClientMessage = Annotated[
    Hello
    | ListGames
    | ListMaps
    | ListRuleSets
    | CreateGame
    | JoinGame
    | LeaveGame
    | WatchGame
    | Resume
    | IssueOrder
    | IssueOrders
    | WithdrawOrder
    | MoveOrderTo
    | ListOrders
    | LegalOrders
    | Commit
    | Rematch
    | HandOver
    | Resign
    | Chat
    | AskStatistics
    | OpenReplay
    | ReplayTurn
    | SignUp
    | SignIn
    | SignOut
    | ChangePassword
    | ListSessions
    | EndSession
    | MyGames
    | DeleteAccount
    | ExportAccount
    | AskNotifications
    | SetNotifications
    | AskVacation
    | Nudge
    | Looking
    | AskLeaderboard
    | AskProfile
    | AskGameRatings
    | QuickPlay
    | LeaveQuickPlay
    | Challenge
    | AnswerChallenge,
    Field(discriminator="type"),
]
CLIENT_TYPES = (
    "hello",
    "list_games",
    "list_maps",
    "list_rulesets",
    "create_game",
    "join_game",
    "leave_game",
    "watch_game",
    "resume",
    "issue_order",
    "issue_orders",
    "withdraw_order",
    "move_order",
    "list_orders",
    "legal_orders",
    "commit",
    "rematch",
    "hand_over",
    "resign",
    "chat",
    "game_statistics",
    "open_replay",
    "replay_turn",
    "sign_up",
    "sign_in",
    "sign_out",
    "change_password",
    "list_sessions",
    "end_session",
    "my_games",
    "delete_account",
    "export_account",
    "notifications",
    "set_notifications",
    "vacation",
    "nudge",
    "looking",
    "leaderboard",
    "profile",
    "game_ratings",
    "quick_play",
    "leave_quick_play",
    "challenge",
    "answer_challenge",
)


# ---- server to client -------------------------------------------------------------------------------------------


class Welcome(_Server):
    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL_VERSION
    server: str = "risc"
    limits: dict[str, float] = Field(
        default_factory=dict, description="max_message_bytes, messages_per_second, burst, min_turn_seconds"
    )
    nodes: list[str] = Field(
        default_factory=list,
        description="where each node of this server is reached, this one first, when the "
        "server runs as several nodes (empty otherwise): a client whose node "
        "goes away comes back through another",
    )
    accounts: Literal["off", "optional", "required"] = Field(
        default="optional",
        description="whether the server has accounts, and whether creating or joining a game needs one",
    )
    account: AccountInfo | None = Field(default=None, description="the account this connection is signed in to")
    session_problem: str | None = Field(
        default=None,
        description="why the session the hello (or the page's cookie) named signs nothing in: ended, expired, "
        "or its account disabled; the connection is a guest's",
    )


class Error(_Server):
    """A refused frame or request. Nothing changed because of it."""

    type: Literal["error"] = "error"
    code: Annotated[str, Field(description="an ErrorCode, or the rule set's own code for a refused order")]
    message: str
    request: str | None = Field(default=None, description="the type of the refused message, when known")
    game_id: str | None = Field(default=None, description="the game the refused message was about, when it named one")
    field: str | None = Field(
        default=None,
        description="the field at fault, as a path into the refused message "
        "(`order.units`, `settings.players`, `ref`), when one is",
    )


class Games(_Server):
    type: Literal["games"] = "games"
    games: list[GameSummary]
    total: int = 0
    offset: int = 0


class Maps(_Server):
    type: Literal["maps"] = "maps"
    maps: list[MapInfo]


class RuleSets(_Server):
    type: Literal["rulesets"] = "rulesets"
    rulesets: list[RuleSetInfo]


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
    follow: str | None = None


class Left(_Server):
    type: Literal["left"] = "left"
    game_id: str


class OrderAccepted(_Server):
    """The new order only, at `index` in the player's list for the turn: the client keeps that list itself, so a
    turn's acceptances grow with its orders, not with their square. In a turn-by-turn game the order took effect at
    once and joins no list (`index` 0)."""

    type: Literal["order_accepted"] = "order_accepted"
    game_id: str
    turn: int
    index: int
    order: dict[str, Any]
    left: dict[str, int] | None = Field(
        default=None,
        description="what the player's orders leave them now (a "
        "pool, stocks), as fields of their view: a merge patch of it; null where "
        "orders use nothing up",
    )
    text: str = Field(default="", description="the order in words")


class OrderRefused(BaseModel):
    """An order of an `issue_orders` that was refused: its 0-based position in the batch, and why (the code and
    message an `error` refusing it alone would carry)."""

    position: int
    code: str
    message: str


class CommitRefused(BaseModel):
    """Why the commit an `issue_orders` asked for was refused, its orders all taken: the code and message an `error`
    refusing `commit` would carry."""

    code: str
    message: str


class AcceptedOrder(BaseModel):
    """An order of an `issue_orders` that was taken: at `index` in the player's list, as `order_accepted` says."""

    position: int
    index: int
    order: dict[str, Any]
    text: str = Field(default="", description="the order in words")


class OrdersAccepted(_Server):
    """The answer to `issue_orders`: every order it carried, accepted (in the order given, each with its place in the
    player's list) or refused (by position), and what the player's orders leave them once all are taken."""

    type: Literal["orders_accepted"] = "orders_accepted"
    game_id: str
    turn: int
    accepted: list[AcceptedOrder]
    refused: list[OrderRefused]
    left: dict[str, int] | None = Field(
        default=None,
        description="what the player's orders leave them now, as "
        "`order_accepted` says: a merge patch of their view, or null",
    )
    committed: bool = Field(
        default=False, description="whether the commit the request asked for was carried out (every order taken)"
    )
    commit_refused: CommitRefused | None = Field(
        default=None, description="why the rules refused that commit, every order having been taken"
    )


class OrderWithdrawn(_Server):
    """The order at `index` is gone from the player's list; those after it move up one."""

    type: Literal["order_withdrawn"] = "order_withdrawn"
    game_id: str
    turn: int
    index: int
    left: dict[str, int] | None = Field(default=None, description="as in order_accepted, once the order is gone")


class OrderMoved(_Server):
    """The order at `index` is at `to` now; those between moved up or down one to make room."""

    type: Literal["order_moved"] = "order_moved"
    game_id: str
    turn: int
    index: int
    to: int
    left: dict[str, int] | None = Field(default=None, description="as in order_accepted, in the new order")


class Orders(_Server):
    type: Literal["orders"] = "orders"
    game_id: str
    turn: int
    orders: list[dict[str, Any]]
    committed: bool
    texts: list[str] = Field(default_factory=list, description="each order in words")


class LegalOrder(BaseModel):
    """One legal order. When `count_field` names one of its fields, the order is legal with that field anywhere
    from `least` up to the value it has here."""

    order: dict[str, Any]
    count_field: str | None = None
    least: int = 1
    text: str = Field(default="", description="the order in words; where it has a count, N stands for it")
    cost: dict[str, int] | None = Field(
        default=None,
        description="what issuing it as offered takes from what the "
        "player's orders leave them, in the rule set's words (a negative amount is "
        "a gain); null where orders use nothing up",
    )


class Legal(_Server):
    type: Literal["legal"] = "legal"
    game_id: str
    turn: int
    orders: list[LegalOrder]


class CommitAccepted(_Server):
    type: Literal["commit_accepted"] = "commit_accepted"
    game_id: str
    turn: int


class Resigned(_Server):
    """The answer to `resign`: the player is out of the game; the update that follows tells everyone."""

    type: Literal["resigned"] = "resigned"
    game_id: str


class ChatSent(_Server):
    """The answer to `chat`: said. A game's chat is then told in the game's log (a `chat` entry) to those who may
    hear it; the lobby's as `lobby_chat`."""

    type: Literal["chat_sent"] = "chat_sent"
    game_id: str | None = None


class LobbyChat(_Server):
    """A word said in the lobby's chat, to every connection of the server that follows no game (and the speaker)."""

    type: Literal["lobby_chat"] = "lobby_chat"
    player: str
    text: str


class RematchPending(_Server):
    type: Literal["rematch_pending"] = "rematch_pending"
    game_id: str
    accepted: list[str]
    waiting_for: list[str]


class HandOverPending(_Server):
    type: Literal["hand_over_pending"] = "hand_over_pending"
    game_id: str
    player: str
    votes: list[str]
    needed: list[str]


class GameMap(_Server):
    """The map of a game this connection follows, sent once before its first update, with every territory's x and
    y (the map file's own, or a layout the server computed when it read the map): updates name territories and
    never repeat it. `picture`: the picture the map is drawn over, where the server has one for it (a catalogue map
    whose file names a picture beside it)."""

    type: Literal["game_map"] = "game_map"
    game_id: str
    map: dict[str, Any]
    picture: MapPicture | None = None


class Update(_Server):
    """What changed in a game, for one viewer: the new log entries they may see, the game's summary, and their view.

    The view is the game's rule set's, for this viewer (D2). It comes whole (`view`) in the first update after the
    connection starts to follow the game, and afterwards as `view_patch`, a JSON merge patch (RFC 7386) of the view
    this connection was last sent: a key set to null is removed. Both are null while the game is in its lobby, or
    when the view did not change. The summary travels the same way: whole (`game`) in that first update, then as
    `game_patch` against the summary last sent (null when it did not change), so that a commit costs its followers
    the seat it changed rather than the whole summary. `snapshot` is true when the server could not send every entry
    after the client's last_seq: `view` and `game` are then the whole truth and `events` is empty.
    """

    type: Literal["update"] = "update"
    game_id: str
    seq: int
    events: list[SequencedEvent]
    game: GameSummary | None = None
    game_patch: dict[str, Any] | None = None
    view: dict[str, Any] | None = None
    view_patch: dict[str, Any] | None = None
    you: str | None = Field(default=None, description="the seat this connection holds, or null for a spectator")
    deadline_in: float | None = Field(default=None, description="seconds left before the turn's time runs out")
    snapshot: bool = False


class Redirect(_Server):
    """This node does not play the game: the node at `url` does. Connect there (with hello, as anywhere), keeping
    any seat token, and send the request again. Sent in reply to a request about the game (with its `ref`), or on
    its own (`ref` null) to the followers of a game that moved to another node: follow it there (resume, watch)."""

    type: Literal["redirect"] = "redirect"
    game_id: str
    url: str
    request: str | None = Field(
        default=None, description="the type of the request to send again there, when this answers one"
    )


class GameListed(_Server):
    """A game was created (on any node): sent to the connections that asked with `list_games` and `watch`."""

    type: Literal["game_listed"] = "game_listed"
    game: GameSummary


class Statistics(_Server):
    type: Literal["statistics"] = "statistics"
    game_id: str
    statistics: GameStatistics


class ReplayTurnInfo(BaseModel):
    """One point of a replay's timeline."""

    index: int
    turn: int = Field(description="the rule set's turn number")
    phase: str = Field(description="the rule set's label for the stage the turn was played in")
    steps: int = Field(description="resolutions the turn took (0 for the game as set up)")
    events: int = Field(description="events the turn's resolutions told, to every sight")


class ReplayOpened(_Server):
    """A finished game opened for replay: its map (with positions), its players and its timeline. `fog`: its rule
    set hid things from players, so a sight changes what the replay shows. `difference`: the stored log and the
    rules part at this point (a damaged log, or rules that changed), and the timeline stops there."""

    type: Literal["replay"] = "replay"
    game_id: str
    sight: str | None = None
    ruleset: str
    ruleset_title: str
    simultaneous: bool
    map_name: str
    map: dict[str, Any]
    picture: MapPicture | None = None
    players: list[str]
    winner: str | None = None
    fog: bool = False
    turns: list[ReplayTurnInfo]
    difference: str | None = None


class ReplayedTurn(_Server):
    """One point of a replay: the view after the turn (the rule set's view, as `sight` saw it; everything with
    null), and the turn's events in order as that sight was told them. `texts`: each event in words, for a
    connection whose hello asked for `words` (the web page holds no rule set's words), else null."""

    type: Literal["replayed_turn"] = "replayed_turn"
    game_id: str
    sight: str | None = None
    index: int
    turn: int
    phase: str
    view: dict[str, Any]
    events: list[dict[str, Any]]
    texts: list[str] | None = None


class ShuttingDown(_Server):
    """Sent to everyone just before the server closes their connection (close code 1001)."""

    type: Literal["shutting_down"] = "shutting_down"
    message: str


ServerMessage = Annotated[
    Welcome
    | Error
    | Games
    | Maps
    | RuleSets
    | GameCreated
    | Joined
    | Resumed
    | Watching
    | Left
    | OrderAccepted
    | OrdersAccepted
    | OrderWithdrawn
    | OrderMoved
    | Orders
    | Legal
    | CommitAccepted
    | Resigned
    | ChatSent
    | LobbyChat
    | RematchPending
    | HandOverPending
    | GameMap
    | Update
    | Redirect
    | GameListed
    | Statistics
    | ReplayOpened
    | ReplayedTurn
    | ShuttingDown
    | SignedIn
    | SignedOut
    | PasswordChanged
    | Sessions
    | SessionEnded
    | Home
    | AccountDeleted
    | AccountExport
    | NotificationSettings
    | VacationStatus
    | Nudged
    | Notice
    | Leaderboard
    | Profile
    | GameRatings
    | QuickPlayWaiting
    | QuickPlayLeft
    | QuickPlayFound
    | ChallengeSent
    | ChallengeAnswered,
    Field(discriminator="type"),
]

# Annotated unions: pydantic reads the discriminator from the Annotated metadata.
CLIENT_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(cast(Any, ClientMessage))
SERVER_ADAPTER: TypeAdapter[ServerMessage] = TypeAdapter(cast(Any, ServerMessage))


def encode(message: BaseModel) -> str:
    """One frame's text. Fields left at None are kept, so every message always has the same keys."""
    return message.model_dump_json()


_NO_REF = '{"ref":null'


def with_ref(frame: str, ref: str | None) -> str:
    """The frame of a server message encoded with a null `ref` (once, to be kept or sent to several), as the reply to
    the request whose `ref` it copies: every server message's first field is its ref, so only that part changes."""
    if ref is None:
        return frame
    if not frame.startswith(_NO_REF):
        raise ValueError("a reply's frame to give a ref to starts with a null ref")
    return '{"ref":' + orjson.dumps(ref).decode() + frame[len(_NO_REF) :]


def decode_server(text: str | bytes) -> ServerMessage:
    return SERVER_ADAPTER.validate_json(text)
