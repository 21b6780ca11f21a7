"""What the lobby says about games: their settings, seats and progress, whatever their rule set."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from shared.protocol.log import WHEN_ASKED
from shared.protocol.names import normalised_name, not_reserved
from shared.protocol.numbers import WHOLE

GameId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
PlayerName = Annotated[
    str,
    Field(
        pattern=r"^\w[\w .'-]{0,18}[\w.'-]$|^\w$",
        description="1-20 letters, digits, spaces, . ' - or _, not starting or ending with a space",
    ),
    BeforeValidator(normalised_name),
]  # kept as it shows; one no player could see is refused

TakenName = Annotated[PlayerName, AfterValidator(not_reserved)]
"""A name a person takes (joining a game, speaking in a chat): a player name that does not pass for the server's."""

MAX_SEATS = 8
"""No rule set seats more; each says its own range (list_rulesets)."""

DEFAULT_RULESET = "risc"

LONGEST_TURN = 14 * 86_400.0
"""The longest turn time limit a game may have: 14 days (a correspondence game's)."""
DAY = 86_400.0

PACE_FIELDS = ("bank_seconds", "bank_refill_seconds", "vacations", "boot_after")
"""The settings of a game's pace besides its turn limit: left out of what is sent and stored while they are at their
defaults, so that a node or a client of the release before reads every game that does not use them."""

_SET_ONLY = {WHEN_ASKED: True}


class GameSettings(BaseModel):
    """What a game's creator chooses. A rematch reuses them as they are."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ruleset: Annotated[str, Field(min_length=1, max_length=32, description="the rule set (list_rulesets)")] = (
        DEFAULT_RULESET
    )
    map: Annotated[
        str | None,
        Field(
            max_length=512,
            description="the map: an id from the server's catalogue (list_maps); null "
            "with an uploaded map, or for a rule set that makes its own "
            "board",
        ),
    ] = None
    players: Annotated[int, Field(ge=1, le=MAX_SEATS), WHOLE] = 3
    turn_seconds: Annotated[
        float | None,
        Field(
            gt=0,
            le=LONGEST_TURN,
            description="turn time limit in seconds (D3), up to 14 days; null: wait for everyone. The server has a "
            "minimum (its welcome says it)",
        ),
    ] = None
    bank_seconds: Annotated[
        float | None,
        Field(
            ge=0,
            le=LONGEST_TURN,
            description="banked time: each player's bank, in seconds, that a turn overrunning its limit draws on; "
            "null or 0: none. Needs turn_seconds. Sent only when set",
            json_schema_extra=_SET_ONLY,
        ),
    ] = None
    bank_refill_seconds: Annotated[
        float | None,
        Field(
            ge=0,
            le=LONGEST_TURN,
            description="seconds put back into each player's bank every day of the game, up to what it started "
            "with; null: none. Sent only when set",
            json_schema_extra=_SET_ONLY,
        ),
    ] = None
    vacations: Annotated[
        bool | None,
        Field(
            description="whether the game waits for a player on vacation instead of their deadline; null: yes for "
            "turns of a day or more. Sent only when set",
            json_schema_extra=_SET_ONLY,
        ),
    ] = None
    boot_after: Annotated[
        int | None,
        Field(
            ge=1,
            le=20,
            description="a player whose time runs out this many turns running is out of the game (booted); null: "
            "they are played for each time and keep their seat. Sent only when set",
            json_schema_extra=_SET_ONLY,
        ),
        WHOLE,
    ] = None
    bots: Annotated[
        int,
        Field(
            ge=0,
            le=MAX_SEATS,
            description="seats the server fills at once with its own computer players "
            "(named bot-STRATEGY-1, ...); at most `players`",
        ),
        WHOLE,
    ] = 0
    bot_strategy: Annotated[
        str | None,
        Field(
            max_length=32,
            description="how the server's computer players play (the rule set's "
            "strategies); null: the rule set's strongest",
        ),
    ] = None
    options: Annotated[
        dict[str, Any], Field(description="the rule set's own options (list_rulesets gives their schema and defaults)")
    ] = Field(default_factory=dict)
    rated: bool = Field(
        default=False,
        description="the game's result changes its players' ratings (docs/ratings.md): only accounts and the "
        "server's computer players sit in it, never a guest; a server without accounts rates no game",
    )

    @model_validator(mode="before")
    @classmethod
    def _options_given_at_the_top(cls, data: Any) -> Any:
        """Settings written before rule sets had options of their own (and shorthand from people) name a rule set's
        options beside the common ones: they move into `options`, where the rule set judges them."""
        if not isinstance(data, dict):
            return data
        common = set(cls.model_fields)
        extra = {k: v for k, v in data.items() if k not in common}
        if not extra:
            return data
        kept = {k: v for k, v in data.items() if k in common}
        options = dict(kept.get("options") or {})
        for key, value in extra.items():
            options.setdefault(key, value)
        kept["options"] = options
        return kept

    @model_validator(mode="after")
    def _bots_fit(self) -> GameSettings:
        if self.bots > self.players:
            raise ValueError(f"bots ({self.bots}) cannot exceed players ({self.players})")
        if self.turn_seconds is None and (self.bank_seconds or self.boot_after is not None):
            raise ValueError("banked time and boot_after need a turn time limit (turn_seconds)")
        if self.bank_refill_seconds and not self.bank_seconds:
            raise ValueError("bank_refill_seconds refills a bank: give bank_seconds too")
        return self

    @model_serializer(mode="wrap")
    def _pace_when_set(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> dict[str, Any]:
        dumped: dict[str, Any] = handler(self)
        for name in PACE_FIELDS:
            if dumped.get(name) is None:
                dumped.pop(name, None)
        return dumped

    @property
    def banked(self) -> float:
        """Each player's bank at the start (0: no banked time)."""
        return self.bank_seconds or 0.0

    @property
    def honours_vacations(self) -> bool:
        """Whether a player on vacation is waited for rather than timed (by default in games of a day a turn)."""
        if self.turn_seconds is None:
            return False
        return self.vacations if self.vacations is not None else self.turn_seconds >= DAY


