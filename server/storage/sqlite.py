"""The default store: one SQLite file in the server's data directory, so games outlive the process.

Every save (the new progress and the new log entries together) is committed before `save` returns, and so before
the match acknowledges the change. The database runs in WAL mode with synchronous=FULL: a committed transaction is in
the write-ahead log on disk, so it survives the process being killed and the machine losing power.

Group commit: each commit costs an fsync, which under load took longer than all the rest of a change. So the saves
and creations of different games that arrive while a transaction is being written wait together, and the next one
writes all of them in one transaction (each in a savepoint of its own: a save that fails, fails alone and leaves
nothing of itself behind; an order kept as one row needs none, as SQLite carries out one statement whole or not at
all), with one fsync; then each is answered. If the transaction itself fails, every save in it
fails and none of them is kept; the saves of the next transaction are not affected.

The stdlib sqlite3 module blocks, so the transactions are written by one long-lived writer thread, handed each batch
through a queue and answering on the event loop (a trip through the thread pool for each transaction cost more
than the small writes themselves); reads, which are rare, run in a worker thread (asyncio.to_thread). A lock keeps
the one connection to one thread at a time. A file that is not a SQLite database, or is another application's, is
refused before anything is written to it. A writing store holds its directory (lock.py), so a second server on the
same directory is refused; a read-only one (`risc replay`) takes no lock and may read beside a running server.

A writing store writes once when it opens, so a file it cannot write is refused at start, and before each write
transaction it checks that its file and write-ahead log are still the ones it opened (docs/storage.md). Unfinished
games whose rows cannot be read are set aside, not the start of every other game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import sqlite3
import threading
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from server.clock import Clock, LoopClock, RunningLoop, timestamp
from server.storage.accounts import AccountStore, seats_of_accounts
from server.storage.base import (
    CommitChange,
    GameProgress,
    GameRecord,
    LogLine,
    OrderChange,
    RequestKey,
    RequestRecord,
    RestoredGame,
    Storage,
    StorageError,
    StoredGame,
    StoredLog,
    WholeSave,
    logger,
    map_key,
    map_text,
    phase_column,
    record_of,
    with_orders,
)
from server.storage.group_commit import Change, Finished, GroupCommit
from server.storage.invitations import InvitationStore
from server.storage.lock import DataDirLock, DirectoryLocked
from server.storage.notices import NoticeStore, outbox_row
from server.storage.ratings import RatingStore
from server.storage.sqlite_invitations import SqliteInvitations
from server.storage.sqlite_ratings import SqliteRatings, rate_in

APPLICATION_ID = 0x52495343
"""'RISC' in ASCII, kept in the file's header (PRAGMA application_id) so the server knows its own databases."""

DATABASE_NAME = "games.sqlite3"

_T = TypeVar("_T")


def _create_tables(db: sqlite3.Connection) -> None:
    """Version 1: each game's record and progress as JSON text, and its log one entry per row."""
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(
        "CREATE TABLE games (game_id TEXT PRIMARY KEY, created_at REAL NOT NULL, record TEXT NOT NULL, "
        "progress TEXT NOT NULL)"
    )
    db.execute(
        "CREATE TABLE events (game_id TEXT NOT NULL REFERENCES games(game_id), seq INTEGER NOT NULL, "
        "body TEXT NOT NULL, PRIMARY KEY (game_id, seq)) WITHOUT ROWID"
    )


def _add_phase(db: sqlite3.Connection) -> None:
    """Version 2: each game's phase in a column of its own, so a starting server lists unfinished games unread."""
    db.execute("ALTER TABLE games ADD COLUMN phase TEXT NOT NULL DEFAULT 'lobby'")
    db.execute("UPDATE games SET phase = coalesce(json_extract(progress, '$.state.phase'), 'lobby')")
    db.execute("CREATE INDEX games_by_phase ON games (phase)")


def _keep_maps_once(db: sqlite3.Connection) -> None:
    """Version 3: each map as played kept once in `maps`, under its key (base.map_key), instead of in the record of
    every game played on it, so a starting server reads and builds it once."""
    db.execute("CREATE TABLE maps (map_key TEXT PRIMARY KEY, body TEXT NOT NULL)")
    db.execute("ALTER TABLE games ADD COLUMN map_key TEXT NOT NULL DEFAULT ''")
    for game_id, record_text in db.execute("SELECT game_id, record FROM games").fetchall():
        record = json.loads(record_text)
        body = map_text(record.pop("game_map"))
        key = map_key(body)
        db.execute("INSERT OR IGNORE INTO maps (map_key, body) VALUES (?, ?)", (key, body))
        db.execute("UPDATE games SET record = ?, map_key = ? WHERE game_id = ?", (json.dumps(record), key, game_id))


def _keep_orders_apart(db: sqlite3.Connection) -> None:
    """Version 4: each issued or withdrawn order a small row of `pending_orders` (in the order they came, by rowid)
    instead of the game's whole progress saved again; the game's next save holds them and deletes its rows. Its
    `turn` column holds the game's step (which was its turn while RISC was the only game)."""
    db.execute(
        "CREATE TABLE pending_orders (game_id TEXT NOT NULL REFERENCES games(game_id), player TEXT NOT NULL, "
        "turn INTEGER NOT NULL, position INTEGER NOT NULL, body TEXT)"
    )
    db.execute("CREATE INDEX pending_orders_by_game ON pending_orders (game_id)")


