"""A game's pace: when each awaited player's time runs out, what their bank of time holds, who is on vacation, who
missed how many turns running, and who nudged whom. Pure: the time of day (`now`, seconds since the epoch) comes in.

Deadlines are times of day kept with the game's progress (`PaceState`), not timers: a restarted server, or another
node taking the game over, finds them in the store and honours them, at once when one passed while no node held the
game. The turn's limit starts whenever what the turn's timer times changes (`Status.clock`: a new turn, another
player to act). A player's own deadline is the limit's end, moved on by a vacation that overlapped the turn (a full
limit from its end) and by what is left in their bank; a turn that overruns the limit draws the overrun from the bank
when the player's turn ends.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from server.core.table import Decision, Table, Vacation
from server.refusal import Refusal
from server.storage.base import PaceState
from shared.game import turns
from shared.game.errors import Refused
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import DAY

ALONE_AFTER = 3600.0
"""A game whose turn limit is shorter than this waits for its players while none of them holds their seat (a game
night that broke up); a game of an hour or more a turn keeps its deadlines whoever is connected: its players are told
by mail or webhook and come back."""

NUDGE_EVERY = DAY
"""A player may nudge once a day in each game."""


def clock_key(table: Table) -> list[Any] | None:
    """What the turn's limit counts for now, as it is kept (JSON: a list), or None when nothing is timed."""
    status = table.status
    if status is None or status.finished or table.settings.turn_seconds is None:
        return None
    turn, acting = status.clock
    return [turn, sorted(acting)]


def current(table: Table, now: float) -> Table:
    """The table with its pace counting for what the game waits for now: a limit started afresh at `now` when the
    turn or the players it counts for changed (banks refilled by the days since the game's pace started), or the
    first time a game is timed (a game of a release that kept no deadline starts its turn's clock now)."""
    key = clock_key(table)
    state = table.pace.state
    if key is None or (state is not None and state.clock == key):
        return table
    settings = table.settings
    if state is None:
        bank = settings.banked
        players = table.game.players if table.game is not None else ()
        state = PaceState(started_at=now, banks=dict.fromkeys(players, bank) if bank else {})
    days = max(0, math.floor((now - state.started_at) / DAY))
    banks = dict(state.banks)
    if settings.bank_refill_seconds and days > state.refilled:
        gained = (days - state.refilled) * settings.bank_refill_seconds
        banks = {p: min(settings.banked, left + gained) for p, left in banks.items()}
    fresh = state.model_copy(update={"clock": key, "since": now, "banks": banks, "refilled": days})
    return table.evolve(pace=replace(table.pace, state=fresh))


def restarted(table: Table, now: float) -> Table:
    """The turn's limit started again at `now` (a game of short turns whose players were all away comes back)."""
    state = table.pace.state
    if state is None or state.clock is None:
        return table
    return table.evolve(pace=replace(table.pace, state=state.model_copy(update={"since": now})))


def limit_end(table: Table, player: str) -> float | None:
    """When the turn's limit ends for `player`: the turn's own, or a full limit after a vacation that overlapped the
    turn, in a game that honours vacations; after a vacation shorter than a limit, as long again as it lasted (what
    it took of the allowance), so that a vacation taken and ended at once, again and again, buys no time. None
    without a limit."""
    state, seconds = table.pace.state, table.settings.turn_seconds
    if state is None or seconds is None or state.clock is None:
        return None
    end = state.since + seconds
    vacation = table.pace.vacations.get(player)
    if vacation is not None and table.settings.honours_vacations and vacation.end > state.since:
        end = max(end, vacation.end + min(seconds, vacation.end - vacation.start))
    return end


def on_vacation(table: Table, player: str, now: float) -> float | None:
    """When `player`'s vacation ends, while they are on one that this game honours; else None."""
    vacation = table.pace.vacations.get(player)
    if vacation is None or not table.settings.honours_vacations or not vacation.start <= now < vacation.end:
        return None
    return vacation.end


def vacation_told(table: Table, player: str) -> float | None:
    """When `player`'s vacation ends, where it moves their deadline on this turn (what the summary tells)."""
    vacation, state = table.pace.vacations.get(player), table.pace.state
    if vacation is None or state is None or not table.settings.honours_vacations or vacation.end <= state.since:
        return None
    return vacation.end


def deadline(table: Table, player: str) -> float | None:
    """When `player`'s time runs out on this turn: their limit's end and what is left in their bank."""
    end = limit_end(table, player)
    if end is None:
        return None
    state = table.pace.state
    return end + (state.banks.get(player, 0.0) if state is not None else 0.0)


def awaited_people(table: Table) -> list[str]:
    """The players the game waits for whose time is counted (not the seats the server's computers play)."""
    game = table.game
    if game is None:
        return []
    waited, computers = turns.awaiting(table.ruleset, game), table.server_seats
    return sorted(p for p in waited if p not in computers and p not in table.handed_over)


def next_deadline(table: Table, now: float, anyone_seated: bool) -> tuple[Any, float] | None:
    """The earliest deadline of the players the game waits for (what the turn's timer is armed for), with the key
    it is armed under; None for no timer: no limit, not started, over, nobody awaited whose time counts, or every
    seat empty in a game of short turns (it waits for its players rather than play itself)."""
    key = clock_key(table)
    seconds = table.settings.turn_seconds
    if key is None or seconds is None or (not anyone_seated and seconds < ALONE_AFTER):
        return None
    found = [(at, p) for p in turns.awaiting(table.ruleset, table.game) if (at := deadline(table, p)) is not None]  # type: ignore[arg-type]
    if not found:
        return None
    at = min(at for at, _ in found)
    if any(on_vacation(table, p, now) is not None and deadline(table, p) == at for _, p in found):
        # the one whose deadline is earliest is away on vacation: look again once it ends
        at = min(at, min(v for _, p in found if (v := on_vacation(table, p, now)) is not None))
    return (key, at), at


