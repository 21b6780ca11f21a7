"""What a game store must do: create, save state plus new events atomically, load, list.

Records are pydantic models whose fields are plain JSON values, so a store may keep them as JSON text (the memory
store does, which keeps it honest) or spread them over tables. A store never interprets a game; the match does.
"""

from __future__ import annotations

import hashlib
import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel, Field, ValidationError

from shared.protocol.lobby import GameSettings

if TYPE_CHECKING:
    from server.storage.accounts import AccountStore
    from server.storage.invitations import InvitationStore
    from server.storage.notices import Notice, NoticeStore
    from server.storage.ratings import RatedEnd, RatingStore


class LogLine(Protocol):
    """A log entry as a store keeps it: its number and its text (JSON, with its audience when private)."""

    @property
    def seq(self) -> int: ...

    @property
    def stored(self) -> str: ...


logger = logging.getLogger("risc.server")


class SeatRecord(BaseModel):
    name: str
    token_hash: str = Field(
        description="sha256 of the seat token, hex: the token itself is never kept; empty for an account's seat, "
        "which its account's sessions open, not a token"
    )
    group: int | None = None
    account: str | None = Field(default=None, description="the account whose seat it is (its id); None: a guest's")


class GameRecord(BaseModel):
    """What never changes once a game exists. `seed` never leaves the server (D1)."""

    game_id: str
    settings: GameSettings
    seed: int
    created_at: float
    game_map: dict[str, Any] = Field(description="the map as played, so a changed or deleted file cannot alter it")


class PaceState(BaseModel):
    """What a game keeps of its pace (server/core/pace.py): deadlines as times of day, so that a restarted server or
    another node honours them."""

    clock: list[Any] | None = Field(default=None, description="the turn and the players the limit counts for")
    since: float = Field(default=0.0, description="when the turn's limit started (the time of day)")
    started_at: float = Field(default=0.0, description="when the game's pace started: banks refill by its days")
    banks: dict[str, float] = Field(default_factory=dict, description="seconds left in each player's bank")
    refilled: int = Field(default=0, description="days of the game whose refill the banks have had")
    missed: dict[str, int] = Field(default_factory=dict, description="turns running whose time ran out on a player")
    nudged: dict[str, float] = Field(default_factory=dict, description="when each player last nudged")


class GameProgress(BaseModel):
    """What changes as the game goes on: saved whole, with the log entries that came with the change."""

    seats: list[SeatRecord]
    state: dict[str, Any] | None = Field(
        description="the game as its rule set keeps it, without its map (server/storage/codec.py); null in the lobby"
    )
    seq: int = Field(description="the place of the last log entry")
    number: int | None = Field(
        default=None,
        description="the number of the game's last change, what its followers "
        "are told as seq (server/core/entries.py); null in progress "
        "saved before changes were numbered: then seq",
    )
    rematch: list[str] = Field(default_factory=list)
    rematch_game: str | None = None
    declined: list[str] = Field(default_factory=list, description="players who turned the rematch down")
    handed_over: list[str] = Field(default_factory=list, description="seats the server's computer player took over")
    status: str | None = Field(
        default=None,
        description="lobby, playing or finished; null in progress saved "
        "before it was kept (the state's phase then tells)",
    )
    pace: PaceState | None = Field(
        default=None, description="deadlines, banks, missed turns and nudges; null in progress saved before them"
    )

    @property
    def step(self) -> int | None:
        """The game's step (resolutions so far; its turn in games saved before steps), None in the lobby."""
        if self.state is None:
            return None
        step = self.state.get("step", self.state.get("turn"))
        return step if isinstance(step, int) else None

    @property
    def finished(self) -> bool:
        if self.status is not None:
            return self.status == "finished"
        return self.state is not None and self.state.get("phase") == "finished"


@dataclass(frozen=True)
class OrderChange:
    """An issued or withdrawn order, kept as a small write of its own rather than by saving the whole progress again.

    `order` is the issued order as JSON text (as the state holds it), or None when the order at `index` of the
    player's orders of `step` was withdrawn. A store keeps these in the order they came, until the game's next save,
    which holds them in its state and drops them; loading replays them onto the state last saved (with_orders).
    """

    player: str
    step: int
    """The game's step (resolutions so far) the order was given at: the turn, in games saved before steps."""
    index: int
    order: str | None