def _keep_commits_apart(db: sqlite3.Connection) -> None:
    """Version 5: each commit that left its turn unresolved a small row of `pending_commits` (the player, the game's
    step, and the log's last entry with the commit's), its log entries saved as ever, instead of the game's whole
    progress saved again; the game's next save holds them and deletes its rows."""
    db.execute(
        "CREATE TABLE pending_commits (game_id TEXT NOT NULL REFERENCES games(game_id), "
        "player TEXT NOT NULL, step INTEGER NOT NULL, seq INTEGER NOT NULL)"
    )
    db.execute("CREATE INDEX pending_commits_by_game ON pending_commits (game_id)")


def _keep_requests(db: sqlite3.Connection) -> None:
    """Version 6: the requests that changed each game (the client's request id, the game's step, the reply sent),
    written with the change they made, so that a request sent again after a lost reply is answered, not carried out
    twice; a game's whole save forgets those of steps long past."""
    db.execute(
        "CREATE TABLE requests (game_id TEXT NOT NULL REFERENCES games(game_id), request_id TEXT NOT NULL, "
        "step INTEGER NOT NULL, reply TEXT NOT NULL, PRIMARY KEY (game_id, request_id)) WITHOUT ROWID"
    )


def _keep_accounts(db: sqlite3.Connection) -> None:
    """Version 7: accounts, their sessions and failed sign-ins (server/storage/accounts.py), the games each account
    sits in, and each game's summary as last saved (what an account's home lists of a game this server does not
    hold in memory)."""
    db.execute(
        "CREATE TABLE accounts (account_id TEXT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE, "
        "password_hash TEXT NOT NULL, created_at REAL NOT NULL, disabled INTEGER NOT NULL DEFAULT 0, "
        "deleted INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID"
    )
    db.execute(
        "CREATE TABLE sessions (token_hash TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES "
        "accounts(account_id), created_at REAL NOT NULL, last_used_at REAL NOT NULL, expires_at REAL NOT NULL, "
        "client TEXT, ended_at REAL) WITHOUT ROWID"
    )
    db.execute("CREATE INDEX sessions_by_account ON sessions (account_id)")
    db.execute("CREATE INDEX sessions_ended ON sessions (ended_at) WHERE ended_at IS NOT NULL")
    db.execute(
        "CREATE TABLE signin_failures (name_key TEXT PRIMARY KEY, failures INTEGER NOT NULL, "
        "locked_until REAL NOT NULL) WITHOUT ROWID"
    )
    db.execute(
        "CREATE TABLE account_games (account_id TEXT NOT NULL, game_id TEXT NOT NULL REFERENCES games(game_id), "
        "player TEXT NOT NULL, PRIMARY KEY (account_id, game_id)) WITHOUT ROWID"
    )
    db.execute("ALTER TABLE games ADD COLUMN summary TEXT")


def _requests_by_player(db: sqlite3.Connection) -> None:
    """Version 8: a request kept under the player it was made for as well as its id, so that two players' clients that
    chose the same id are never given each other's answers. A kept join names its player in its reply; the other
    requests kept before (of the game's last two steps at most) cannot say whose they were, and are forgotten."""
    db.execute("ALTER TABLE requests RENAME TO requests_by_id")
    db.execute(
        "CREATE TABLE requests (game_id TEXT NOT NULL REFERENCES games(game_id), player TEXT NOT NULL, "
        "request_id TEXT NOT NULL, step INTEGER NOT NULL, reply TEXT NOT NULL, "
        "PRIMARY KEY (game_id, player, request_id)) WITHOUT ROWID"
    )
    db.execute(
        "INSERT INTO requests (game_id, player, request_id, step, reply) "
        "SELECT game_id, json_extract(reply, '$.player'), request_id, step, reply FROM requests_by_id "
        "WHERE json_extract(reply, '$.type') = 'joined' AND json_extract(reply, '$.player') IS NOT NULL"
    )
    db.execute("DROP TABLE requests_by_id")


def _keep_notices(db: sqlite3.Connection) -> None:
    """Version 9: accounts' vacations, each account's channels of notification, and the outbox of notifications to
    send, written with the change that makes them (server/storage/notices.py). Additive: a server of the release
    before never reads them."""
    db.execute(
        "CREATE TABLE vacations (account_id TEXT NOT NULL, starts_at REAL NOT NULL, ends_at REAL NOT NULL, "
        "changed_at REAL NOT NULL)"
    )
    db.execute("CREATE INDEX vacations_by_account ON vacations (account_id, starts_at)")
    db.execute("CREATE INDEX vacations_changed ON vacations (changed_at)")
    db.execute(
        "CREATE TABLE notify_channels (account_id TEXT PRIMARY KEY, body TEXT NOT NULL, "
        "unsubscribe_key TEXT NOT NULL) WITHOUT ROWID"
    )
    db.execute("CREATE INDEX notify_channels_by_key ON notify_channels (unsubscribe_key)")
    db.execute(
        "CREATE TABLE outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, account_id TEXT NOT NULL, kind TEXT NOT NULL, "
        "game_id TEXT, body TEXT NOT NULL, created_at REAL NOT NULL, mail_due REAL, hook_due REAL, "
        "mail_tries INTEGER NOT NULL DEFAULT 0, hook_tries INTEGER NOT NULL DEFAULT 0, claimed_by TEXT, "
        "claimed_until REAL)"
    )
    db.execute("CREATE INDEX outbox_by_account ON outbox (account_id)")


