"""What every command of a match shares: the table and the lock, a decision saved and only then made current,
told and timed.

A match is its game's single owner (DESIGN.md): every change happens under its lock, the core decides it on the
current table (server/core/, pure), it is saved with its log entries (server/match/keeping.py), and only then is
the table replaced, the change acknowledged and told to the followers (server/match/followers.py) and the turn's
timer armed for what the game waits for now. The commands themselves are grouped by what they are about in the
modules beside this one; the match puts them together (server/match/lifecycle.py).
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any, Self

import orjson
from pydantic import BaseModel

from server import core
from server.clock import Clock, LoopClock
from server.core import Decision, Table, pace
from server.core.entries import Entry, number
from server.core.notices import notices_of
from server.core.table import Vacation
from server.match.answers import Answers
from server.match.eventlog import EventLog
from server.match.followers import Followers, Subscriber
from server.match.keeping import Keeper
from server.match.timing import Pace, TurnTimer
from server.match.updates import UpdateFrames
from server.refusal import Redirect, Refusal
from server.storage.base import RequestRecord, SeatRecord, Storage, StorageError
from server.storage.notices import Notice
from server.tasks import BackgroundTasks
from server.weak import weakly
from shared.game import turns
from shared.game.errors import Refused
from shared.game.game import Game
from shared.game.ruleset import AnyRuleSet, Status
from shared.maps.model import GameMap
from shared.protocol import log as game_log
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import GameSettings, GameSummary

logger = logging.getLogger("risc.server")

PRESENCE_INTERVAL = 1.0
"""Seconds between two updates that tell only that a seat's connection came or went."""


