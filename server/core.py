"""The decisions of one game, apart from everything that waits: a table and a command in, a decision out.

Every function here is pure. It takes the game's table (settings, seats, the game under way) and what someone asks,
and either raises Refusal (nothing changed) or returns a Decision: the new table, the log entries that tell what
happened, the resolutions for the server's log, and whether the change is an order kept as a small row. The match
(server/match.py) is the thin runner around it: it holds the lock, saves the decision, replies, broadcasts and arms
the turn's timer. The seed and the clock come in from outside, so a test needs neither monkeypatching nor waiting.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field, fields, replace
from typing import Any

import orjson
from pydantic import ValidationError

from server.entries import WATCHERS, Logged, logged
from server.refusal import Refusal
from server.storage.base import OrderChange, SeatRecord
from shared.game import turns
from shared.game.errors import Refused, RuleError
from shared.game.game import Game
from shared.game.random import SETUP_STEP, GameRandom, dice_of
from shared.game.ruleset import AnyRuleSet, Status
from shared.game.turns import Resolved
from shared.maps.model import GameMap
from shared.protocol import log as game_log
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import GameSettings, GameStatus, GameSummary, SeatInfo
from shared.protocol.names import looks_alike
from shared.protocol.numbers import whole_numbers


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

    @property
    def status(self) -> Status | None:
        return None if self.game is None else turns.status_of(self.ruleset, self.game)

    @property
    def server_seats(self) -> frozenset[str]:
        """The seats the server's own computer players hold: they have no vote, are nobody to wait for, and keep no
        unstarted game alive."""
        return frozenset(server_seat_names(self.settings))

    @property
    def finished(self) -> bool:
        status = self.status
        return status is not None and status.finished

    @property
    def summary_status(self) -> GameStatus:
        if self.game is None:
            return GameStatus.LOBBY
        return GameStatus.FINISHED if self.finished else GameStatus.PLAYING

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
    accepted: Any = None
    """The order an issue accepted."""
    accepted_data: dict[str, Any] | None = None
    """That order as JSON values (what the acceptance carries), made once."""
    committed: str | None = None
    """Set when the change is one player's commit that leaves the turn unresolved: kept as a small row."""


def new_table(game_id: str, settings: GameSettings, ruleset: AnyRuleSet, options: Any, game_map: GameMap,
              seed: int) -> Table:
    """A game's table, played by the variant of the rule set its options choose."""
    ruleset = ruleset.variant(options)
    choices = ruleset.seat_choices(game_map, options, settings.players)
    return Table(game_id, settings, ruleset, options, game_map, seed,
                 choices=None if choices is None else tuple(tuple(c) for c in choices), notes=tuple(options.notes()))


def start(table: Table, seats: Sequence[SeatRecord]) -> Decision:
    """Every seat is taken: the rule set sets the board up (its dice from the seed's setup step)."""
    choices = {s.name: s.group for s in seats if s.group is not None} if table.choices is not None else {}
    game = table.ruleset.new_game(table.game_map, [s.name for s in seats], table.options,
                                  GameRandom(table.seed, SETUP_STEP), choices)
    return with_standings(table, Decision(table.evolve(seats=tuple(seats), game=game),
                                          [Logged(game_log.GameStarted(players=[s.name for s in seats]))]))


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


# ---- the lobby ----------------------------------------------------------------------------------------------------

def seat_named(table: Table, name: str) -> str | None:
    """The seat a request names (`watch GAME alice`, a hand-over, a word to one player): names ignore case, as they do
    when a player joins, so `alice` is Alice."""
    seats = [s.name for s in table.seats]
    if name in seats:
        return name
    return next((seat for seat in seats if seat.casefold() == name.casefold()), None)


def server_seat_names(settings: GameSettings) -> list[str]:
    """The names of a game's seats the server's own computer players take: bot-STRATEGY-1, bot-STRATEGY-2, ..."""
    return [f"bot-{settings.bot_strategy}-{i}" for i in range(1, settings.bots + 1)]