def due(table: Table, now: float) -> list[str]:
    """The awaited players whose time has run out at `now` (a player on vacation never: the game waits for them)."""
    game = table.game
    if game is None:
        return []
    late = []
    for player in sorted(turns.awaiting(table.ruleset, game)):
        at = deadline(table, player)
        if at is not None and at <= now and on_vacation(table, player, now) is None:
            late.append(player)
    return late


def timed_out(table: Table, late: list[str], now: float) -> Table:
    """Banks of the players whose time ran out spent, and one more turn missed for each."""
    state = table.pace.state
    if state is None:
        return table
    banks = {**state.banks, **{p: 0.0 for p in late if p in state.banks}}
    missed = {**state.missed, **{p: state.missed.get(p, 0) + 1 for p in late}}
    return table.evolve(pace=replace(table.pace, state=state.model_copy(update={"banks": banks, "missed": missed})))


def booted(table: Table, late: list[str]) -> list[str]:
    """Those of `late` whose time has now run out as many turns running as the game's boot allows: they are out."""
    after, state = table.settings.boot_after, table.pace.state
    if after is None or state is None:
        return []
    return [p for p in late if state.missed.get(p, 0) + 1 >= after]


def played_by_hand(before: Table, after: Table, timed: frozenset[str] = frozenset()) -> list[str]:
    """The people whose turn a change ended by their own hand (a commit, the action that passed the turn on), not by
    their time running out (`timed`)."""
    if before.game is None or after.game is None:
        return []
    moved_on = clock_key(before) != clock_key(after)  # a new turn: everyone awaited before is done with theirs
    waited_now = set() if moved_on else set(turns.awaiting(after.ruleset, after.game))
    out = set(after.status.eliminated) if after.status is not None else set()
    return sorted(set(awaited_people(before)) - waited_now - timed - out)


def nudge(table: Table, by: str, player: str, now: float) -> Table:
    """`by` nudges `player`, whom the game waits for: once a day per game. Refusal when it may not be."""
    status = table.status
    if status is None or status.finished:
        raise Refusal(
            Refused.WRONG_PHASE if status is None else Refused.GAME_OVER, "only a game under way waits for anyone"
        )
    named = next((s.name for s in table.seats if s.name.casefold() == player.casefold()), None)
    if named is None:
        raise Refusal(Refused.UNKNOWN_PLAYER, f"{player} does not play in game {table.game_id}", field="player")
    if by in status.eliminated:
        raise Refusal(Refused.ELIMINATED, "you are out of the game: those still in nudge each other")
    if named == by:
        raise Refusal(Refused.UNKNOWN_PLAYER, "that is you: nudge someone the game waits for", field="player")
    if named not in awaited_people(table):
        raise Refusal(ErrorCode.NOT_AWAITED, f"the game does not wait for {named} now", field="player")
    left = nudge_left(table, by, now)
    if left > 0:
        hours = max(1, round(left / 3600))
        raise Refusal(
            ErrorCode.RATE_LIMITED,
            f"you nudged someone in this game less than a day ago: try again in about {hours} hour{'s' * (hours != 1)}",
        )
    return nudged(table, by, now)


def paced(before: Table, decision: Decision, now: float, timed: frozenset[str] = frozenset()) -> Decision:
    """A decision with the game's pace brought up to date: each player whose turn ended by their own hand (not
    `timed` out) draws what it overran the limit from their bank and has missed no turn running; then the limit
    starts afresh if what it counts for changed. A commit that drew on a bank is saved whole (the bank is part of the
    progress), not as the small row a commit alone is."""
    table = decision.table
    if table.game is None or table.settings.turn_seconds is None:
        return decision
    state = table.pace.state
    if state is not None and before.game is not None:
        played = played_by_hand(before, table, timed)
        banks, missed = dict(state.banks), dict(state.missed)
        drawn = False
        for player in played:
            end = limit_end(before, player)
            if end is not None and now > end and banks.get(player):
                banks[player] = max(0.0, banks[player] - (now - end))
                drawn = True
            missed.pop(player, None)
        if played:
            state = state.model_copy(update={"banks": banks, "missed": missed})
            table = table.evolve(pace=replace(table.pace, state=state))
            if drawn:
                decision = replace(decision, committed=None)
    fresh = current(table, now)
    if fresh is not decision.table:
        decision = replace(decision, table=fresh)
    return decision


def nudge_left(table: Table, player: str, now: float) -> float:
    """Seconds until `player` may nudge again in this game (0: now)."""
    state = table.pace.state
    last = state.nudged.get(player) if state is not None else None
    return 0.0 if last is None else max(0.0, last + NUDGE_EVERY - now)


def nudged(table: Table, player: str, now: float) -> Table:
    """The table with `player`'s nudge noted (once a day per game)."""
    state = table.pace.state or PaceState(started_at=now)
    state = state.model_copy(update={"nudged": {**state.nudged, player: now}})
    return table.evolve(pace=replace(table.pace, state=state))


def with_vacations(table: Table, vacations: Mapping[str, Vacation]) -> Table:
    """The table with its players' vacations as the accounts say now."""
    if dict(vacations) == dict(table.pace.vacations):
        return table
    return table.evolve(pace=replace(table.pace, vacations=dict(vacations)))
