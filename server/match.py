"""One game's single owner: every change to a game — a join, an order, a commit, a disconnect, a timeout — happens
under its lock, is saved, and only then is acknowledged and told to the game's followers.

The decisions themselves are server/core.py's, pure; this is the runner around them. It holds the table they work
on, the game's seed (which never leaves the server, D1), the numbered event log, the connections following the
game with the seat each holds (None for a spectator), and the turn's timer. Everything sent about the game passes
through the rule set's view function, and private log entries go only to those who may see them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

import orjson
from pydantic import BaseModel

from server import core
from server.clock import Clock, LoopClock, Timer
from server.codec import game_from_dict, game_to_dict, map_from_dict, map_to_dict
from server.core import Decision, Table
from server.entries import Entry, Logged, number
from server.eventlog import EventLog
from server.refusal import Redirect, Refusal
from server.seats import find_seat, new_token, token_hash
from server.storage.base import (
    CommitChange,
    GameProgress,
    GameRecord,
    OrderChange,
    OwnershipLost,
    RequestRecord,
    RestoredGame,
    SeatRecord,
    Storage,
)
from server.tasks import BackgroundTasks
from server.updates import KeptViews, UpdateFrames
from shared.game import turns
from shared.game.errors import Refused
from shared.game.game import Game
from shared.game.ruleset import AnyRuleSet, Status
from shared.maps.model import GameMap
from shared.protocol import log as game_log
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import GameSettings, GameSummary
from shared.protocol.messages import (
    SERVER_ADAPTER,
    AcceptedOrder,
    ChatSent,
    CommitAccepted,
    Error,
    HandOverPending,
    Joined,
    Left,
    Legal,
    LegalOrder,
    OrderAccepted,
    OrderRefused,
    Orders,
    OrdersAccepted,
    OrderWithdrawn,
    RematchPending,
    Resigned,
    Resumed,
    Watching,
)
from shared.protocol.messages import (
    GameMap as GameMapMessage,
)
from shared.rulesets import game_ruleset

logger = logging.getLogger("risc.server")

RESUME_EVENT_LIMIT = 2000
"""A client further behind than this gets a fresh snapshot instead of every entry it missed."""

PRESENCE_INTERVAL = 1.0
"""Seconds between two updates that tell only that a seat's connection came or went."""


class Subscriber(Protocol):
    """A connection as a match sees it: somewhere to send messages, the games it follows, and the view of each that
    it was last sent (what the next update's patch is taken against)."""

    games: set[str]
    views: dict[str, dict[str, Any]]
    reads_text: bool
    """Whether it reads only the frames' text (a network connection): it is then given no message objects of its
    own beside the text (the server's own players read the objects)."""
    words: bool
    """Whether it asked for the words of each log entry (hello's `words`: the web page)."""

    @property
    def label(self) -> str: ...

    def send(self, message: BaseModel, text: str | None = None) -> None:
        """Queue a message; `text`, when given, is its frame text made already. Never blocks, never raises."""
        ...


RematchFactory = Callable[["Match", list[SeatRecord]], Awaitable["Match"]]