class GameStatus(StrEnum):
    LOBBY = "lobby"
    """Seats are still free; the game starts when the last one is taken."""
    PLAYING = "playing"
    FINISHED = "finished"


class SeatInfo(BaseModel):
    name: str
    connected: bool
    group: int | None = None
    eliminated: bool = False
    committed: bool = False
    """Done with this turn (simultaneous games): never what they ordered (R16)."""
    awaited: bool = False
    """The game waits for this player now."""
    computer: bool = False
    """The server's computer player plays this seat (its own seats, or one handed over while its player is away)."""
    handed_over: bool = False
    """The server's computer player plays this seat, its player having been gone too long, until they come back."""
    bank: float | None = Field(
        default=None,
        description="seconds left in the player's bank of time, as of the start of the turn (null: no banked time)",
    )
    vacation_until: float | None = Field(
        default=None,
        description="the time (seconds since the epoch) the player's vacation ends, while the game waits for them "
        "because of it; else null",
    )
    deadline: float | None = Field(
        default=None,
        description="the time (seconds since the epoch) this player's time runs out on this turn, their bank and "
        "vacation counted, while the game waits for them with a time limit; else null",
    )
    missed: int = Field(default=0, description="turns running whose time ran out on this player")


class GameSummary(BaseModel):
    """One game as the lobby lists it, and as every update describes it."""

    game_id: str
    settings: GameSettings
    ruleset_title: str = ""
    simultaneous: bool = True
    """Whether players act together then everything resolves (RISC, Warzone), or one at a time (classic, grid)."""
    map_name: str
    territories: int
    notes: list[str] = Field(
        default_factory=list,
        description="what the game's options change from its rule set's defaults, a few words "
        'each, for people ("Evolution 3: fog of war, spies and cloaking")',
    )
    seats: list[SeatInfo]
    deadline: float | None = Field(
        default=None,
        description="the time (seconds since the epoch) the turn's time limit runs out, before anyone's bank; null "
        "without a time limit or once it is not counting",
    )
    free: int
    status: GameStatus
    phase: str = Field(description="lobby, finished, or the rule set's label for the stage of play")
    turn: int = 0
    step: int = 0
    """Resolutions so far: rises with every turn (simultaneous) or action (turn by turn)."""
    winner: str | None = None
    draw: bool = False
    groups: list[list[str]] | None = Field(
        default=None, description="what each player chooses when joining (RISC's starting groups), by number"
    )
    spectators: int = 0
    rematch: list[str] = Field(
        default_factory=list, description="players who asked for a rematch of this finished game"
    )
    rematch_game: str | None = Field(default=None, description="the game the rematch created")
    rematch_declined: list[str] = Field(
        default_factory=list, description="players who left instead of asking for a rematch"
    )


class MapInfo(BaseModel):
    id: str
    name: str
    territories: int
    continents: int
    source: str = Field(description="bundled, or server (the operator's --maps folder)")
    coordinates: bool = False
    picture: bool = Field(default=False, description="whether the server has the picture the map is drawn over")


class MapPicture(BaseModel):
    """The picture a game's map is drawn over, as the server offers it: where to fetch it (a catalogue map's, by
    its id) and its size in pixels, the unit of the map's coordinates (a territory at x, y sits at that pixel)."""

    url: str = Field(description="its address on the server that served the page: /maps/ID/picture")
    width: int
    height: int


class RuleSetInfo(BaseModel):
    name: str
    title: str
    blurb: str
    simultaneous: bool
    own_map: bool
    players: tuple[int, int] = Field(description="the fewest and the most players with the default options")
    strategies: list[str]
    default_strategy: str
    options: dict[str, Any] = Field(description="the JSON Schema of the rule set's options")
    orders: list[str] = Field(description="the kinds of order")