def _keep_ratings(db: sqlite3.Connection) -> None:
    """Version 10: ratings (server/storage/ratings.py): each holder's skill by rule set, each rated game's changes by
    player, and the rated games themselves, keyed by game so that a game is rated once. Additive: a server of the
    release before never reads or writes them."""
    db.execute(
        "CREATE TABLE ratings (holder TEXT NOT NULL, ruleset TEXT NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL, "
        "games INTEGER NOT NULL, wins INTEGER NOT NULL, last_at REAL NOT NULL, PRIMARY KEY (holder, ruleset)) "
        "WITHOUT ROWID"
    )
    db.execute("CREATE INDEX ratings_by_ruleset ON ratings (ruleset, last_at)")
    db.execute(
        "CREATE TABLE rated_games (game_id TEXT PRIMARY KEY REFERENCES games(game_id), ruleset TEXT NOT NULL, "
        "rated_at REAL NOT NULL) WITHOUT ROWID"
    )
    db.execute(
        "CREATE TABLE rating_changes (game_id TEXT NOT NULL REFERENCES rated_games(game_id), holder TEXT NOT NULL, "
        "ruleset TEXT NOT NULL, player TEXT NOT NULL, place INTEGER NOT NULL, players INTEGER NOT NULL, "
        "won INTEGER NOT NULL, mu_before REAL NOT NULL, sigma_before REAL NOT NULL, mu_after REAL NOT NULL, "
        "sigma_after REAL NOT NULL, at REAL NOT NULL, PRIMARY KEY (game_id, holder)) WITHOUT ROWID"
    )
    db.execute("CREATE INDEX rating_changes_by_holder ON rating_changes (holder, at)")


def _keep_invitations(db: sqlite3.Connection) -> None:
    """Version 11: challenges waiting for an answer (server/storage/invitations.py), which lived in the server's
    memory alone before and went with a restart. Additive: a server of the release before never reads it."""
    db.execute(
        "CREATE TABLE invitations (game_id TEXT NOT NULL, account_id TEXT NOT NULL, by_name TEXT NOT NULL, "
        "PRIMARY KEY (game_id, account_id)) WITHOUT ROWID"
    )
    db.execute("CREATE INDEX invitations_by_account ON invitations (account_id)")


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [
    _create_tables,
    _add_phase,
    _keep_maps_once,
    _keep_orders_apart,
    _keep_commits_apart,
    _keep_requests,
    _keep_accounts,
    _requests_by_player,
    _keep_notices,
    _keep_ratings,
    _keep_invitations,
]
"""Migration i takes a database from schema version i to i + 1 (PRAGMA user_version). Only ever append."""

SCHEMA_VERSION = len(MIGRATIONS)

COMMITS_KEPT_FROM = 5
"""The schema version that added `pending_commits`. A database of the version before is also read as it is, without
upgrading it (`risc replay` beside an older server): it only lacks that table, whose rows it cannot have."""

REQUESTS_KEPT_FROM = 6
"""The schema version that added `requests`; a database of the versions before is read as it is, likewise."""

ACCOUNTS_KEPT_FROM = 7
"""The schema version that added accounts and games' summaries; a database of the version before is read as it is
(it has no account, and no game of an account)."""

REQUESTS_BY_PLAYER_FROM = 8
"""The schema version that keeps each request under its player: a read-only store reads the requests of no older
one (it answers no request, and those kept before say nobody's)."""

NOTICES_KEPT_FROM = 9
"""The schema version that added vacations, channels and the outbox; the version before is read as it is."""
RATINGS_KEPT_FROM = 10
INVITATIONS_KEPT_FROM = 11
"""The schema version that added the invitations; a read-only store reads one of a version before as having none."""
"""The schema version that added ratings; a read-only store reads a database of the version before as having none."""

READABLE_VERSIONS = (
    COMMITS_KEPT_FROM - 1,
    COMMITS_KEPT_FROM,
    REQUESTS_KEPT_FROM,
    ACCOUNTS_KEPT_FROM,
    REQUESTS_BY_PLAYER_FROM,
    SCHEMA_VERSION,
)
"""The schema versions a read-only store reads without upgrading them."""


def keep_outbox(db: sqlite3.Connection, rows: Sequence[tuple[str, str, str | None, str, float, float, float]]) -> None:
    """Notifications into the outbox, in the transaction of the change that makes them (a game's save; a challenge
    made elsewhere calls it in its own: `keep_outbox(db, [outbox_row(notice)])`)."""
    if rows:
        db.executemany(
            "INSERT INTO outbox (account_id, kind, game_id, body, created_at, mail_due, hook_due) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            rows,
        )


