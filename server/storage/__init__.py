"""Where games are kept: one interface (base.Storage), several stores.

The stores themselves (memory.py, sqlite.py, postgres.py) are read only when first asked for, so that what reads the
records a game's decisions make (server/core/, through base.py) loads no database driver with them.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from server.storage.base import GameProgress, GameRecord, SeatRecord, Storage, StorageError, StoredGame

if TYPE_CHECKING:
    from server.storage.memory import MemoryStorage
    from server.storage.opening import is_postgres, open_storage
    from server.storage.sqlite import DATABASE_NAME, SqliteStorage

_LAZY = {
    "MemoryStorage": "server.storage.memory",
    "SqliteStorage": "server.storage.sqlite",
    "DATABASE_NAME": "server.storage.sqlite",
    "open_storage": "server.storage.opening",
    "is_postgres": "server.storage.opening",
}


def __getattr__(name: str) -> Any:
    """The stores, read when first named (PEP 562)."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    "is_postgres",
    "open_storage",
]