def join(table: Table, name: str, group: int | None, token_hash: str) -> Decision:
    if table.game is not None:
        raise Refusal(ErrorCode.GAME_STARTED, f"game {table.game_id} has started: watch it instead")
    if any(looks_alike(s.name, name) for s in table.seats):
        raise Refusal(ErrorCode.NAME_TAKEN, f'the name "{name}" is taken in game {table.game_id}',
                      field="name")
    if len(table.seats) >= table.settings.players:
        raise Refusal(ErrorCode.GAME_FULL, f"game {table.game_id} has no free seat")
    _check_group(table, group)
    seats = (*table.seats, SeatRecord(name=name, token_hash=token_hash, group=group))
    joined = [Logged(game_log.PlayerJoined(player=name))]
    if len(seats) < table.settings.players:
        return Decision(table.evolve(seats=seats), joined)
    started = start(table, seats)
    return Decision(started.table, joined + started.entries)


def token_renewed(table: Table, player: str, token_hash: str) -> Decision:
    """A join sent again after its reply was lost (the seat was taken then): the seat's token cannot be sent again
    (only its hash is kept), so the seat gets a new one, which the request's id proves is its player's."""
    seats = tuple(s.model_copy(update={"token_hash": token_hash}) if s.name == player else s for s in table.seats)
    return Decision(table.evolve(seats=seats))


def _check_group(table: Table, group: int | None) -> None:
    if table.choices is None:
        if group is not None:
            raise Refusal(ErrorCode.BAD_GROUP, f"starting groups in game {table.game_id} are drawn at random: "
                                               "join without a group", field="group")
        return
    if group is None or not 0 <= group < len(table.choices):
        raise Refusal(ErrorCode.BAD_GROUP, f"choose a starting group from 0 to {len(table.choices) - 1}",
                      field="group")
    holder = next((s.name for s in table.seats if s.group == group), None)
    if holder is not None:
        raise Refusal(ErrorCode.BAD_GROUP, f"group {group} is taken by {holder}", field="group")


def leave(table: Table, player: str) -> Decision | None:
    """A seated player leaves: before the start their seat is freed; after the end they turn the rematch down.
    Returns None where leaving changes nothing of the game (a player who lost, stopping to watch)."""
    if table.game is None:
        seats = tuple(s for s in table.seats if s.name != player)
        return Decision(table.evolve(seats=seats), [Logged(game_log.PlayerLeft(player=player))])
    status = turns.status_of(table.ruleset, table.game)
    if status.finished:
        if player in table.declined or player in table.rematch or table.rematch_game is not None:
            return None
        return Decision(table.evolve(declined=(*table.declined, player)),
                        [Logged(game_log.RematchDeclined(player=player))])
    if player not in status.eliminated:
        raise Refusal(ErrorCode.GAME_STARTED, "the game has started: you keep your seat until you lose, resign or "
                                              "the game ends (you may disconnect and come back)")
    return None


# ---- playing ------------------------------------------------------------------------------------------------------

def running(table: Table, turn: int | None) -> tuple[Game[Any, Any], Status]:
    game = table.game
    if game is None:
        raise Refusal(Refused.WRONG_PHASE, f"game {table.game_id} starts when all {table.settings.players} seats "
                                           "are taken")
    status = turns.status_of(table.ruleset, game)
    if status.finished:
        raise Refusal(Refused.GAME_OVER, "the game is over")
    if turn is not None and turn != status.turn:
        raise Refusal(Refused.WRONG_TURN, f"this is for turn {turn}, but the game is at turn {status.turn} "
                                          f"({status.phase})", field="turn")
    return game, status


