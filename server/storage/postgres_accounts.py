"""The accounts of the PostgreSQL store: rows of its database, each write one statement (committed, and so durable,
before the call returns), shared by every node, so that a session made on one node is good on all of them and an
account disabled on one is refused on all."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from server.storage.accounts import (
    ACCOUNT_COLUMNS,
    SESSION_COLUMNS,
    AccountGame,
    AccountRecord,
    AccountStore,
    Failures,
    NameTaken,
    SessionRecord,
    account_of_row,
    session_of_row,
)

if TYPE_CHECKING:
    from server.storage.postgres import PostgresStorage

try:
    import psycopg
except ImportError:  # pragma: no cover - the SQLite default needs none of it
    psycopg = None  # type: ignore[assignment]


class PostgresAccounts(AccountStore):
    def __init__(self, store: PostgresStorage) -> None:
        self.store = store

    async def _one(self, query: str, params: tuple[Any, ...]) -> Any:
        async def run(conn: Any) -> Any:
            return await (await conn.execute(query, params)).fetchone()

        return await self.store.run(run)

    async def _count(self, query: str, params: tuple[Any, ...]) -> int:
        async def run(conn: Any) -> int:
            return int((await conn.execute(query, params)).rowcount)

        count: int = await self.store.run(run)
        return count

    async def create_account(self, account: AccountRecord) -> None:
        async def insert(conn: Any) -> None:
            try:
                await conn.execute(
                    f"INSERT INTO accounts ({ACCOUNT_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    (
                        account.account_id,
                        account.name,
                        account.name_key,
                        account.password_hash,
                        account.created_at,
                        account.disabled,
                        account.deleted,
                    ),
                )
            except psycopg.errors.UniqueViolation:
                raise NameTaken(f"the name {account.name} is taken") from None

        await self.store.run(insert)

    async def account_named(self, name_key: str) -> AccountRecord | None:
        row = await self._one(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = %s", (name_key,))
        return None if row is None else account_of_row(row)

    async def account(self, account_id: str) -> AccountRecord | None:
        row = await self._one(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE account_id = %s", (account_id,))
        return None if row is None else account_of_row(row)

    async def accounts(self) -> list[AccountRecord]:
        rows = await self.store.rows(
            f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE NOT deleted ORDER BY created_at, name_key", ()
        )
        return [account_of_row(r) for r in rows]

    async def set_password(
        self, account_id: str, password_hash: str, at: float, keep: str | None, end_sessions: bool = True
    ) -> int:
        row = await self._one(
            "WITH a AS (UPDATE accounts SET password_hash = %s WHERE account_id = %s), "
            "s AS (UPDATE sessions SET ended_at = %s WHERE account_id = %s AND ended_at IS NULL "
            "AND token_hash IS DISTINCT FROM %s AND %s RETURNING 1) SELECT count(*) FROM s",
            (password_hash, account_id, at, account_id, keep, end_sessions),
        )
        return int(row[0])

    async def set_disabled(self, account_id: str, disabled: bool, at: float) -> None:
        await self._one(
            "WITH a AS (UPDATE accounts SET disabled = %s WHERE account_id = %s), "
            "s AS (UPDATE sessions SET ended_at = %s WHERE account_id = %s AND ended_at IS NULL AND %s) "
            "SELECT 1",
            (disabled, account_id, at, account_id, disabled),
        )

    async def delete_account(self, account_id: str, at: float) -> None:
        await self._one(
            "WITH a AS (UPDATE accounts SET password_hash = '', disabled = true, deleted = true "
            "WHERE account_id = %s), "
            "s AS (UPDATE sessions SET ended_at = %s WHERE account_id = %s AND ended_at IS NULL), "
            "g AS (DELETE FROM account_games WHERE account_id = %s) SELECT 1",
            (account_id, at, account_id, account_id),
        )

    async def failures(self, name_key: str) -> Failures | None:
        row = await self._one("SELECT failures, locked_until FROM signin_failures WHERE name_key = %s", (name_key,))
        return None if row is None else Failures(int(row[0]), float(row[1]))

    async def note_failure(self, name_key: str, locked_until: float) -> Failures:
        row = await self._one(
            "INSERT INTO signin_failures (name_key, failures, locked_until) VALUES (%s, 1, %s) "
            "ON CONFLICT (name_key) DO UPDATE SET failures = signin_failures.failures + 1, "
            "locked_until = excluded.locked_until RETURNING failures",
            (name_key, locked_until),
        )
        return Failures(int(row[0]), locked_until)

    async def clear_failures(self, name_key: str) -> None:
        await self._count("DELETE FROM signin_failures WHERE name_key = %s", (name_key,))

    async def add_session(self, session: SessionRecord) -> None:
        await self._count(
            f"INSERT INTO sessions ({SESSION_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (
                session.token_hash,
                session.account_id,
                session.created_at,
                session.last_used_at,
                session.expires_at,
                session.client,
                session.ended_at,
            ),
        )

    async def session(self, token_hash: str) -> tuple[SessionRecord, AccountRecord] | None:
        row = await self._one(
            f"SELECT {', '.join('s.' + c.strip() for c in SESSION_COLUMNS.split(','))}, "
            f"{', '.join('a.' + c.strip() for c in ACCOUNT_COLUMNS.split(','))} "
            "FROM sessions s JOIN accounts a USING (account_id) WHERE s.token_hash = %s",
            (token_hash,),
        )
        if row is None:
            return None
        return session_of_row(row[:7]), account_of_row(row[7:])

    async def touch_session(self, token_hash: str, at: float, expires_at: float) -> None:
        await self._count(
            "UPDATE sessions SET last_used_at = %s, expires_at = %s WHERE token_hash = %s AND ended_at IS NULL",
            (at, expires_at, token_hash),
        )

    async def end_sessions(self, account_id: str, at: float, only: str | None = None) -> int:
        return await self._count(
            "UPDATE sessions SET ended_at = %s WHERE account_id = %s AND ended_at IS NULL "
            "AND (%s::text IS NULL OR token_hash = %s)",
            (at, account_id, only, only),
        )

    async def sessions_of(self, account_id: str, now: float) -> list[SessionRecord]:
        rows = await self.store.rows(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE account_id = %s AND ended_at IS NULL AND expires_at > %s "
            "ORDER BY created_at",
            (account_id, now),
        )
        return [session_of_row(r) for r in rows]

    async def ended_since(self, at: float) -> list[SessionRecord]:
        rows = await self.store.rows(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE ended_at >= %s", (at,))
        return [session_of_row(r) for r in rows]

    async def forget_sessions(self, before: float) -> int:
        return await self._count(
            "DELETE FROM sessions WHERE (ended_at IS NOT NULL AND ended_at < %s) OR expires_at < %s", (before, before)
        )

    async def games_of(self, account_id: str, limit: int) -> list[AccountGame]:
        rows = await self.store.rows(
            "SELECT g.game_id, a.player, g.summary, g.created_at FROM account_games a JOIN games g USING (game_id) "
            "WHERE a.account_id = %s ORDER BY g.created_at DESC, g.game_id LIMIT %s",
            (account_id, limit),
        )
        return [AccountGame(r[0], r[1], r[2], float(r[3])) for r in rows]
