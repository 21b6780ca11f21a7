"""The store several server nodes share: PostgreSQL, through psycopg 3 (async) and a pool of connections.

The tables are the SQLite store's (games, maps, events, pending_orders, pending_commits, requests), plus what
nodes need to share games: `nodes` (each running node, its public address and a heartbeat) and three columns of
`games`: `owner` (the node that last claimed it), `epoch` (raised by every claim) and `lock_key` (the game's
advisory lock, server/cluster/node.py). Every write names the epoch this node claimed the game at (`... WHERE game_id =
%s AND epoch = %s`, the game's row locked for the statement), so a node that lost a game while frozen changes
nothing when it wakes up: the write finds no row, and raises OwnershipLost.

The changes that come together (group commit) are one transaction, written as one SQL statement whose parts are
chained by WITH, its rows arrays across the changes (server/storage/postgres_changes.py; a game with two changes in
one transaction takes a statement more), so one round trip and one commit, which PostgreSQL makes durable (fsync on,
synchronous_commit on: its defaults) before the call returns, and so before the match acknowledges the change. The
arrays go in PostgreSQL's binary form (`%(name)b`): their text form has psycopg quote and escape every element in
Python, and a log entry's JSON is full of quotes.

Its schema has versions of its own (`risc_schema`), upgraded at open under a transaction-level advisory lock, so that
nodes starting together upgrade it once.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import hashlib
import importlib.metadata
import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from server.storage.accounts import AccountStore, seats_of_accounts
from server.storage.base import (
    CommitChange,
    GameProgress,
    GameRecord,
    LogLine,
    OrderChange,
    OwnershipLost,
    RequestKey,
    RequestRecord,
    RestoredGame,
    Storage,
    StorageError,
    StorageUnavailable,
    StoredGame,
    StoredLog,
    WholeSave,
    is_damage,
    map_key,
    map_text,
    phase_column,
    record_of,
    with_orders,
)
from server.storage.group_commit import Change, Finished, GroupCommit
from server.storage.invitations import InvitationStore
from server.storage.notices import NoticeStore
from server.storage.postgres_changes import (
    GameChange,
    WholeRow,
    layers,
    statement,
)
from server.storage.postgres_invitations import PostgresInvitations
from server.storage.postgres_ratings import PostgresRatings, rate_in
from server.storage.ratings import RatedEnd, RatingStore

try:
    import psycopg
    from psycopg_pool import AsyncConnectionPool
except ImportError:  # pragma: no cover - the SQLite default needs none of it
    psycopg = None  # type: ignore[assignment]
    AsyncConnectionPool = None  # type: ignore[assignment,misc]

logger = logging.getLogger("risc.server")

_T = TypeVar("_T")

SCHEMA_LOCK = 0x52495343_00000001
"""The advisory lock nodes take while upgrading the schema (transaction-level: let go at its commit)."""

LOBBY_CHANNEL = "risc_lobby"
"""LISTEN/NOTIFY channel of the rare events every node's lobby hears of: a game created (payload: its id)."""

