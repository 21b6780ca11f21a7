"""A game's table, what a decision is, the game set up and started, and which requests that changed it are answered
again (the table as the game list shows it: summary.py).

Apart from the decisions themselves because every one of them reads and returns these: the table is everything
about one game that a decision reads (settings, seats, the game under way, who is here), a Decision what one returns.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, TypeVar

from server.core.entries import Logged
from server.storage.base import OrderChange, PaceState, RequestKey, SeatRecord
from server.storage.notices import Notice
from shared.game import turns
from shared.game.game import Game
from shared.game.random import SETUP_STEP, GameRandom
from shared.game.ruleset import AnyRuleSet, Status
from shared.game.turns import Resolved
from shared.maps.model import GameMap
from shared.protocol import log as game_log
from shared.protocol.lobby import GameSettings, GameStatus

_T = TypeVar("_T")


@dataclass(frozen=True)
class Vacation:
    """An account's latest vacation, as the time of day it started and ends (or ended, if ended early)."""

    start: float
    end: float


@dataclass(frozen=True)
class Pace:
    """The pace part of a table (server/core/pace.py): its saved state, and the vacations of its players (read from
    the accounts, never saved with the game)."""

    state: PaceState | None = None
    vacations: Mapping[str, Vacation] = field(default_factory=dict)


@dataclass(frozen=True)
class Table:
    """Everything about one game that its decisions read."""

    game_id: str
    settings: GameSettings
    ruleset: AnyRuleSet
    options: Any
    game_map: GameMap
    seed: int
    seats: tuple[SeatRecord, ...] = ()
    game: Game[Any, Any] | None = None
    rematch: tuple[str, ...] = ()
    rematch_game: str | None = None
    declined: tuple[str, ...] = ()
    choices: tuple[tuple[str, ...], ...] | None = None
    """What each player picks when joining (RISC's starting groups), when the game lets them."""
    handed_over: tuple[str, ...] = ()
    """Seats the server's computer player plays since their player was gone too long (by the others' vote)."""
    notes: tuple[str, ...] = ()
    """What the game's options change from the rule set's defaults, for the game list (worked out once)."""
    pace: Pace = Pace()
    """Deadlines, banks, missed turns, nudges (saved), and the players' vacations (not saved)."""

    # Who is here: read by the decisions, never saved (a restarted server starts every seat away).
    away_since: Mapping[str, float] = field(default_factory=dict)
    """Seats whose player has no connection to the game, since when (the server's clock)."""
    hand_over_votes: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """For each absent player, who has voted to hand their seat over."""
    idle_since: float | None = None
    """Before the start: since when no person has held a seat here with a live connection (None while one does).
    The lobby closes a game idle too long."""
    rematch_impossible_told: bool = False
    """That too few are left for a rematch has been said (once: the players may leave)."""
    order_work: Mapping[str, int] = field(default_factory=dict)
    """What each player's orders cost the server at the game's step `order_work_step`, in orders checked: an order
    issued one, a withdrawal one for itself and one for each order after it, checked again. Bounded per turn
    (core/playing.py), so no player makes a turn cost the server more than a few times the orders one may hold.
    Counted since the server took the game up (never saved)."""
    order_work_step: int = -1

    @property
    def status(self) -> Status | None:
        return None if self.game is None else turns.status_of(self.ruleset, self.game)

    @property
    def server_seats(self) -> frozenset[str]:
        """The seats the server's own computer players hold: they have no vote, are nobody to wait for, and keep no
        unstarted game alive."""
        return _server_seats(self.settings.bot_strategy, self.settings.bots)

    @property
    def finished(self) -> bool:
        status = self.status
        return status is not None and status.finished

    @property
    def summary_status(self) -> GameStatus:
        if self.game is None:
            return GameStatus.LOBBY
        return GameStatus.FINISHED if self.finished else GameStatus.PLAYING

    def kept(self, key: str, source: object, make: Callable[[], _T]) -> _T:
        """What `make` works out from `source` (one of the table's own values), kept with the table (its copies carry
        it: `evolve`) while `source` is the same object: asked with every change, made again only once it is not."""
        found: tuple[object, _T] | None = self.__dict__.get(key)
        if found is None or found[0] is not source:
            found = (source, make())
            object.__setattr__(self, key, found)
        return found[1]

    def evolve(self, **changes: Any) -> Table:
        """A copy with `changes`, made without going through __init__ (as Game.evolve is): a table is copied with
        every order issued."""
        unknown = changes.keys() - _TABLE_FIELDS
        if unknown:
            return replace(self, **changes)  # raises the usual TypeError naming them
        made = object.__new__(Table)
        made.__dict__.update(self.__dict__)
        made.__dict__.update(changes)
        return made


