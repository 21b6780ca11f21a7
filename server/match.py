"""One game's single owner: every change to a game — a join, an order, a commit, a disconnect, a timeout — happens
under its lock, is saved, and only then is acknowledged and told to the game's subscribers.

The engine's functions are pure; the match holds what they work on: the current GameState, the game's seed (which
never leaves the server, D1), the numbered event log, and the connections following the game with the seat each
holds (None for a spectator). Everything sent about the game passes through shared.rules.view.view.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol, get_args

from pydantic import BaseModel

from server.eventlog import EventLog
from server.seats import find_seat, new_token, token_hash
from server.storage.base import GameProgress, GameRecord, OrderChange, RestoredGame, SeatRecord, Storage
from server.storage.snapshot import map_from_dict, map_to_dict, order_to_json, state_from_dict, state_to_dict
from server.tasks import BackgroundTasks
from server.updates import UpdateFrames
from shared.maps.groups import starting_groups
from shared.maps.model import GameMap
from shared.protocol import log as game_log
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import GamePhase, GameSettings, GameSummary, SeatInfo
from shared.protocol.log import LogEvent, SequencedEvent
from shared.protocol.messages import (
    CommitAccepted,
    Error,
    Joined,
    Left,
    OrderAccepted,
    Orders,
    OrderWithdrawn,
    RematchPending,
    Resumed,
    Watching,
)
from shared.protocol.names import looks_alike
from shared.rules import turns
from shared.rules.errors import RuleCode, RuleError
from shared.rules.events import Combat, GameWon, PlayerEliminated
from shared.rules.orders import Order
from shared.rules.random import GameRandom
from shared.rules.registry import get_ruleset
from shared.rules.ruleset import GameOptions, Ruleset
from shared.rules.state import GameState, Phase

logger = logging.getLogger("risc.server")

SETUP_TURN = -1
"""The generator that assigns groups is derived for this turn number, apart from every played turn's."""

RESUME_EVENT_LIMIT = 2000
"""A client further behind than this gets a fresh snapshot instead of every entry it missed."""

LogBody = BaseModel | object
"""A log entry before it is numbered: one of the members of shared.protocol.log.LogEvent."""

_LOG_TYPES: frozenset[type] = frozenset(get_args(get_args(LogEvent)[0]))


class Subscriber(Protocol):
    """A connection as a match sees it: somewhere to send messages, and the games it follows."""

    games: set[str]

    @property
    def label(self) -> str: ...

    def send(self, message: BaseModel, text: str | None = None) -> None:
        """Queue a message; `text`, when given, is its frame text made already. Never blocks, never raises."""
        ...


