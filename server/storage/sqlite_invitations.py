"""The SQLite store's challenges waiting for an answer (its schema version 11, the `invitations` table)."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from server.storage.invitations import Invitation, InvitationStore

if TYPE_CHECKING:
    from server.storage.sqlite import SqliteStorage


class SqliteInvitations(InvitationStore):
    def __init__(self, store: SqliteStorage, kept: bool) -> None:
        """`kept`: the database has the table (one of an older schema, read as it is, has none)."""
        self.store = store
        self.kept = kept

    async def invite(self, invitation: Invitation) -> None:
        row = (invitation.game_id, invitation.account, invitation.by)
        await self.store.write(
            lambda db: db.execute(
                "INSERT OR IGNORE INTO invitations (game_id, account_id, by_name) VALUES (?, ?, ?)", row
            )
        )

    async def invitations(self, account: str) -> list[Invitation]:
        if not self.kept:
            return []
        rows = await self.store.read(
            lambda db: db.execute(
                "SELECT game_id, account_id, by_name FROM invitations WHERE account_id = ? ORDER BY game_id", (account,)
            ).fetchall()
        )
        return [Invitation(*r) for r in rows]

    async def answer(self, game_id: str, account: str) -> Invitation | None:
        found: list[Invitation] = []

        def drop(db: sqlite3.Connection) -> None:
            key = (game_id, account)
            rows = db.execute(
                "SELECT game_id, account_id, by_name FROM invitations WHERE game_id = ? AND account_id = ?", key
            ).fetchall()
            db.execute("DELETE FROM invitations WHERE game_id = ? AND account_id = ?", key)
            found[:] = [Invitation(*r) for r in rows]  # run again on a retry

        await self.store.write(drop)
        return found[0] if found else None
