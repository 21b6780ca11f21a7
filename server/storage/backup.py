"""Backups of a running server's games: SQLite's online backup API, read beside the server.

Copying games.sqlite3 with `cp` while a server runs gives a file that may lack the changes still in the write-ahead
log, or hold half of a checkpoint. The backup API copies the database as one read transaction sees it (the
database file and its log together), so the copy is a consistent state that the server acknowledged; the server
plays on meanwhile (in WAL mode a reader does not block the writer). No data-directory lock is taken: the backup
only reads.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from server.storage.base import StorageError
from server.storage.sqlite import check_database


@dataclass(frozen=True)
class BackupReport:
    games: int
    unfinished: int
    size: int
    seconds: float


def back_up(source: Path, dest: Path, *, busy_timeout: float = 5.0) -> BackupReport:
    """Copy the RISC database at `source` to the new file `dest`, consistently, while a server may write it.

    Raises StorageError if `source` is not a RISC database, `dest` exists (a backup never overwrites a file), or
    the copy fails; nothing is left at `dest` then.
    """
    started = time.monotonic()
    if not source.is_file():
        raise StorageError(f"no game database at {source}")
    version = check_database(source)
    if version == 0:
        raise StorageError(f"{source} holds no games yet")
    try:
        with (
            _new_file(dest) as partial,
            contextlib.closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)) as reader,
            contextlib.closing(sqlite3.connect(partial, isolation_level=None)) as copy,
        ):
            reader.execute(f"PRAGMA busy_timeout = {round(busy_timeout * 1000)}")
            reader.backup(copy)  # all pages in one step: one read transaction, so one consistent state
            unfinished_only = "phase != 'finished'" if version >= 2 else "0"  # version 1 kept no phase column
            games, unfinished = _checked(copy, str(source), unfinished_only)
    except sqlite3.Error as exc:
        raise StorageError(f"the backup of {source} failed: {exc}") from None
    return BackupReport(games, unfinished, dest.stat().st_size, time.monotonic() - started)


@contextlib.contextmanager
def _new_file(dest: Path) -> Iterator[Path]:
    """A file to write the copy in beside `dest`, which becomes `dest` once the block ends well, and is removed
    however it ends. StorageError if `dest` exists: a backup never overwrites a file."""
    if dest.exists():
        raise StorageError(f"{dest} exists: a backup never overwrites a file; give another name")
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(f"{dest.name}.partial-{os.getpid()}")
    try:
        yield partial
        os.link(partial, dest)  # unlike a rename, never replaces a file that appeared meanwhile
    except FileExistsError:
        raise StorageError(f"{dest} exists: a backup never overwrites a file; give another name") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()


def _checked(copy: sqlite3.Connection, source: str, unfinished_only: str = "phase != 'finished'") -> tuple[int, int]:
    """Make the copy one file (no log beside it to lose), check it, and count its games and the unfinished ones."""
    copy.execute("PRAGMA journal_mode = DELETE")
    checked = copy.execute("PRAGMA quick_check").fetchone()[0]
    if checked != "ok":
        raise StorageError(f"the copy of {source} does not check out: {checked}")
    games, unfinished = copy.execute(
        f"SELECT count(*), count(*) FILTER (WHERE {unfinished_only}) FROM games"
    ).fetchone()
    return int(games), int(unfinished)


def back_up_postgres(dsn: str, dest: Path) -> BackupReport:
    """Copy every game of the PostgreSQL store `dsn` into the new SQLite file `dest`, as one snapshot of the store
    sees them (one read-only, repeatable-read transaction), while nodes play on.

    The copy is a SQLite game database like a server's own: a server started on its folder plays the games on,
    `risc replay` reads them. Raises StorageError as back_up does; nothing is left at `dest` then.
    """
    import psycopg

    from server.storage.postgres import SCHEMA_VERSION as POSTGRES_VERSION
    from server.storage.postgres import describe
    from server.storage.sqlite import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION

    started = time.monotonic()
    copies = [  # each table in the order the store wrote its rows
        ("SELECT map_key, body FROM maps", "INSERT INTO maps (map_key, body) VALUES (?, ?)"),
        (
            "SELECT game_id, created_at, record, progress, phase, map_key FROM games ORDER BY created_at",
            "INSERT INTO games (game_id, created_at, record, progress, phase, map_key) VALUES (?, ?, ?, ?, ?, ?)",
        ),
        ("SELECT game_id, seq, body FROM events", "INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)"),
        (
            "SELECT game_id, player, step, position, body FROM pending_orders ORDER BY id",
            "INSERT INTO pending_orders (game_id, player, turn, position, body) VALUES (?, ?, ?, ?, ?)",
        ),
        (
            "SELECT game_id, player, step, seq FROM pending_commits ORDER BY id",
            "INSERT INTO pending_commits (game_id, player, step, seq) VALUES (?, ?, ?, ?)",
        ),
        (
            "SELECT game_id, player, request_id, step, reply FROM requests",
            "INSERT INTO requests (game_id, player, request_id, step, reply) VALUES (?, ?, ?, ?, ?)",
        ),
    ]
    where = describe(dsn)
    try:
        with (
            _new_file(dest) as partial,
            psycopg.connect(dsn, application_name="risc-backup") as source,
            contextlib.closing(sqlite3.connect(partial, isolation_level=None)) as copy,
        ):
            source.read_only = True
            source.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
            with source.transaction():
                found = source.execute("SELECT to_regclass('risc_schema') IS NOT NULL").fetchone()
                version = source.execute("SELECT version FROM risc_schema").fetchone() if found and found[0] else None
                if version is None or version[0] != POSTGRES_VERSION:
                    raise StorageError(f"the {where} holds no games of this release")
                copy.execute("BEGIN")
                for migrate in MIGRATIONS:
                    migrate(copy)
                copy.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                for query, insert in copies:
                    with source.cursor() as cursor:
                        cursor.execute(query)
                        while rows := cursor.fetchmany(5000):
                            copy.executemany(insert, rows)
                copy.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                copy.execute("COMMIT")
            games, unfinished = _checked(copy, f"the {where}")
    except psycopg.Error as exc:
        raise StorageError(f"the backup of the {where} failed: {str(exc).strip()}") from None
    except sqlite3.Error as exc:
        raise StorageError(f"the backup into {dest} failed: {exc}") from None
    return BackupReport(games, unfinished, dest.stat().st_size, time.monotonic() - started)
