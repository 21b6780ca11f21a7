"""Which store a server keeps its games in."""

from __future__ import annotations

from pathlib import Path

from server.storage.base import Storage
from server.storage.memory import MemoryStorage
from server.storage.sqlite import DATABASE_NAME, SqliteStorage


def open_storage(data_dir: Path | None) -> Storage:
    """The SQLite store in `data_dir`, or a store in memory when there is none (tests, `risc server --memory`).

    Raises StorageError with a message for the user if the database there cannot be used.
    """
    if data_dir is None:
        return MemoryStorage()
    return SqliteStorage(data_dir / DATABASE_NAME)