@dataclass(frozen=True)
class CommitChange:
    """A commit that left the turn unresolved, kept as a small write of its own (with its log entries) rather than by
    saving the whole progress again: `player` committed at the game's `step`, and the log then ended at `seq`. A store
    keeps these until the game's next save, which holds them in its state; loading replays them (with_orders). Each is
    one change of the game (its number one past the one before)."""

    player: str
    step: int
    seq: int


def with_orders(
    game_id: str, progress: GameProgress, changes: Sequence[OrderChange], commits: Sequence[CommitChange] = ()
) -> GameProgress:
    """`progress` with the order changes kept since it was saved replayed onto its state's orders, in order, then the
    commits kept since (who has committed, and the log's last entry).

    Raises StorageError if a change does not fit the state (another turn, an index the orders do not have, a player
    who is not in the game or committed already): the store was damaged, and a game must not resume with orders its
    players did not give.
    """
    progress = _with_order_changes(game_id, progress, changes)
    if not commits:
        return progress
    state = progress.state
    if state is None:
        raise StorageError(f"game {game_id}: a commit is kept for a game that has not started")
    committed = list(state.get("committed") or [])
    step = state.get("step", state.get("turn"))
    seq = progress.seq
    for commit in commits:
        if commit.step != step:
            raise StorageError(f"game {game_id}: a commit kept for step {commit.step} while the game is at step {step}")
        if commit.player not in state.get("players", ()) or commit.player in committed:
            raise StorageError(f"game {game_id}: a kept commit of {commit.player} does not fit the game")
        if commit.seq <= seq:
            raise StorageError(f"game {game_id}: a kept commit ends the log at entry {commit.seq}, before {seq + 1}")
        committed.append(commit.player)
        seq = commit.seq
    number = None if progress.number is None else progress.number + len(commits)
    return progress.model_copy(
        update={"state": {**state, "committed": sorted(committed)}, "seq": seq, "number": number}
    )


def _with_order_changes(game_id: str, progress: GameProgress, changes: Sequence[OrderChange]) -> GameProgress:
    if not changes:
        return progress
    state = progress.state
    if state is None:
        raise StorageError(f"game {game_id}: orders are kept for a game that has not started")
    orders: dict[str, list[Any]] = {player: list(given) for player, given in state.get("orders", {}).items()}
    for change in changes:
        given = orders.setdefault(change.player, [])
        step = state.get("step", state.get("turn"))
        if change.step != step:
            raise StorageError(f"game {game_id}: an order kept for step {change.step} while the game is at step {step}")
        if change.order is not None and change.index == len(given):
            given.append(json.loads(change.order))
        elif change.order is None and 0 <= change.index < len(given):
            del given[change.index]
        else:
            raise StorageError(
                f"game {game_id}: a kept order change of {change.player} at index {change.index} "
                f"does not fit their {len(given)} orders"
            )
    return progress.model_copy(update={"state": {**state, "orders": orders}})


class StoredGame(BaseModel):
    record: GameRecord
    progress: GameProgress
    events: list[dict[str, Any]] = Field(
        description="the log's entries as stored: seq, event, and audience when private"
    )


@dataclass(frozen=True)
class StoredLog:
    """The last entries of a game's log as the store keeps them, a JSON array of entries, not yet read.

    A starting server restores many games whose clients mostly need none of the older entries: reading them into
    objects (validating every entry) is left until a client is to be caught up.
    """

    text: str = "[]"
    first_seq: int = 1
    count: int = 0

    @classmethod
    def of_texts(cls, first_seq: int, texts: Sequence[str]) -> StoredLog:
        """The log of consecutive entries `texts` (each a SequencedEvent as JSON), the first numbered `first_seq`."""
        return cls("[" + ",".join(texts) + "]", first_seq, len(texts))

    @classmethod
    def of(cls, events: Sequence[LogLine]) -> StoredLog:
        return cls.of_texts(events[0].seq if events else 1, [e.stored for e in events])

    def entries(self) -> list[dict[str, Any]]:
        """The entries as JSON values. Raises ValueError if the text is not this log's consecutive entries."""
        entries = json.loads(self.text)
        if not isinstance(entries, list) or not all(
            isinstance(e, dict) and isinstance(e.get("event"), dict) for e in entries
        ):
            raise ValueError("the stored log is not a list of entries")
        if [e.get("seq") for e in entries] != list(range(self.first_seq, self.first_seq + self.count)):
            raise ValueError(
                f"the stored log entries are not numbered {self.first_seq} to {self.first_seq + self.count - 1}"
            )
        return entries


