"""The PostgreSQL store's challenges waiting for an answer (its schema version 7, the `invitations` table), which
every node reads and answers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.storage.invitations import Invitation, InvitationStore

if TYPE_CHECKING:
    from server.storage.postgres import PostgresStorage


class PostgresInvitations(InvitationStore):
    def __init__(self, store: PostgresStorage) -> None:
        self.store = store

    async def invite(self, invitation: Invitation) -> None:
        await self.store.rows(
            "INSERT INTO invitations (game_id, account_id, by_name) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
            (invitation.game_id, invitation.account, invitation.by),
        )

    async def invitations(self, account: str) -> list[Invitation]:
        rows = await self.store.rows(
            "SELECT game_id, account_id, by_name FROM invitations WHERE account_id = %s ORDER BY game_id", (account,)
        )
        return [Invitation(*r) for r in rows]

    async def answer(self, game_id: str, account: str) -> Invitation | None:
        rows = await self.store.rows(
            "DELETE FROM invitations WHERE game_id = %s AND account_id = %s RETURNING game_id, account_id, by_name",
            (game_id, account),
        )
        return Invitation(*rows[0]) if rows else None
