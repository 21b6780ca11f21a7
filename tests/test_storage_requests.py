"""A store written before requests were kept by player, upgraded: a kept join comes back under the player it seated,
the other kept requests (which cannot say whose they were) are forgotten, and the game is otherwise as it was. For
the SQLite file and PostgreSQL alike, from the schema version before the one that keys requests by player."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import psycopg

from server.storage import SqliteStorage
from server.storage.base import RequestRecord, Storage
from server.storage.postgres import REQUESTS_BY_PLAYER_FROM as POSTGRES_BY_PLAYER
from server.storage.postgres import SCHEMA_VERSION as POSTGRES_VERSION
from server.storage.postgres import PostgresStorage
from server.storage.sqlite import DATABASE_NAME, REQUESTS_BY_PLAYER_FROM
from server.storage.sqlite import SCHEMA_VERSION as SQLITE_VERSION
from tests.test_server_storage import record, started_progress

JOINED = '{"ref":null,"type":"joined","game_id":"g1","player":"ann","token":""}'
ACCEPTED = '{"ref":null,"type":"order_accepted","game_id":"g1","turn":0,"index":0,"order":{}}'
OLD_ROWS = [("g1", "join-00000001", 0, JOINED), ("g1", "order-0000001", 0, ACCEPTED)]


LATER_TABLES = ("vacations", "notify_channels", "outbox", "rating_changes", "rated_games", "ratings", "invitations")
LATER_SQLITE_TABLES = LATER_TABLES
"""The tables SQLite versions after the one that keyed requests by player added (9: notifications, 10: ratings,
11: challenges)."""
LATER_POSTGRES_TABLES = (*LATER_TABLES, "quick_queue")
"""Likewise for PostgreSQL (6: notifications; 7: ratings, the quick play queue, challenges)."""


async def a_game_with_its_requests(storage: Storage) -> None:
    await storage.open()
    try:
        await storage.create(record(), started_progress(), [])
        await storage.save("g1", started_progress(), [], request=RequestRecord("ann", "join-00000001", 0, JOINED))
    finally:
        await storage.close()


async def test_an_sqlite_file_of_requests_by_id_keeps_its_joins_under_their_players(tmp_path: Path) -> None:
    database = tmp_path / DATABASE_NAME
    await a_game_with_its_requests(SqliteStorage(database))
    with contextlib.closing(sqlite3.connect(database)) as db, db:  # as the version before kept them: by id alone
        for later in LATER_SQLITE_TABLES:  # and without what later versions added
            db.execute(f"DROP TABLE {later}")
        db.execute("DROP TABLE requests")
        db.execute(
            "CREATE TABLE requests (game_id TEXT NOT NULL REFERENCES games(game_id), request_id TEXT NOT NULL, "
            "step INTEGER NOT NULL, reply TEXT NOT NULL, PRIMARY KEY (game_id, request_id)) WITHOUT ROWID"
        )
        db.executemany("INSERT INTO requests VALUES (?, ?, ?, ?)", OLD_ROWS)
        db.execute(f"PRAGMA user_version = {REQUESTS_BY_PLAYER_FROM - 1}")
    storage = SqliteStorage(database)
    try:
        assert storage.schema_version == SQLITE_VERSION >= REQUESTS_BY_PLAYER_FROM
        restored = await storage.restore("g1", 10)
        assert restored is not None and restored.requests == {("ann", "join-00000001"): JOINED}
        assert restored.progress == started_progress()
    finally:
        await storage.close()


async def test_a_postgresql_store_of_requests_by_id_keeps_its_joins_under_their_players(postgres_dsn: str) -> None:
    await a_game_with_its_requests(PostgresStorage(postgres_dsn, node_id="test-node"))
    with psycopg.connect(postgres_dsn, autocommit=True) as db:  # as the version before kept them: by id alone
        for later in LATER_POSTGRES_TABLES:  # and without what later versions added
            db.execute(f"DROP TABLE {later}")
        db.execute("DROP TABLE requests")
        db.execute(
            "CREATE TABLE requests (game_id text NOT NULL REFERENCES games (game_id), request_id text NOT NULL, "
            "step integer NOT NULL, reply text NOT NULL, PRIMARY KEY (game_id, request_id))"
        )
        with db.cursor() as cursor:
            cursor.executemany("INSERT INTO requests VALUES (%s, %s, %s, %s)", OLD_ROWS)
        db.execute("UPDATE risc_schema SET version = %s", (POSTGRES_BY_PLAYER - 1,))
    storage = PostgresStorage(postgres_dsn, node_id="test-node")
    await storage.open()
    try:
        restored = await storage.restore("g1", 10)
        assert restored is not None and restored.requests == {("ann", "join-00000001"): JOINED}
        with psycopg.connect(postgres_dsn) as db:
            version = db.execute("SELECT version FROM risc_schema").fetchone()
            keys = db.execute(
                "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid "
                "AND a.attnum = ANY(i.indkey) WHERE i.indrelid = 'requests'::regclass AND i.indisprimary"
            ).fetchall()
        assert version == (POSTGRES_VERSION,) and {k for (k,) in keys} == {"game_id", "player", "request_id"}
    finally:
        await storage.close()
