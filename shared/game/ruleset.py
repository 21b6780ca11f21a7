"""The seam between a game's rules and everything else: what a rule set is, and all that the product asks of one.

A rule set is a package of its own (shared/rulesets/NAME/) and one line in the registry (shared/rulesets/__init__.py).
The match, the protocol, storage, replay, the text client and the bots reach it only through this class: its
options, its setup, its orders, events and views (each serialisable, each union told apart by a `kind` field), where
a game stands (`status`), the legal orders for a player, and how its orders and events read in the text client
(`presentation`). None of them names a rule set's orders or events.

Two kinds of game run on the same framework. A simultaneous game (RISC, Warzone) waits for every player still in it
to commit, then resolves every batch together. A turn-by-turn game (classic Risk, the grid game) waits for the
player whose turn it is, and resolves each action at once, so that they see each roll as it falls. `status().acting`
says who is awaited; the framework assumes neither kind.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, is_dataclass, replace
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Generic, TypeVar, cast

import orjson
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter

from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.plain import PlainPresentation
from shared.game.presentation import Presentation
from shared.game.random import GameRandom
from shared.game.statistics import TurnFacts, standing_of
from shared.maps.model import GameMap
from shared.protocol.numbers import json_text

if TYPE_CHECKING:
    from shared.game.strategy import Strategy

OptionsT = TypeVar("OptionsT", bound="Options")
BoardT = TypeVar("BoardT")
OrderT = TypeVar("OrderT")
EventT = TypeVar("EventT")
ViewT = TypeVar("ViewT")
TallyT = TypeVar("TallyT")


class Options(BaseModel):
    """What a game's creator may choose, with the rule set's defaults. Each rule set subclasses it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    UNNOTED: ClassVar[frozenset[str]] = frozenset()
    """Options that change nothing of how the game plays (the most players a game may seat): never noted."""

    def notes(self) -> list[str]:
        """What these options change from the rule set's defaults, a few words each, for a game list ("Evolution 3:
        fog of war"): every option whose value is not its default, as `name value` (a yes-or-no option by its name
        alone, or `no name`). A rule set words its own where it can say it better."""
        found = []
        for name, field in type(self).model_fields.items():
            value = getattr(self, name)
            if name in self.UNNOTED or value == field.get_default(call_default_factory=True):
                continue
            words = name.replace("_", " ")
            found.append(
                self.note(name, value)
                or (
                    words
                    if value is True
                    else f"no {words}"
                    if value is False
                    else f"{words} {getattr(value, 'value', value)}"
                )
            )
        return found

    def note(self, name: str, value: Any) -> str | None:
        """One option's words, when not the default's (None: `name value`)."""
        return None


MOST_TURNS = 1000
"""The longest any game may be made to last. Every game ends: where nobody has won by its rule set's turn limit, it
is a draw, so that a game nobody can lose (computers alone, a stalemate) does not play on for ever."""


def _no_limit_is_the_most(value: Any) -> Any:
    """0 once meant "no limit" (Warzone's `max_turns`): a game made so, or asked for so, plays the most turns."""
    return MOST_TURNS if type(value) is int and value == 0 else value  # not False: a boolean is no number


TurnLimit = Annotated[
    int,
    Field(
        ge=0,
        le=MOST_TURNS,
        description=f"the game is a draw once this turn is over without a winner, the players still in ranked by "
        f"their standing (0: the most, {MOST_TURNS})",
    ),
    BeforeValidator(_no_limit_is_the_most),  # after the bounds, so that the schema states them as minimum, maximum
]
"""Every rule set's `max_turns` option: the turn after which a game without a winner is a draw."""


@dataclass(frozen=True)
class Status:
    """Where a game stands, as the framework needs to know it."""

    phase: str
    """The rule set's label for the stage of play ("placement", "orders", "attack", ...), shown to people."""
    turn: int
    """The rule set's turn number: shown to people, and named by orders so that a late order is not misread."""
    acting: frozenset[str]
    """Whose actions the game waits for: every player still in (simultaneous), or the active player."""
    eliminated: tuple[str, ...] = ()
    finished: bool = False
    winner: str | None = None
    """The winner once finished; None when the game ended in a draw."""

    @property
    def clock(self) -> tuple[int, frozenset[str]]:
        """The turn's time limit starts again whenever this changes: a new turn, or another player to act."""
        return self.turn, self.acting


