"""The default store: one SQLite file in the server's data directory, so games outlive the process.

Every save (the new progress and the new log entries together) is committed before `save` returns, and so before
the match acknowledges the change. The database runs in WAL mode with synchronous=FULL: a committed transaction is in
the write-ahead log on disk, so it survives the process being killed and the machine losing power.

Group commit: each commit costs an fsync, which under load took longer than all the rest of a change. So the saves
and creations of different games that arrive while a transaction is being written wait together, and the next one
writes all of them in one transaction (each in a savepoint of its own: a save that fails, fails alone and leaves
nothing of itself behind), with one fsync; then each is answered. If the transaction itself fails, every save in it
fails and none of them is kept; the saves of the next transaction are not affected.

The stdlib sqlite3 module blocks, so each call runs in a worker thread (asyncio.to_thread) on the one connection,
which a lock keeps to one thread at a time. A file that is not a SQLite database, or is another application's, is
refused before anything is written to it.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from pydantic import TypeAdapter

from server.storage.base import GameProgress, GameRecord, Storage, StorageError, StoredGame
from shared.protocol.log import SequencedEvent

APPLICATION_ID = 0x52495343
"""'RISC' in ASCII, kept in the file's header (PRAGMA application_id) so the server knows its own databases."""

DATABASE_NAME = "games.sqlite3"

_EVENTS = TypeAdapter(list[SequencedEvent])
_T = TypeVar("_T")


def _create_tables(db: sqlite3.Connection) -> None:
    """Version 1: each game's record and progress as JSON text, and its log one entry per row."""
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("CREATE TABLE games (game_id TEXT PRIMARY KEY, created_at REAL NOT NULL, record TEXT NOT NULL, "
               "progress TEXT NOT NULL)")
    db.execute("CREATE TABLE events (game_id TEXT NOT NULL REFERENCES games(game_id), seq INTEGER NOT NULL, "
               "body TEXT NOT NULL, PRIMARY KEY (game_id, seq)) WITHOUT ROWID")


def _add_phase(db: sqlite3.Connection) -> None:
    """Version 2: each game's phase in a column of its own, so a starting server lists unfinished games unread."""
    db.execute("ALTER TABLE games ADD COLUMN phase TEXT NOT NULL DEFAULT 'lobby'")
    db.execute("UPDATE games SET phase = coalesce(json_extract(progress, '$.state.phase'), 'lobby')")
    db.execute("CREATE INDEX games_by_phase ON games (phase)")


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_create_tables, _add_phase]
"""Migration i takes a database from schema version i to i + 1 (PRAGMA user_version). Only ever append."""

SCHEMA_VERSION = len(MIGRATIONS)


def _phase(progress: GameProgress) -> str:
    return "lobby" if progress.state is None else str(progress.state.get("phase", "lobby"))


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
        raise StorageError(f"{path} is not a RISC game database (SQLite says: {exc}); it was left as it is — "
                           "move it away or choose another --data-dir") from None
    finally:
        db.close()
    if application_id == 0 and version == 0 and not tables:
        return 0
    if application_id != APPLICATION_ID:
        shown = ", ".join(tables[:5]) or "none"
        raise StorageError(f"{path} is a SQLite database of another application (tables: {shown}); it was left as "
                           "it is — move it away or choose another --data-dir")
    if version > SCHEMA_VERSION:
        raise StorageError(f"{path} was written by a newer release of RISC (schema version {version}; this one "
                           f"reads up to {SCHEMA_VERSION}); it was left as it is")
    return int(version)


@dataclass
class _Change:
    """One save or creation waiting for the next transaction, and how it went."""

    work: Callable[[sqlite3.Connection], None]
    done: asyncio.Future[None]
    error: BaseException | None = None