MIGRATIONS: list[str] = [
    # Version 1: the SQLite store's tables (schema version 6), and the nodes and ownership of a cluster.
    """
    CREATE TABLE nodes (
        node_id text PRIMARY KEY,
        public_url text NOT NULL,
        backend_pid integer,
        started_at timestamptz NOT NULL DEFAULT now(),
        heartbeat timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE maps (map_key text PRIMARY KEY, body text NOT NULL);
    CREATE TABLE games (
        game_id text PRIMARY KEY,
        created_at double precision NOT NULL,
        record text NOT NULL,
        progress text NOT NULL,
        phase text NOT NULL,
        map_key text NOT NULL,
        lock_key bigint NOT NULL,
        epoch bigint NOT NULL DEFAULT 0,
        owner text,
        clocked boolean NOT NULL DEFAULT false,
        handed_over boolean NOT NULL DEFAULT false,
        summary text
    );
    CREATE INDEX games_by_creation ON games (created_at DESC, game_id);
    CREATE INDEX games_unfinished ON games (created_at) WHERE phase <> 'finished';
    CREATE TABLE events (
        game_id text NOT NULL REFERENCES games (game_id),
        seq integer NOT NULL,
        body text NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE pending_orders (
        id bigserial PRIMARY KEY,
        game_id text NOT NULL REFERENCES games (game_id),
        player text NOT NULL,
        step integer NOT NULL,
        position integer NOT NULL,
        body text
    );
    CREATE INDEX pending_orders_by_game ON pending_orders (game_id, id);
    CREATE TABLE pending_commits (
        id bigserial PRIMARY KEY,
        game_id text NOT NULL REFERENCES games (game_id),
        player text NOT NULL,
        step integer NOT NULL,
        seq integer NOT NULL
    );
    CREATE INDEX pending_commits_by_game ON pending_commits (game_id, id);
    CREATE TABLE requests (
        game_id text NOT NULL REFERENCES games (game_id),
        request_id text NOT NULL,
        step integer NOT NULL,
        reply text NOT NULL,
        PRIMARY KEY (game_id, request_id)
    );
    """,
    # Version 2: games closed before they started marked as such (no node takes them over, no lobby lists them), and
    # the address each game was created from (what an address holds is counted across the nodes).
    """
    ALTER TABLE games ADD COLUMN closed boolean NOT NULL DEFAULT false;
    UPDATE games SET closed = true WHERE phase = 'finished' AND (progress::jsonb -> 'state') = 'null'::jsonb;
    CREATE TABLE creators (game_id text PRIMARY KEY, address text NOT NULL);
    CREATE INDEX creators_by_address ON creators (address);
    """,
    # Version 3: accounts, their sessions and failed sign-ins (server/storage/accounts.py), and the games each
    # account sits in.
    """
    CREATE TABLE accounts (
        account_id text PRIMARY KEY,
        name text NOT NULL,
        name_key text NOT NULL UNIQUE,
        password_hash text NOT NULL,
        created_at double precision NOT NULL,
        disabled boolean NOT NULL DEFAULT false,
        deleted boolean NOT NULL DEFAULT false
    );
    CREATE TABLE sessions (
        token_hash text PRIMARY KEY,
        account_id text NOT NULL REFERENCES accounts (account_id),
        created_at double precision NOT NULL,
        last_used_at double precision NOT NULL,
        expires_at double precision NOT NULL,
        client text,
        ended_at double precision
    );
    CREATE INDEX sessions_by_account ON sessions (account_id);
    CREATE INDEX sessions_ended ON sessions (ended_at) WHERE ended_at IS NOT NULL;
    CREATE TABLE signin_failures (
        name_key text PRIMARY KEY,
        failures integer NOT NULL,
        locked_until double precision NOT NULL
    );
    CREATE TABLE account_games (
        account_id text NOT NULL,
        game_id text NOT NULL REFERENCES games (game_id),
        player text NOT NULL,
        PRIMARY KEY (account_id, game_id)
    );
    """,
    # Version 4: a request kept under the player it was made for as well as its id (the SQLite store's version 8):
    # two players' clients that chose the same id are never given each other's answers. A kept join names its
    # player in its reply; the other requests kept before (of the last two steps at most) say nobody's: forgotten.
    # Additive: the column has a default, so a node of the release before still writes its requests (as nobody's).
    """
    ALTER TABLE requests ADD COLUMN player text NOT NULL DEFAULT '';
    UPDATE requests SET player = reply::json ->> 'player'
        WHERE reply::json ->> 'type' = 'joined' AND reply::json ->> 'player' IS NOT NULL;
    DELETE FROM requests WHERE player = '';
    ALTER TABLE requests DROP CONSTRAINT requests_pkey;
    ALTER TABLE requests ADD PRIMARY KEY (game_id, player, request_id);
    """,
    # Version 5: which nodes may use the schema (docs/scaling.md, "Upgrades"): the oldest schema version whose nodes
    # still work on it, and the release that last upgraded it, which a node too old to use it names.
    """
    ALTER TABLE risc_schema ADD COLUMN IF NOT EXISTS readable_from integer NOT NULL DEFAULT 1;
    ALTER TABLE risc_schema ADD COLUMN IF NOT EXISTS release text;
    """,
    # Version 6: accounts' vacations, each account's channels of notification, and the outbox of notifications to
    # send, written with the change that makes them (the SQLite store's version 9). Additive: new tables only.
    """
    CREATE TABLE vacations (
        account_id text NOT NULL,
        starts_at double precision NOT NULL,
        ends_at double precision NOT NULL,
        changed_at double precision NOT NULL
    );
    CREATE INDEX vacations_by_account ON vacations (account_id, starts_at);
    CREATE INDEX vacations_changed ON vacations (changed_at);
    CREATE TABLE notify_channels (
        account_id text PRIMARY KEY,
        body text NOT NULL,
        unsubscribe_key text NOT NULL
    );
    CREATE INDEX notify_channels_by_key ON notify_channels (unsubscribe_key);
    CREATE TABLE outbox (
        id bigserial PRIMARY KEY,
        account_id text NOT NULL,
        kind text NOT NULL,
        game_id text,
        body text NOT NULL,
        created_at double precision NOT NULL,
        mail_due double precision,
        hook_due double precision,
        mail_tries integer NOT NULL DEFAULT 0,
        hook_tries integer NOT NULL DEFAULT 0,
        claimed_by text,
        claimed_until double precision
    );
    CREATE INDEX outbox_by_account ON outbox (account_id);
    """,
    # Version 7: ratings (server/storage/ratings.py, the SQLite store's version 10): each holder's skill by rule set,
    # each rated game's changes by player, and the rated games, keyed by game so that a game is rated once; the quick
    # play queue and the challenges' invitations, which the nodes share (server/matchmaking/postgres_queue.py).
    # Additive: new tables only, which a node of the release before never reads or writes.
    """
    CREATE TABLE ratings (
        holder text NOT NULL,
        ruleset text NOT NULL,
        mu double precision NOT NULL,
        sigma double precision NOT NULL,
        games integer NOT NULL,
        wins integer NOT NULL,
        last_at double precision NOT NULL,
        PRIMARY KEY (holder, ruleset)
    );
    CREATE INDEX ratings_by_ruleset ON ratings (ruleset, last_at);
    CREATE TABLE rated_games (
        game_id text PRIMARY KEY REFERENCES games (game_id),
        ruleset text NOT NULL,
        rated_at double precision NOT NULL
    );
    CREATE TABLE rating_changes (
        game_id text NOT NULL REFERENCES rated_games (game_id),
        holder text NOT NULL,
        ruleset text NOT NULL,
        player text NOT NULL,
        place integer NOT NULL,
        players integer NOT NULL,
        won boolean NOT NULL,
        mu_before double precision NOT NULL,
        sigma_before double precision NOT NULL,
        mu_after double precision NOT NULL,
        sigma_after double precision NOT NULL,
        at double precision NOT NULL,
        PRIMARY KEY (game_id, holder)
    );
    CREATE INDEX rating_changes_by_holder ON rating_changes (holder, at);
    CREATE TABLE quick_queue (
        account_id text PRIMARY KEY,
        name text NOT NULL,
        ruleset text NOT NULL,
        players integer NOT NULL,
        pace text NOT NULL,
        computers_after double precision,
        rating integer NOT NULL,
        since double precision NOT NULL,
        node_id text NOT NULL,
        game_id text,
        rated boolean NOT NULL DEFAULT true
    );
    CREATE TABLE invitations (
        game_id text NOT NULL,
        account_id text NOT NULL,
        by_name text NOT NULL,
        PRIMARY KEY (game_id, account_id)
    );
    """,
    # Version 8: less written a change. The rows a change adds name their game without a foreign key: every change's
    # statement writes them only beside its game's row, locked at the node's epoch (`g`), and no game is ever
    # deleted, so the key's check, a query of its own for every log entry and order, found what the statement had
    # just locked. A kept order or commit is one index entry, not two: its key is its game and its place. A game's
    # progress and summary are compressed with lz4 where the server has it (PostgreSQL 14 and later, built with it),
    # several times cheaper than pglz for the same size. Additive: older nodes write and read the same rows.
    """
    ALTER TABLE events DROP CONSTRAINT IF EXISTS events_game_id_fkey;
    ALTER TABLE pending_orders DROP CONSTRAINT IF EXISTS pending_orders_game_id_fkey;
    ALTER TABLE pending_commits DROP CONSTRAINT IF EXISTS pending_commits_game_id_fkey;
    ALTER TABLE requests DROP CONSTRAINT IF EXISTS requests_game_id_fkey;
    ALTER TABLE account_games DROP CONSTRAINT IF EXISTS account_games_game_id_fkey;
    CREATE UNIQUE INDEX pending_orders_key ON pending_orders (game_id, id);
    ALTER TABLE pending_orders DROP CONSTRAINT IF EXISTS pending_orders_pkey;
    ALTER TABLE pending_orders ADD CONSTRAINT pending_orders_pkey PRIMARY KEY USING INDEX pending_orders_key;
    DROP INDEX IF EXISTS pending_orders_by_game;
    CREATE UNIQUE INDEX pending_commits_key ON pending_commits (game_id, id);
    ALTER TABLE pending_commits DROP CONSTRAINT IF EXISTS pending_commits_pkey;
    ALTER TABLE pending_commits ADD CONSTRAINT pending_commits_pkey PRIMARY KEY USING INDEX pending_commits_key;
    DROP INDEX IF EXISTS pending_commits_by_game;
    DO $$
    BEGIN
        EXECUTE 'ALTER TABLE games ALTER COLUMN progress SET COMPRESSION lz4, '
                'ALTER COLUMN summary SET COMPRESSION lz4';
    EXCEPTION WHEN OTHERS THEN
        NULL;  -- a server without lz4 (before 14, or built without it) keeps pglz
    END
    $$;
    """,
]
"""Migration i takes the schema from version i to i + 1. Only ever append. A step is additive (new tables, new
columns with a default or nullable, new indexes, rows filled in) unless it is listed in NOT_ADDITIVE: a node of the
releases before it keeps working on the schema after it, so nodes of two releases run side by side while they are
upgraded one by one (docs/scaling.md, "Upgrades")."""