RequestKey = tuple[str, str]
"""What a kept request is found by: the player it was made for and the client's request id."""


@dataclass(frozen=True)
class RequestRecord:
    """A request that changed a game, kept with the change so that the same request sent again (a client that lost
    the reply, or whose server died before answering) is answered again rather than carried out twice.

    `player` is the seat the request was made for (a join's: the name it took), and a request is kept under that
    player and the client's `request_id` together: two players' clients may choose the same id, and neither is ever
    given the other's answer. `step` is the game's step when it was carried out (a store may forget requests of
    steps long past: a retry comes within seconds); `reply` the acknowledgement as it was sent (its JSON text,
    without its `ref`)."""

    player: str
    request_id: str
    step: int
    reply: str

    @property
    def key(self) -> RequestKey:
        return (self.player, self.request_id)


@dataclass(frozen=True)
class RestoredGame:
    """An unfinished game as a starting server needs it: its record, its progress, the last part of its log.

    `map_key` names the map as played (see map_key): games with the same key were played on the same map, so a
    server builds that map once for all of them. The record's `game_map` dict may be shared among them: never change it.
    """

    record: GameRecord
    progress: GameProgress
    log: StoredLog
    map_key: str
    requests: dict[RequestKey, str] = field(default_factory=dict)
    """The replies to the requests kept with the game (RequestRecord), by player and request id."""