class SqliteStorage(Storage):
    def __init__(self, path: Path, *, read_only: bool = False, busy_timeout: float = 5.0) -> None:
        """`busy_timeout`: how many seconds to wait for another process that holds the database's write lock."""
        self.path = path
        version = check_database(path)
        if read_only:
            if version != SCHEMA_VERSION:
                raise StorageError(f"{path} holds no games of this release (schema version {version}, this "
                                   f"release writes {SCHEMA_VERSION}): start the server on it once to upgrade it")
            self._db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = FULL")
            self._migrate(version)
        self._db.execute(f"PRAGMA busy_timeout = {round(busy_timeout * 1000)}")
        self._lock = threading.Lock()
        self._waiting: list[_Change] = []
        self._writer: asyncio.Task[None] | None = None
        self.transactions = 0
        """Write transactions committed (each one fsync): fewer than the saves when saves come together."""

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

    async def _write(self, work: Callable[[sqlite3.Connection], None]) -> None:
        """Run `work` in the next transaction, in a savepoint of its own; return once that transaction is committed.

        Raises StorageError if `work` failed (nothing of it is kept) or the transaction failed (nothing of it is).
        """
        change = _Change(work, asyncio.get_running_loop().create_future())
        self._waiting.append(change)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_waiting())
        await change.done

    async def _write_waiting(self) -> None:
        """Write whatever waits, one transaction at a time, until nothing does."""
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                await self._run(functools.partial(self._commit, batch))
            except Exception as exc:  # the transaction failed: so did every change in it
                failure = StorageError(f"the game database {self.path} failed: {exc}")
                for change in batch:
                    change.error = failure
            for change in batch:
                if change.done.done():  # its caller was cancelled
                    continue
                if change.error is None:
                    change.done.set_result(None)
                else:
                    change.done.set_exception(change.error)

    def _commit(self, batch: list[_Change]) -> None:
        db = self._db
        alone = len(batch) == 1  # a change alone needs no savepoint: if it fails, its transaction is undone
        db.execute("BEGIN IMMEDIATE")
        try:
            for change in batch:
                if not alone:
                    db.execute("SAVEPOINT change")
                try:
                    change.work(db)
                except (sqlite3.Error, StorageError) as exc:
                    db.execute("ROLLBACK" if alone else "ROLLBACK TO change")
                    change.error = (exc if isinstance(exc, StorageError)
                                    else StorageError(f"the game database {self.path} failed: {exc}"))
                if not alone:
                    db.execute("RELEASE change")
            if db.in_transaction:
                db.execute("COMMIT")
                self.transactions += 1
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    async def create(self, record: GameRecord, progress: GameProgress, events: Sequence[SequencedEvent]) -> None:
        row = (record.game_id, record.created_at, record.model_dump_json(), progress.model_dump_json(),
               _phase(progress))
        bodies = [(record.game_id, e.seq, e.model_dump_json()) for e in events]

        def insert(db: sqlite3.Connection) -> None:
            try:
                db.execute("INSERT INTO games (game_id, created_at, record, progress, phase) VALUES (?, ?, ?, ?, ?)",
                           row)
            except sqlite3.IntegrityError:
                raise StorageError(f"game {record.game_id} exists already") from None
            db.executemany("INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)", bodies)

        await self._write(insert)

    async def save(self, game_id: str, progress: GameProgress, events: Sequence[SequencedEvent]) -> None:
        row = (progress.model_dump_json(), _phase(progress), game_id)  # encoded before anything is changed
        bodies = [(game_id, e.seq, e.model_dump_json()) for e in events]

        def update(db: sqlite3.Connection) -> None:
            if db.execute("UPDATE games SET progress = ?, phase = ? WHERE game_id = ?", row).rowcount != 1:
                raise StorageError(f"no game {game_id} to save")
            db.executemany("INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)", bodies)

        await self._write(update)

    async def load(self, game_id: str, tail: int | None = None) -> StoredGame | None:
        def read() -> StoredGame | None:
            row = self._db.execute("SELECT record, progress FROM games WHERE game_id = ?", (game_id,)).fetchone()
            if row is None:
                return None
            if tail is None:
                query, args = "SELECT body FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            else:
                query = ("SELECT body FROM (SELECT seq, body FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT ?) "
                         "ORDER BY seq")
                args = (game_id, tail)  # type: ignore[assignment]
            bodies = [b for (b,) in self._db.execute(query, args)]
            return StoredGame(record=GameRecord.model_validate_json(row[0]),
                              progress=GameProgress.model_validate_json(row[1]),
                              events=_EVENTS.validate_json("[" + ",".join(bodies) + "]"))

        return await self._guarded(read)

    async def list_games(self, include_finished: bool = True) -> list[str]:
        query = "SELECT game_id FROM games" + ("" if include_finished else " WHERE phase != 'finished'")
        return await self._guarded(lambda: [g for (g,) in self._db.execute(query + " ORDER BY created_at, rowid")])

    async def _guarded(self, work: Callable[[], _T]) -> _T:
        try:
            return await self._run(work)
        except sqlite3.Error as exc:
            raise StorageError(f"the game database {self.path} failed: {exc}") from exc

    async def close(self) -> None:
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)
        await self._run(self._db.close)
