"""Where games are kept: one interface (base.Storage), several stores."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from server.storage.base import GameProgress, GameRecord, SeatRecord, Storage, StorageError, StoredGame
from server.storage.memory import MemoryStorage
from server.storage.sqlite import DATABASE_NAME, SqliteStorage


def open_storage(data_dir: Path | None) -> Storage:
    """The SQLite store in `data_dir`, or a store in memory when there is none (tests, `risc server --memory`).

    Raises StorageError with a message for the user if the database there cannot be used.
    """
    if data_dir is None:
        return MemoryStorage()
    return SqliteStorage(data_dir / DATABASE_NAME)


def default_data_dir() -> Path:
    """Where a server keeps its games unless told otherwise: the platform's place for application data."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "risc"


__all__ = [
    "DATABASE_NAME",
    "GameProgress",
    "GameRecord",
    "MemoryStorage",
    "SeatRecord",
    "SqliteStorage",
    "Storage",
    "StorageError",
    "StoredGame",
    "default_data_dir",
    "open_storage",
]
