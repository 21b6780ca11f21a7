"""A match from its making to its end: a new game saved before it exists for anyone, a game brought back as its
store kept it, an unstarted game nobody sits in closed, and every match closed with the server.

`Match` is put together here from the parts of server/match/: what it is about decides where a command lives
(seating.py, playing.py, handing_on.py), and what they share is runner.py's.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence

from server import core
from server.clock import Clock, LoopClock
from server.core.entries import Logged, number
from server.core.table import Pace
from server.match.eventlog import EventLog
from server.match.followers import Followed, Subscriber
from server.match.handing_on import HandingOn
from server.match.keeping import Keeper
from server.match.playing import Playing
from server.match.seating import Seating
from server.storage.base import GameRecord, RestoredGame, SeatRecord, Storage
from server.storage.codec import game_from_dict, map_from_dict, map_to_dict
from shared.maps.model import GameMap
from shared.protocol import log as game_log
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import GameSettings
from shared.protocol.messages import Error
from shared.rulesets import game_ruleset

logger = logging.getLogger("risc.server")

RESUME_EVENT_LIMIT = 2000
"""A client further behind than this gets a fresh snapshot instead of every entry it missed."""

RematchFactory = Callable[["Match", list[SeatRecord]], Awaitable["Match"]]
"""How a finished game's rematch is made (the lobby's): the old match and the seats of those who asked."""


class Match(Seating, Playing, HandingOn):
    """One game's single owner: every change to it — a join, an order, a commit, a disconnect, a timeout — happens
    under its lock, is saved, and only then is acknowledged and told to the game's followers. It holds the table
    the core's decisions work on, the game's seed (which never leaves the server, D1), the numbered event log, the
    connections following the game with the seat each holds, and the turn's timer. Everything sent about the game
    passes through the rule set's view function, and private log entries go only to those who may see them."""

    @classmethod
    async def create(
        cls,
        game_id: str,
        settings: GameSettings,
        game_map: GameMap,
        storage: Storage,
        seed: int,
        rematch_factory: RematchFactory | None = None,
        seats: Sequence[SeatRecord] = (),
        clock: Clock | None = None,
    ) -> Match:
        """A new game, saved before it exists for anyone, with `seats` taken (started at once when they fill it: a
        rematch)."""
        ruleset, options = game_ruleset(settings.ruleset, settings.options)
        table = core.new_table(game_id, settings, ruleset, options, game_map, seed)
        clock = clock or LoopClock()
        record = GameRecord(
            game_id=game_id, settings=settings, seed=seed, created_at=clock.wall(), game_map=map_to_dict(game_map)
        )
        bodies = [Logged(game_log.GameCreated()), *(Logged(game_log.PlayerJoined(player=s.name)) for s in seats)]
        if seats and len(seats) == settings.players:
            started = core.start(table, seats)
            table, bodies = started.table, bodies + started.entries
        elif seats:  # seated by quick play or a challenge, the rest of its seats to fill
            table = table.evolve(seats=tuple(seats))
        entries = number(bodies, 0, ruleset, change=1)
        summary = core.summary(table, set(), 0, table.server_seats).model_dump_json() if storage.shared else None
        await Keeper(game_id, storage, lambda: None).create(record, table, entries, summary)
        log = EventLog(game_id, 0, limit=RESUME_EVENT_LIMIT)
        log.extend(entries)
        match = cls(table, log, storage, rematch_factory, clock)
        match._schedule_deadline()
        match._note_presence()
        return match

    @classmethod
    def restore(
        cls,
        game: RestoredGame,
        storage: Storage,
        rematch_factory: RematchFactory | None = None,
        game_map: GameMap | None = None,
        clock: Clock | None = None,
    ) -> Match:
        """A game as its store kept it, on `game_map` if given (built from the same stored map, shared with other
        games), else on a map built from its record. Its turn clock, if any, starts afresh, and every seat is away
        until its player is back. Its deadlines are the store's: one that passed while no server held the game
        falls due at once."""
        record, progress = game.record, game.progress
        ruleset, options = game_ruleset(record.settings.ruleset, record.settings.options)
        game_map = map_from_dict(record.game_map) if game_map is None else game_map
        table = core.new_table(record.game_id, record.settings, ruleset, options, game_map, record.seed)
        table = table.evolve(
            seats=tuple(progress.seats),
            rematch=tuple(progress.rematch),
            rematch_game=progress.rematch_game,
            declined=tuple(progress.declined),
            handed_over=tuple(progress.handed_over),
            game=None if progress.state is None else game_from_dict(ruleset, progress.state, game_map, options),
            pace=Pace(state=progress.pace),
        )
        log = EventLog(record.game_id, progress.seq, game.log, limit=RESUME_EVENT_LIMIT, number=progress.number)
        match = cls(table, log, storage, rematch_factory, clock)
        step = progress.step or 0
        match._answers.kept = {key: (step, reply) for key, reply in game.requests.items()}
        match.table = core.all_away(match.table, match.followers.held(), match._clock.now())
        match._schedule_deadline()
        match._note_presence()
        return match

    # ---- an unstarted game nobody sits in ------------------------------------------------------------------------

    def idle_left(self, expiry: float) -> float | None:
        """Seconds until this unstarted game may be closed for want of players (0 or less: now); None while a
        player is here or once it has started."""
        return core.idle_left(self.table, expiry, self._clock.now())

    async def close_unstarted(self, reason: str, at_once: bool = False, lonely: bool = False) -> bool:
        """Close a game that never started and that nobody sits in any more (`at_once`: whatever the time; `lonely`:
        one person at most sits in it, after a long wait): kept in the store as over, with no game in it, so that a
        restarting server does not bring it back. Anyone still following it is told `reason`. False, changing
        nothing, when someone sat down meanwhile."""
        async with self.lock:
            if self._closed or not core.closable_unstarted(self.table, self.followers.held(), at_once, lonely):
                return False
            if not await self._keeper.closed_unstarted(self.table, self.log.last_seq, self.seq):
                return False
            self._closed = True
            self._closed_why = reason
            self._turn_timer.disarm()
            self._presence.close()
            for sub in list(self.watchers):
                self.followers.stop(sub)
                sub.send(Error(code=ErrorCode.NO_SUCH_GAME, game_id=self.game_id, message=reason))
        self._tasks.cancel()
        logger.info("game %s: closed before it started (%s)", self.game_id, reason)
        return True

    def followed_by(self) -> dict[Subscriber, Followed]:
        """Who follows the game now, and how: to follow it again elsewhere."""
        seq = self.seq
        return {sub: Followed(seat, self.followers.sights.get(sub), seq) for sub, seat in self.followers.seats.items()}

    async def follow_again(self, sub: Subscriber, followed: Followed) -> None:
        """A connection that followed this game on an earlier match of it (this node lost its store, and took the
        game back) follows it again as it did, sent what it missed since."""
        async with self.lock:
            if followed.seat is None:
                self.followers.seat(sub, None, followed.sight)
            elif any(s.name == followed.seat for s in self.table.seats):
                self._take_seat(sub, followed.seat)
                self._schedule_deadline()
            else:
                return
            self._follow(sub, followed.seq)
            if followed.seat is not None:
                self._presence_changed(skip=sub)

    @contextlib.asynccontextmanager
    async def handing_off(self, url: str) -> AsyncIterator[None]:
        """Give the game to the node at `url` (this one stops): once the change under way is finished, the game
        changes no more, and every request waiting or to come is answered with a redirect there, but only once the
        block ends, when the game is that node's to take (its lock let go)."""
        async with self.lock:
            self.moved, self.moved_to = True, url
            self._closed = True
            self._turn_timer.disarm()
            self._presence.close()
            yield
        self._tasks.cancel()

    async def close(self) -> None:
        """Wait for the change under way, then accept no more: nothing is left half done."""
        async with self.lock:
            self._closed = True
            self._turn_timer.disarm()
            self._presence.close()
        self._tasks.cancel()