def map_text(game_map: dict[str, Any]) -> str:
    """A map as played, as canonical JSON text: the same map always gives the same text."""
    return json.dumps(game_map, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def map_key(text: str) -> str:
    """What a map is kept under, once however many games are played on it: the sha256 of its canonical text."""
    return hashlib.sha256(text.encode()).hexdigest()


def phase_column(progress: GameProgress) -> str:
    """What a database's phase column holds: only whether the game is finished is ever asked of it."""
    if progress.finished:
        return "finished"
    return "lobby" if progress.state is None else "playing"


def record_of(text: str, game_map: dict[str, Any]) -> GameRecord:
    """A game's record from its stored text and its map, kept apart since SQLite's schema version 3."""
    return GameRecord.model_validate({**json.loads(text), "game_map": game_map})


@dataclass(frozen=True)
class WholeSave:
    """A game's whole progress saved again (`Storage.save`): the progress, the log's new entries, and what is written
    in the same transaction (its summary, the request that made the change, notifications, a rated end)."""

    game_id: str
    progress: GameProgress
    events: Sequence[LogLine]
    summary: str | None = None
    request: RequestRecord | None = None
    notices: Sequence[Notice] = ()
    rated: RatedEnd | None = None


class StorageError(Exception):
    """The store could not keep a change: the match then refuses the change rather than act on it unsaved."""


class StorageUnavailable(StorageError):
    """The store failed as a whole (its database restarted, a connection dropped, the pool gave none in time): nothing
    is known to be wrong with any game, and the same request may succeed a moment later. Never a reason to set a game
    aside as damaged."""


def is_damage(game_id: str, exc: BaseException) -> bool:
    """Whether reading a game back failed because its own rows are damaged (set it aside), rather than because the
    store failed (try again later): rows that are not what they should be (ValueError), or a store's error naming
    the game."""
    if isinstance(exc, ValueError):
        return True
    return (
        isinstance(exc, StorageError)
        and not isinstance(exc, StorageUnavailable)
        and str(exc).startswith(f"game {game_id}")
    )


class OwnershipLost(StorageError):
    """A store shared by several nodes refused a change because this node no longer owns the game: another node
    claimed it (this one froze, or lost its link to the database). Nothing of the change was kept; the game must be
    let go here, and its clients sent to its owner."""

    def __init__(self, game_id: str, message: str) -> None:
        super().__init__(message)
        self.game_id = game_id


_PARTS = {"GameProgress": "saved progress", "GameRecord": "record", "GameState": "state", "GameMap": "map"}
"""What each stored model is to an operator reading why a game was set aside."""


def why_damaged(exc: BaseException) -> str:
    """One line saying why a stored game cannot be read back, for the log and for `risc games damaged`."""
    if isinstance(exc, ValidationError):
        errors = exc.errors(include_url=False)
        first = errors[0]
        where = ".".join(str(part) for part in first["loc"])
        more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
        what = _PARTS.get(exc.title, exc.title)
        found = first.get("input")
        shown = (
            f" (it holds {found!r})"
            if isinstance(found, str | int | float) and len(repr(found)) <= 40 and first["type"] != "json_invalid"
            else ""
        )
        return f"its {what} cannot be read: {where + ': ' if where else ''}{first['msg']}{shown}{more}"
    if isinstance(exc, StorageError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


class Storage(ABC):
    """A game store. Besides what the methods below keep, it knows which games a start set aside (`damaged`):
    unfinished games that could not be read back, each left in the store untouched, by game id with the reason."""

    def __init__(self) -> None:
        self.damaged: dict[str, str] = {}
        self.committed: Callable[[float], None] = _ignored
        """Told how long each write transaction took, in seconds (the server's figures); called from the store's
        writer, which may be a thread of its own."""

    def set_aside(self, game_id: str, why: BaseException | str) -> None:
        """Leave a game that cannot be restored where it is, untouched, and say so once: one damaged game must not
        keep a server, and so every other game, from starting."""
        text = why if isinstance(why, str) else why_damaged(why)
        text = text.removeprefix(f"game {game_id}: ")
        self.damaged[game_id] = text
        logger.error(
            "game %s set aside: %s. It stays in the store untouched, and the other games play on; "
            "`risc games damaged` lists such games",
            game_id,
            text,
        )

    shared = False
    """Whether other server processes (nodes) share this store: a game is then played only by the node that claimed
    it (server/cluster/node.py), and every write checks that this node still owns it (OwnershipLost)."""

    async def open(self) -> None:
        """Connect to what the store needs, and bring its schema up to date; stores that open as they are made
        (memory, SQLite) have nothing to do here."""
        return None

    async def ready(self) -> None:
        """Return once the store answers (raises StorageError when it does not): /readyz asks. A store in this
        process (memory, SQLite) always does."""
        return None

    @abstractmethod
    async def create(
        self, record: GameRecord, progress: GameProgress, events: Sequence[LogLine], *, summary: str | None = None
    ) -> None:
        """Keep a new game. Raises StorageError if its id exists. `summary`: the game's summary as JSON text, for a
        store that lists games to other nodes (a store that does not may ignore it)."""

    async def save(
        self,
        game_id: str,
        progress: GameProgress,
        events: Sequence[LogLine],
        *,
        summary: str | None = None,
        request: RequestRecord | None = None,
        notices: Sequence[Notice] = (),
        rated: RatedEnd | None = None,
    ) -> None:
        """Replace the game's progress (which holds every order so far) and append `events`, all or nothing, with
        the request that made the change (requests of steps before the game's step less one may be forgotten), the
        notifications it makes (into the outbox, server/storage/notices.py) and the ratings of `rated`, the game's
        end (server/storage/ratings.py): in the same transaction, once."""
        await self.save_whole(WholeSave(game_id, progress, events, summary, request, notices, rated))

    @abstractmethod
    async def save_whole(self, save: WholeSave) -> None:
        """`save`, as each store writes it: one signature for the contract, one value for the stores."""

    @abstractmethod
    async def save_order(self, game_id: str, change: OrderChange, request: RequestRecord | None = None) -> None:
        """Keep an issued or withdrawn order, the game's only change, without saving its whole progress again: the
        next `save` holds it in its state and drops it. Raises StorageError if the game does not exist."""

    async def save_orders(
        self, game_id: str, changes: Sequence[OrderChange], request: RequestRecord | None = None
    ) -> None:
        """Keep the orders of one batch (`issue_orders`) as `save_order` keeps one, all or nothing. This default
        writes them one by one (a store that can write them at once does so): a failure part way keeps the
        first ones, as the same orders sent one by one would have been kept."""
        for position, change in enumerate(changes):
            await self.save_order(game_id, change, request if position == len(changes) - 1 else None)

    @abstractmethod
    async def save_commit(
        self,
        game_id: str,
        commit: CommitChange,
        events: Sequence[LogLine],
        request: RequestRecord | None = None,
        orders: Sequence[OrderChange] = (),
    ) -> None:
        """Keep a commit that left the turn unresolved, the `orders` the same request issued before it (`issue_orders`
        with `commit`) and its `events`, all or nothing, without saving the game's whole progress again: the next
        `save` holds them in its state and drops them. Raises StorageError if the game does not exist."""

    @abstractmethod
    async def load(self, game_id: str, tail: int | None = None) -> StoredGame | None:
        """The game as last saved, with its whole log, or its last `tail` entries (what a running server needs)."""

    @abstractmethod
    async def restore(self, game_id: str, tail: int) -> RestoredGame | None:
        """One game as a server restores it (finished or not), with the last `tail` entries of its log and the
        requests kept with it; None if there is no such game. Raises StorageError (or ValueError) if its rows cannot
        be read: a node taking a game over from a shared store reads it this way."""

    @abstractmethod
    async def read_log(self, game_id: str, before: int, count: int) -> StoredLog:
        """Up to `count` entries of a game's log just before the entry at place `before` (the oldest a match keeps),
        as stored: what a match reads back when a client wants older entries than it restored (none if the game has
        none there)."""

    @abstractmethod
    async def load_unfinished(self, tail: int) -> list[RestoredGame]:
        """Every unfinished game, oldest first, each with the last `tail` entries of its log: what a starting server
        restores, read in one pass. A game that cannot be read (a damaged row) is left out and set aside."""

    @abstractmethod
    async def list_games(self, include_finished: bool = True) -> list[str]:
        """Every kept game's id, oldest first; without the finished ones unless `include_finished`."""

    @abstractmethod
    async def created_at(self, game_ids: Sequence[str]) -> dict[str, float]:
        """When each of these kept games was created (the time of day, in seconds), by id; unknown ids left out."""

    async def load_recent_finished(self, limit: int, tail: int) -> list[RestoredGame]:
        """The `limit` finished games created last that were played (not those closed before they started), oldest
        first, each with the last `tail` entries of its log: what a starting server lists again beside the unfinished
        ones, for their watchers and rematches. A game that cannot be read is left out. Made of `list_games` and
        `load`, so every store has it; a store may read them in one pass instead."""
        unfinished = set(await self.list_games(include_finished=False))
        found: list[RestoredGame] = []
        for game_id in reversed(await self.list_games()):
            if len(found) >= limit:
                break
            if game_id in unfinished:
                continue
            try:
                stored = await self.load(game_id, tail)
            except (ValueError, StorageError) as exc:
                logger.warning("finished game %s is not listed again: %s", game_id, why_damaged(exc))
                continue
            if stored is None or stored.progress.state is None:
                continue
            events = stored.events
            log = StoredLog(
                json.dumps(events, ensure_ascii=False, separators=(",", ":")),
                int(events[0]["seq"]) if events else 1,
                len(events),
            )
            found.append(RestoredGame(stored.record, stored.progress, log, map_key(map_text(stored.record.game_map))))
        return found[::-1]

    @abstractmethod
    def accounts(self) -> AccountStore:
        """The accounts kept beside this store's games, in the same database (server/storage/accounts.py)."""

    @abstractmethod
    def notices(self) -> NoticeStore:
        """Vacations, channels of notification and the outbox, in the same database (server/storage/notices.py)."""

    @abstractmethod
    def ratings(self) -> RatingStore:
        """The ratings kept beside this store's games, in the same database (server/storage/ratings.py)."""

    @abstractmethod
    def invitations(self) -> InvitationStore:
        """Challenges waiting for an answer, in the same database (server/storage/invitations.py)."""

    async def close(self) -> None:
        """Flush and let go of whatever the store holds open."""
        return None


def _ignored(_: float) -> None:
    return None