def read_order(ruleset: AnyRuleSet, data: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """An order's JSON checked against the game's rule set, and the order read back as JSON values (all its fields,
    defaults included): a sentence naming what is wrong, and the field at fault, never a traceback.

    The order is read as the published schema reads it: by JSON type (2 and 2.0 are the same whole number; true, "2"
    and 2.5 are not one), with exactly the fields of its kind."""
    kinds = ruleset.order_kinds()
    kind = data.get("kind")
    if kind not in kinds:
        shown = "no kind" if kind is None else f'the kind "{str(kind)[:40]}"'
        raise Refusal(ErrorCode.UNKNOWN_ORDER, f"{ruleset.title} has no order with {shown} "
                                               f"(its orders: {', '.join(kinds)})", field="order.kind")
    try:
        text = json.dumps(whole_numbers(data), separators=(",", ":"))  # json, not orjson: integers of any size
        order = ruleset.order_type.validate_json(text, strict=True)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        parts = []
        for error in errors[:4]:
            where = ".".join(str(p) for p in error["loc"][1:]) or "order"
            parts.append(f"{where}: {_plain(error)}")
        at = ".".join(str(p) for p in errors[0]["loc"][1:])
        raise Refusal(ErrorCode.INVALID_ORDER, f"that {kind} order will not do: " + "; ".join(parts),
                      field="order." + at if at else "order") from None
    dumped = ruleset.dump_order(order)
    unknown = sorted(str(key)[:40] for key in data.keys() - dumped.keys())
    if unknown:  # a misspelt field would otherwise be dropped without a word, and its default used instead
        raise Refusal(ErrorCode.INVALID_ORDER, f"a {kind} order has no field {', '.join(unknown[:4])} "
                                               f"(its fields: {', '.join(dumped)})", field="order." + unknown[0])
    return order, dumped


def _plain(error: Any) -> str:
    """Pydantic's words for a field, as a player would say them."""
    kind, context = error["type"], error.get("ctx") or {}
    if kind == "missing":
        return "it is missing"
    given = error.get("input")
    shown = f", not {json.dumps(given)}" if isinstance(given, bool | int | float | str) and len(str(given)) <= 40 \
        else ""
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return "a whole number is needed" + shown
    if kind in ("string_type",):
        return "a name is needed" + shown
    if kind == "greater_than_equal":
        return f"it must be at least {context.get('ge')}"
    if kind == "less_than_equal":
        return f"it must be at most {context.get('le')}"
    if kind == "extra_forbidden":
        return "this order has no such field"
    return str(error["msg"])


def issue(table: Table, player: str, turn: int, data: dict[str, Any]) -> Decision:
    """One order: recorded (simultaneous games), or carried out at once (turn-by-turn games)."""
    ruleset = table.ruleset
    game, _ = running(table, turn)
    order, dumped = read_order(ruleset, data)
    if ruleset.simultaneous:
        issued = turns.issue(ruleset, game, player, order)
        if isinstance(issued, RuleError):
            raise Refusal.of(issued)
        index = len(issued.orders_of(player)) - 1
        change = OrderChange(player, game.step, index, orjson.dumps(dumped).decode())
        return Decision(table.evolve(game=issued), order_change=change, accepted=order, accepted_data=dumped)
    acted = turns.act(ruleset, game, player, order, dice_of(table.seed))
    if isinstance(acted, RuleError):
        raise Refusal.of(acted)
    game, resolved = acted
    return with_standings(table, Decision(table.evolve(game=game), resolution_entries(table, [resolved]), [resolved],
                                          accepted=order, accepted_data=dumped))


@dataclass(frozen=True)
class BatchRefusal:
    """An order of a batch that was refused: its 0-based position in the batch, and why."""

    position: int
    code: str
    message: str


@dataclass(frozen=True)
class BatchAcceptance:
    """An order of a batch that was taken: its position in the batch, its index in the player's list (0 where it took
    effect at once), the order as JSON values and as the rule set reads it (for its words)."""

    position: int
    index: int
    data: dict[str, Any]
    order: Any


@dataclass
class Batch:
    """Several orders of one player issued in one request, each as `issue` would have taken it alone, in turn."""

    decision: Decision
    """The table after every accepted order, and what those that took effect at once (turn-by-turn games) logged."""
    changes: list[OrderChange] = field(default_factory=list)
    """The accepted orders kept as small rows (simultaneous games)."""
    accepted: list[BatchAcceptance] = field(default_factory=list)
    refused: list[BatchRefusal] = field(default_factory=list)


def issue_batch(table: Table, player: str, turn: int, orders: Sequence[dict[str, Any]]) -> Batch:
    """Each order checked against what the batch's earlier accepted ones left, as if issued one by one: a refused
    order changes nothing, and those after it are still checked."""
    current = Decision(table)
    batch = Batch(current)
    for position, data in enumerate(orders):
        try:
            decision = issue(current.table, player, turn, data)
        except Refusal as refusal:
            batch.refused.append(BatchRefusal(position, refusal.code, refusal.message))
            continue
        assert decision.accepted_data is not None, "an issued order comes back as JSON values"
        change = decision.order_change
        if change is not None:
            batch.changes.append(change)
        batch.accepted.append(BatchAcceptance(position, 0 if change is None else change.index,
                                              decision.accepted_data, decision.accepted))
        current = Decision(decision.table, [*current.entries, *decision.entries],
                           [*current.resolved, *decision.resolved])
    batch.decision = current
    return batch


def resign(table: Table, player: str) -> Decision:
    """A player gives up a running game: the rule set decides what becomes of what they held; a simultaneous turn that
    waited only for them resolves."""
    game, status = running(table, None)
    result = turns.resign(table.ruleset, game, player, dice_of(table.seed))
    if isinstance(result, RuleError):
        raise Refusal.of(result)
    game, resolved = result
    entries = [Logged(game_log.PlayerResigned(player=player, turn=status.turn, step=resolved.step)),
               *(logged(event) for event in resolved.events)]
    return with_standings(table, _resolve_if_ready(Decision(table.evolve(game=game), entries, [resolved])))


def withdraw(table: Table, player: str, turn: int, index: int) -> Decision:
    game, _ = running(table, turn)
    result = turns.withdraw(table.ruleset, game, player, index)
    if isinstance(result, RuleError):
        raise Refusal.of(result)
    return Decision(table.evolve(game=result), order_change=OrderChange(player, game.step, index, None))


def commit(table: Table, player: str, turn: int) -> Decision:
    game, status = running(table, turn)
    result = turns.commit(table.ruleset, game, player)
    if isinstance(result, RuleError):
        raise Refusal.of(result)
    decision = Decision(table.evolve(game=result),
                        [Logged(game_log.PlayerCommitted(player=player, turn=status.turn))], committed=player)
    return with_standings(table, _resolve_if_ready(decision))


def play_seat(table: Table, player: str, turn: int, orders: Sequence[Any]) -> tuple[Decision, list[RuleError]]:
    """A computer player's decision for its seat, carried out at once (turns.play_seat): the orders the rules accept
    and the commit, or the action; whatever the rules refuse is played as when time runs out, so the game never
    stalls on it. Returns the decision and the refusals. Refusal when the game has moved on since the decision was
    taken (another turn), or no longer waits for the player."""
    game, status = running(table, turn)
    if player not in turns.awaiting(table.ruleset, game):
        raise Refusal(Refused.NOT_YOUR_TURN, "the game does not wait for you now")
    played = turns.play_seat(table.ruleset, game, player, orders, dice_of(table.seed))
    refusals = [problem for _, problem in played.refused]
    if table.ruleset.simultaneous:
        decision = Decision(table.evolve(game=played.game),
                            [Logged(game_log.PlayerCommitted(player=player, turn=status.turn))])
        return _resolve_if_ready(decision), refusals
    entries = [Logged(game_log.TimeRanOut(turn=status.turn, players=[player]))] if played.timed_out else []
    entries += resolution_entries(table, played.resolved)
    return Decision(table.evolve(game=played.game), entries, played.resolved), refusals


def _resolve_if_ready(decision: Decision) -> Decision:
    table = decision.table
    if table.game is None or not turns.ready(table.ruleset, table.game):
        return decision
    game, resolved = turns.advance(table.ruleset, table.game, dice_of(table.seed))
    return Decision(table.evolve(game=game), decision.entries + resolution_entries(table, [resolved]),
                    [*decision.resolved, resolved])


def resolution_entries(table: Table, resolutions: Sequence[Resolved]) -> list[Logged]:
    """Each resolution's orders (so the game can be replayed from its seed), then what happened."""
    revealed_to = None if table.ruleset.reveals_orders(table.options) else frozenset[str]()
    out: list[Logged] = []
    for resolved in resolutions:
        out.append(Logged(game_log.OrdersRevealed(turn=resolved.turn, step=resolved.step,
                                                  orders=turns.reveal(resolved.orders, table.ruleset)),
                          revealed_to))
        out += [logged(event) for event in resolved.events]
    return out


def unsettled(table: Table) -> bool:
    """Every player has committed the turn but it is not resolved (a server stopped in between): see settle."""
    return table.game is not None and turns.ready(table.ruleset, table.game)


def settle(table: Table) -> Decision | None:
    if not unsettled(table):
        return None
    return with_standings(table, _resolve_if_ready(Decision(table)))


def time_out(table: Table, clock: Any) -> Decision | None:
    """D3, C9: the turn's time ran out. None when the game has moved on since the timer was set (`clock`)."""
    game = table.game
    if game is None:
        return None
    status = turns.status_of(table.ruleset, game)
    if status.finished or status.clock != clock:
        return None
    game, late, resolutions = turns.time_out(table.ruleset, game, dice_of(table.seed))
    entries = [Logged(game_log.TimeRanOut(turn=status.turn, players=late)),
               *resolution_entries(table, resolutions)]
    return with_standings(table, Decision(table.evolve(game=game), entries, resolutions))


def turn_clock(table: Table, anyone_seated: bool) -> Any:
    """What the turn's timer times now (the turn and who is awaited: Status.clock), or None for no timer: a game
    without a time limit, not started, over, or whose every seat is empty (it waits for its players rather than
    play itself). A change that leaves the same key leaves the timer running."""
    status = table.status
    if table.settings.turn_seconds is None or status is None or status.finished or not anyone_seated:
        return None
    return status.clock


# ---- the end (R27) ------------------------------------------------------------------------------------------------

def rematch_request(table: Table, player: str) -> tuple[Decision, list[str]]:
    """A player asks for a rematch: returns the decision and who is still to ask (empty: start it now)."""
    if not table.finished:
        raise Refusal(ErrorCode.NOT_FINISHED, f"game {table.game_id} is not over")
    if table.rematch_game is not None:
        raise Refusal(ErrorCode.GAME_STARTED, f"the rematch is game {table.rematch_game}: resume it with your seat "
                                              "token")
    if player in table.declined:
        raise Refusal(ErrorCode.NOT_SEATED, "you left this game's table: the others go on without you")
    accepted = table.rematch if player in table.rematch else (*table.rematch, player)
    waiting = [s.name for s in table.seats if s.name not in accepted and s.name not in table.declined]
    return Decision(table.evolve(rematch=accepted), [Logged(game_log.RematchRequested(player=player))]), waiting


def rematch_seats(table: Table) -> list[SeatRecord]:
    """Who sits in the rematch: everyone who asked, in their seats' order."""
    return [s for s in table.seats if s.name in table.rematch]


@dataclass(frozen=True)
class RematchOutlook:
    """What the table's rematch requests call for now: start it with `seats`, say once that it cannot be
    (`impossible`), or nothing (someone is still to ask or to leave, it started already, or nobody asked)."""

    seats: tuple[SeatRecord, ...] = ()
    impossible: Decision | None = None


def rematch_outlook(table: Table) -> RematchOutlook:
    """Everyone still at the table asked: the rematch starts with them, if the rule set can seat so few."""
    if table.rematch_game is not None or not table.rematch:
        return RematchOutlook()
    if any(s.name not in table.rematch and s.name not in table.declined for s in table.seats):
        return RematchOutlook()
    problem = rematch_problem(table)
    if problem is None:
        return RematchOutlook(seats=tuple(rematch_seats(table)))
    if table.rematch_impossible_told:
        return RematchOutlook()
    return RematchOutlook(impossible=Decision(table.evolve(rematch_impossible_told=True),
                                              [Logged(game_log.RematchImpossible(reason=problem))]))


def rematch_started(table: Table, game_id: str) -> Decision:
    """The rematch is game `game_id`: this one points there from now on."""
    return Decision(table.evolve(rematch_game=game_id),
                    [Logged(game_log.RematchStarted(game_id=game_id, players=list(table.rematch)))])


def rematch_problem(table: Table) -> str | None:
    """Why the players who asked cannot have a rematch without those who left (too few for the rule set)."""
    fewest, _ = table.ruleset.player_counts(table.options)
    if len(rematch_seats(table)) < fewest:
        return (f"{', '.join(table.declined)} left: a {table.ruleset.title} game needs at least {fewest} players, so "
                "there is no rematch")
    return None


# ---- who is here ---------------------------------------------------------------------------------------------------

def seat_taken(table: Table, player: str) -> Table:
    """A connection holds `player`'s seat: they are here, and no vote to hand their seat over stands."""
    return table.evolve(away_since={k: v for k, v in table.away_since.items() if k != player},
                        hand_over_votes={k: v for k, v in table.hand_over_votes.items() if k != player})


def seat_left(table: Table, player: str, now: float) -> Table:
    """The last connection holding `player`'s seat is gone: they are away from `now`."""
    return table.evolve(away_since={**table.away_since, player: now})


def all_away(table: Table, held: Set[str], now: float) -> Table:
    """Every seat no connection holds is away from `now` on (a restored game's, before anyone is back)."""
    return table.evolve(away_since={**{s.name: now for s in table.seats if s.name not in held}, **table.away_since})


def presence_noted(table: Table, person_connected: bool, now: float) -> Table:
    """An unstarted game is idle from the moment no person holds a seat with a live connection."""
    if table.game is not None or person_connected:
        return table.evolve(idle_since=None) if table.idle_since is not None else table
    return table if table.idle_since is not None else table.evolve(idle_since=now)


def idle_left(table: Table, expiry: float, now: float) -> float | None:
    """Seconds until an unstarted game may be closed for want of players (0 or less: now); None while a player is
    here or once it has started."""
    if table.game is not None or table.idle_since is None:
        return None
    return table.idle_since + expiry - now


def people_seated(table: Table, held: Set[str] | None = None) -> bool:
    """Whether a person (not the server's own player) holds a seat: one of `held` (the seats live connections
    hold) when given, else any seat of the table."""
    names = held if held is not None else {s.name for s in table.seats}
    return any(name not in table.server_seats for name in names)


def closable_unstarted(table: Table, held: Set[str], at_once: bool) -> bool:
    """An unstarted game may be closed once no person holds a seat with a live connection; `at_once` (its last
    player left, whatever the time) only once no person has a seat in it at all."""
    return table.game is None and not people_seated(table, held) and not (at_once and people_seated(table))


def computers_alone(table: Table) -> bool:
    """A game in play whose every player still in is the server's computer (its own, or one a seat was handed to):
    it plays on by itself, for as long as it lasts."""
    status = table.status
    if status is None or status.finished:
        return False
    out = set(status.eliminated)
    return all(seat.name in table.server_seats or seat.name in table.handed_over
               for seat in table.seats if seat.name not in out)


# ---- chat ----------------------------------------------------------------------------------------------------------

def chat(table: Table, seat: str | None, name: str | None, text: str, to: str | None) -> Decision:
    """A word in a game's chat, from a seat or a spectator (`seat` None, speaking under `name`). While the game runs,
    those who do not play it (spectators, players who are out) talk among themselves: the players still in hear them
    once it is over. A word to one player is theirs and the speaker's, for good."""
    status = table.status
    running = status is not None and not status.finished
    out = set(status.eliminated) if status is not None else set()
    if seat is None:
        if name is None:
            raise Refusal(ErrorCode.INVALID_MESSAGE, "a spectator chats under a name: give one")
        if any(looks_alike(s.name, name) for s in table.seats):
            raise Refusal(ErrorCode.NAME_TAKEN, f'"{name}" is a player\'s name in game {table.game_id}: chat under '
                                                "another")
    speaker = seat if seat is not None else name
    assert speaker is not None
    watching = seat is None or (running and seat in out)
    if to is not None:
        named = seat_named(table, to)
        if named is None:
            raise Refusal(Refused.UNKNOWN_PLAYER, f"{to} does not play in game {table.game_id}")
        if named == seat:
            raise Refusal(Refused.UNKNOWN_PLAYER, "that is you: say it to someone else")
        if watching and running and named not in out:
            raise Refusal(ErrorCode.NOT_SEATED, f"{named} plays on: those who watch talk among themselves until the "
                                                "game is over")
        said = game_log.ChatSaid(player=speaker, text=text, to=named, watching=seat is None)
        audience = frozenset({named} if seat is None else {named, seat})
        return Decision(table, [Logged(said, audience, lasting=True)])
    if watching and running:
        said = game_log.ChatSaid(player=speaker, text=text, watchers=True, watching=seat is None)
        return Decision(table, [Logged(said, frozenset({WATCHERS, *out}))])
    return Decision(table, [Logged(game_log.ChatSaid(player=speaker, text=text, watching=seat is None))])


# ---- a seat left empty too long ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Vote:
    """Where a vote to hand a seat over stands: who has voted, who is still to, the table with the vote counted, and
    the decision once it is taken."""

    votes: list[str]
    needed: list[str]
    table: Table
    decision: Decision | None = None


def hand_over_vote(table: Table, voter: str, player: str, now: float, least_away: float, present: Set[str],
                   computers: Set[str]) -> Vote:
    """A vote to have the server's computer player take `player`'s seat, in a game with no time limit whose player
    has been away at least `least_away` seconds (`now` on the clock `away_since` was read on). The game's creator
    (its first seat a person took) decides alone; otherwise every other player still in and connected (`present`)
    must agree (the server's own players, `computers`, have no vote)."""
    _, status = running(table, None)
    names = [s.name for s in table.seats]
    named = seat_named(table, player)
    if named is None:
        raise Refusal(Refused.UNKNOWN_PLAYER, f"{player} does not play in game {table.game_id}")
    player = named
    if player == voter:
        raise Refusal(ErrorCode.CANNOT_HAND_OVER, "you cannot hand your own seat over: leave the game instead")
    if table.settings.turn_seconds is not None:
        raise Refusal(ErrorCode.CANNOT_HAND_OVER, "this game has a time limit: an absent player's turns pass when "
                                                  "time runs out, so nobody is stuck")
    if player in status.eliminated or player in table.handed_over or player in computers:
        raise Refusal(ErrorCode.CANNOT_HAND_OVER, f"{player} is played by the computer already, or is out")
    since = table.away_since.get(player)
    if since is None:
        raise Refusal(ErrorCode.CANNOT_HAND_OVER, f"{player} is connected")
    if now - since < least_away:
        raise Refusal(ErrorCode.CANNOT_HAND_OVER, f"{player} has been away {int(now - since)} s; a seat can be "
                                                  f"handed over after {int(least_away)} s")
    votes = table.hand_over_votes.get(player, frozenset()) | {voter}
    people = [n for n in names if n not in computers and n not in table.handed_over]
    creator = people[0] if people else None
    voters = [n for n in people if n != player and n not in status.eliminated and n in present]
    needed = [] if creator in votes else [n for n in voters if n not in votes]
    if needed:
        return Vote(sorted(votes), needed, table.evolve(hand_over_votes={**table.hand_over_votes, player: votes}))
    decided = table.evolve(handed_over=(*table.handed_over, player),
                           hand_over_votes={k: v for k, v in table.hand_over_votes.items() if k != player})
    decision = Decision(decided, [Logged(game_log.SeatHandedOver(player=player, strategy=stand_in_strategy(table),
                                                                 by=sorted(votes)))])
    return Vote(sorted(votes), [], decided, decision)


def stand_in_strategy(table: Table) -> str:
    """The computer player that plays a handed-over seat: the game's choice for its bots when the rule set knows it,
    else the rule set's strongest."""
    chosen = table.settings.bot_strategy
    return chosen if chosen is not None and chosen in table.ruleset.strategies else table.ruleset.default_strategy


def take_back(table: Table, player: str) -> Decision | None:
    """A handed-over seat's player is back: the computer stops playing for them."""
    if player not in table.handed_over:
        return None
    return Decision(table.evolve(handed_over=tuple(n for n in table.handed_over if n != player)),
                    [Logged(game_log.SeatTakenBack(player=player))])


# ---- what others see ----------------------------------------------------------------------------------------------

def sight(table: Table, seat: str | None, follow: str | None) -> str | None:
    """The player whose eyes a connection that watches sees with: `follow` (named in any case) where the rule set
    lets the connection's seat (`seat`, None for a spectator) follow them, or nobody's (None). A seated player
    watches only by following someone: one who is out borrows a survivor's sight, and watches on as a spectator."""
    game = table.game
    if follow is None:
        if seat is not None:
            raise Refusal(ErrorCode.ALREADY_SEATED, f"you sit in game {table.game_id} as {seat}")
        return None
    named = seat_named(table, follow)
    if game is None or named is None or named not in game.players:
        raise Refusal(ErrorCode.CANNOT_FOLLOW, f"{follow} does not play in game {table.game_id}", field="follow")
    if not table.ruleset.may_follow(game, seat, named):
        why = table.ruleset.follow_refusal(game, seat, named)
        raise Refusal(ErrorCode.CANNOT_FOLLOW,
                      f"in this game you cannot see with {named}'s eyes" + (f": {why}" if why else ""),
                      field="follow")
    return named


def summary(table: Table, connected: set[str], spectators: int, computers: frozenset[str] = frozenset()
            ) -> GameSummary:
    game = table.game
    status = None if game is None else turns.status_of(table.ruleset, game)
    waited = frozenset() if game is None else turns.awaiting(table.ruleset, game, status)
    eliminated = set(status.eliminated) if status is not None else set()
    committed = game.committed if game is not None else frozenset()
    # Built without validation (every value is typed already): an update carries one after every change.
    return GameSummary.model_construct(
        game_id=table.game_id, settings=table.settings, ruleset_title=table.ruleset.title,
        simultaneous=table.ruleset.simultaneous, map_name=table.game_map.name,
        territories=len(table.game_map.territories), notes=list(table.notes),
        seats=[SeatInfo.model_construct(name=s.name, connected=s.name in connected, group=s.group,
                                        eliminated=s.name in eliminated, committed=s.name in committed,
                                        awaited=s.name in waited,
                                        computer=s.name in computers or s.name in table.handed_over,
                                        handed_over=s.name in table.handed_over) for s in table.seats],
        free=table.settings.players - len(table.seats), status=table.summary_status,
        phase="lobby" if status is None else ("finished" if status.finished else status.phase),
        turn=0 if status is None else status.turn, step=0 if game is None else game.step,
        winner=None if status is None else status.winner,
        draw=status is not None and status.finished and status.winner is None,
        groups=None if table.choices is None else [list(c) for c in table.choices], spectators=spectators,
        rematch=list(table.rematch), rematch_game=table.rematch_game, rematch_declined=list(table.declined))


# ---- requests sent again -------------------------------------------------------------------------------------------

def step(table: Table) -> int:
    """The game's step (0 before it starts): what a request that changed it is kept under."""
    return 0 if table.game is None else table.game.step


def requests_kept(kept: Mapping[str, tuple[int, str]], now: int) -> dict[str, tuple[int, str]]:
    """The requests (by id: the step they were carried out at, and their reply) still answered again at step `now`:
    those of this step and the one before. A request is sent again within seconds; the stores forget the same."""
    return {request_id: (at, reply) for request_id, (at, reply) in kept.items() if at >= now - 1}
