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
    if dest.exists():
        raise StorageError(f"{dest} exists: a backup never overwrites a file; give another name")
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(f"{dest.name}.partial-{os.getpid()}")
    try:
        with contextlib.closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)) as reader, \
                contextlib.closing(sqlite3.connect(partial, isolation_level=None)) as copy:
            reader.execute(f"PRAGMA busy_timeout = {round(busy_timeout * 1000)}")
            reader.backup(copy)  # all pages in one step: one read transaction, so one consistent state
            copy.execute("PRAGMA journal_mode = DELETE")  # one file, with no log beside it to lose
            checked = copy.execute("PRAGMA quick_check").fetchone()[0]
            if checked != "ok":
                raise StorageError(f"the copy of {source} does not check out: {checked}")
            unfinished_only = "phase != 'finished'" if version >= 2 else "0"  # version 1 kept no phase column
            games, unfinished = copy.execute(f"SELECT count(*), count(*) FILTER (WHERE {unfinished_only}) "
                                             "FROM games").fetchone()
        os.link(partial, dest)  # unlike a rename, never replaces a file that appeared meanwhile
    except sqlite3.Error as exc:
        raise StorageError(f"the backup of {source} failed: {exc}") from None
    except FileExistsError:
        raise StorageError(f"{dest} exists: a backup never overwrites a file; give another name") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    return BackupReport(games, unfinished, dest.stat().st_size, time.monotonic() - started)
