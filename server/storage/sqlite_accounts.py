"""The accounts of the SQLite store: rows of its database file, written through its writer (group commit, durable
before the call returns) and read in a worker thread, as its games are."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

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
    from server.storage.sqlite import SqliteStorage


class SqliteAccounts(AccountStore):
    def __init__(self, store: SqliteStorage) -> None:
        self.store = store

    async def create_account(self, account: AccountRecord) -> None:
        def insert(db: sqlite3.Connection) -> None:
            try:
                db.execute(
                    f"INSERT INTO accounts ({ACCOUNT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
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
            except sqlite3.IntegrityError:
                raise NameTaken(f"the name {account.name} is taken") from None

        await self.store.write(insert)

    async def account_named(self, name_key: str) -> AccountRecord | None:
        def read(db: sqlite3.Connection) -> AccountRecord | None:
            row = db.execute(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = ?", (name_key,)).fetchone()
            return None if row is None else account_of_row(row)

        return await self.store.read(read)

    async def account(self, account_id: str) -> AccountRecord | None:
        def read(db: sqlite3.Connection) -> AccountRecord | None:
            row = db.execute(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE account_id = ?", (account_id,)).fetchone()
            return None if row is None else account_of_row(row)

        return await self.store.read(read)

    async def accounts(self) -> list[AccountRecord]:
        def read(db: sqlite3.Connection) -> list[AccountRecord]:
            rows = db.execute(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE NOT deleted ORDER BY created_at, name_key")
            return [account_of_row(r) for r in rows]

        return await self.store.read(read)

    async def set_password(
        self, account_id: str, password_hash: str, at: float, keep: str | None, end_sessions: bool = True
    ) -> int:
        ended = 0

        def update(db: sqlite3.Connection) -> None:
            nonlocal ended
            db.execute("UPDATE accounts SET password_hash = ? WHERE account_id = ?", (password_hash, account_id))
            if not end_sessions:
                return
            ended = db.execute(
                "UPDATE sessions SET ended_at = ? WHERE account_id = ? AND ended_at IS NULL AND token_hash IS NOT ?",
                (at, account_id, keep),
            ).rowcount

        await self.store.write(update)
        return ended

    async def set_disabled(self, account_id: str, disabled: bool, at: float) -> None:
        def update(db: sqlite3.Connection) -> None:
            db.execute("UPDATE accounts SET disabled = ? WHERE account_id = ?", (disabled, account_id))
            if disabled:
                db.execute(
                    "UPDATE sessions SET ended_at = ? WHERE account_id = ? AND ended_at IS NULL", (at, account_id)
                )

        await self.store.write(update)

    async def delete_account(self, account_id: str, at: float) -> None:
        def update(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE accounts SET password_hash = '', disabled = 1, deleted = 1 WHERE account_id = ?", (account_id,)
            )
            db.execute("UPDATE sessions SET ended_at = ? WHERE account_id = ? AND ended_at IS NULL", (at, account_id))
            db.execute("DELETE FROM account_games WHERE account_id = ?", (account_id,))

        await self.store.write(update)

    async def failures(self, name_key: str) -> Failures | None:
        def read(db: sqlite3.Connection) -> Failures | None:
            row = db.execute(
                "SELECT failures, locked_until FROM signin_failures WHERE name_key = ?", (name_key,)
            ).fetchone()
            return None if row is None else Failures(int(row[0]), float(row[1]))

        return await self.store.read(read)

    async def note_failure(self, name_key: str, locked_until: float) -> Failures:
        count = 0

        def update(db: sqlite3.Connection) -> None:
            nonlocal count
            row = db.execute(
                "INSERT INTO signin_failures (name_key, failures, locked_until) VALUES (?, 1, ?) "
                "ON CONFLICT (name_key) DO UPDATE SET failures = failures + 1, locked_until = excluded.locked_until "
                "RETURNING failures",
                (name_key, locked_until),
            ).fetchone()
            count = int(row[0])

        await self.store.write(update)
        return Failures(count, locked_until)

    async def clear_failures(self, name_key: str) -> None:
        await self.store.write(lambda db: db.execute("DELETE FROM signin_failures WHERE name_key = ?", (name_key,)))

    async def add_session(self, session: SessionRecord) -> None:
        row = (
            session.token_hash,
            session.account_id,
            session.created_at,
            session.last_used_at,
            session.expires_at,
            session.client,
            session.ended_at,
        )
        await self.store.write(
            lambda db: db.execute(f"INSERT INTO sessions ({SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)", row)
        )

    async def session(self, token_hash: str) -> tuple[SessionRecord, AccountRecord] | None:
        def read(db: sqlite3.Connection) -> tuple[SessionRecord, AccountRecord] | None:
            row = db.execute(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE token_hash = ?", (token_hash,)).fetchone()
            if row is None:
                return None
            account = db.execute(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE account_id = ?", (row[1],)).fetchone()
            return None if account is None else (session_of_row(row), account_of_row(account))

        return await self.store.read(read)

    async def touch_session(self, token_hash: str, at: float, expires_at: float) -> None:
        await self.store.write(
            lambda db: db.execute(
                "UPDATE sessions SET last_used_at = ?, expires_at = ? WHERE token_hash = ? AND ended_at IS NULL",
                (at, expires_at, token_hash),
            )
        )

    async def end_sessions(self, account_id: str, at: float, only: str | None = None) -> int:
        ended = 0

        def update(db: sqlite3.Connection) -> None:
            nonlocal ended
            ended = db.execute(
                "UPDATE sessions SET ended_at = ? WHERE account_id = ? AND ended_at IS NULL "
                "AND (? IS NULL OR token_hash = ?)",
                (at, account_id, only, only),
            ).rowcount

        await self.store.write(update)
        return ended

    async def sessions_of(self, account_id: str, now: float) -> list[SessionRecord]:
        def read(db: sqlite3.Connection) -> list[SessionRecord]:
            rows = db.execute(
                f"SELECT {SESSION_COLUMNS} FROM sessions WHERE account_id = ? AND ended_at IS NULL AND expires_at > ? "
                "ORDER BY created_at",
                (account_id, now),
            )
            return [session_of_row(r) for r in rows]

        return await self.store.read(read)

    async def ended_since(self, at: float) -> list[SessionRecord]:
        def read(db: sqlite3.Connection) -> list[SessionRecord]:
            rows = db.execute(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE ended_at >= ?", (at,))
            return [session_of_row(r) for r in rows]

        return await self.store.read(read)

    async def forget_sessions(self, before: float) -> int:
        gone = 0

        def delete(db: sqlite3.Connection) -> None:
            nonlocal gone
            gone = db.execute(
                "DELETE FROM sessions WHERE (ended_at IS NOT NULL AND ended_at < ?) OR expires_at < ?", (before, before)
            ).rowcount

        await self.store.write(delete)
        return gone

    async def games_of(self, account_id: str, limit: int) -> list[AccountGame]:
        def read(db: sqlite3.Connection) -> list[AccountGame]:
            rows = db.execute(
                "SELECT g.game_id, a.player, g.summary, g.created_at FROM account_games a JOIN games g "
                "USING (game_id) WHERE a.account_id = ? ORDER BY g.created_at DESC, g.game_id LIMIT ?",
                (account_id, limit),
            )
            return [AccountGame(r[0], r[1], r[2], float(r[3])) for r in rows]

        return await self.store.read(read)