_TABLE_FIELDS = frozenset(f.name for f in fields(Table))


@dataclass
class Decision:
    table: Table
    entries: list[Logged] = field(default_factory=list)
    resolved: list[Resolved] = field(default_factory=list)
    order_change: OrderChange | None = None
    """Set when the change is one order issued or withdrawn: kept as a small row, not the whole progress."""
    order_changes: tuple[OrderChange, ...] = ()
    """Set when the change is an order moved: kept as the small rows that give the new order (those from the first
    place it changes withdrawn, then given again in their new order), in one write."""
    accepted: Any = None
    """The order an issue accepted."""
    accepted_data: dict[str, Any] | None = None
    """That order as JSON values (what the acceptance carries), made once."""
    committed: str | None = None
    """Set when the change is one player's commit that leaves the turn unresolved: kept as a small row."""
    issued: tuple[OrderChange, ...] = ()
    """The orders the same request issued before that commit (`issue_orders` with `commit`): kept as small rows with
    the commit's, in one write."""
    notices: tuple[Notice, ...] = ()
    """Notifications the change makes besides those the match works out from it (a nudge's)."""


def new_table(
    game_id: str, settings: GameSettings, ruleset: AnyRuleSet, options: Any, game_map: GameMap, seed: int
) -> Table:
    """A game's table, played by the variant of the rule set its options choose."""
    ruleset = ruleset.variant(options)
    choices = ruleset.seat_choices(game_map, options, settings.players)
    return Table(
        game_id,
        settings,
        ruleset,
        options,
        game_map,
        seed,
        choices=None if choices is None else tuple(tuple(c) for c in choices),
        notes=tuple(options.notes()),
    )


def start(table: Table, seats: Sequence[SeatRecord]) -> Decision:
    """Every seat is taken: the rule set sets the board up (its dice from the seed's setup step)."""
    choices = {s.name: s.group for s in seats if s.group is not None} if table.choices is not None else {}
    game = table.ruleset.new_game(
        table.game_map, [s.name for s in seats], table.options, GameRandom(table.seed, SETUP_STEP), choices
    )
    return with_standings(
        table,
        Decision(
            table.evolve(seats=tuple(seats), game=game), [Logged(game_log.GameStarted(players=[s.name for s in seats]))]
        ),
    )


def with_standings(before: Table, decision: Decision) -> Decision:
    """A decision that begins a turn or ends the game, with each player's territories and units as everyone may know
    them logged after what happened (none where the rules hide them): a watcher who comes late reads the game's
    standings turn by turn from its start."""
    game = decision.table.game
    if game is None:
        return decision
    now = turns.status_of(decision.table.ruleset, game)
    was = before.status
    if was is not None and (was.turn, was.finished) == (now.turn, now.finished):
        return decision
    standings = decision.table.ruleset.standings(game)
    if not standings or (now.turn < 1 and not now.finished):
        return decision
    told = game_log.Standings(turn=now.turn, players=standings, final=now.finished)
    return replace(decision, entries=[*decision.entries, Logged(told)])


def server_seat_names(settings: GameSettings) -> list[str]:
    """The names of a game's seats the server's own computer players take: bot-STRATEGY-1, bot-STRATEGY-2, ..."""
    return list(_seat_names(settings.bot_strategy, settings.bots))


def _seat_names(strategy: str | None, bots: int) -> tuple[str, ...]:
    return tuple(f"bot-{strategy}-{i}" for i in range(1, bots + 1))


@functools.lru_cache(maxsize=64)
def _server_seats(strategy: str | None, bots: int) -> frozenset[str]:
    """Made once for each strategy and number: every change asks whom the game waits for among people."""
    return frozenset(_seat_names(strategy, bots))


def step(table: Table) -> int:
    """The game's step (0 before it starts): what a request that changed it is kept under."""
    return 0 if table.game is None else table.game.step


def requests_kept(kept: Mapping[RequestKey, tuple[int, str]], now: int) -> dict[RequestKey, tuple[int, str]]:
    """The requests (by player and request id: the step they were carried out at, and their reply) still answered
    again at step `now`: those of this step and the one before. A request is sent again within seconds; the stores
    forget the same."""
    return {key: (at, reply) for key, (at, reply) in kept.items() if at >= now - 1}
