"""Which store a server keeps its games in."""

from __future__ import annotations

from pathlib import Path

from server.clock import Clock
from server.storage.base import Storage, StorageError
from server.storage.memory import MemoryStorage
from server.storage.sqlite import DATABASE_NAME, SqliteStorage


def is_postgres(store: str | None) -> bool:
    """Whether a --store names a PostgreSQL database (a postgresql:// URL, or libpq's key=value form)."""
    return store is not None and (store.startswith(("postgresql://", "postgres://")) or "dbname=" in store)


def open_storage(
    data_dir: Path | None,
    store: str | None = None,
    node_id: str | None = None,
    read_only: bool = False,
    clock: Clock | None = None,
) -> Storage:
    """The PostgreSQL store `store` names (opened later: `await storage.open()`), else the SQLite store in
    `data_dir`, or a store in memory when there is none (tests, `risc server --memory`).

    Raises StorageError with a message for the user if the database there cannot be used.
    """
    if store is not None:
        if not is_postgres(store):
            raise StorageError(
                f"--store {store.split('://')[0]}://...: give a PostgreSQL address "
                "(postgresql://USER@HOST/DATABASE), or leave --store out for the SQLite file"
            )
        from server.storage.postgres import PostgresStorage

        return PostgresStorage(store, node_id=node_id, read_only=read_only)
    if data_dir is None:
        return MemoryStorage()
    return SqliteStorage(data_dir / DATABASE_NAME, read_only=read_only, clock=clock)