def check_database(path: Path) -> int:
    """The schema version of the RISC database at `path` (0 for a new or empty file), read without writing.

    Raises StorageError naming the problem if the file is damaged, another application's, or from a newer release.
    """
    if not path.exists() or path.stat().st_size == 0:
        return 0
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise StorageError(f"cannot open the game database {path}: {exc}") from None
    try:
        application_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    except sqlite3.DatabaseError as exc:
        raise StorageError(
            f"{path} is not a RISC game database (SQLite says: {exc}); it was left as it is — "
            "move it away or choose another --data-dir"
        ) from None
    finally:
        db.close()
    if application_id == 0 and version == 0 and not tables:
        return 0
    if application_id != APPLICATION_ID:
        shown = ", ".join(tables[:5]) or "none"
        raise StorageError(
            f"{path} is a SQLite database of another application (tables: {shown}); it was left as "
            "it is — move it away or choose another --data-dir"
        )
    if version > SCHEMA_VERSION:
        raise StorageError(
            f"{path} was written by a newer release of RISC (schema version {version}; this one "
            f"reads up to {SCHEMA_VERSION}); it was left as it is"
        )
    return int(version)


def _insert_orders(db: sqlite3.Connection, game_id: str, changes: Sequence[OrderChange]) -> None:
    """Orders issued or withdrawn since the game's last whole save (an issue_orders', or those a whole turn commits
    with), kept apart until the next."""
    db.executemany(
        "INSERT INTO pending_orders (game_id, player, turn, position, body) VALUES (?, ?, ?, ?, ?)",
        [(game_id, c.player, c.step, c.index, c.order) for c in changes],
    )


def _keep_request(db: sqlite3.Connection, game_id: str, request: RequestRecord | None) -> None:
    """Keep the request that made a change, in the change's own transaction."""
    if request is None:
        return
    try:
        db.execute(
            "INSERT INTO requests (game_id, player, request_id, step, reply) VALUES (?, ?, ?, ?, ?)",
            (game_id, request.player, request.request_id, request.step, request.reply),
        )
    except sqlite3.IntegrityError:
        raise StorageError(f"game {game_id}: request {request.request_id} was carried out already") from None


def _seated(game_id: str, progress: GameProgress) -> list[tuple[str, str, str]]:
    """(account id, game id, seat name) of each seat an account holds: what `account_games` keeps of a save."""
    return [(account, game_id, player) for account, player in seats_of_accounts(progress.seats)]


def _keep_seated(db: sqlite3.Connection, seated: list[tuple[str, str, str]]) -> None:
    if seated:
        db.executemany("INSERT OR IGNORE INTO account_games (account_id, game_id, player) VALUES (?, ?, ?)", seated)


class _Work(NamedTuple):
    """One save or creation, as the writer thread carries it out in a transaction."""

    run: Callable[[sqlite3.Connection], None]
    one_statement: bool
    """The work is one statement, which SQLite carries out whole or not at all: it needs no savepoint."""


_Batch = tuple[list[Change[_Work]], asyncio.AbstractEventLoop, Finished]
"""A batch handed to the writer thread: its changes, and whom to answer on which event loop."""