class Runner(ABC):
    """A match's state and the steps every command takes; the commands are its subclasses' (seating, playing,
    handing on), put together as Match."""

    def __init__(
        self,
        table: Table,
        log: EventLog,
        storage: Storage,
        rematch_factory: Callable[[Self, list[SeatRecord]], Awaitable[Self]] | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.table = table
        """The game as its decisions read it: replaced, never changed, once a change is saved."""
        self.game_id = table.game_id
        self.server_seats = table.server_seats
        """The seats the server's own computer players hold."""
        self.log = log
        self.lock = asyncio.Lock()
        self._rematch_factory = rematch_factory
        self._clock: Clock = clock or LoopClock()
        self.followers = Followers(self.game_id, partial(table.ruleset.public_map, table.game_map, table.options))
        self._keeper = Keeper(self.game_id, storage, weakly(self._lost))
        self._answers = Answers()
        self._turn_timer = TurnTimer(self._clock)
        self._presence = Pace(self._clock, PRESENCE_INTERVAL, weakly(self._tell_presence))
        self._tasks = BackgroundTasks()
        self._reading_back = asyncio.Lock()
        self._closed = False
        self._closed_why: str | None = None
        """Why the game closed before it started (it is no game any more), once it did."""
        self.on_resolved: Callable[[], None] = _nothing
        """Called for each turn resolved (the server's figures count them)."""
        self.on_finished: Callable[[], None] = _nothing
        """Called once, when a change saved ends the game (the lobby counts the games over without asking each)."""
        self.on_moved: Callable[[Self], None] | None = None
        """Called once the store refused a change because another node owns the game now (a shared store)."""
        self.moved = False
        self.moved_to: str | None = None
        """Where the game went, when this node gave it to another (it stops): the redirect every request gets."""
        self.on_notices: Callable[[list[Notice]], None] | None = None
        """Told of the notices each change kept in the outbox (the lobby's: they reach live connections at once, and
        the sender is woken)."""
        self.on_played: Callable[[list[str]], None] | None = None
        """Told of the accounts that took a turn by their own hand (a vacation under way ends an hour later)."""
        self._stood_still = False
        """The turn's clock stopped while every seat of a game of short turns was empty."""
        self.vacations: Callable[[Table], Mapping[str, Vacation]] | None = None
        """The vacations of the game's players as the accounts say now (the lobby's), for their deadlines."""
        self.taken_over = False
        """Claimed from a shared store by this node while its clients were elsewhere: its turn clock runs as though
        its players were still connected, until their turn's time first runs out or one comes back."""

    # ---- what others see -----------------------------------------------------------------------------------------

    @property
    def watchers(self) -> dict[Subscriber, str | None]:
        """The connections following the game, with the seat each holds (None for a spectator)."""
        return self.followers.seats

    @property
    def settings(self) -> GameSettings:
        return self.table.settings

    @property
    def game_map(self) -> GameMap:
        return self.table.game_map

    @property
    def ruleset(self) -> AnyRuleSet:
        return self.table.ruleset

    @property
    def game(self) -> Game[Any, Any] | None:
        """The game under way (None in the lobby)."""
        return self.table.game

    @property
    def seats(self) -> list[SeatRecord]:
        return list(self.table.seats)

    @property
    def seq(self) -> int:
        """The number of the game's last change: what its followers are told as `seq` (server/core/entries.py)."""
        return self.log.last_number

    @property
    def finished(self) -> bool:
        return self.table.finished

    @property
    def started(self) -> bool:
        return self.table.game is not None

    def status(self) -> Status | None:
        return self.table.status

    def awaits(self, player: str) -> bool:
        """Whether the game waits for `player` now, as its summary's seat would say (without making the summary:
        a computer asks before each of its orders)."""
        game = self.table.game
        return game is not None and player in turns.awaiting(self.ruleset, game)

    @property
    def waits(self) -> bool:
        """Whether the game counts against its creator, as its summary would say (lobby/directory.py `waits`) but
        read off the table: the lobby asks it of every game an address created, at each game it creates."""
        return self.table.game is None or self.computers_alone

    @property
    def computers_alone(self) -> bool:
        """A game in play whose every player still in is the server's computer: it plays on by itself."""
        return core.computers_alone(self.table)

    def computers(self) -> set[str]:
        """The seats the server's own players hold."""
        return set(self.server_seats)

    def people_seated(self, connected: bool = False) -> bool:
        """Whether a person (not the server's own player) holds a seat here; with `connected`, one whose connection
        is live."""
        return core.people_seated(self.table, self.followers.held() if connected else None)

    def people_in(self) -> int:
        """How many people (not the server's own players) hold seats here."""
        return core.people_in(self.table)

    def summary(self) -> GameSummary:
        return self._summary(self.table)

    def _summary(self, table: Table) -> GameSummary:
        return core.summary(table, self.followers.held(), self.followers.spectators(), self.server_seats)

    @property
    def unsettled(self) -> bool:
        return core.unsettled(self.table)

    # ---- telling the followers -----------------------------------------------------------------------------------

    def _frames(self, entries: Sequence[Entry], snapshot: bool = False) -> UpdateFrames:
        """The updates of this moment: the summary as JSON values for the connections, the model only if a follower
        inside the server reads it."""
        table, held, spectators = self.table, self.followers.held(), self.followers.spectators()
        return UpdateFrames(
            self.game_id,
            self.seq,
            entries,
            lambda: core.summary(table, held, spectators, self.server_seats),
            self.ruleset,
            table.game,
            self.finished,
            self._deadline_in(),
            snapshot,
            self.followers.kept_views,
            core.summary_values(table, held, spectators, self.server_seats),
        )

    def _deadline_in(self) -> float | None:
        """Seconds until the turn's own limit runs out (before anyone's bank: each seat's `deadline` says theirs), to
        the millisecond, while the turn's timer runs; None when it does not."""
        state = self.table.pace.state
        seconds = self.settings.turn_seconds
        if self._turn_timer.left() is None or state is None or seconds is None or state.clock is None:
            return None
        return round(max(0.0, state.since + seconds - self._clock.wall()), 3)

    def _broadcast(self, entries: Sequence[Entry], skip: Subscriber | None = None) -> None:
        """Tell every follower (but `skip`): shared parts encoded once, each sight's view made once."""
        self.followers.broadcast(lambda: self._frames(entries), skip)

    async def _read_back(self, last_seq: int | None) -> None:
        """Before a follower starts from change `last_seq`: read back from the store the older entries it wants that
        this match does not keep (it was restored with the last few), so that it is sent them rather than a
        snapshot. Not under the match's lock: the log only grows at its other end meanwhile."""
        if last_seq is None or not self.log.lacks(last_seq):
            return
        async with self._reading_back:
            if not self.log.lacks(last_seq):
                return
            try:
                older = await self._keeper.storage.read_log(self.game_id, self.log.first_seq, self.log.room)
            except StorageError as exc:
                logger.warning("game %s: older log entries could not be read back: %s", self.game_id, exc)
                return
            self.log.prepend(older)

    def _follow(self, sub: Subscriber, last_seq: int | None) -> None:
        """Start sending a connection (seated already) this game: its map, then the entries after `last_seq` when
        few enough, else a snapshot; either way the view whole."""
        missed = None if last_seq is None else self.log.after(last_seq)
        self.followers.start(sub, self._frames(missed) if missed is not None else self._frames([], snapshot=True))

    def _note_presence(self) -> None:
        self.table = core.presence_noted(self.table, self.people_seated(connected=True), self._clock.now())

    def _tell_presence(self) -> None:
        """Who is connected, told to every follower once the pace of that news allows (`_presence_changed`)."""
        self._broadcast([])

    def _presence_changed(self, skip: Subscriber | None = None) -> None:
        """Tell the followers that a seat's connection came or went: at once, but at most once a second, so that
        a seat taken back and forth cannot flood every spectator (the summary of the next update says it all)."""
        self._schedule_deadline()
        self._presence.news(lambda: self._broadcast([], skip=skip))

    # ---- a change --------------------------------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self.moved:
            raise Redirect(self.game_id, self.moved_to)
        if self._closed_why is not None:
            raise Refusal(ErrorCode.NO_SUCH_GAME, self._closed_why)
        if self._closed:
            raise Refusal(ErrorCode.SHUTTING_DOWN, "the server is shutting down")

    def _player(self, sub: Subscriber) -> str:
        player = self.followers.seats.get(sub)
        if player is None:
            raise Refusal(Refused.NOT_A_PLAYER, f"you hold no seat in game {self.game_id}: only its players act")
        return player

    def _request(self, player: str, request_id: str | None, reply: BaseModel | str) -> RequestRecord | None:
        """What to keep with a change made by `player`'s request that has an id: the reply it gets (without its ref,
        as a model or its frame made already)."""
        return self._answers.record(player, request_id, core.step(self.table), reply)

    async def _save(
        self, decision: Decision, request: RequestRecord | None = None, timed: frozenset[str] = frozenset()
    ) -> list[Entry]:
        """Number the new entries, save them with the new table (its pace brought up to date: banks drawn on, a new
        turn's limit started; `timed`: the players whose time ran out) and the request that made the change, if it
        has an id, and only then make both current."""
        entries: list[Entry] = []
        notices: list[Notice] = []
        played: list[str] = []
        if decision.order_change is None and not decision.order_changes:
            now = self._clock.wall()
            if self.on_played is not None and core.accounts_seated(decision.table):
                played = pace.played_by_hand(self.table, decision.table, timed)  # told only of accounts' seats
            decision = pace.paced(self.table, decision, now, timed)
            notices = notices_of(self.table, decision, now, self.followers.looking()) + list(decision.notices)
            if notices:
                decision = replace(decision, committed=None)  # saved whole: the outbox is written with the progress
        ending = decision.table.finished and not self.table.finished
        if ending:
            decision = core.watchers_heard(decision, self.log.kept())
        if decision.order_change is not None and not decision.entries:
            await self._keeper.order(decision.order_change, request)
        elif decision.order_changes and not decision.entries:
            await self._keeper.orders(decision.order_changes, request)
        else:
            last, change = self.log.last_seq, self.seq + 1
            entries = number(decision.entries, last, self.ruleset, change=change)
            rated = await self._keeper.rated_end(decision.table, entries, self._clock.wall()) if ending else None
            await self._keeper.change(
                decision, entries, last, change if entries else change - 1, self._listed, request, notices, rated
            )
            self.log.extend(entries)
        self.table = decision.table
        if request is not None:
            self._answers.remember(request, core.step(self.table))
        if notices and self.on_notices is not None:
            self.on_notices(notices)
        if self.on_played is not None and played:
            accounts = [s.account for s in self.table.seats if s.name in played and s.account is not None]
            if accounts:
                self.on_played(accounts)
        if ending:
            self.on_finished()
        return entries

    def _listed(self, table: Table) -> str | None:
        """The game's summary as other nodes' lobbies list it, for a store they share (none otherwise)."""
        if not self._keeper.shared:
            return None
        values = core.summary_values(table, self.followers.held(), self.followers.spectators(), self.server_seats)
        return orjson.dumps(values).decode()

    def _after_change(self, entries: Sequence[Entry], decision: Decision, before: Status | None) -> None:
        for resolved in decision.resolved:
            self.on_resolved()
            what = f"step {resolved.step} (turn {resolved.turn})"
            logger.info("game %s: %s resolved (%d events)", self.game_id, what, len(resolved.events))
        status = self.table.status
        if status is not None and status.finished and (before is None or not before.finished):
            logger.info("game %s: over, %s", self.game_id, f"{status.winner} won" if status.winner else "a draw")
        self._schedule_deadline()
        self._broadcast(entries)

    def _lost(self: Self) -> None:
        """The store refused a change: another node owns the game now, and this one lets it go."""
        if not self.moved:
            self.moved = True
            if self.on_moved is not None:
                self.on_moved(self)

    async def settle(self) -> None:
        """Resolve a restored turn whose every player had committed, as the running server would have."""
        async with self.lock:
            before = self.table.status
            decision = core.settle(self.table)
            if decision is not None:
                self._after_change(await self._save(decision), decision, before)

    # ---- the turn clock (D3, C9) ---------------------------------------------------------------------------------

    def _schedule_deadline(self) -> None:
        """Arm the turn's timer for the earliest deadline of whoever the game now waits for (their banks and
        vacations counted: server/core/pace.py); a change that leaves the same players awaited on the same turn with
        the same deadline (a commit, an action within one's turn) leaves the timer running."""
        if self._closed or self.settings.turn_seconds is None:
            self._turn_timer.disarm()
            return
        now = self._clock.wall()
        table = pace.current(self.table, now)
        if self.vacations is not None:
            table = pace.with_vacations(table, self.vacations(table))
        self.table = table
        seated = self._anyone_seated()
        if not seated and self.settings.turn_seconds < pace.ALONE_AFTER:
            self._stood_still = True  # a short game waits for its players: its turn's time starts again with them
        elif self._stood_still:
            self._stood_still = False
            self.table = table = pace.restarted(table, now)
        found = core.turn_clock(table, seated, now)
        if found is None:
            self._turn_timer.disarm()
        else:
            key, at = found
            self._turn_timer.arm(key, max(0.0, at - now), self._deadline_passed)

    def rearm(self) -> None:
        """Arm the turn's timer again as the game now stands (a game just taken over from another node)."""
        self._schedule_deadline()

    def _anyone_seated(self) -> bool:
        return self.taken_over or self.followers.anyone_seated()

    def _deadline_passed(self, clock_key: Any) -> None:
        self._tasks.spawn(self._time_out(clock_key), f"game {self.game_id}: the turn's time limit failed")

    async def _time_out(self, clock_key: Any) -> None:
        async with self.lock:
            if self._closed:
                return
            before = self.table.status
            self._turn_timer.rang()
            found = core.time_out(self.table, clock_key, max(self._clock.wall(), clock_key[1]))
            if found is None:  # a vacation or a bank moved the deadline on: time it again
                self._schedule_deadline()
                return
            decision, timed = found
            self.taken_over = False  # its players' time ran out once: from now on it waits for them as any game
            try:
                entries = await self._save(decision, timed=timed)
            except Redirect:
                return  # another node plays the game now, and keeps its time
            except Refusal:
                self._turn_timer.forget()
                self._schedule_deadline()  # try again after another full turn's time
                return
            late = next((e.event for e in entries if isinstance(e.event, game_log.TimeRanOut)), None)
            logger.info(
                "game %s: time ran out for %s",
                self.game_id,
                ", ".join(late.players) if late is not None and late.players else "nobody",
            )
            self._turn_timer.forget()
            self._after_change(entries, decision, before)

    # ---- what the other parts of a match provide -------------------------------------------------------------------

    @abstractmethod
    async def attach(self, sub: Subscriber, player: str) -> None:
        """Seat a connection whose player was seated here by a rematch (server/match/seating.py)."""

    @abstractmethod
    async def _start_rematch_if_ready(self) -> None:
        """Start the rematch when the table's requests call for it (server/match/handing_on.py)."""


def _nothing() -> None:
    return None
