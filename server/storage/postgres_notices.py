"""Vacations, channels and the outbox of the PostgreSQL store, shared by every node: a sender claims outbox rows with
`FOR UPDATE SKIP LOCKED`, so that two nodes never take the same row while its claim lasts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from server.storage.notices import Channels, Notice, NoticeStore, OutboxRow, VacationRecord, outbox_row
from server.storage.sqlite_notices import row_of

if TYPE_CHECKING:
    from server.storage.postgres import PostgresStorage

_ROW = "id, account_id, kind, game_id, body, created_at, mail_due, hook_due, mail_tries, hook_tries"


class PostgresNotices(NoticeStore):
    def __init__(self, store: PostgresStorage) -> None:
        self.store = store

    async def add_vacation(self, vacation: VacationRecord, at: float) -> None:
        await self.store.rows(
            "INSERT INTO vacations (account_id, starts_at, ends_at, changed_at) VALUES (%s, %s, %s, %s)",
            (vacation.account_id, vacation.start, vacation.end, at),
        )

    async def cut_vacation(self, account_id: str, end: float, at: float) -> bool:
        rows = await self.store.rows(
            "UPDATE vacations SET ends_at = greatest(starts_at, %s), changed_at = %s "
            "WHERE account_id = %s AND ends_at > %s RETURNING 1",
            (end, at, account_id, end),
        )
        return bool(rows)

    async def vacations_of(self, account_id: str, since: float) -> list[VacationRecord]:
        rows = await self.store.rows(
            "SELECT starts_at, ends_at FROM vacations WHERE account_id = %s AND ends_at > %s ORDER BY starts_at",
            (account_id, since),
        )
        return [VacationRecord(account_id, float(a), float(b)) for a, b in rows]

    async def vacations_changed(self, since: float) -> list[VacationRecord]:
        rows = await self.store.rows(
            "SELECT DISTINCT ON (account_id) account_id, starts_at, ends_at FROM vacations WHERE account_id IN "
            "(SELECT account_id FROM vacations WHERE changed_at >= %s) ORDER BY account_id, starts_at DESC",
            (since,),
        )
        return [VacationRecord(a, float(b), float(c)) for a, b, c in rows]

    async def channels(self, account_id: str) -> Channels | None:
        rows = await self.store.rows("SELECT body FROM notify_channels WHERE account_id = %s", (account_id,))
        return Channels.of_text(rows[0][0]) if rows else None

    async def set_channels(self, account_id: str, channels: Channels) -> None:
        await self.store.rows(
            "INSERT INTO notify_channels (account_id, body, unsubscribe_key) VALUES (%s, %s, %s) "
            "ON CONFLICT (account_id) DO UPDATE SET body = excluded.body, unsubscribe_key = excluded.unsubscribe_key",
            (account_id, channels.text(), channels.unsubscribe_key),
        )

    async def unsubscribed(self, key: str) -> str | None:
        if not key:
            return None
        rows = await self.store.rows("SELECT account_id, body FROM notify_channels WHERE unsubscribe_key = %s", (key,))
        if not rows:
            return None
        account_id, body = rows[0]
        await self.set_channels(account_id, replace(Channels.of_text(body), mail_paused="unsubscribed"))
        return str(account_id)

    async def enqueue(self, notices: Sequence[Notice]) -> None:
        await self.enqueue_in(None, notices)

    async def enqueue_in(self, conn: Any, notices: Sequence[Notice]) -> None:
        """Keep notices in the outbox: on `conn`, in the transaction a caller has open there (a challenge made in
        the same transaction), or in one of their own."""
        rows = [outbox_row(n) for n in notices]
        query = (
            "INSERT INTO outbox (account_id, kind, game_id, body, created_at, mail_due, hook_due) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s)"
        )

        async def run(connection: Any) -> None:
            async with connection.cursor() as cursor:
                await cursor.executemany(query, rows)

        if conn is not None:
            await run(conn)
        elif rows:
            await self.store.run(run)

    async def claim(self, sender: str, now: float, lease: float, limit: int) -> list[OutboxRow]:
        params = {"sender": sender, "until": now + lease, "now": now, "limit": limit}
        rows = await self.store.rows(
            f"""WITH due AS (SELECT id, account_id FROM outbox
                             WHERE (claimed_until IS NULL OR claimed_until < %(now)s)
                               AND (mail_due <= %(now)s OR hook_due <= %(now)s)
                             ORDER BY id LIMIT %(limit)s FOR UPDATE SKIP LOCKED),
                     more AS (SELECT o.id FROM outbox o WHERE o.account_id IN (SELECT account_id FROM due)
                              AND o.mail_due IS NOT NULL AND (o.claimed_until IS NULL OR o.claimed_until < %(now)s)
                              FOR UPDATE SKIP LOCKED)
                UPDATE outbox SET claimed_by = %(sender)s, claimed_until = %(until)s
                WHERE id IN (SELECT id FROM due UNION SELECT id FROM more) RETURNING {_ROW}""",
            params,
        )
        return sorted((row_of(r) for r in rows), key=lambda r: r.id)

    async def settle(self, row_id: int, mail_due: float | None, hook_due: float | None, tries: tuple[int, int]) -> None:
        if mail_due is None and hook_due is None:
            await self.store.rows("DELETE FROM outbox WHERE id = %s", (row_id,))
            return
        await self.store.rows(
            "UPDATE outbox SET mail_due = %s, hook_due = %s, mail_tries = %s, hook_tries = %s, claimed_by = NULL, "
            "claimed_until = NULL WHERE id = %s",
            (mail_due, hook_due, tries[0], tries[1], row_id),
        )

    async def pending(self) -> int:
        rows = await self.store.rows("SELECT count(*) FROM outbox", ())
        return int(rows[0][0])