class SqliteStorage(Storage):
    def __init__(
        self,
        path: Path,
        *,
        read_only: bool = False,
        busy_timeout: float = 5.0,
        beside_server: bool = False,
        clock: Clock | None = None,
    ) -> None:
        """Open (creating, upgrading) the database at `path`, holding its directory against other servers; or only
        read it, `read_only`, beside a running server; or, `beside_server`, write a few rows beside a running server
        that holds the directory (an operator's `risc accounts disable`), on a database of this release's schema.
        `busy_timeout`: how many seconds to wait for another process that holds the database's write lock. `clock`:
        the server's, whose time of day names a rescued copy."""
        super().__init__()
        self.path = path
        self.clock: Clock = clock or LoopClock()
        self._running = RunningLoop()
        self._dir_lock: DataDirLock | None = None
        self._opened: tuple[tuple[int, int] | None, tuple[int, int] | None] | None = None
        """The identity of the files a writing store opened (see _identity); None for a read-only store."""
        version = check_database(path)
        self._keeps_commits = version >= COMMITS_KEPT_FROM or not read_only
        """Whether the database has `pending_commits`: one of the version before, read as it is, has none to hold."""
        self._keeps_requests = version >= REQUESTS_BY_PLAYER_FROM or not read_only
        self._keeps_ratings = version >= RATINGS_KEPT_FROM or not read_only
        self._keeps_invitations = version >= INVITATIONS_KEPT_FROM or not read_only
        if read_only:
            if version not in READABLE_VERSIONS:
                raise StorageError(
                    f"{path} holds no games of this release (schema version {version}, this "
                    f"release writes {SCHEMA_VERSION}): start the server on it once to upgrade it"
                )
            self._db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
        elif beside_server:
            if version != SCHEMA_VERSION:
                raise StorageError(
                    f"{path} is not at this release's schema (version {version}, this release writes "
                    f"{SCHEMA_VERSION}): start the server of this release on it once"
                )
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                self._dir_lock = DataDirLock(path.parent)
            except DirectoryLocked as exc:
                raise StorageError(str(exc)) from None
            try:
                self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
                self._db.execute("PRAGMA journal_mode = WAL")
                self._db.execute("PRAGMA synchronous = FULL")
                self._migrate(version)
                self._prove_writable()
            except sqlite3.Error as exc:
                with contextlib.suppress(AttributeError, sqlite3.Error):
                    self._db.close()
                self._dir_lock.release()
                raise StorageError(
                    f"the game database {path} cannot be written (SQLite says: {exc}): the user "
                    f"running the server must be able to write it and its directory "
                    f"{path.parent}, on a disk with room; or choose another --data-dir"
                ) from None
            except BaseException:
                self._dir_lock.release()
                raise
            self._opened = self._identity()
        self._db.execute(f"PRAGMA busy_timeout = {round(busy_timeout * 1000)}")
        self._lock = threading.Lock()
        self._batches: queue.SimpleQueue[_Batch | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._group = GroupCommit(
            self._commit_in_thread,
            alone_after_failure=False,
            failure=self._failure,
            committed=lambda seconds: self.committed(seconds),  # the server's metrics set it once the store is open
        )
        """Savepoints keep a failed change apart within its transaction: a transaction that fails fails them all."""
        self._closing = False
        self._detached: str | None = None
        """Why changes are refused, once the database was found deleted or replaced (see _check_still_there)."""

    @property
    def transactions(self) -> int:
        """Write transactions committed (each one fsync): fewer than the saves when saves come together."""
        return self._group.transactions

    def _prove_writable(self) -> None:
        """Write once at start, so that a store the server cannot write (a read-only file or directory, a full
        disk) is refused at once rather than failing every change later. Also brings the write-ahead log into
        being, whose identity is then kept (see _identity)."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    @property
    def _wal(self) -> Path:
        return self.path.with_name(self.path.name + "-wal")

    def _identity(self) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
        """(device, inode) of the database file and of its write-ahead log, None for a file that is not there: two
        stat calls, cheap beside the fsync of every transaction."""

        def of(path: Path) -> tuple[int, int] | None:
            try:
                found = os.stat(path)
            except FileNotFoundError:
                return None
            return found.st_dev, found.st_ino

        return of(self.path), of(self._wal)

    def _check_still_there(self) -> None:
        """Before each write transaction (in the writer thread): the files this store opened must still be the ones
        at its path. A database deleted or replaced while the server runs (or its write-ahead log deleted) would
        take every change acknowledged from then on with it at the next start, so from the first time this is
        seen every change is refused: the error is logged once, with what the operator should do."""
        if self._detached is not None:
            raise StorageError(self._detached)
        now, opened = self._identity(), self._opened
        if now == opened or opened is None:
            return
        if now[0] is None:
            what = f"the game database {self.path} was deleted while the server ran"
        elif now[0] != opened[0]:
            what = f"the game database {self.path} was deleted or replaced by another file while the server ran"
        else:
            what = f"the write-ahead log {self._wal} of the game database was deleted or replaced while the server ran"
        self._detached = f"{what}: changes are refused until the server is restarted"
        rescued, failure = self._rescue()
        if rescued is not None:
            keep = (
                f"The games as last acknowledged were copied to {rescued}: stop the server, then move that copy "
                f"to {self.path} (putting aside any file there now, with its -wal and -shm files) and start it "
                "again."
            )
        else:
            keep = (
                f"Copying the games elsewhere failed too ({failure}): they end with the server process, as "
                "they were last acknowledged. Restore the latest backup (docs/storage.md)."
            )
        logger.error(
            "%s, so no change made from now on could be kept: every change is refused (storage-failed) "
            "until the server is restarted. %s",
            what,
            keep,
        )
        raise StorageError(self._detached)

    def _rescue(self) -> tuple[Path | None, Exception | None]:
        """A copy of the games as this store's open connection still sees them, beside where the database was."""
        target = self.path.with_name(f"{self.path.name}.rescued-{timestamp(self.clock)}")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with contextlib.closing(sqlite3.connect(target, isolation_level=None)) as copy:
                self._db.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")
        except (sqlite3.Error, OSError) as exc:
            return None, exc
        return target, None

    def _migrate(self, version: int) -> None:
        for step in range(version, SCHEMA_VERSION):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                MIGRATIONS[step](self._db)
                self._db.execute(f"PRAGMA user_version = {step + 1}")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    @property
    def schema_version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    async def _run(self, work: Callable[[], _T]) -> _T:
        def locked() -> _T:
            with self._lock:
                return work()

        return await asyncio.to_thread(locked)

    def _write(self, work: Callable[[sqlite3.Connection], None], one_statement: bool = False) -> Awaitable[None]:
        """Run `work` in the next transaction (group_commit.py); done once that transaction is committed (the
        group's own future: no coroutine on the path of every change). `work` may run twice: when another change of
        its transaction fails, the transaction is undone and written again, each change in a savepoint of its own
        unless it is `one_statement` (`_commit`). So what it hands back it assigns, never adds to.

        Raises StorageError if `work` failed (nothing of it is kept) or the transaction failed (nothing of it is).
        """
        if self._closing:
            raise StorageError(f"the game database {self.path} is closed")
        if self._detached is not None:
            raise StorageError(self._detached)
        return self._group.write(_Work(work, one_statement))

    def _failure(self, exc: Exception) -> StorageError:
        return StorageError(f"the game database {self.path} failed: {exc}")

    def _commit_in_thread(self, batch: list[Change[_Work]], finished: Finished) -> None:
        """Hand a batch to the writer thread, which answers `finished` on this event loop once it is written."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._write_batches, name="risc-sqlite-writer", daemon=True)
            self._thread.start()
        self._batches.put((batch, self._running.get(), finished))

    def _write_batches(self) -> None:
        """The writer thread: commit each batch handed to it, then answer it on its event loop; stop at None."""
        while (item := self._batches.get()) is not None:
            batch, loop, finished = item
            outcome: bool | Exception
            try:
                with self._lock:
                    outcome = self._commit(batch)
            except Exception as exc:  # the transaction failed: so did every change in it
                outcome = exc
            with contextlib.suppress(RuntimeError):  # if that loop is closed, nobody waits for the answer
                loop.call_soon_threadsafe(finished, outcome)

    def _commit(self, batch: list[Change[_Work]]) -> bool:
        """Write a batch in one transaction (in the writer thread); whether the transaction was committed (a change
        alone that failed leaves none). Its changes are written one after the other; only if one of them fails is
        the transaction undone and the batch written again, each change in a savepoint of its own, so that the one
        that failed fails alone (a savepoint and its release for every change were a third of the statements)."""
        if self._opened is not None:
            self._check_still_there()
        if len(batch) > 1 and self._commit_unguarded(batch):
            return True
        return self._commit_guarded(batch)

    def _commit_unguarded(self, batch: list[Change[_Work]]) -> bool:
        """The batch in one transaction without savepoints: False (nothing kept) if a change failed."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            for change in batch:
                change.work.run(db)
        except (sqlite3.Error, StorageError):
            if db.in_transaction:
                db.execute("ROLLBACK")
            return False
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        try:
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return True

    def _commit_guarded(self, batch: list[Change[_Work]]) -> bool:
        """The batch in one transaction, each change in a savepoint of its own: one that fails leaves the others."""
        db = self._db
        alone = len(batch) == 1  # a change alone needs no savepoint: if it fails, its transaction is undone
        db.execute("BEGIN IMMEDIATE")
        try:
            for change in batch:
                savepoint = not alone and not change.work.one_statement
                if savepoint:
                    db.execute("SAVEPOINT change")
                try:
                    change.work.run(db)
                except (sqlite3.Error, StorageError) as exc:
                    if savepoint:
                        db.execute("ROLLBACK TO change")
                    elif alone or not db.in_transaction:
                        # Alone, its transaction is undone; a failed statement may also have undone the whole
                        # transaction (a full disk): then every change of the batch fails with it.
                        if db.in_transaction:
                            db.execute("ROLLBACK")
                        if not alone:
                            raise
                    change.error = exc if isinstance(exc, StorageError) else self._failure(exc)
                if savepoint:
                    db.execute("RELEASE change")
            if not db.in_transaction:
                return False
            db.execute("COMMIT")
            return True
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    async def create(
        self, record: GameRecord, progress: GameProgress, events: Sequence[LogLine], *, summary: str | None = None
    ) -> None:
        game_map = map_text(record.game_map)
        key = map_key(game_map)
        row = (
            record.game_id,
            record.created_at,
            record.model_dump_json(exclude={"game_map"}),
            progress.model_dump_json(),
            phase_column(progress),
            key,
        )
        bodies = [(record.game_id, e.seq, e.stored) for e in events]
        seated = _seated(record.game_id, progress)

        def insert(db: sqlite3.Connection) -> None:
            try:
                db.execute(
                    "INSERT INTO games (game_id, created_at, record, progress, phase, map_key, summary) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (*row, summary),
                )
            except sqlite3.IntegrityError:
                raise StorageError(f"game {record.game_id} exists already") from None
            db.execute("INSERT OR IGNORE INTO maps (map_key, body) VALUES (?, ?)", (key, game_map))
            db.executemany("INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)", bodies)
            _keep_seated(db, seated)

        await self._write(insert)

    async def save_whole(self, save: WholeSave) -> None:
        game_id, progress, events = save.game_id, save.progress, save.events
        row = (progress.model_dump_json(), phase_column(progress), save.summary, game_id)  # encoded before any change
        outbox = [outbox_row(n) for n in save.notices]
        request, rated = save.request, save.rated
        bodies = [(game_id, e.seq, e.stored) for e in events]
        step = progress.step
        seated = _seated(game_id, progress)

        def update(db: sqlite3.Connection) -> None:
            if (
                db.execute(
                    "UPDATE games SET progress = ?, phase = ?, summary = coalesce(?, summary) WHERE game_id = ?", row
                ).rowcount
                != 1
            ):
                raise StorageError(f"no game {game_id} to save")
            _keep_seated(db, seated)
            db.executemany("INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)", bodies)
            db.execute("DELETE FROM pending_orders WHERE game_id = ?", (game_id,))  # the progress holds them now
            db.execute("DELETE FROM pending_commits WHERE game_id = ?", (game_id,))
            if step is not None:
                db.execute("DELETE FROM requests WHERE game_id = ? AND step < ?", (game_id, step - 1))
            _keep_request(db, game_id, request)
            keep_outbox(db, outbox)
            if rated is not None:
                rate_in(db, rated)

        await self._write(update)

    async def save_commit(
        self,
        game_id: str,
        commit: CommitChange,
        events: Sequence[LogLine],
        request: RequestRecord | None = None,
        orders: Sequence[OrderChange] = (),
    ) -> None:
        row = (game_id, commit.player, commit.step, commit.seq, game_id)
        bodies = [(game_id, e.seq, e.stored) for e in events]

        def insert(db: sqlite3.Connection) -> None:
            if (
                db.execute(
                    "INSERT INTO pending_commits (game_id, player, step, seq) "
                    "SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM games WHERE game_id = ?)",
                    row,
                ).rowcount
                != 1
            ):
                raise StorageError(f"no game {game_id} to save")
            _insert_orders(db, game_id, orders)
            db.executemany("INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)", bodies)
            _keep_request(db, game_id, request)

        await self._write(insert)

    async def save_order(self, game_id: str, change: OrderChange, request: RequestRecord | None = None) -> None:
        row = (game_id, change.player, change.step, change.index, change.order, game_id)

        def insert(db: sqlite3.Connection) -> None:
            if (
                db.execute(
                    "INSERT INTO pending_orders (game_id, player, turn, position, body) "
                    "SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM games WHERE game_id = ?)",
                    row,
                ).rowcount
                != 1
            ):
                raise StorageError(f"no game {game_id} to save")
            _keep_request(db, game_id, request)

        await self._write(insert, one_statement=request is None)

    async def save_orders(
        self, game_id: str, changes: Sequence[OrderChange], request: RequestRecord | None = None
    ) -> None:

        def insert(db: sqlite3.Connection) -> None:
            if db.execute("SELECT 1 FROM games WHERE game_id = ?", (game_id,)).fetchone() is None:
                raise StorageError(f"no game {game_id} to save")
            _insert_orders(db, game_id, changes)
            _keep_request(db, game_id, request)

        await self._write(insert)

    async def load(self, game_id: str, tail: int | None = None) -> StoredGame | None:
        def read() -> StoredGame | None:
            row = self._db.execute(
                "SELECT record, progress, body FROM games JOIN maps USING (map_key) WHERE game_id = ?", (game_id,)
            ).fetchone()
            if row is None:
                return None
            return StoredGame(
                record=record_of(row[0], json.loads(row[2])),
                progress=self._progress_of(game_id, row[1]),
                events=self._log(game_id, tail).entries(),
            )

        return await self._guarded(read)

    async def restore(self, game_id: str, tail: int) -> RestoredGame | None:
        def read() -> RestoredGame | None:
            row = self._db.execute(
                "SELECT record, progress, map_key, body FROM games JOIN maps USING (map_key) WHERE game_id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            record, progress, key, game_map = row
            return RestoredGame(
                record=record_of(record, json.loads(game_map)),
                progress=self._progress_of(game_id, progress),
                log=self._log(game_id, tail),
                map_key=key,
                requests=self._requests_of(game_id),
            )

        return await self._guarded(read)

    def _progress_of(self, game_id: str, text: str) -> GameProgress:
        """A game's stored progress with the orders and commits kept since its last whole save."""
        changes = [
            OrderChange(*change)
            for change in self._db.execute(
                "SELECT player, turn, position, body FROM pending_orders WHERE game_id = ? ORDER BY rowid", (game_id,)
            )
        ]
        commits = (
            [
                CommitChange(*commit)
                for commit in self._db.execute(
                    "SELECT player, step, seq FROM pending_commits WHERE game_id = ? ORDER BY rowid", (game_id,)
                )
            ]
            if self._keeps_commits
            else []
        )
        return with_orders(game_id, GameProgress.model_validate_json(text), changes, commits)

    def _requests_of(self, game_id: str) -> dict[RequestKey, str]:
        if not self._keeps_requests:
            return {}
        rows = self._db.execute("SELECT player, request_id, reply FROM requests WHERE game_id = ?", (game_id,))
        return {(player, request_id): reply for player, request_id, reply in rows}

    async def load_unfinished(self, tail: int) -> list[RestoredGame]:
        def read() -> tuple[list[RestoredGame], dict[str, BaseException]]:
            self._db.execute("BEGIN")  # one snapshot of every game
            try:
                rows = self._db.execute(
                    "SELECT game_id, record, progress, map_key FROM games "
                    "WHERE phase != 'finished' ORDER BY created_at, rowid"
                ).fetchall()
                map_bodies = dict(
                    self._db.execute(
                        "SELECT map_key, body FROM maps WHERE map_key IN "
                        "(SELECT map_key FROM games WHERE phase != 'finished')"
                    ).fetchall()
                )
                changes: dict[str, list[OrderChange]] = {}
                for game_id, *change in self._db.execute(
                    "SELECT game_id, player, turn, position, body FROM pending_orders ORDER BY rowid"
                ):
                    changes.setdefault(game_id, []).append(OrderChange(*change))
                commits: dict[str, list[CommitChange]] = {}
                kept = (
                    self._db.execute("SELECT game_id, player, step, seq FROM pending_commits ORDER BY rowid")
                    if self._keeps_commits
                    else ()
                )
                for game_id, *commit in kept:
                    commits.setdefault(game_id, []).append(CommitChange(*commit))
                maps: dict[str, dict[str, Any]] = {}
                games: list[RestoredGame] = []
                damaged: dict[str, BaseException] = {}
                for game_id, record, progress, key in rows:
                    try:  # a damaged row sets its game aside, not the start of every other game
                        if key not in maps:
                            if key not in map_bodies:
                                raise StorageError(f"its map (kept under {key[:16]}) is missing from the maps table")
                            maps[key] = json.loads(map_bodies[key])
                        games.append(
                            RestoredGame(
                                record=record_of(record, maps[key]),
                                progress=with_orders(
                                    game_id,
                                    GameProgress.model_validate_json(progress),
                                    changes.get(game_id, ()),
                                    commits.get(game_id, ()),
                                ),
                                log=self._log(game_id, tail),
                                map_key=key,
                                requests=self._requests_of(game_id),
                            )
                        )
                    except (ValueError, StorageError) as exc:  # ValidationError and JSONDecodeError are ValueErrors
                        damaged[game_id] = exc
                return games, damaged
            finally:
                self._db.execute("COMMIT")

        games, damaged = await self._guarded(read)
        for game_id, exc in damaged.items():
            self.set_aside(game_id, exc)
        return games

    async def read_log(self, game_id: str, before: int, count: int) -> StoredLog:
        def read() -> StoredLog:
            rows = self._db.execute(
                "SELECT seq, body FROM events WHERE game_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
                (game_id, before, max(count, 0)),
            ).fetchall()
            rows.reverse()
            return StoredLog.of_texts(rows[0][0] if rows else 1, [body for _, body in rows])

        return await self._guarded(read)

    def _log(self, game_id: str, tail: int | None) -> StoredLog:
        """The game's whole log, or its last `tail` entries, as stored."""
        if tail is None:
            rows = self._db.execute(
                "SELECT seq, body FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        else:
            rows = self._db.execute(
                "SELECT seq, body FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT ?", (game_id, max(tail, 0))
            ).fetchall()
            rows.reverse()
        return StoredLog.of_texts(rows[0][0] if rows else 1, [body for _, body in rows])

    async def list_games(self, include_finished: bool = True) -> list[str]:
        query = "SELECT game_id FROM games" + ("" if include_finished else " WHERE phase != 'finished'")
        return await self._guarded(lambda: [g for (g,) in self._db.execute(query + " ORDER BY created_at, rowid")])

    async def created_at(self, game_ids: Sequence[str]) -> dict[str, float]:
        wanted = list(game_ids)
        marks = ",".join("?" * len(wanted))
        query = f"SELECT game_id, created_at FROM games WHERE game_id IN ({marks})"
        return await self._guarded(lambda: {g: float(c) for g, c in self._db.execute(query, wanted)})

    async def read(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run `work(connection)` to read, in a worker thread; the accounts of this store read through it."""
        return await self._guarded(lambda: work(self._db))

    async def write(self, work: Callable[[sqlite3.Connection], object]) -> None:
        """Run `work(connection)` in the next transaction (group commit); return once it is committed. The
        accounts of this store write through it. `work` may run twice (`_write`): what it hands back it assigns,
        never adds to."""

        def run(db: sqlite3.Connection) -> None:
            work(db)

        await self._write(run)

    def accounts(self) -> AccountStore:
        from server.storage.sqlite_accounts import SqliteAccounts

        return SqliteAccounts(self)

    def notices(self) -> NoticeStore:
        from server.storage.sqlite_notices import SqliteNotices

        return SqliteNotices(self)

    def ratings(self) -> RatingStore:
        return SqliteRatings(self, self._keeps_ratings)

    def invitations(self) -> InvitationStore:
        return SqliteInvitations(self, self._keeps_invitations)

    async def _guarded(self, work: Callable[[], _T]) -> _T:
        try:
            return await self._run(work)
        except sqlite3.Error as exc:
            raise StorageError(f"the game database {self.path} failed: {exc}") from exc

    async def close(self) -> None:
        self._closing = True
        await self._group.flushed()
        if self._thread is not None:
            self._batches.put(None)
            await asyncio.to_thread(self._thread.join)
        await self._run(self._db.close)
        if self._dir_lock is not None:
            self._dir_lock.release()