@dataclass(frozen=True)
class Private(Generic[EventT]):
    """An event only some players may know of (a card drawn, a combat in the fog). Everyone else, spectators
    included, learns nothing of it until the game is over."""

    event: EventT
    audience: frozenset[str]
    own: bool = False
    """The audience's own affairs (their stocks, their spies), not what they see: told to them alone, never to
    someone who follows their sight."""


@dataclass(frozen=True)
class Legal(Generic[OrderT]):
    """One legal order for a player. When `count_field` names one of its fields, the order is legal with that field
    anywhere from `least` up to the value it has here: "move 1 to 12 units from A to B" is one entry."""

    order: OrderT
    count_field: str | None = None
    least: int = 1

    def any_count(self, rng: random.Random) -> OrderT:
        """The order with its count (where it has one) drawn from its range: a random player's pick."""
        if self.count_field is None:
            return self.order
        most = getattr(self.order, self.count_field)
        changes: dict[str, Any] = {self.count_field: rng.randint(self.least, most)}
        return replace(self.order, **changes)  # type: ignore[type-var]


Told = Any
"""An event, or Private(event, audience): what a resolution returns."""


class RuleSet(ABC, Generic[OptionsT, BoardT, OrderT, EventT, ViewT, TallyT]):
    name: ClassVar[str]
    """The registry key and the `ruleset` a game's creator names, e.g. "risc"."""
    title: ClassVar[str]
    blurb: ClassVar[str]
    """One line for the lobby and --help."""
    simultaneous: ClassVar[bool]
    own_map: ClassVar[bool] = False
    """The rule set makes its board itself (the grid game): a game's creator chooses no map."""
    default_map: ClassVar[str] = "cataract"
    """The bundled map a quick game (`risc play`) is played on when none is named."""

    options_type: ClassVar[type[Options]] = Options
    """Its options (none by default)."""
    order_type: TypeAdapter[OrderT]
    """A discriminated union on "kind": what IssueOrder carries for this rule set."""
    event_type: TypeAdapter[EventT]
    plain_events: ClassVar[bool] = False
    """Its events are plain dataclasses (JSON values under names, no serializer of their own), which orjson writes
    as pydantic does, in a tenth of the time: then `dump_event_json` writes them so (tests/test_event_json.py holds
    every rule set that says so to pydantic's text)."""
    view_type: TypeAdapter[ViewT]
    board_type: TypeAdapter[BoardT]
    """How storage keeps a board: dumped to JSON values and validated back."""
    default_strategy: ClassVar[str]

    # ---- creating a game -------------------------------------------------------------------------------------------

    def options(self, data: Mapping[str, Any]) -> OptionsT:
        """The options a creator gave, validated, defaults filled in. Raises pydantic's ValidationError.

        Read by JSON type, as the published schema reads them and as orders are read: 8 and 8.0 are a whole number,
        "8", " 8 " and true are not; true is a yes, 1 and "true" are not."""
        return self.options_type.model_validate_json(json_text(dict(data)), strict=True)  # type: ignore[return-value]

    @abstractmethod
    def player_counts(self, options: OptionsT) -> tuple[int, int]:
        """The fewest and the most players a game with these options seats."""

    def variants(self) -> list[AnyRuleSet]:
        """Every rule set `variant` may choose: itself, unless options choose among several."""
        return [self]

    def prepare(self) -> None:
        """Work out now what a game asks of this rule set over and over and is made once (the fields of each kind of
        order, from their JSON schema; the presentation). A server does it as it starts, before it freezes what it
        holds (server/collector.py): making a JSON schema leaves cycles of garbage behind, which a first use in the
        middle of play would leave frozen until the collector's whole walk."""
        self.order_fields()
        _ = self.presentation

    def variant(self, options: OptionsT) -> RuleSet[OptionsT, BoardT, OrderT, EventT, ViewT, TallyT]:
        """The rule set that plays a game with these options: itself, unless an option chooses among variants (RISC's
        evolutions), each a subclass of it, as python-chess picks a board class by its variant's name. It is chosen
        once, where a game is made or read, and plays every step of it (turns.status_of holds it to that)."""
        return self

    def make_map(self, options: OptionsT) -> GameMap:
        """The board of a rule set that makes its own (`own_map`)."""
        raise NotImplementedError(f"{self.name} is played on a chosen map")

    def map_problem(self, game_map: GameMap, options: OptionsT, players: int) -> str | None:
        """Why this map cannot host a game for this many players, or None."""
        return None

    def seat_choices(self, game_map: GameMap, options: OptionsT, players: int) -> list[list[str]] | None:
        """What each player chooses when they join (RISC's starting groups, R8), by number; None: nothing."""
        return None

    @abstractmethod
    def setup(
        self, game_map: GameMap, players: Sequence[str], options: OptionsT, rng: GameRandom, choices: Mapping[str, int]
    ) -> BoardT:
        """The board before anyone has acted. `choices`: each player's pick among seat_choices."""

    def new_game(
        self,
        game_map: GameMap,
        players: Sequence[str],
        options: OptionsT,
        rng: GameRandom,
        choices: Mapping[str, int] | None = None,
    ) -> Game[BoardT, OrderT]:
        check_variant(self, options)
        board = self.setup(game_map, players, options, rng, choices or {})
        return Game(self.name, game_map, tuple(players), options, board)

    # ---- where a game stands ---------------------------------------------------------------------------------------

    @abstractmethod
    def status(self, game: Game[BoardT, OrderT]) -> Status: ...

    # ---- issuing ---------------------------------------------------------------------------------------------------

    def start_tally(self, game: Game[BoardT, OrderT], player: str) -> TallyT:
        """What a player has to give orders with before issuing any (units, pool, cards): see `account`. Nothing,
        by default: a game whose orders use nothing up (each checked against the board alone)."""
        return cast(TallyT, None)

    @abstractmethod
    def check_order(self, game: Game[BoardT, OrderT], player: str, tally: TallyT, order: OrderT) -> RuleError | None:
        """Is `order` legal after the orders that made `tally`? The framework has checked who may act."""

    def account(self, game: Game[BoardT, OrderT], player: str, tally: TallyT, order: OrderT) -> TallyT:
        """The tally once `order` (checked already) is issued too. Never changes `tally` itself. The same tally,
        by default (see `start_tally`)."""
        return tally

    resource_words: ClassVar[Mapping[str, str]] = {}
    """How each field `left` names reads as what an order costs: {"technology_left": "technology"}."""

    def left(self, game: Game[BoardT, OrderT], player: str, tally: TallyT) -> dict[str, int] | None:
        """What the orders that made `tally` leave the player (a pool, stocks), as the fields of their view that say
        it: sent with each acceptance and withdrawal, and the cost of each legal order is worked out from it, so no
        client counts the rules' costs itself. None where orders use nothing up (turn-by-turn games)."""
        return None

    def check_commit(self, game: Game[BoardT, OrderT], player: str, tally: TallyT) -> RuleError | None:
        """May `player` commit the orders that made `tally`, taken as a whole (e.g. every unit placed)?"""
        return None

    def timeout_orders(self, game: Game[BoardT, OrderT], player: str, tally: TallyT) -> list[OrderT]:
        """What is issued for an awaited player when their time runs out, after what they issued themselves
        (D3, C9). A turn-by-turn rule set is asked again after each of these resolves, until the player is not
        awaited any more, so it may answer one action at a time."""
        return []

    @abstractmethod
    def resolve(
        self, game: Game[BoardT, OrderT], orders: Mapping[str, Sequence[OrderT]], rng: GameRandom
    ) -> tuple[BoardT, list[Told]]:
        """Carry out the orders: every awaited player's batch (an empty one where they issued nothing) for a
        simultaneous game, the one action of the acting player for a turn-by-turn one. Returns the new board and
        what happened, each event either public or Private."""

    @abstractmethod
    def resign(self, game: Game[BoardT, OrderT], player: str, rng: GameRandom) -> tuple[BoardT, list[Told]]:
        """`player`, still in, gives up: the board once they are out of the game for good, and what happened. What
        becomes of what they held is the rule set's decision (its docs say it). They are among the status's
        eliminated from then on, and never awaited again: where it was their turn, the turn passes on; where only
        one player is left in, that player wins."""

    # ---- telling -------------------------------------------------------------------------------------------------

    def view(self, game: Game[BoardT, OrderT], viewer: str | None) -> ViewT:
        """What `viewer` (a seat, or None for a spectator) may see: the one function every board passes through on
        its way out of the server. It reads the board, the players and the viewer's own orders only (never another
        player's, R16, nor who has committed, which the game's summary says): the server keeps a sight's view while
        those stay as they were (tests/test_server_updates.py holds every rule set to it). The board as it is, by
        default: a game that hides nothing from anyone (its `view_type` is then its `board_type`)."""
        return cast(ViewT, game.board)

    @abstractmethod
    def legal_orders(self, game: Game[BoardT, OrderT], player: str, tally: TallyT) -> list[Legal[OrderT]]:
        """Every order `player` could issue after the orders that made `tally` (each with its count at the most).
        The framework has checked that the game waits for them (turns.legal_orders asks only then)."""

    def standings(self, game: Game[BoardT, OrderT]) -> dict[str, tuple[int, int]] | None:
        """Each player's (territories, units) as everyone may know them: the framework logs them when a turn begins
        and when the game ends, for whoever follows the game late. None where the rules hide them from spectators
        (fog of war). By default, what a spectator's view shows through the presentation's `standings`."""
        return self.presentation.standings(self.view(game, None)) or None

    def reveals_orders(self, options: OptionsT) -> bool:
        """Whether every player's orders are told to everyone once resolved. Under fog of war they are not: they are
        kept for replays, and told once the game is over."""
        return True

    def may_follow(self, game: Game[BoardT, OrderT], seat: str | None, followed: str) -> bool:
        """May a watcher (a spectator, seat None, or a player of the game) borrow `followed`'s sight? Only a rule
        set that hides things from spectators needs this (E12); elsewhere a spectator sees all there is to see."""
        return False

    def follow_refusal(self, game: Game[BoardT, OrderT], seat: str | None, followed: str) -> str:
        """Why `may_follow` said no, in a few words for the refusal: where nothing is hidden, a spectator and a
        player alike see all there is to see already."""
        return "you see all there is to see"

    def public_map(self, game_map: GameMap, options: OptionsT) -> GameMap:
        """The map as a game's followers are sent it. A rule set whose fog hides part of the map (a territory's
        production, until seen) leaves that out here, and tells it in the view to those who may know it."""
        return game_map

    def follow_view(self, game: Game[BoardT, OrderT], followed: str) -> ViewT:
        """What a watcher who follows `followed` sees: that player's sight, never their orders or secrets."""
        return self.view(game, None)

    def view_values(self, game: Game[BoardT, OrderT], viewer: str | None) -> dict[str, Any]:
        """`dump_view(view(game, viewer))`: what the server sends its connections (they read JSON, not the view). A
        rule set may make it without the view (tests/test_view_values.py holds every one to the same values)."""
        return self.dump_view(self.view(game, viewer))

    # ---- a finished game told again -------------------------------------------------------------------------------

    def holdings(self, game: Game[BoardT, OrderT]) -> Mapping[str, tuple[str | None, int]]:
        """Each territory's owner (None: nobody's) and units: the statistics' territories and units per player
        (shared/game/statistics.py). A rule set without territories has none."""
        return {}

    def turn_facts(self, events: Sequence[EventT]) -> TurnFacts:
        """What one turn's events amount to for the statistics: its battles, each player's income and cards played,
        and who went out (and by whom, where the events say)."""
        return TurnFacts()

    def final_standing(self, game: Game[BoardT, OrderT]) -> Mapping[str, tuple[int, ...]]:
        """What ranks the players still in when a game ends without putting them out (a draw at the turn limit, or
        a win by a mission or capitals beside them): the larger the better, compared in order, equal ones tied
        (shared/game/ranking.py). Each player's territories, then units, on the board by default (`holdings`)."""
        return standing_of(self.holdings(game))

    def replay_view(self, game: Game[BoardT, OrderT], sight: str | None) -> ViewT:
        """What a replay of a finished game shows of it as it stood after one of its turns: `sight`'s view then, or
        with None everything there was to see, the game being over now. Only a rule set whose fog hides the board
        from spectators needs more than their view."""
        return self.view(game, sight)

    # ---- faces ---------------------------------------------------------------------------------------------------

    presentation_type: ClassVar[type[Presentation] | None] = None
    """How the text client shows this rule set's boards, orders and events, and reads its commands; None: as the
    orders', events' and views' own fields say (shared/game/plain.py)."""
    strategies: ClassVar[Mapping[str, type[Strategy]]]
    """The computer players, by name: each is made with the rule set it plays (`Strategy(ruleset)`)."""

    @cached_property
    def presentation(self) -> Presentation:
        """The presentation, made once: a client asks for it with every line it prints."""
        return self.presentation_type() if self.presentation_type is not None else PlainPresentation(self)

    # ---- encoding (the same for every rule set) ------------------------------------------------------------------

    def dump_order(self, order: OrderT) -> dict[str, Any]:
        data: dict[str, Any] = self.order_type.dump_python(order, mode="json")
        return data

    def load_order(self, data: Any) -> OrderT:
        return self.order_type.validate_python(data)

    def dump_event(self, event: EventT) -> dict[str, Any]:
        data: dict[str, Any] = self.event_type.dump_python(event, mode="json")
        return data

    def load_event(self, data: Any) -> EventT:
        return self.event_type.validate_python(data)

    def dump_event_json(self, event: EventT) -> str:
        """An event as JSON text: what each log entry carries (every change's events are encoded once)."""
        if self.plain_events and is_dataclass(event):
            try:
                return orjson.dumps(event).decode()
            except TypeError:  # a whole number past 64 bits, say: pydantic writes it
                pass
        return self.event_type.dump_json(event).decode()

    def dump_view(self, view: ViewT) -> dict[str, Any]:
        """A view as JSON values, without its null fields: updates carry views as merge patches, where a null
        removes a key, so a view that never holds null reads the same whole or patched."""
        data: dict[str, Any] = self.view_type.dump_python(view, mode="json", exclude_none=True)
        return data

    def load_view(self, data: Any) -> ViewT:
        return self.view_type.validate_python(data)

    def dump_board(self, board: BoardT) -> dict[str, Any]:
        data: dict[str, Any] = self.board_type.dump_python(board, mode="json")
        return data

    def load_board(self, data: Any) -> BoardT:
        return self.board_type.validate_python(data)

    def order_kinds(self) -> list[str]:
        """The `kind` of every order: the server checks each order's kind against them before reading it, and names
        them when it is unknown."""
        return list(self.order_fields())

    def order_fields(self) -> Mapping[str, tuple[str, ...]]:
        """The fields of each kind of order (`kind` among them), by kind: an order naming another is refused, naming
        it. Worked out once from the orders' JSON schema, which takes milliseconds to make (read on every order:
        never change it)."""
        found: Mapping[str, tuple[str, ...]] | None = self.__dict__.get("_order_fields")
        if found is None:
            found = self.__dict__["_order_fields"] = MappingProxyType(self._fields_in_schema())
        return found

    def _fields_in_schema(self) -> dict[str, tuple[str, ...]]:
        schema = self.order_type.json_schema()
        found: dict[str, tuple[str, ...]] = {}
        for variant in schema.get("oneOf", schema.get("anyOf", [schema])):
            ref = variant.get("$ref", "")
            body = schema.get("$defs", {}).get(ref.rsplit("/", 1)[-1], variant) if ref else variant
            properties = body.get("properties", {})
            kind = properties.get("kind", {})
            kinds = [kind["const"]] if "const" in kind else kind.get("enum", [])
            for name in kinds:
                found[str(name)] = tuple(properties)
        return found


AnyRuleSet = RuleSet[Any, Any, Any, Any, Any, Any]


def check_variant(ruleset: AnyRuleSet, options: Any) -> None:
    """Refuse to play a game with another variant than the one its options choose: the board would be another's."""
    chosen = ruleset.variant(options)
    if type(chosen) is not type(ruleset):
        raise ValueError(
            f"{type(ruleset).__name__} cannot play a game of {type(chosen).__name__}: play each game "
            "with the rule set its options choose (ruleset.variant(options))"
        )