NOT_ADDITIVE: dict[int, int] = {}
"""The steps that are not additive (they drop, rename or retype what older nodes use, or add a constraint their
writes would break), by the version they make: the oldest schema version whose nodes still work after it. A node
that knows fewer versions refuses to start on such a schema, naming the release it needs."""

SCHEMA_VERSION = len(MIGRATIONS)

CHANGES_POOL = 2
"""Connections the changes are written on: the writer's one batch at a time, and a rated game's end beside it."""

REQUESTS_BY_PLAYER_FROM = 4
"""The schema version that keeps each request under its player."""


_GameRows = tuple[GameRecord, GameProgress, StoredLog, str, dict[RequestKey, str]]
"""One game as read: its record, progress, log, map key and kept requests."""


def _release() -> str:
    """This release of RISC, as its package says."""
    try:
        return importlib.metadata.version("risc")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - run from a checkout never installed
        return "unknown"


RELEASE = _release()


@dataclass(frozen=True)
class Schema:
    """What `risc_schema` says of a database: its version, the oldest schema version whose nodes may use it, and the
    release that last upgraded it."""

    version: int
    readable_from: int = 1
    release: str | None = None


def lock_key(game_id: str) -> int:
    """A game's advisory lock: a signed 64-bit number from its id (sha256, so ids of any shape spread evenly)."""
    return int.from_bytes(hashlib.sha256(game_id.encode()).digest()[:8], "big", signed=True)