class Refusal(Exception):
    """A request that cannot be granted. Raised before anything changes, so a refusal changes nothing."""

    def __init__(self, code: ErrorCode | RuleCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    @classmethod
    def of(cls, error: RuleError) -> Refusal:
        return cls(error.code, error.message)


RematchFactory = Callable[[GameSettings, list[SeatRecord]], Awaitable["Match"]]


class Match:
    def __init__(self, record: GameRecord, progress: GameProgress, log: EventLog, game_map: GameMap,
                 storage: Storage, rematch_factory: RematchFactory | None = None) -> None:
        self.game_id = record.game_id
        self.settings = record.settings
        self.game_map = game_map
        self.ruleset: Ruleset = get_ruleset(record.settings.ruleset)
        self._seed = record.seed
        self._storage = storage
        self._rematch_factory = rematch_factory
        self.seats: list[SeatRecord] = list(progress.seats)
        self.state: GameState | None = (None if progress.state is None
                                        else state_from_dict(progress.state, game_map))
        # Only the most recent entries stay in memory: a client further behind gets a snapshot (see _catch_up).
        self.log = log
        self.rematch: list[str] = list(progress.rematch)
        self.rematch_game: str | None = progress.rematch_game
        self.watchers: dict[Subscriber, str | None] = {}
        self.lock = asyncio.Lock()
        self._groups = ([list(g) for g in starting_groups(game_map, self.settings.players)]
                        if self.settings.choose_groups else None)
        self._deadline: float | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._tasks = BackgroundTasks()
        self._closed = False

    # ---- creation and restoring ----------------------------------------------------------------------------------

    @classmethod
    async def create(cls, game_id: str, settings: GameSettings, game_map: GameMap, storage: Storage,
                     rematch_factory: RematchFactory | None = None,
                     seats: Sequence[SeatRecord] = ()) -> Match:
        """A new game, saved before it exists for anyone; seated at once when `seats` fill it (a rematch)."""
        record = GameRecord(game_id=game_id, settings=settings, seed=secrets.randbits(63), created_at=time.time(),
                            game_map=map_to_dict(game_map))
        bodies: list[LogBody] = [game_log.GameCreated()]
        bodies += [game_log.PlayerJoined(player=s.name) for s in seats]
        state = None
        if seats and len(seats) == settings.players:
            state = _setup(settings, game_map, record.seed, list(seats))
            bodies.append(game_log.GameStarted(players=[s.name for s in seats]))
        events = _number(bodies, 0)
        progress = GameProgress(seats=list(seats), state=None if state is None else state_to_dict(state),
                                seq=len(events))
        await storage.create(record, progress, events)
        log = EventLog(game_id, 0, limit=RESUME_EVENT_LIMIT)
        log.extend(events)
        match = cls(record, progress, log, game_map, storage, rematch_factory)
        match._schedule_deadline()
        return match

    @classmethod
    def restore(cls, game: RestoredGame, storage: Storage, rematch_factory: RematchFactory | None = None,
                game_map: GameMap | None = None) -> Match:
        """A game as its store kept it, on `game_map` if given (built from the same stored map, shared with other
        games), else on a map built from its record. Its turn clock, if any, starts afresh."""
        log = EventLog(game.record.game_id, game.progress.seq, game.log, limit=RESUME_EVENT_LIMIT)
        match = cls(game.record, game.progress, log,
                    map_from_dict(game.record.game_map) if game_map is None else game_map, storage, rematch_factory)
        match._schedule_deadline()
        return match

    # ---- what others see -----------------------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        return self.log.last_seq

    def summary(self) -> GameSummary:
        state = self.state
        present = set(self.watchers.values())
        eliminated = set(state.eliminated) if state else set()
        return GameSummary(
            game_id=self.game_id, settings=self.settings, map_name=self.game_map.name,
            territories=len(self.game_map.territories),
            seats=[SeatInfo(name=s.name, connected=s.name in present, group=s.group, eliminated=s.name in eliminated)
                   for s in self.seats],
            free=self.settings.players - len(self.seats),
            phase=GamePhase.LOBBY if state is None else GamePhase(state.phase.value),
            turn=0 if state is None else state.turn, winner=None if state is None else state.winner,
            groups=self._groups, spectators=sum(1 for seat in self.watchers.values() if seat is None),
            rematch=list(self.rematch), rematch_game=self.rematch_game)

    def _frames(self, events: list[SequencedEvent], snapshot: bool = False) -> UpdateFrames:
        deadline_in = None
        if self._deadline is not None:
            deadline_in = round(max(0.0, self._deadline - asyncio.get_running_loop().time()), 3)
        return UpdateFrames(self.game_id, self.seq, events, self.summary(), self.state, deadline_in, snapshot)

    def _broadcast(self, events: list[SequencedEvent], skip: Subscriber | None = None) -> None:
        """Tell every follower (but `skip`): the entries and summary are encoded once, each seat's view once."""
        targets = [(sub, seat) for sub, seat in self.watchers.items() if sub is not skip]
        if not targets:
            return
        frames = self._frames(events)
        for sub, seat in targets:
            sub.send(*frames.for_seat(seat))

    def _catch_up(self, sub: Subscriber, seat: str | None, last_seq: int | None) -> None:
        """The entries after `last_seq` when they are few enough, else a snapshot: either way the current view."""
        missed = None if last_seq is None else self.log.after(last_seq)
        if missed is not None:
            sub.send(*self._frames(missed).for_seat(seat))
        else:
            sub.send(*self._frames([], snapshot=True).for_seat(seat))

    # ---- the lobby -----------------------------------------------------------------------------------------------

    async def join(self, sub: Subscriber, name: str, group: int | None, ref: str | None) -> None:
        async with self.lock:
            self._check_open()
            if self.state is not None:
                raise Refusal(ErrorCode.GAME_STARTED, f"game {self.game_id} has started: watch it instead")
            if self.watchers.get(sub) is not None:
                raise Refusal(ErrorCode.ALREADY_SEATED,
                              f"you already sit in game {self.game_id} as {self.watchers[sub]}")
            if any(looks_alike(s.name, name) for s in self.seats):
                raise Refusal(ErrorCode.NAME_TAKEN, f'the name "{name}" is taken in game {self.game_id}')
            if len(self.seats) >= self.settings.players:
                raise Refusal(ErrorCode.GAME_FULL, f"game {self.game_id} has no free seat")
            self._check_group(group)
            token = new_token()
            seats = [*self.seats, SeatRecord(name=name, token_hash=token_hash(token), group=group)]
            bodies: list[LogBody] = [game_log.PlayerJoined(player=name)]
            state = None
            if len(seats) == self.settings.players:
                state = _setup(self.settings, self.game_map, self._seed, seats)
                bodies.append(game_log.GameStarted(players=[s.name for s in seats]))
            numbered = await self._save(bodies, state=state, seats=seats)
            self.watchers[sub] = name
            sub.games.add(self.game_id)
            logger.info("game %s: %s joined (%d/%d seats)", self.game_id, name, len(seats), self.settings.players)
            sub.send(Joined(game_id=self.game_id, player=name, token=token, ref=ref))
            if state is not None:
                logger.info("game %s: started with %s", self.game_id, ", ".join(s.name for s in seats))
                self._schedule_deadline()
            self._broadcast(numbered)

    def _check_group(self, group: int | None) -> None:
        if self._groups is None:
            if group is not None:
                raise Refusal(ErrorCode.BAD_GROUP, f"starting groups in game {self.game_id} are drawn at random: "
                                                   "join without a group")
            return
        if group is None or not 0 <= group < len(self._groups):
            raise Refusal(ErrorCode.BAD_GROUP, f"choose a starting group from 0 to {len(self._groups) - 1}")
        holder = next((s.name for s in self.seats if s.group == group), None)
        if holder is not None:
            raise Refusal(ErrorCode.BAD_GROUP, f"group {group} is taken by {holder}")

    async def leave(self, sub: Subscriber, ref: str | None) -> None:
        async with self.lock:
            if sub not in self.watchers:
                raise Refusal(ErrorCode.NOT_SEATED, f"you are not in game {self.game_id}")
            seat = self.watchers[sub]
            state = self.state
            numbered: list[SequencedEvent] = []
            if seat is not None and state is None:
                self._check_open()
                seats = [s for s in self.seats if s.name != seat]
                numbered = await self._save([game_log.PlayerLeft(player=seat)], state=None, seats=seats)
                logger.info("game %s: %s left", self.game_id, seat)
            elif (seat is not None and state is not None and state.phase is not Phase.FINISHED
                  and seat not in state.eliminated):
                raise Refusal(ErrorCode.GAME_STARTED, "the game has started: you keep your seat until you lose or "
                                                      "the game ends (you may disconnect and come back)")
            del self.watchers[sub]
            sub.games.discard(self.game_id)
            sub.send(Left(game_id=self.game_id, ref=ref))
            self._broadcast(numbered)

    async def watch(self, sub: Subscriber, last_seq: int | None, ref: str | None) -> None:
        async with self.lock:
            if self.watchers.get(sub) is not None:
                raise Refusal(ErrorCode.ALREADY_SEATED, f"you sit in game {self.game_id} as {self.watchers[sub]}")
            self.watchers[sub] = None
            sub.games.add(self.game_id)
            sub.send(Watching(game_id=self.game_id, ref=ref))
            self._catch_up(sub, None, last_seq)
            # Nobody else is told: with every newcomer told to every watcher, a thousand spectators joining made a
            # million updates. The others' spectator count catches up with the game's next update.

    async def resume(self, sub: Subscriber, token: str, last_seq: int | None, ref: str | None) -> None:
        async with self.lock:
            seat = find_seat(token, self.seats)
            if seat is None:
                raise Refusal(ErrorCode.BAD_TOKEN, f"that token opens no seat in game {self.game_id}")
            self._take_seat(sub, seat.name)
            logger.info("game %s: %s reconnected", self.game_id, seat.name)
            sub.send(Resumed(game_id=self.game_id, player=seat.name, ref=ref))
            self._catch_up(sub, seat.name, last_seq)
            self._broadcast([], skip=sub)

    async def attach(self, sub: Subscriber, player: str) -> None:
        """Seat a connection whose player was seated here by a rematch: it holds the same token as before."""
        async with self.lock:
            self._take_seat(sub, player)
            sub.send(Resumed(game_id=self.game_id, player=player))
            self._catch_up(sub, player, 0)
            self._broadcast([], skip=sub)

    def _take_seat(self, sub: Subscriber, player: str) -> None:
        for other, held in list(self.watchers.items()):
            if held == player and other is not sub:
                del self.watchers[other]
                other.games.discard(self.game_id)
                other.send(Error(code=ErrorCode.NOT_SEATED, game_id=self.game_id,
                                 message=f"your seat in game {self.game_id} was taken back with its token "
                                         "from another connection"))
        self.watchers[sub] = player
        sub.games.add(self.game_id)

    async def disconnect(self, sub: Subscriber) -> None:
        async with self.lock:
            if sub not in self.watchers:
                return
            seat = self.watchers.pop(sub)
            sub.games.discard(self.game_id)
            if seat is not None:  # a spectator going is not news of its own, as its coming was not (see watch)
                logger.info("game %s: %s disconnected", self.game_id, seat)
                self._broadcast([])

    # ---- playing -------------------------------------------------------------------------------------------------

    def _player(self, sub: Subscriber) -> str:
        player = self.watchers.get(sub)
        if player is None:
            raise Refusal(RuleCode.NOT_A_PLAYER, f"you hold no seat in game {self.game_id}: only its players act")
        return player

    def _running(self, turn: int | None) -> GameState:
        state = self.state
        if state is None:
            raise Refusal(RuleCode.WRONG_PHASE, f"game {self.game_id} starts when all {self.settings.players} "
                                                "seats are taken")
        if state.phase is Phase.FINISHED:
            raise Refusal(RuleCode.GAME_OVER, "the game is over")
        if turn is not None and turn != state.turn:
            what = "placement (turn 0)" if state.phase is Phase.PLACEMENT else f"turn {state.turn}"
            raise Refusal(RuleCode.WRONG_TURN, f"this is for turn {turn}, but the game is at {what}")
        return state

    async def issue(self, sub: Subscriber, turn: int, order: Order, ref: str | None) -> None:
        async with self.lock:
            self._check_open()
            player = self._player(sub)
            before = self._running(turn)
            result = turns.issue(self.ruleset, before, player, order)
            if isinstance(result, RuleError):
                raise Refusal.of(result)
            orders = list(result.orders_of(player))
            numbered: list[SequencedEvent] = []
            if player in result.committed:  # a ruleset that resolves each order as it comes
                state, more = self._resolve_if_ready(result)
                numbered = await self._save([game_log.PlayerCommitted(player=player, turn=turn), *more], state=state)
            else:
                await self._save_order(OrderChange(player, turn, len(orders) - 1, order_to_json(order)), result)
            sub.send(OrderAccepted(game_id=self.game_id, turn=turn, index=len(orders) - 1, order=order,
                                   orders=orders, ref=ref))
            if numbered:  # an order alone is news to nobody else, not even that it was issued (R16)
                self._after_change(numbered, before)

    async def withdraw(self, sub: Subscriber, turn: int, index: int, ref: str | None) -> None:
        async with self.lock:
            self._check_open()
            player = self._player(sub)
            result = turns.withdraw(self.ruleset, self._running(turn), player, index)
            if isinstance(result, RuleError):
                raise Refusal.of(result)
            await self._save_order(OrderChange(player, turn, index, None), result)
            sub.send(OrderWithdrawn(game_id=self.game_id, turn=turn, index=index,
                                    orders=list(result.orders_of(player)), ref=ref))

    async def list_orders(self, sub: Subscriber, ref: str | None) -> None:
        async with self.lock:
            player = self._player(sub)
            state = self._running(None)
            sub.send(Orders(game_id=self.game_id, turn=state.turn, orders=list(state.orders_of(player)),
                            committed=player in state.committed, ref=ref))

    async def commit(self, sub: Subscriber, turn: int, ref: str | None) -> None:
        async with self.lock:
            self._check_open()
            player = self._player(sub)
            before = self._running(turn)
            result = turns.commit(self.ruleset, before, player)
            if isinstance(result, RuleError):
                raise Refusal.of(result)
            state, more = self._resolve_if_ready(result)
            numbered = await self._save([game_log.PlayerCommitted(player=player, turn=turn), *more], state=state)
            sub.send(CommitAccepted(game_id=self.game_id, turn=turn, ref=ref))
            self._after_change(numbered, before)

    def _resolve_if_ready(self, state: GameState) -> tuple[GameState, list[LogBody]]:
        if not turns.ready(self.ruleset, state):
            return state, []
        resolved, events = turns.advance(self.ruleset, state, GameRandom(self._seed, state.turn))
        revealed = game_log.OrdersRevealed(turn=state.turn, orders={p: list(state.orders_of(p)) for p in state.alive})
        return resolved, [revealed, *events]  # the orders are logged so the game can be replayed from its seed

    @property
    def unsettled(self) -> bool:
        """Whether every player has committed the turn but it is not resolved: see settle."""
        state = self.state
        return state is not None and state.phase is not Phase.FINISHED and turns.ready(self.ruleset, state)

    async def settle(self) -> None:
        """Resolve a restored turn whose every player had committed, as the running server would have."""
        async with self.lock:
            before = self.state
            if before is None or not self.unsettled:
                return
            state, more = self._resolve_if_ready(before)
            self._after_change(await self._save(more, state=state), before)

    def _after_change(self, numbered: list[SequencedEvent], before: GameState) -> None:
        state = self.state
        assert state is not None
        if (state.phase, state.turn) != (before.phase, before.turn):
            combats = sum(isinstance(e.event, Combat) for e in numbered)
            out = [e.event.player for e in numbered if isinstance(e.event, PlayerEliminated)]
            what = "placement" if before.phase is Phase.PLACEMENT else f"turn {before.turn}"
            logger.info("game %s: %s resolved (%d combats%s)", self.game_id, what, combats,
                        f", eliminated: {', '.join(out)}" if out else "")
            for entry in numbered:
                if isinstance(entry.event, GameWon):
                    logger.info("game %s: %s won", self.game_id, entry.event.player)
            self._schedule_deadline()
        self._broadcast(numbered)

    # ---- the turn clock (D3) -------------------------------------------------------------------------------------

    def _schedule_deadline(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._deadline = None
        state, seconds = self.state, self.settings.turn_seconds
        if seconds is None or state is None or state.phase is Phase.FINISHED or self._closed:
            return
        loop = asyncio.get_running_loop()
        self._deadline = loop.time() + seconds
        self._timer = loop.call_later(seconds, self._deadline_passed, state.phase, state.turn)

    def _deadline_passed(self, phase: Phase, turn: int) -> None:
        self._tasks.spawn(self._time_out(phase, turn), f"game {self.game_id}: the turn's time limit failed")

    async def _time_out(self, phase: Phase, turn: int) -> None:
        async with self.lock:
            before = self.state
            if self._closed or before is None or (before.phase, before.turn) != (phase, turn):
                return
            awaited = sorted(self.ruleset.awaiting(before))
            state = turns.commit_for_timeout(self.ruleset, before)
            state, more = self._resolve_if_ready(state)
            try:
                numbered = await self._save([game_log.TimeRanOut(turn=turn, players=awaited), *more], state=state)
            except Refusal:
                self._schedule_deadline()  # try again after another full turn's time
                return
            logger.info("game %s: time ran out for %s", self.game_id, ", ".join(awaited) or "nobody")
            self._after_change(numbered, before)

    # ---- the end (R27) -------------------------------------------------------------------------------------------

    async def request_rematch(self, sub: Subscriber, ref: str | None) -> None:
        async with self.lock:
            self._check_open()
            player = self.watchers.get(sub)
            if player is None:
                raise Refusal(ErrorCode.NOT_SEATED, f"only the players of game {self.game_id} may ask for a rematch")
            state = self.state
            if state is None or state.phase is not Phase.FINISHED:
                raise Refusal(ErrorCode.NOT_FINISHED, f"game {self.game_id} is not over")
            if self.rematch_game is not None:
                raise Refusal(ErrorCode.GAME_STARTED, f"the rematch is game {self.rematch_game}: resume it with your "
                                                      "seat token")
            accepted = self.rematch if player in self.rematch else [*self.rematch, player]
            waiting = [p for p in state.players if p not in accepted]
            bodies: list[LogBody] = [game_log.RematchRequested(player=player)]
            new_match = None
            if not waiting and self._rematch_factory is not None:
                new_match = await self._rematch_factory(self.settings, list(self.seats))
                bodies.append(game_log.RematchStarted(game_id=new_match.game_id))
            numbered = await self._save(bodies, state=self.state, rematch=accepted,
                                        rematch_game=None if new_match is None else new_match.game_id)
            sub.send(RematchPending(game_id=self.game_id, accepted=accepted, waiting_for=waiting, ref=ref))
            self._broadcast(numbered)
            if new_match is not None:
                logger.info("game %s: rematch started as game %s", self.game_id, new_match.game_id)
                for other, seat in list(self.watchers.items()):
                    if seat is not None:
                        await new_match.attach(other, seat)

    # ---- saving and closing --------------------------------------------------------------------------------------

    async def _save(self, bodies: Sequence[LogBody], *, state: GameState | None,
                    seats: list[SeatRecord] | None = None, rematch: list[str] | None = None,
                    rematch_game: str | None = None) -> list[SequencedEvent]:
        """Number the new entries, save them with the new state, and only then make both current."""
        numbered = _number(bodies, self.seq)
        new_seats = self.seats if seats is None else seats
        new_rematch = self.rematch if rematch is None else rematch
        new_rematch_game = self.rematch_game if rematch_game is None else rematch_game
        # Every field is typed already, so it is not validated again (a save comes with every order).
        progress = GameProgress.model_construct(
            seats=new_seats, state=None if state is None else state_to_dict(state),
            seq=self.seq + len(numbered), rematch=new_rematch, rematch_game=new_rematch_game)
        try:
            await self._storage.save(self.game_id, progress, numbered)
        except Exception as exc:
            raise self._unsaved("a change", exc) from exc
        self.state, self.seats = state, new_seats
        self.rematch, self.rematch_game = new_rematch, new_rematch_game
        self.log.extend(numbered)
        return numbered

    async def _save_order(self, change: OrderChange, state: GameState) -> None:
        """Keep an issued or withdrawn order — `state` differs from the current one by it alone — as a small write
        rather than the whole progress (a save comes with every order), and only then make `state` current."""
        try:
            await self._storage.save_order(self.game_id, change)
        except Exception as exc:
            raise self._unsaved("an order", exc) from exc
        self.state = state

    def _unsaved(self, what: str, exc: Exception) -> Refusal:
        """What the player is told when the store could not keep a change: it did not happen."""
        logger.error("game %s: could not save %s: %s", self.game_id, what, exc)
        return Refusal(ErrorCode.STORAGE_FAILED,
                       "the server could not save this change, so it did not happen; try again")

    def _check_open(self) -> None:
        if self._closed:
            raise Refusal(ErrorCode.SHUTTING_DOWN, "the server is shutting down")

    async def close(self) -> None:
        """Wait for the change under way, then accept no more: nothing is left half done."""
        async with self.lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
            self._timer, self._deadline = None, None
        self._tasks.cancel()


def _number(bodies: Sequence[LogBody], after: int) -> list[SequencedEvent]:
    """Entries numbered from after + 1. A body already of one of the log's own types is taken as it is (validating
    it again cost a twenty-fifth of the server's time under load); anything else is validated."""
    return [SequencedEvent.model_construct(seq=seq, event=body) if type(body) in _LOG_TYPES
            else SequencedEvent.model_validate({"seq": seq, "event": body})
            for seq, body in enumerate(bodies, start=after + 1)]


def _setup(settings: GameSettings, game_map: GameMap, seed: int, seats: list[SeatRecord]) -> GameState:
    options = GameOptions(initial_units=settings.initial_units, neutral_units=settings.neutral_units,
                          random_groups=not settings.choose_groups)
    chosen = {s.name: s.group for s in seats if s.group is not None} if settings.choose_groups else None
    return get_ruleset(settings.ruleset).setup(game_map, [s.name for s in seats], options,
                                               GameRandom(seed, SETUP_TURN), chosen)
