"""Vacations, channels and the outbox of the SQLite store: rows of its database file, written through its writer
(group commit, durable before the call returns) and read in a worker thread, as its games are."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from server.storage.notices import Channels, Notice, NoticeStore, OutboxRow, VacationRecord, outbox_row

if TYPE_CHECKING:
    from server.storage.sqlite import SqliteStorage

_ROW = "id, account_id, kind, game_id, body, created_at, mail_due, hook_due, mail_tries, hook_tries"


def row_of(row: Any) -> OutboxRow:
    """An outbox row as read (the columns of _ROW), from either database."""
    row_id, account, kind, game, body, created, mail_due, hook_due, mail_tries, hook_tries = row
    notice = Notice(account, kind, game, json.loads(body), float(created))
    return OutboxRow(
        int(row_id),
        notice,
        float(created),
        None if mail_due is None else float(mail_due),
        None if hook_due is None else float(hook_due),
        int(mail_tries),
        int(hook_tries),
    )


class SqliteNotices(NoticeStore):
    def __init__(self, store: SqliteStorage) -> None:
        self.store = store

    async def add_vacation(self, vacation: VacationRecord, at: float) -> None:
        row = (vacation.account_id, vacation.start, vacation.end, at)
        await self.store.write(
            lambda db: db.execute(
                "INSERT INTO vacations (account_id, starts_at, ends_at, changed_at) VALUES (?, ?, ?, ?)", row
            )
        )

    async def cut_vacation(self, account_id: str, end: float, at: float) -> bool:
        cut = False

        def update(db: sqlite3.Connection) -> None:
            nonlocal cut
            cut = (
                db.execute(
                    "UPDATE vacations SET ends_at = max(starts_at, ?), changed_at = ? "
                    "WHERE account_id = ? AND ends_at > ?",
                    (end, at, account_id, end),
                ).rowcount
                > 0
            )

        await self.store.write(update)
        return cut

    async def vacations_of(self, account_id: str, since: float) -> list[VacationRecord]:
        def read(db: sqlite3.Connection) -> list[VacationRecord]:
            rows = db.execute(
                "SELECT starts_at, ends_at FROM vacations WHERE account_id = ? AND ends_at > ? ORDER BY starts_at",
                (account_id, since),
            )
            return [VacationRecord(account_id, float(a), float(b)) for a, b in rows]

        return await self.store.read(read)

    async def vacations_changed(self, since: float) -> list[VacationRecord]:
        def read(db: sqlite3.Connection) -> list[VacationRecord]:
            rows = db.execute(
                "SELECT v.account_id, v.starts_at, v.ends_at FROM vacations v WHERE v.account_id IN "
                "(SELECT account_id FROM vacations WHERE changed_at >= ?) AND v.starts_at = "
                "(SELECT max(starts_at) FROM vacations w WHERE w.account_id = v.account_id)",
                (since,),
            )
            return [VacationRecord(a, float(b), float(c)) for a, b, c in rows]

        return await self.store.read(read)

    async def channels(self, account_id: str) -> Channels | None:
        def read(db: sqlite3.Connection) -> Channels | None:
            row = db.execute("SELECT body FROM notify_channels WHERE account_id = ?", (account_id,)).fetchone()
            return None if row is None else Channels.of_text(row[0])

        return await self.store.read(read)

    async def set_channels(self, account_id: str, channels: Channels) -> None:
        row = (account_id, channels.text(), channels.unsubscribe_key)
        await self.store.write(
            lambda db: db.execute(
                "INSERT INTO notify_channels (account_id, body, unsubscribe_key) VALUES (?, ?, ?) "
                "ON CONFLICT (account_id) DO UPDATE SET body = excluded.body, "
                "unsubscribe_key = excluded.unsubscribe_key",
                row,
            )
        )

    async def unsubscribed(self, key: str) -> str | None:
        found: str | None = None

        def update(db: sqlite3.Connection) -> None:
            nonlocal found
            row = db.execute(
                "SELECT account_id, body FROM notify_channels WHERE unsubscribe_key = ? AND ? != ''", (key, key)
            ).fetchone()
            if row is None:
                return
            found = str(row[0])
            channels = Channels.of_text(row[1])
            db.execute(
                "UPDATE notify_channels SET body = ? WHERE account_id = ?",
                (replace(channels, mail_paused="unsubscribed").text(), found),
            )

        await self.store.write(update)
        return found

    async def enqueue(self, notices: Sequence[Notice]) -> None:
        from server.storage.sqlite import keep_outbox

        rows = [outbox_row(n) for n in notices]
        await self.store.write(lambda db: keep_outbox(db, rows))

    async def claim(self, sender: str, now: float, lease: float, limit: int) -> list[OutboxRow]:
        found: list[OutboxRow] = []

        def update(db: sqlite3.Connection) -> None:
            free = "(claimed_until IS NULL OR claimed_until < :now)"
            rows = db.execute(
                f"UPDATE outbox SET claimed_by = :sender, claimed_until = :until WHERE id IN ("
                f"SELECT id FROM outbox WHERE {free} AND (mail_due <= :now OR hook_due <= :now) ORDER BY id "
                f"LIMIT :limit) RETURNING {_ROW}",
                {"sender": sender, "until": now + lease, "now": now, "limit": limit},
            ).fetchall()
            accounts = sorted({r[1] for r in rows})
            more = []
            if accounts:
                marks = ",".join("?" * len(accounts))
                more = db.execute(
                    f"UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE account_id IN ({marks}) "
                    f"AND mail_due IS NOT NULL AND (claimed_until IS NULL OR claimed_until < ?) RETURNING {_ROW}",
                    (sender, now + lease, *accounts, now),
                ).fetchall()
            found[:] = sorted((row_of(r) for r in [*rows, *more]), key=lambda r: r.id)  # run again on a retry

        await self.store.write(update)
        return found

    async def settle(self, row_id: int, mail_due: float | None, hook_due: float | None, tries: tuple[int, int]) -> None:
        def update(db: sqlite3.Connection) -> None:
            if mail_due is None and hook_due is None:
                db.execute("DELETE FROM outbox WHERE id = ?", (row_id,))
            else:
                db.execute(
                    "UPDATE outbox SET mail_due = ?, hook_due = ?, mail_tries = ?, hook_tries = ?, claimed_by = NULL, "
                    "claimed_until = NULL WHERE id = ?",
                    (mail_due, hook_due, tries[0], tries[1], row_id),
                )

        await self.store.write(update)

    async def pending(self) -> int:
        return await self.store.read(lambda db: int(db.execute("SELECT count(*) FROM outbox").fetchone()[0]))