class Match:
    def __init__(self, table: Table, log: EventLog, storage: Storage, rematch_factory: RematchFactory | None = None,
                 clock: Clock | None = None) -> None:
        self.table = table
        self.game_id = table.game_id
        self.log = log
        self._storage = storage
        self._rematch_factory = rematch_factory
        self._clock: Clock = clock or LoopClock()
        self.watchers: dict[Subscriber, str | None] = {}
        self.follows: dict[Subscriber, str] = {}
        """Spectators who see with one player's sight (where the rule set allows it)."""
        self.lock = asyncio.Lock()
        self.server_seats = frozenset(core.server_seat_names(table.settings))
        """The seats the server's own computer players hold: they have no vote, are nobody to wait for, and keep no
        unstarted game alive."""
        self._map_text: str | None = None
        self._kept_views = KeptViews()
        self._sent_summaries: dict[Subscriber, dict[str, Any]] = {}
        """The summary each follower was sent last, in the form a `game_patch` patches: what its next one is taken
        against. Kept here rather than on the connection, beside whom the match follows; followers sent the same
        summary hold the same object, so they share one patch."""
        self._deadline: float | None = None
        self._timer: Timer | None = None
        self._armed: Any = None
        self._presence_timer: Timer | None = None
        self._last_presence = float("-inf")
        self._tasks = BackgroundTasks()
        self._closed = False
        self.requests: dict[str, tuple[int, str]] = {}
        """The requests that changed the game lately, by the client's request id: the game's step then and the
        reply sent (with a null ref). The same request sent again is answered with it, not carried out again."""
        self.on_moved: Callable[[Match], None] | None = None
        """Called once the store refused a change because another node owns the game now (a shared store)."""
        self.moved = False
        self.taken_over = False
        """Claimed from a shared store by this node while its clients were elsewhere: its turn clock runs as though
        its players were still connected, until their turn's time first runs out or one comes back."""

    # ---- creation and restoring ----------------------------------------------------------------------------------

    @classmethod
    async def create(cls, game_id: str, settings: GameSettings, game_map: GameMap, storage: Storage, seed: int,
                     rematch_factory: RematchFactory | None = None, seats: Sequence[SeatRecord] = (),
                     clock: Clock | None = None) -> Match:
        """A new game, saved before it exists for anyone; seated at once when `seats` fill it (a rematch)."""
        ruleset, options = game_ruleset(settings.ruleset, settings.options)
        table = core.new_table(game_id, settings, ruleset, options, game_map, seed)
        clock = clock or LoopClock()
        record = GameRecord(game_id=game_id, settings=settings, seed=seed, created_at=clock.wall(),
                            game_map=map_to_dict(game_map))
        bodies = [Logged(game_log.GameCreated()), *(Logged(game_log.PlayerJoined(player=s.name)) for s in seats)]
        if seats and len(seats) == settings.players:
            started = core.start(table, seats)
            table, bodies = started.table, bodies + started.entries
        entries = number(bodies, 0, ruleset, change=1)
        summary = core.summary(table, set(), 0, frozenset(core.server_seat_names(settings))).model_dump_json() \
            if storage.shared else None
        await storage.create(record, _progress(table, len(entries), 1), entries, summary=summary)
        log = EventLog(game_id, 0, limit=RESUME_EVENT_LIMIT)
        log.extend(entries)
        match = cls(table, log, storage, rematch_factory, clock)
        match._schedule_deadline()
        match._note_presence()
        return match

    @property
    def away_since(self) -> dict[str, float]:
        """Seats whose player has no connection to the game, since when (the server's clock)."""
        return dict(self.table.away_since)

    def _mark_away(self) -> None:
        """Every seat nobody holds is away from now on (a restored game's seats, before anyone is back)."""
        held = {seat for seat in self.watchers.values() if seat is not None}
        self.table = core.all_away(self.table, held, self._clock.now())

    @classmethod
    def restore(cls, game: RestoredGame, storage: Storage, rematch_factory: RematchFactory | None = None,
                game_map: GameMap | None = None, clock: Clock | None = None) -> Match:
        """A game as its store kept it, on `game_map` if given (built from the same stored map, shared with other
        games), else on a map built from its record. Its turn clock, if any, starts afresh."""
        record, progress = game.record, game.progress
        ruleset, options = game_ruleset(record.settings.ruleset, record.settings.options)
        game_map = map_from_dict(record.game_map) if game_map is None else game_map
        table = core.new_table(record.game_id, record.settings, ruleset, options, game_map, record.seed)
        table = table.evolve(
            seats=tuple(progress.seats), rematch=tuple(progress.rematch), rematch_game=progress.rematch_game,
            declined=tuple(progress.declined), handed_over=tuple(progress.handed_over),
            game=None if progress.state is None else game_from_dict(ruleset, progress.state, game_map, options))
        log = EventLog(record.game_id, progress.seq, game.log, limit=RESUME_EVENT_LIMIT, number=progress.number)
        match = cls(table, log, storage, rematch_factory, clock)
        step = progress.step or 0
        match.requests = {request_id: (step, reply) for request_id, reply in game.requests.items()}
        match._mark_away()
        match._schedule_deadline()
        match._note_presence()
        return match

    # ---- what others see -----------------------------------------------------------------------------------------

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
        """The number of the game's last change: what its followers are told as `seq` (server/entries.py)."""
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
    def computers_alone(self) -> bool:
        """A game in play whose every player still in is the server's computer (its own, or one a seat was handed
        to): it plays on by itself, for as long as it lasts."""
        status = self.table.status
        if status is None or status.finished:
            return False
        out = set(status.eliminated)
        return all(seat.name in self.server_seats or seat.name in self.table.handed_over
                   for seat in self.table.seats if seat.name not in out)

    def computers(self) -> set[str]:
        """The seats the server's own players hold."""
        return set(self.server_seats)

    def summary(self) -> GameSummary:
        present = {seat for seat in self.watchers.values() if seat is not None}
        spectators = sum(1 for seat in self.watchers.values() if seat is None)
        return core.summary(self.table, present, spectators, frozenset(self.computers()))

    def _frames(self, entries: Sequence[Entry], snapshot: bool = False) -> UpdateFrames:
        deadline_in = None
        if self._deadline is not None:
            deadline_in = round(max(0.0, self._deadline - self._clock.now()), 3)
        return UpdateFrames(self.game_id, self.seq, entries, self.summary(), self.ruleset, self.table.game,
                            self.finished, deadline_in, snapshot, self._kept_views)

    def _deliver(self, frames: UpdateFrames, sub: Subscriber, seat: str | None) -> None:
        base = sub.views.get(self.game_id)
        update, text, new_base = frames.for_follower(seat, self.follows.get(sub), base,
                                                     self._sent_summaries.get(sub), sub.reads_text, sub.words)
        if new_base is not None:
            sub.views[self.game_id] = new_base
        self._sent_summaries[sub] = frames.summary_kept
        sub.send(update, text)

    def _broadcast(self, entries: Sequence[Entry], skip: Subscriber | None = None) -> None:
        """Tell every follower (but `skip`): shared parts encoded once, each sight's view made once."""
        targets = [(sub, seat) for sub, seat in self.watchers.items() if sub is not skip]
        if not targets:
            return
        frames = self._frames(entries)
        for sub, seat in targets:
            self._deliver(frames, sub, seat)

    def _send_map(self, sub: Subscriber) -> None:
        if self._map_text is None:
            shown = self.ruleset.public_map(self.game_map, self.table.options)
            message = GameMapMessage(game_id=self.game_id, map=map_to_dict(shown))
            self._map_text = message.model_dump_json()
        sub.send(GameMapMessage.model_construct(game_id=self.game_id, map={}, ref=None), self._map_text)

    def _follow(self, sub: Subscriber, seat: str | None, last_seq: int | None) -> None:
        """Start sending a connection this game: its map, then the entries after `last_seq` when few enough, else
        a snapshot; either way the view whole."""
        sub.games.add(self.game_id)
        sub.views.pop(self.game_id, None)
        self._sent_summaries.pop(sub, None)
        self._send_map(sub)
        missed = None if last_seq is None else self.log.after(last_seq)
        frames = self._frames(missed, False) if missed is not None else self._frames([], snapshot=True)
        self._deliver(frames, sub, seat)

    def _unfollow(self, sub: Subscriber) -> None:
        self.watchers.pop(sub, None)
        self.follows.pop(sub, None)
        sub.games.discard(self.game_id)
        sub.views.pop(self.game_id, None)
        self._sent_summaries.pop(sub, None)

    # ---- the lobby -----------------------------------------------------------------------------------------------

    async def join(self, sub: Subscriber, name: str, group: int | None, ref: str | None,
                   request_id: str | None = None) -> None:
        async with self.lock:
            self._check_open()
            if request_id is not None and request_id in self.requests:
                await self._join_again(sub, request_id, ref)
                return
            if self.watchers.get(sub) is not None:
                raise Refusal(ErrorCode.ALREADY_SEATED,
                              f"you already sit in game {self.game_id} as {self.watchers[sub]}")
            token = new_token()
            decision = core.join(self.table, name, group, token_hash(token))
            request = self._request(request_id, Joined(game_id=self.game_id, player=name, token=""))
            entries = await self._save(decision, request)
            self.watchers[sub] = name
            self.follows.pop(sub, None)
            self.table = core.seat_taken(self.table, name)
            logger.info("game %s: %s joined (%d/%d seats)", self.game_id, name, len(self.table.seats),
                        self.settings.players)
            sub.send(Joined(game_id=self.game_id, player=name, token=token, ref=ref))
            if self.table.game is not None:
                logger.info("game %s: started with %s", self.game_id, ", ".join(s.name for s in self.table.seats))
                self._schedule_deadline()
            self._note_presence()
            self._broadcast(entries, skip=sub)
            self._follow(sub, name, self.seq - 1)  # the change that seated them is news to them too

    async def _join_again(self, sub: Subscriber, request_id: str, ref: str | None) -> None:
        """A join sent again after its reply was lost (the seat was taken then): the seat's token cannot be sent
        again (only its hash is kept), so the seat gets a new one, which the request id proves is its player's."""
        _, reply = self.requests[request_id]
        name = str(orjson.loads(reply)["player"])
        token = new_token()
        seats = tuple(s.model_copy(update={"token_hash": token_hash(token)}) if s.name == name else s
                      for s in self.table.seats)
        await self._save(Decision(self.table.evolve(seats=seats)))
        self._take_seat(sub, name)
        sub.send(Joined(game_id=self.game_id, player=name, token=token, ref=ref))
        self._follow(sub, name, None)

    async def leave(self, sub: Subscriber, ref: str | None) -> None:
        async with self.lock:
            if sub not in self.watchers:
                raise Refusal(ErrorCode.NOT_SEATED, f"you are not in game {self.game_id}")
            seat = self.watchers[sub]
            entries: list[Entry] = []
            if seat is not None:
                decision = core.leave(self.table, seat)
                if decision is not None:
                    self._check_open()
                    entries = await self._save(decision)
                    logger.info("game %s: %s left", self.game_id, seat)
            self._unfollow(sub)
            self._note_presence()
            sub.send(Left(game_id=self.game_id, ref=ref))
            if entries:
                self._broadcast(entries)
            elif seat is not None:
                self._presence_changed()
            if seat is not None and self.finished:
                await self._start_rematch_if_ready()

    async def watch(self, sub: Subscriber, last_seq: int | None, follow: str | None, ref: str | None) -> None:
        async with self.lock:
            seat = self.watchers.get(sub)
            game = self.table.game
            if follow is not None:
                named = core.seat_named(self.table, follow)
                if game is None or named is None or named not in game.players:
                    raise Refusal(ErrorCode.CANNOT_FOLLOW, f"{follow} does not play in game {self.game_id}",
                                  field="follow")
                follow = named
                if not self.ruleset.may_follow(game, seat, follow):
                    why = self.ruleset.follow_refusal(game, seat, follow)
                    raise Refusal(ErrorCode.CANNOT_FOLLOW,
                                  f"in this game you cannot see with {follow}'s eyes" + (f": {why}" if why else ""),
                                  field="follow")
            elif seat is not None:
                raise Refusal(ErrorCode.ALREADY_SEATED, f"you sit in game {self.game_id} as {seat}")
            if follow is not None and seat is not None:
                # An eliminated player borrows a survivor's sight and watches on as a spectator would.
                seat = None
            self.watchers[sub] = seat
            if follow is None:
                self.follows.pop(sub, None)
            else:
                self.follows[sub] = follow
            sub.send(Watching(game_id=self.game_id, follow=follow, ref=ref))
            self._follow(sub, seat, last_seq)
            # Nobody else is told: with every newcomer told to every watcher, a thousand spectators joining made a
            # million updates. The others' spectator count catches up with the game's next update.

    async def resume(self, sub: Subscriber, token: str, last_seq: int | None, ref: str | None) -> None:
        async with self.lock:
            seat = find_seat(token, self.seats)
            if seat is None:
                raise Refusal(ErrorCode.BAD_TOKEN, f"that token opens no seat in game {self.game_id}", field="token")
            taken_back = core.take_back(self.table, seat.name)  # the player takes their seat back from the computer
            entries = [] if taken_back is None else await self._save(taken_back)
            back = self._take_seat(sub, seat.name)
            self._schedule_deadline()  # a game whose seats were all empty starts its clock again
            logger.info("game %s: %s reconnected", self.game_id, seat.name)
            sub.send(Resumed(game_id=self.game_id, player=seat.name, ref=ref))
            self._follow(sub, seat.name, last_seq)
            if entries:
                self._broadcast(entries, skip=sub)
            elif back:
                self._presence_changed(skip=sub)

    async def attach(self, sub: Subscriber, player: str) -> None:
        """Seat a connection whose player was seated here by a rematch: it holds the same token as before."""
        async with self.lock:
            self._take_seat(sub, player)
            self._schedule_deadline()
            sub.send(Resumed(game_id=self.game_id, player=player))
            self._follow(sub, player, 0)
            self._presence_changed(skip=sub)

    def _take_seat(self, sub: Subscriber, player: str) -> bool:
        """Hold `player`'s seat from `sub`; returns whether the seat was empty before (news for the others)."""
        held_before = False
        for other, held in list(self.watchers.items()):
            if held == player and other is not sub:
                held_before = True
                self._unfollow(other)
                other.send(Error(code=ErrorCode.NOT_SEATED, game_id=self.game_id,
                                 message=f"your seat in game {self.game_id} was taken back with its token "
                                         "from another connection"))
        if self.watchers.get(sub) == player:
            held_before = True
        self.watchers[sub] = player
        self.taken_over = False
        self.follows.pop(sub, None)
        self.table = core.seat_taken(self.table, player)
        self._note_presence()
        return not held_before

    async def disconnect(self, sub: Subscriber) -> None:
        async with self.lock:
            if sub not in self.watchers:
                return
            seat = self.watchers[sub]
            self._unfollow(sub)
            self._note_presence()
            if seat is not None and seat not in self.watchers.values():
                # A spectator going is not news of its own, as its coming was not (see watch).
                logger.info("game %s: %s disconnected", self.game_id, seat)
                self.table = core.seat_left(self.table, seat, self._clock.now())
                self._presence_changed()

    # ---- an unstarted game nobody sits in ------------------------------------------------------------------------

    def people_seated(self, connected: bool = False) -> bool:
        """Whether a person (not the server's own player) holds a seat here; with `connected`, one whose connection
        is live."""
        held = {seat for seat in self.watchers.values() if seat is not None} if connected else \
            {seat.name for seat in self.table.seats}
        return any(name not in self.server_seats for name in held)

    def _note_presence(self) -> None:
        self.table = core.presence_noted(self.table, self.people_seated(connected=True), self._clock.now())

    def idle_left(self, expiry: float) -> float | None:
        """Seconds until this unstarted game may be closed for want of players (0 or less: now); None while a
        player is here or once it has started."""
        return core.idle_left(self.table, expiry, self._clock.now())

    async def close_unstarted(self, reason: str, at_once: bool = False) -> bool:
        """Close a game that never started and that nobody sits in any more (`at_once`: whatever the time): kept
        in the store as over, with no game in it, so that a restarting server does not bring it back. Anyone still
        following it is told `reason`. False, changing nothing, when someone sat down meanwhile."""
        async with self.lock:
            if self._closed or self.started or self.people_seated(connected=True) \
                    or (at_once and self.people_seated()):
                return False
            progress = _progress(self.table, self.log.last_seq, self.seq).model_copy(update={"status": "finished"})
            try:
                await self._storage.save(self.game_id, progress, [])
            except Exception as exc:  # the game stays open; the lobby tries again later
                logger.error("game %s: could not close it: %s", self.game_id, exc)
                return False
            self._closed = True
            self._disarm()
            for sub in list(self.watchers):
                self._unfollow(sub)
                sub.send(Error(code=ErrorCode.NO_SUCH_GAME, game_id=self.game_id, message=reason))
        self._tasks.cancel()
        logger.info("game %s: closed before it started (%s)", self.game_id, reason)
        return True

    # ---- playing -------------------------------------------------------------------------------------------------

    def _orders_of(self, player: str) -> list[dict[str, Any]]:
        """The player's issued orders as JSON values, for a `list_orders` reply (rare: an acceptance or a withdrawal
        names one order only)."""
        game = self.table.game
        return [] if game is None else [self.ruleset.dump_order(o) for o in game.orders_of(player)]

    def _player(self, sub: Subscriber) -> str:
        player = self.watchers.get(sub)
        if player is None:
            raise Refusal(Refused.NOT_A_PLAYER, f"you hold no seat in game {self.game_id}: only its players act")
        return player

    async def issue(self, sub: Subscriber, turn: int, order: dict[str, Any], ref: str | None,
                    request_id: str | None = None) -> None:
        async with self.lock:
            self._check_open()
            player = self._player(sub)
            if self._answered_before(sub, request_id, ref):
                return
            before = self.table.status
            decision = core.issue(self.table, player, turn, order)
            index = decision.order_change.index if decision.order_change is not None else 0
            accepted = decision.accepted_data
            assert accepted is not None and decision.table.game is not None, "an issued order comes back as JSON"
            left = turns.left(self.ruleset, decision.table.game, player)
            text = self.ruleset.presentation.words(decision.accepted)
            # The frame put together by hand (a test holds it to the reply's own): an order comes with every issue.
            body = (',"type":"order_accepted","game_id":' + orjson.dumps(self.game_id).decode() + ',"turn":'
                    + str(turn) + ',"index":' + str(index) + ',"order":' + orjson.dumps(accepted).decode()
                    + ',"left":' + orjson.dumps(left).decode() + ',"text":' + orjson.dumps(text).decode() + "}")
            request = None if request_id is None else RequestRecord(request_id, self._step, '{"ref":null' + body)
            entries = await self._save(decision, request)
            reply = OrderAccepted.model_construct(game_id=self.game_id, turn=turn, index=index, order=accepted,
                                                  left=left, text=text, ref=ref)
            sub.send(reply, '{"ref":' + orjson.dumps(ref).decode() + body)
            if entries:  # an order alone is news to nobody else, not even that it was issued (R16)
                self._after_change(entries, decision, before)

    async def issue_batch(self, sub: Subscriber, turn: int, orders: list[dict[str, Any]], ref: str | None,
                          request_id: str | None = None) -> None:
        """Several orders in one request (`issue_orders`): one save and one answer for them all."""
        async with self.lock:
            self._check_open()
            player = self._player(sub)
            if self._answered_before(sub, request_id, ref):
                return
            before = self.table.status
            batch = core.issue_batch(self.table, player, turn, orders)
            describe = self.ruleset.presentation.words
            game = batch.decision.table.game
            assert game is not None, "orders are issued in a running game"
            reply = OrdersAccepted.model_construct(
                game_id=self.game_id, turn=turn, ref=None, left=turns.left(self.ruleset, game, player),
                accepted=[AcceptedOrder.model_construct(position=taken.position, index=taken.index, order=taken.data,
                                                        text=describe(taken.order))
                          for taken in batch.accepted],
                refused=[OrderRefused.model_construct(position=r.position, code=r.code, message=r.message)
                         for r in batch.refused])
            request = self._request(request_id, reply) if batch.accepted else None
            entries: list[Entry] = []
            if batch.decision.entries:  # orders that took effect at once (turn-by-turn): the whole progress
                entries = await self._save(batch.decision, request)
            elif batch.changes:
                await self._save_orders(batch.changes, request)
                self.table = batch.decision.table
                self._remember(request)
            sub.send(reply.model_copy(update={"ref": ref}))
            if entries:
                self._after_change(entries, batch.decision, before)

    async def withdraw(self, sub: Subscriber, turn: int, index: int, ref: str | None,
                       request_id: str | None = None) -> None:
        async with self.lock:
            self._check_open()
            player = self._player(sub)
            if self._answered_before(sub, request_id, ref):
                return
            decision = core.withdraw(self.table, player, turn, index)
            assert decision.table.game is not None
            reply = OrderWithdrawn(game_id=self.game_id, turn=turn, index=index,
                                   left=turns.left(self.ruleset, decision.table.game, player))
            await self._save(decision, self._request(request_id, reply))
            sub.send(reply.model_copy(update={"ref": ref}))

    async def list_orders(self, sub: Subscriber, ref: str | None) -> None:
        async with self.lock:
            player = self._player(sub)
            game, status = core.running(self.table, None)
            describe = self.ruleset.presentation.words
            sub.send(Orders(game_id=self.game_id, turn=status.turn, orders=self._orders_of(player),
                            committed=player in game.committed, texts=[describe(o) for o in game.orders_of(player)],
                            ref=ref))

    async def legal_orders(self, sub: Subscriber, ref: str | None) -> None:
        async with self.lock:
            player = self._player(sub)
            game, status = core.running(self.table, None)
            offer = self.ruleset.presentation.describe_offer
            options = turns.legal_orders(self.ruleset, game, player)
            costs = turns.costs(self.ruleset, game, player, [option.order for option in options])
            legal = [LegalOrder(order=self.ruleset.dump_order(option.order), count_field=option.count_field,
                                least=option.least, text=offer(option.order, option.count_field), cost=cost)
                     for option, cost in zip(options, costs, strict=True)]
            sub.send(Legal(game_id=self.game_id, turn=status.turn, orders=legal, ref=ref))

    async def commit(self, sub: Subscriber, turn: int, ref: str | None, request_id: str | None = None) -> None:
        async with self.lock:
            self._check_open()
            player = self._player(sub)
            if self._answered_before(sub, request_id, ref):
                return
            before = self.table.status
            decision = core.commit(self.table, player, turn)
            reply = CommitAccepted.model_construct(game_id=self.game_id, turn=turn, ref=None)
            entries = await self._save(decision, self._request(request_id, reply))
            sub.send(reply.model_copy(update={"ref": ref}))
            self._after_change(entries, decision, before)

    async def resign(self, sub: Subscriber, ref: str | None) -> None:
        """The connection's player gives up: out of the game from now on, they watch it as one who lost does."""
        async with self.lock:
            self._check_open()
            player = self._player(sub)
            before = self.table.status
            decision = core.resign(self.table, player)
            entries = await self._save(decision)
            logger.info("game %s: %s resigned", self.game_id, player)
            sub.send(Resigned(game_id=self.game_id, ref=ref))
            self._after_change(entries, decision, before)
        if self.finished:
            await self._start_rematch_if_ready()

    async def chat(self, sub: Subscriber, text: str, to: str | None, name: str | None, ref: str | None) -> None:
        """A word in the game's chat from one who follows it (a player, or a spectator under a name)."""
        async with self.lock:
            self._check_open()
            if sub not in self.watchers:
                raise Refusal(ErrorCode.NOT_SEATED, f"follow game {self.game_id} (join or watch it) to chat in it")
            decision = core.chat(self.table, self.watchers[sub], name, text, to)
            entries = await self._save(decision)
            sub.send(ChatSent(game_id=self.game_id, ref=ref))
            self._broadcast(entries)

    # ---- requests sent again -------------------------------------------------------------------------------------

    @property
    def _step(self) -> int:
        game = self.table.game
        return 0 if game is None else game.step

    def _request(self, request_id: str | None, reply: BaseModel) -> RequestRecord | None:
        """What to keep with a change made by a request that has an id: the reply it gets (without its ref)."""
        if request_id is None:
            return None
        return RequestRecord(request_id, self._step, reply.model_copy(update={"ref": None}).model_dump_json())

    def _answered_before(self, sub: Subscriber, request_id: str | None, ref: str | None) -> bool:
        """Answer a request this game carried out already (its reply was lost) as it was answered then."""
        if request_id is None or request_id not in self.requests:
            return False
        reply = SERVER_ADAPTER.validate_json(self.requests[request_id][1]).model_copy(update={"ref": ref})
        sub.send(reply)
        return True

    def _remember(self, request: RequestRecord | None) -> None:
        """Keep a carried-out request's reply; those of steps long past are forgotten, as the store forgets them."""
        if request is None:
            return
        step = self._step
        if any(kept_step < step - 1 for kept_step, _ in self.requests.values()):
            self.requests = {rid: kept for rid, kept in self.requests.items() if kept[0] >= step - 1}
        self.requests[request.request_id] = (request.step, request.reply)

    @property
    def unsettled(self) -> bool:
        return core.unsettled(self.table)

    async def settle(self) -> None:
        """Resolve a restored turn whose every player had committed, as the running server would have."""
        async with self.lock:
            before = self.table.status
            decision = core.settle(self.table)
            if decision is not None:
                self._after_change(await self._save(decision), decision, before)

    def _after_change(self, entries: Sequence[Entry], decision: Decision, before: Status | None) -> None:
        for resolved in decision.resolved:
            what = f"step {resolved.step} (turn {resolved.turn})"
            logger.info("game %s: %s resolved (%d events)", self.game_id, what, len(resolved.events))
        status = self.table.status
        if status is not None and status.finished and (before is None or not before.finished):
            logger.info("game %s: over, %s", self.game_id,
                        f"{status.winner} won" if status.winner else "a draw")
        self._schedule_deadline()
        self._broadcast(entries)

    # ---- the turn clock (D3, C9) ---------------------------------------------------------------------------------

    def _schedule_deadline(self) -> None:
        """Arm the turn's timer for whoever the game now waits for; a change that leaves the same players awaited
        on the same turn (a commit, an action within one's turn) leaves the timer running."""
        status, seconds = self.table.status, self.settings.turn_seconds
        if seconds is None or status is None or status.finished or self._closed or not self._anyone_seated():
            self._disarm()  # a game whose every seat is empty waits for its players rather than play itself
            return
        if self._timer is not None and self._armed == status.clock:
            return
        self._disarm()
        self._armed = status.clock
        self._deadline = self._clock.now() + seconds
        key = status.clock
        self._timer = self._clock.call_later(seconds, lambda: self._deadline_passed(key))

    def rearm(self) -> None:
        """Arm the turn's timer again as the game now stands (a game just taken over from another node)."""
        self._schedule_deadline()

    def _anyone_seated(self) -> bool:
        return self.taken_over or any(seat is not None for seat in self.watchers.values())

    def _presence_changed(self, skip: Subscriber | None = None) -> None:
        """Tell the followers that a seat's connection came or went: at once, but at most once a second, so that
        a seat taken back and forth cannot flood every spectator (the summary of the next update says it all)."""
        self._schedule_deadline()
        now = self._clock.now()
        if self._presence_timer is not None:
            return
        wait = self._last_presence + PRESENCE_INTERVAL - now
        if wait <= 0:
            self._last_presence = now
            self._broadcast([], skip=skip)
        else:
            self._presence_timer = self._clock.call_later(wait, self._presence_due)

    def _presence_due(self) -> None:
        self._presence_timer = None
        if not self._closed:
            self._last_presence = self._clock.now()
            self._broadcast([])

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._deadline, self._armed = None, None, None

    def _deadline_passed(self, clock_key: Any) -> None:
        self._tasks.spawn(self._time_out(clock_key), f"game {self.game_id}: the turn's time limit failed")

    async def _time_out(self, clock_key: Any) -> None:
        async with self.lock:
            if self._closed:
                return
            before = self.table.status
            decision = core.time_out(self.table, clock_key)
            if decision is None:
                return
            self._timer = None
            self.taken_over = False  # its players' time ran out once: from now on it waits for them as any game
            try:
                entries = await self._save(decision)
            except Redirect:
                return  # another node plays the game now, and keeps its time
            except Refusal:
                self._armed = None
                self._schedule_deadline()  # try again after another full turn's time
                return
            late = next((e.event for e in entries if isinstance(e.event, game_log.TimeRanOut)), None)
            logger.info("game %s: time ran out for %s", self.game_id,
                        ", ".join(late.players) if late is not None and late.players else "nobody")
            self._armed = None
            self._after_change(entries, decision, before)

    async def vote_hand_over(self, sub: Subscriber, player: str, least_away: float, ref: str | None) -> str | None:
        """A player's vote to hand `player`'s seat (named in any case) to the server's computer player; the seat's
        name once it is decided."""
        async with self.lock:
            self._check_open()
            voter = self._player(sub)
            player = core.seat_named(self.table, player) or player
            computers = self.computers()
            vote = core.hand_over_vote(self.table, voter, player, self._clock.now(), least_away,
                                       {seat for seat in self.watchers.values() if seat is not None} - computers,
                                       computers)
            sub.send(HandOverPending(game_id=self.game_id, player=player, votes=vote.votes, needed=vote.needed,
                                     ref=ref))
            if vote.decision is None:
                self.table = vote.table
                return None
            entries = await self._save(vote.decision)
            logger.info("game %s: %s's seat is handed to the server's player", self.game_id, player)
            self._broadcast(entries)
            return player

    async def play_seat(self, sub: Subscriber, turn: int, orders: Sequence[Any]) -> list[Refusal]:
        """A computer player's decision for the seat it holds, carried out, saved and told as one change
        (core.play_seat). Returns what the rules refused of it (played as when time runs out)."""
        async with self.lock:
            self._check_open()
            player = self._player(sub)
            before = self.table.status
            decision, refusals = core.play_seat(self.table, player, turn, orders)
            entries = await self._save(decision)
            self._after_change(entries, decision, before)
            return [Refusal.of(problem) for problem in refusals]

    # ---- the end (R27) -------------------------------------------------------------------------------------------

    async def request_rematch(self, sub: Subscriber, ref: str | None) -> None:
        async with self.lock:
            self._check_open()
            player = self.watchers.get(sub)
            if player is None:
                raise Refusal(ErrorCode.NOT_SEATED, f"only the players of game {self.game_id} may ask for a rematch")
            decision, waiting = core.rematch_request(self.table, player)
            entries = await self._save(decision)
            sub.send(RematchPending(game_id=self.game_id, accepted=list(self.table.rematch), waiting_for=waiting,
                                    ref=ref))
            self._broadcast(entries)
            await self._start_rematch_if_ready()

    async def _start_rematch_if_ready(self) -> None:
        """Start the rematch when the table's requests call for it (core.rematch_outlook), or say why it cannot."""
        if self._rematch_factory is None:
            return
        outlook = core.rematch_outlook(self.table)
        if outlook.impossible is not None:
            self._broadcast(await self._save(outlook.impossible))
        if not outlook.seats:
            return
        new_match = await self._rematch_factory(self, list(outlook.seats))
        entries = await self._save(core.rematch_started(self.table, new_match.game_id))
        self._broadcast(entries)
        logger.info("game %s: rematch started as game %s", self.game_id, new_match.game_id)
        for other, seat in list(self.watchers.items()):
            if seat is not None and seat in self.table.rematch:
                await new_match.attach(other, seat)

    def rematch_problem(self) -> str | None:
        return core.rematch_problem(self.table)

    # ---- saving and closing --------------------------------------------------------------------------------------

    async def _save(self, decision: Decision, request: RequestRecord | None = None) -> list[Entry]:
        """Number the new entries, save them with the new table (and the request that made the change, if it has
        an id), and only then make both current."""
        if decision.order_change is not None and not decision.entries:
            await self._save_order(decision.order_change, request)
            self.table = decision.table
            self._remember(request)
            return []
        last = self.log.last_seq
        entries = number(decision.entries, last, self.ruleset, change=self.seq + 1)
        game = decision.table.game
        try:
            if decision.committed is not None and game is not None and not decision.resolved:
                commit = CommitChange(decision.committed, game.step, last + len(entries))
                await self._storage.save_commit(self.game_id, commit, entries, request)  # a small row, as an order
            else:
                progress = _progress(decision.table, last + len(entries), self.seq + (1 if entries else 0))
                await self._storage.save(self.game_id, progress, entries, summary=self._listed(decision.table),
                                         request=request)
        except OwnershipLost as exc:
            raise self._gone(exc) from exc
        except Exception as exc:
            raise self._unsaved("a change", exc) from exc
        self.table = decision.table
        self.log.extend(entries)
        self._remember(request)
        return entries

    async def _save_order(self, change: OrderChange, request: RequestRecord | None) -> None:
        """Keep an issued or withdrawn order as a small write rather than the whole progress (a save comes with
        every order)."""
        try:
            await self._storage.save_order(self.game_id, change, request)
        except OwnershipLost as exc:
            raise self._gone(exc) from exc
        except Exception as exc:
            raise self._unsaved("an order", exc) from exc

    async def _save_orders(self, changes: Sequence[OrderChange], request: RequestRecord | None) -> None:
        """Keep the orders of one batch as small rows, in one write."""
        try:
            await self._storage.save_orders(self.game_id, changes, request)
        except OwnershipLost as exc:
            raise self._gone(exc) from exc
        except Exception as exc:
            raise self._unsaved("the orders", exc) from exc

    def _listed(self, table: Table) -> str | None:
        """The game's summary as other nodes' lobbies list it, for a store they share (none otherwise)."""
        if not self._storage.shared:
            return None
        present = {seat for seat in self.watchers.values() if seat is not None}
        spectators = sum(1 for seat in self.watchers.values() if seat is None)
        return core.summary(table, present, spectators, frozenset(self.computers())).model_dump_json()

    def _gone(self, exc: OwnershipLost) -> Redirect:
        """The store says another node owns this game now: nothing was kept, and this node lets the game go."""
        logger.warning("game %s: %s", self.game_id, exc)
        if not self.moved:
            self.moved = True
            if self.on_moved is not None:
                self.on_moved(self)
        return Redirect(self.game_id, None)

    def _unsaved(self, what: str, exc: Exception) -> Refusal:
        """What the player is told when the store could not keep a change: it did not happen."""
        logger.error("game %s: could not save %s: %s", self.game_id, what, exc)
        return Refusal(ErrorCode.STORAGE_FAILED, "the server could not save this change, so it did not happen; "
                                                 "try again")

    def _check_open(self) -> None:
        if self.moved:
            raise Redirect(self.game_id, None)
        if self._closed:
            raise Refusal(ErrorCode.SHUTTING_DOWN, "the server is shutting down")

    async def close(self) -> None:
        """Wait for the change under way, then accept no more: nothing is left half done."""
        async with self.lock:
            self._closed = True
            self._disarm()
            if self._presence_timer is not None:
                self._presence_timer.cancel()
        self._tasks.cancel()


def _progress(table: Table, seq: int, number: int) -> GameProgress:
    game = table.game
    # Every field is typed already, so it is not validated again (a save comes with every change).
    return GameProgress.model_construct(
        seats=list(table.seats), state=None if game is None else game_to_dict(table.ruleset, game), seq=seq,
        number=number,
        rematch=list(table.rematch), rematch_game=table.rematch_game, declined=list(table.declined),
        handed_over=list(table.handed_over), status=table.summary_status.value)