def describe(dsn: str) -> str:
    """The store as an operator reads it in a message: the database and where, never a password."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(dsn)
    except (psycopg.ProgrammingError, AttributeError):
        return "the PostgreSQL store"
    where = info.get("host") or "localhost"
    return f"PostgreSQL database {info.get('dbname') or info.get('user') or '?'} on {where}"


class Epochs:
    """The epoch at which this node may write each game it plays. Whoever claims games for the node (the cluster's
    directory) sets them; every write of the store reads them, and a write refused because another node claimed the
    game since drops its epoch."""

    def __init__(self) -> None:
        self._held: dict[str, int] = {}

    def get(self, game_id: str) -> int | None:
        return self._held.get(game_id)

    def hold(self, game_id: str, epoch: int) -> None:
        self._held[game_id] = epoch

    def drop(self, game_id: str) -> None:
        self._held.pop(game_id, None)

    def clear(self) -> None:
        self._held.clear()


class PostgresStorage(Storage):
    shared = True

    def __init__(
        self,
        dsn: str,
        *,
        read_only: bool = False,
        pool_size: int = 10,
        node_id: str | None = None,
        connect_timeout: float = 10.0,
        epochs: Epochs | None = None,
    ) -> None:
        """A store on the database `dsn` (a libpq connection string or postgresql:// URL). `read_only`: read it
        beside running nodes (`risc replay`, `risc games damaged`), upgrading nothing. `node_id`: the node that
        writes through it, named as the owner of the games it creates. `epochs`: the games this node may write
        (the cluster's directory claims them); a store of its own (the storage contract's tests) may write the games
        it creates."""
        super().__init__()
        if psycopg is None:
            raise StorageError("the PostgreSQL store needs psycopg: pip install 'risc[postgres]'")
        self.dsn = dsn
        self.read_only = read_only
        self.node_id = node_id
        self.where = describe(dsn)
        self.epochs = epochs if epochs is not None else Epochs()
        """The games this node may write, each with the epoch it claimed them at."""
        self._pool_size = pool_size
        self._connect_timeout = connect_timeout
        self._pool: AsyncConnectionPool[Any] | None = None
        self._changes: AsyncConnectionPool[Any] | None = None
        """The connections the changes are written on (the writer's batch, a rated game's end): their statements
        planned once (`_generic_plans`), which the other queries are not."""
        self._group = GroupCommit(
            self._commit_batch,
            alone_after_failure=True,
            failure=lambda exc: StorageError(str(exc)),
            committed=lambda seconds: self.committed(seconds),  # the server's metrics set it once the store is open
            start=self._start_writer,
        )
        """A failed statement aborts its transaction: the changes of one that failed are tried again alone."""
        self._batches: collections.deque[tuple[list[Change[GameChange]], Finished]] = collections.deque()
        self._writing: asyncio.Task[None] | None = None
        """The task writing the batches (kept, so that it is not collected mid-write)."""
        self._rated_transactions = 0

    @property
    def transactions(self) -> int:
        """Write transactions committed: fewer than the changes when changes come together."""
        return self._group.transactions + self._rated_transactions

    @property
    def application_name(self) -> str:
        """The name of the pool's sessions in pg_stat_activity: a node's own (so that fencing it ends them too)."""
        return f"risc-store:{self.node_id}"[:63] if self.node_id else "risc-store"

    # ---- opening -------------------------------------------------------------------------------------------------

    async def open(self) -> None:
        pool = self._new_pool(1 if self.read_only else 2, self._pool_size)
        try:
            await pool.open(wait=True, timeout=self._connect_timeout)
        except Exception as exc:
            await pool.close()
            raise StorageError(f"cannot reach the {self.where}: {_why(exc)}") from None
        self._pool = pool
        if not self.read_only:
            changes = self._new_pool(1, CHANGES_POOL, configure=_generic_plans)
            try:
                await changes.open(wait=True, timeout=self._connect_timeout)
            except Exception as exc:
                await changes.close()
                await self.close()
                raise StorageError(f"cannot reach the {self.where}: {_why(exc)}") from None
            self._changes = changes
        try:
            await self._check_schema()
        except BaseException:
            await self.close()
            raise

    def _new_pool(
        self, least: int, most: int, configure: Callable[[Any], Awaitable[None]] | None = None
    ) -> AsyncConnectionPool[Any]:
        return AsyncConnectionPool(
            self.dsn,
            min_size=least,
            max_size=most,
            open=False,
            kwargs={"autocommit": True, "application_name": self.application_name},
            configure=configure,
            timeout=self._connect_timeout,
            reconnect_timeout=self._connect_timeout,
        )

    async def _check_schema(self) -> None:
        async with self._connection() as conn:
            schema = await self._schema(conn)
            if schema.version >= SCHEMA_VERSION:
                self._check_newer(schema)
                return
            if self.read_only:
                raise StorageError(
                    f"the {self.where} holds no games of this release (schema version {schema.version}, "
                    f"this release writes {SCHEMA_VERSION}): start a server on it once to upgrade it"
                )
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                # Another node may have upgraded it meanwhile; and only now, under the lock, do tables of RISC's
                # names without RISC's schema table mean another application's (not a node creating them).
                schema = await self._schema(conn, foreign_check=True)
                if schema.version == 0:
                    await conn.execute("CREATE TABLE IF NOT EXISTS risc_schema (version integer NOT NULL)")
                    await conn.execute(
                        "INSERT INTO risc_schema (version) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM risc_schema)"
                    )
                if schema.version >= SCHEMA_VERSION:
                    self._check_newer(schema)
                    return
                readable_from = schema.readable_from
                for step in range(schema.version, SCHEMA_VERSION):
                    await conn.execute(MIGRATIONS[step])
                    readable_from = max(readable_from, NOT_ADDITIVE.get(step + 1, 0))
                    await conn.execute("UPDATE risc_schema SET version = %s", (step + 1,))
                await conn.execute("UPDATE risc_schema SET readable_from = %s, release = %s", (readable_from, RELEASE))
            logger.info(
                "the %s is at schema version %d (from %d); nodes that know schema version %d or later use it",
                self.where,
                SCHEMA_VERSION,
                schema.version,
                readable_from,
            )

    def _check_newer(self, schema: Schema) -> None:
        """A schema as new as this node knows, or newer: a newer one is used when its steps since are additive (a
        newer release upgraded it while this node's release still runs beside it), else refused."""
        if schema.version == SCHEMA_VERSION:
            return
        upgraded = f"RISC {schema.release}" if schema.release else "a newer release of RISC"
        if schema.readable_from > SCHEMA_VERSION:
            raise StorageError(
                f"the {self.where} is at schema version {schema.version} (upgraded by {upgraded}), which only "
                f"releases that know schema version {schema.readable_from} or later can use; this node is RISC "
                f"{RELEASE} and knows up to version {SCHEMA_VERSION}: run {upgraded} or later here. The database "
                "was left as it is"
            )
        logger.warning(
            "the %s is at schema version %d (upgraded by %s), newer than this node's %d: every step since is "
            "additive, so this node works on it beside the newer ones; upgrade it when you can",
            self.where,
            schema.version,
            upgraded,
            SCHEMA_VERSION,
        )

    async def _schema(self, conn: Any, foreign_check: bool = False) -> Schema:
        """What `risc_schema` says, whatever columns the version has."""
        version = await self._version(conn, foreign_check)
        if version == 0:
            return Schema(0)
        cursor = await conn.execute("SELECT * FROM risc_schema")
        row = await cursor.fetchone()
        if row is None:
            return Schema(0)
        found = dict(zip([c.name for c in cursor.description], row, strict=True))
        return Schema(int(found["version"]), int(found.get("readable_from") or 1), found.get("release"))

    @staticmethod
    async def _version(conn: Any, foreign_check: bool = False) -> int:
        # pg_tables, not to_regclass: a catalog lookup may miss a table another node has just committed, where a
        # query of pg_tables sees what this statement's snapshot sees, as the check of other tables below does.
        found = await (
            await conn.execute(
                "SELECT EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = current_schema() "
                "AND tablename = 'risc_schema')"
            )
        ).fetchone()
        if not found[0]:
            if not foreign_check:
                return 0
            other = await (
                await conn.execute(
                    "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() "
                    "AND tablename IN ('games', 'events')"
                )
            ).fetchone()
            if other[0]:
                raise StorageError(
                    "the database holds tables named games or events that are not RISC's: give RISC "
                    "a database of its own"
                )
            return 0
        row = await (await conn.execute("SELECT version FROM risc_schema")).fetchone()
        return int(row[0]) if row is not None else 0

    def _connection(self, changes: bool = False) -> Any:
        pool = self._changes if changes else self._pool
        if pool is None:
            raise StorageError(f"the {self.where} is not open" + (" for writing" if self._pool else ""))
        return pool.connection()

    async def rows(self, query: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> list[Any]:
        """One statement's rows (none for a statement that returns none), on a pooled connection: what the accounts,
        notices, ratings, invitations and the quick play queue read and write through."""

        async def run(conn: Any) -> list[Any]:
            cursor = await conn.execute(query, params if isinstance(params, Mapping) else tuple(params))
            return list(await cursor.fetchall()) if cursor.description is not None else []

        found: list[Any] = await self.run(run)
        return found

    async def run(self, work: Callable[[Any], Any], changes: bool = False) -> Any:
        """Run `work(connection)` on a pooled connection (`changes`: one of those the changes are written on);
        database failures become StorageError. The cluster's directory reads through it too
        (server/cluster/directory.py)."""
        try:
            async with self._connection(changes) as conn:
                return await work(conn)
        except (StorageError, ValueError):
            raise
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:  # the database, not the statement
            raise StorageUnavailable(f"the {self.where} failed: {_why(exc)}") from exc
        except psycopg.Error as exc:
            raise StorageError(f"the {self.where} failed: {_why(exc)}") from exc
        except Exception as exc:  # the pool gave no connection in time (PoolTimeout), or it is closed
            raise StorageUnavailable(f"the {self.where} failed: {_why(exc)}") from exc

    async def ready(self) -> None:
        async def ask(conn: Any) -> None:
            await conn.execute("SELECT 1")

        await self.run(ask)

    async def check(self) -> None:
        """Replace the pooled connections that no longer work (the database restarted, or ended them): the next
        changes then get working ones rather than each failing once on a dead one."""
        for pool in (self._pool, self._changes):
            if pool is not None:
                with contextlib.suppress(Exception):
                    await pool.check()

    async def close(self) -> None:
        await self._group.flushed()
        for pool in (self._changes, self._pool):
            if pool is not None:
                await pool.close()
        self._pool = self._changes = None

    # ---- writing -------------------------------------------------------------------------------------------------

    def _claimed(self, game_id: str) -> tuple[str, int]:
        """What every change of a game names: the game, and the epoch this node claimed it at. Raises OwnershipLost
        when this node does not play it."""
        epoch = self.epochs.get(game_id)
        if epoch is None:
            raise OwnershipLost(game_id, f"game {game_id} is not played by this node")
        return game_id, epoch

    def _write(self, change: GameChange) -> Awaitable[None]:
        """Write `change` (its rows, written only beside its game's row found at the epoch it names, `_claimed`) in
        the next transaction: done once it is committed, or failed with OwnershipLost or StorageError, nothing of the
        change kept (the group's own future: no coroutine for every change).

        Group commit (group_commit.py), as the SQLite store's: the next transaction carries every change waiting, as
        few statements as can carry them (postgres_changes.py: one, unless a game has two changes in it), sent at
        once and committed at once. If that transaction fails (a change broke a constraint), each of its changes is
        tried again alone, so that one bad change fails alone."""
        if self._pool is None:
            raise StorageError(f"the {self.where} is not open")
        return self._group.write(change)

    def _start_writer(self, hand_over: Callable[[], None]) -> None:
        """Start the writer task, which takes the changes waiting (`hand_over`) when it first runs."""

        async def write() -> None:
            hand_over()
            await self._write_batches()

        self._writing = asyncio.get_running_loop().create_task(write())

    def _commit_batch(self, batch: list[Change[GameChange]], finished: Finished) -> None:
        """Queue a batch for the writer task: one handed over while the task answers the batch before (or as it
        starts) is written by the same task at once."""
        self._batches.append((batch, finished))
        if self._writing is None or self._writing.done():
            self._writing = asyncio.get_running_loop().create_task(self._write_batches())

    async def _write_batches(self) -> None:
        while self._batches:
            batch, finished = self._batches.popleft()
            try:
                await self.run(functools.partial(self._commit, batch=batch), changes=True)
            except Exception as exc:
                finished(exc)
            else:
                finished(True)

    async def _commit(self, conn: Any, batch: list[Change[GameChange]]) -> None:
        cut = layers(batch, lambda change: change.work.game_id)
        statements = [statement([change.work for change in layer]) for layer in cut]
        try:
            if len(statements) == 1:  # one statement is a transaction of its own
                found = [await (await conn.execute(*statements[0])).fetchall()]
            else:
                async with conn.pipeline(), conn.transaction():
                    cursors = [await conn.execute(query, params) for query, params in statements]
                found = [await cursor.fetchall() for cursor in cursors]
        except psycopg.errors.UniqueViolation as exc:
            if len(batch) == 1:
                game_id = batch[0].work.game_id
                constraint = getattr(exc.diag, "constraint_name", "") or ""
                if constraint.startswith("requests"):
                    raise StorageError(f"game {game_id}: request was carried out already") from None
                raise StorageError(f"game {game_id}: {_why(exc)}") from exc
            raise
        for layer, rows in zip(cut, found, strict=True):
            written = {game_id for (game_id,) in rows}
            for change in layer:
                if change.work.game_id not in written:
                    change.error = await self._not_written(conn, change.work.game_id, change.work.epoch)

    async def _not_written(self, conn: Any, game_id: str, epoch: int) -> StorageError:
        """Why a change of a game written at `epoch` found no row: the game is gone, or another node owns it now."""
        owner = await (await conn.execute("SELECT epoch, owner FROM games WHERE game_id = %s", (game_id,))).fetchone()
        if owner is None:
            return StorageError(f"no game {game_id} to save")
        if self.epochs.get(game_id) == epoch:  # not when this node has claimed it again since
            self.epochs.drop(game_id)
        return OwnershipLost(
            game_id,
            f"game {game_id} was taken over by node {owner[1]} (epoch {owner[0]}, this node held epoch {epoch}): "
            "nothing was written",
        )

    async def create(
        self, record: GameRecord, progress: GameProgress, events: Sequence[LogLine], *, summary: str | None = None
    ) -> None:
        game_map = map_text(record.game_map)
        settings = record.settings
        params = {
            "game_id": record.game_id,
            "created_at": record.created_at,
            "record": record.model_dump_json(exclude={"game_map"}),
            "progress": progress.model_dump_json(),
            "phase": phase_column(progress),
            "map_key": map_key(game_map),
            "map": game_map,
            "lock_key": lock_key(record.game_id),
            "owner": self.node_id,
            "clocked": settings.turn_seconds is not None or settings.bots > 0,
            "summary": summary,
            "seqs": [e.seq for e in events],
            "bodies": [e.stored for e in events],
            **_seated_params(progress),
        }
        query = _statement(
            "m AS (INSERT INTO maps (map_key, body) VALUES (%(map_key)s, %(map)s) ON CONFLICT DO NOTHING)",
            """g AS (INSERT INTO games (game_id, created_at, record, progress, phase, map_key, lock_key, epoch, owner,
                                 clocked, summary)
                  VALUES (%(game_id)s, %(created_at)s, %(record)s, %(progress)s, %(phase)s, %(map_key)s,
                          %(lock_key)s, 1, %(owner)s, %(clocked)s, %(summary)s)
                  ON CONFLICT (game_id) DO NOTHING RETURNING game_id)""",
            _EVENTS,
            _SEATED,
        )

        async def insert(conn: Any) -> None:
            row = await (await conn.execute(query, params)).fetchone()
            if row[0] != 1:
                raise StorageError(f"game {record.game_id} exists already")

        await self.run(insert)
        self.epochs.hold(record.game_id, 1)  # its row's epoch: the node creating it holds its lock

    async def save_whole(self, save: WholeSave) -> None:
        progress = save.progress
        step = progress.step
        change = GameChange(
            *self._claimed(save.game_id),
            whole=WholeRow(
                progress=progress.model_dump_json(),
                phase=phase_column(progress),
                handed_over=bool(progress.handed_over),
                closed=progress.finished and progress.state is None,
                summary=save.summary,
                forget_before=-1 if step is None else step - 1,
            ),
            events=save.events,
            seated=seats_of_accounts(progress.seats),
            notices=save.notices,
            request=save.request,
        )
        if save.rated is not None:
            await self._save_rated(change, save.rated)
            return
        await self._write(change)

    async def _save_rated(self, change: GameChange, rated: RatedEnd) -> None:
        """The save that ends a rated game, with its ratings, in one transaction of its own (not a group commit's:
        the ratings are read, worked out and written between its statements)."""
        query, params = statement([change])

        async def work(conn: Any) -> bool:
            async with conn.transaction():
                if not await (await conn.execute(query, params)).fetchall():
                    return False
                await rate_in(conn, rated)
                return True

        if await self.run(work, changes=True):
            self._rated_transactions += 1
            return

        async def why(conn: Any) -> StorageError:
            return await self._not_written(conn, change.game_id, change.epoch)

        raise await self.run(why)

    async def save_order(self, game_id: str, change: OrderChange, request: RequestRecord | None = None) -> None:
        await self.save_orders(game_id, [change], request)

    async def save_orders(
        self, game_id: str, changes: Sequence[OrderChange], request: RequestRecord | None = None
    ) -> None:
        await self._write(GameChange(*self._claimed(game_id), orders=changes, request=request))

    async def save_commit(
        self,
        game_id: str,
        commit: CommitChange,
        events: Sequence[LogLine],
        request: RequestRecord | None = None,
        orders: Sequence[OrderChange] = (),
    ) -> None:
        await self._write(
            GameChange(*self._claimed(game_id), orders=orders, commit=commit, events=events, request=request)
        )

    # ---- reading -------------------------------------------------------------------------------------------------

    async def load(self, game_id: str, tail: int | None = None) -> StoredGame | None:
        found = await self._read(game_id, tail)
        if found is None:
            return None
        record, progress, log, _, _ = found
        return StoredGame(record=record, progress=progress, events=log.entries())

    async def restore(self, game_id: str, tail: int) -> RestoredGame | None:
        found = await self._read(game_id, tail)
        if found is None:
            return None
        record, progress, log, key, requests = found
        return RestoredGame(record=record, progress=progress, log=log, map_key=key, requests=requests)

    async def _read(self, game_id: str, tail: int | None) -> _GameRows | None:
        """One game's rows, as one snapshot of the store sees them."""

        async def read(conn: Any) -> _GameRows | None:
            async with conn.transaction():
                await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                return await self._read_game(conn, game_id, tail)

        result: _GameRows | None = await self.run(read)
        return result

    async def _read_game(self, conn: Any, game_id: str, tail: int | None) -> _GameRows | None:
        row = await (
            await conn.execute(
                "SELECT g.record, g.progress, g.map_key, m.body FROM games g LEFT JOIN maps m USING (map_key) "
                "WHERE g.game_id = %s",
                (game_id,),
            )
        ).fetchone()
        if row is None:
            return None
        record_text, progress_text, key, game_map = row
        if game_map is None:
            raise StorageError(f"game {game_id}: its map (kept under {key[:16]}) is missing from the maps table")
        orders = "SELECT player, step, position, body FROM pending_orders WHERE game_id = %s ORDER BY id"
        changes = [OrderChange(*change) for change in await _rows(conn, orders, game_id)]
        kept_commits = "SELECT player, step, seq FROM pending_commits WHERE game_id = %s ORDER BY id"
        commits = [CommitChange(*commit) for commit in await _rows(conn, kept_commits, game_id)]
        kept_requests = "SELECT player, request_id, reply FROM requests WHERE game_id = %s"
        requests = {(player, asked): reply for player, asked, reply in await _rows(conn, kept_requests, game_id)}
        log = await self._log(conn, game_id, tail)
        progress = with_orders(game_id, GameProgress.model_validate_json(progress_text), changes, commits)
        return record_of(record_text, json.loads(game_map)), progress, log, key, requests

    @staticmethod
    async def _log(conn: Any, game_id: str, tail: int | None) -> StoredLog:
        if tail is None:
            rows = await (
                await conn.execute("SELECT seq, body FROM events WHERE game_id = %s ORDER BY seq", (game_id,))
            ).fetchall()
        else:
            rows = await (
                await conn.execute(
                    "SELECT seq, body FROM events WHERE game_id = %s ORDER BY seq DESC LIMIT %s",
                    (game_id, max(tail, 0)),
                )
            ).fetchall()
            rows.reverse()
        return StoredLog.of_texts(rows[0][0] if rows else 1, [body for _, body in rows])

    async def read_log(self, game_id: str, before: int, count: int) -> StoredLog:
        async def read(conn: Any) -> StoredLog:
            rows = await (
                await conn.execute(
                    "SELECT seq, body FROM events WHERE game_id = %s AND seq < %s ORDER BY seq DESC LIMIT %s",
                    (game_id, before, max(count, 0)),
                )
            ).fetchall()
            rows.reverse()
            return StoredLog.of_texts(rows[0][0] if rows else 1, [body for _, body in rows])

        result: StoredLog = await self.run(read)
        return result

    async def load_unfinished(self, tail: int) -> list[RestoredGame]:
        """Every unfinished game, each read in a snapshot of its own (a store of many games is not read in one)."""
        games: list[RestoredGame] = []
        for game_id in await self.list_games(include_finished=False):
            try:
                game = await self.restore(game_id, tail)
            except (ValueError, StorageError) as exc:
                if not is_damage(game_id, exc):
                    raise  # the database failed, not this game's rows
                self.set_aside(game_id, exc)
                continue
            if game is not None:
                games.append(game)
        return games

    async def list_games(self, include_finished: bool = True) -> list[str]:
        query = "SELECT game_id FROM games" + ("" if include_finished else " WHERE phase <> 'finished'")

        async def read(conn: Any) -> list[str]:
            return [g for (g,) in await (await conn.execute(query + " ORDER BY created_at, game_id")).fetchall()]

        result: list[str] = await self.run(read)
        return result

    def accounts(self) -> AccountStore:
        from server.storage.postgres_accounts import PostgresAccounts

        return PostgresAccounts(self)

    def notices(self) -> NoticeStore:
        from server.storage.postgres_notices import PostgresNotices

        return PostgresNotices(self)

    def ratings(self) -> RatingStore:
        return PostgresRatings(self)

    def invitations(self) -> InvitationStore:
        return PostgresInvitations(self)

    async def created_at(self, game_ids: Sequence[str]) -> dict[str, float]:
        """When each game was created (for `risc games damaged`)."""

        async def read(conn: Any) -> dict[str, float]:
            rows = await (
                await conn.execute("SELECT game_id, created_at FROM games WHERE game_id = ANY(%s)", (list(game_ids),))
            ).fetchall()
            return {g: float(c) for g, c in rows}

        result: dict[str, float] = await self.run(read)
        return result


def _seated_params(progress: GameProgress) -> dict[str, list[str]]:
    """The seats accounts hold, for `account_games`."""
    seated = seats_of_accounts(progress.seats)
    return {"accounts": [a for a, _ in seated], "players": [p for _, p in seated]}


async def _generic_plans(conn: Any) -> None:
    """Plan a change's statement (prepared by psycopg once run five times on the connection) once, not at every run.
    PostgreSQL's own choice keeps planning it for its parameters, because the plan for any parameters is estimated
    dearer (an array's rows are guessed, not counted): 0.3 ms of planning a run, a third more of PostgreSQL's CPU a
    change, for the same plan. Only on the connections the changes are written on: other queries' plans do depend on
    their parameters (a time since which: the plan for any time scans the whole of `vacations`)."""
    await conn.execute("SET plan_cache_mode = force_generic_plan")


_EVENTS = """e AS (INSERT INTO events (game_id, seq, body)
      SELECT g.game_id, x.seq, x.body FROM g, unnest(%(seqs)b::integer[], %(bodies)b::text[]) AS x(seq, body))"""

_SEATED = """a AS (INSERT INTO account_games (account_id, game_id, player)
      SELECT x.account_id, g.game_id, x.player
      FROM g, unnest(%(accounts)b::text[], %(players)b::text[]) AS x(account_id, player)
      ON CONFLICT DO NOTHING)"""


def _statement(*parts: str) -> str:
    """A creation's one statement: its parts chained by WITH (each carried out whether or not the last part reads
    it), its one row counting the games it wrote (`g`)."""
    return "WITH " + ",\n    ".join(parts) + "\nSELECT count(*) FROM g"


async def _rows(conn: Any, query: str, *params: Any) -> list[Any]:
    """The rows of one query on a connection."""
    return list(await (await conn.execute(query, params)).fetchall())


def _why(exc: BaseException) -> str:
    """One line of what the database or the driver said."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
