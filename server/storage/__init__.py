"""Where games are kept: one interface (base.Storage), several stores."""

from __future__ import annotations

from pathlib import Path

from server.storage.base import GameProgress, GameRecord, SeatRecord, Storage, StorageError, StoredGame
from server.storage.memory import MemoryStorage


def open_storage(data_dir: Path | None) -> Storage:
    """The store for a server started with `data_dir`. Games are kept in memory until an on-disk store exists."""
    return MemoryStorage()


__all__ = [
    "GameProgress",
    "GameRecord",
    "MemoryStorage",
    "SeatRecord",
    "Storage",
    "StorageError",
    "StoredGame",
    "open_storage",
]
