"""The outbox's sender: a task of every server (every node of a cluster) that takes due notifications from the store,
claimed for a while so that no other node sends them meanwhile, and sends them by mail and webhook.

- A webhook gets each notification as it comes; a failure (no answer, a refusal, an answer that is not a 2xx) is
  tried again after 30 s, doubling, up to `WEBHOOK_TRIES` tries in all: then the account's webhook is paused, and its
  home says why, until the account sets its URL again. A URL that no longer passes the checks pauses it at once.
- Mail is gathered: at most one message an hour per account, carrying every notification that waits for it (the
  first goes at once). One that is no longer news by then (a turn played meanwhile) is left out. A refusal for good
  (a bounce: the mail server refuses the address) or a failure is tried again the same way, `MAIL_TRIES` in all,
  then the account's mail is paused.
- A claim lasts `LEASE` seconds: a sender that dies mid-send (its node killed) leaves its rows to the next sender
  once the claim runs out. That sender sends them again, so a notification whose send had gone through just before
  the death goes twice, with the same id both times (Message-ID, X-Risc-Delivery): the one duplicate there can be.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace

from server.clock import Clock
from server.notify import mail, webhooks
from server.storage.base import StorageError
from server.storage.notices import Channels, NoticeStore, OutboxRow

logger = logging.getLogger("risc.server")

LEASE = 60.0
MAIL_EVERY = 3600.0
WEBHOOK_TRIES = 6
MAIL_TRIES = 5
FIRST_RETRY = 30.0
LONGEST_RETRY = 3600.0
BATCH = 200


def retry_after(tries: int) -> float:
    """Seconds before the next try, after `tries` failed ones: 30 s, doubling, up to an hour."""
    return float(min(FIRST_RETRY * 2 ** max(0, tries - 1), LONGEST_RETRY))


@dataclass(frozen=True)
class Outgoing:
    """Where and how the server sends: `smtp` None sends no mail."""

    smtp: mail.SmtpServer | None = None
    mail_from: str = "risc@localhost"
    page_url: str = "http://localhost:8765/"
    webhook_allow: Collection[str] = ()
    smtp_tls: ssl.SSLContext | None = None
    webhook_tls: ssl.SSLContext | None = None
    poll_every: float = 5.0
    lease: float = LEASE
    lanes: int = 4
    """Accounts sent to at once: a sender shares its node's event loop (each webhook a TLS handshake), so it keeps to
    a few at a time rather than take the loop from the games (bench/notifications.py)."""


@dataclass
class _Plan:
    """What becomes of one claimed row: when each channel is next due (None: done), and its tries."""

    row: OutboxRow
    mail_due: float | None
    hook_due: float | None
    mail_tries: int
    hook_tries: int


@dataclass
class Sender:
    store: NoticeStore
    clock: Clock
    outgoing: Outgoing
    name: str
    """This sender's name in its claims (the node's)."""
    still_news: Callable[[OutboxRow], bool] = lambda row: True
    """Whether a notification is still worth a mail (a turn not played yet): the lobby knows its games."""
    sent: int = 0
    counted: Callable[[str, str, int], None] = lambda channel, outcome, count: None
    """Told of each outcome as it comes (channel, `sent`, `retry` or `paused`, how many): the server's figures."""
    late: Callable[[float], None] = lambda seconds: None
    """Told at each claim how long its oldest row had been due (0 when none was)."""
    _task: asyncio.Task[None] | None = None
    _wake: asyncio.Event = field(default_factory=asyncio.Event)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def poke(self) -> None:
        """Notifications were kept: look at once rather than at the next poll."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                while await self.run_once():
                    pass
            except (StorageError, OSError) as exc:
                logger.warning("notifications: the outbox could not be read: %s", exc)
            except Exception:
                logger.exception("notifications: the sender failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.outgoing.poll_every)

    async def run_once(self) -> int:
        """Claim what is due, send it, settle it; how many rows were claimed (a full batch: there may be more)."""
        now = self.clock.wall()
        rows = await self.store.claim(self.name, now, self.outgoing.lease, BATCH)
        self.late(max((now - _due(row) for row in rows), default=0.0) if rows else 0.0)
        accounts: dict[str, list[OutboxRow]] = {}
        for row in rows:
            accounts.setdefault(row.notice.account_id, []).append(row)
        lanes = asyncio.Semaphore(self.outgoing.lanes)

        async def one(account: str, mine: list[OutboxRow]) -> None:
            async with lanes:
                await self._account(account, mine)

        await asyncio.gather(*(one(account, mine) for account, mine in accounts.items()))
        return len(rows) if len(rows) >= BATCH else 0

    async def _account(self, account_id: str, rows: list[OutboxRow]) -> None:
        channels = await self.store.channels(account_id) or Channels()
        now = self.clock.wall()
        plans = [_Plan(r, r.mail_due, r.hook_due, r.mail_tries, r.hook_tries) for r in rows]
        for plan in plans:
            if plan.row.notice.kind not in channels.events:
                plan.mail_due = plan.hook_due = None
        changed = await self._webhook(account_id, channels, plans, now)
        changed = await self._mail(account_id, changed, plans, now)
        if changed != channels:
            await self.store.set_channels(account_id, changed)
        for plan in plans:
            await self.store.settle(plan.row.id, plan.mail_due, plan.hook_due, (plan.mail_tries, plan.hook_tries))

    async def _webhook(self, account_id: str, channels: Channels, plans: list[_Plan], now: float) -> Channels:
        due = [p for p in plans if p.hook_due is not None and p.hook_due <= now]
        if channels.webhook is None or channels.webhook_paused is not None:
            for plan in plans:
                plan.hook_due = None
            return channels
        for index, plan in enumerate(due):
            notice = plan.row.notice
            delivery = {
                "id": str(plan.row.id),
                "kind": notice.kind,
                "game_id": notice.game_id,
                "at": plan.row.created_at,
                **dict(notice.body),
            }
            text = mail.line(plan.row)
            body = webhooks.payload(text, delivery)
            stamp = str(int(self.clock.wall()))
            headers = {
                "X-Risc-Delivery": str(plan.row.id),
                "X-Risc-Timestamp": stamp,
                "X-Risc-Signature": webhooks.signature(channels.webhook_secret, stamp, body),
            }
            try:
                await webhooks.post(
                    channels.webhook, body, headers, self.outgoing.webhook_allow, self.outgoing.webhook_tls
                )
            except webhooks.Failed as exc:  # a name slow to resolve too (Unresolved): tried again, not paused at once
                plan.hook_tries += 1
                if plan.hook_tries >= WEBHOOK_TRIES:
                    self.counted("webhook", "paused", 1)
                    return self._paused(
                        account_id, channels, plans, "webhook", f"it failed {plan.hook_tries} times running ({exc})"
                    )
                self.counted("webhook", "retry", 1)
                later = now + retry_after(plan.hook_tries)
                for rest in due[index:]:
                    rest.hook_due = later  # the others wait for the same retry, their tries untouched
                return channels
            except webhooks.Unsendable as exc:
                self.counted("webhook", "paused", 1)
                return self._paused(account_id, channels, plans, "webhook", f"its URL will not do: {exc}")
            plan.hook_due = None
            self.sent += 1
            self.counted("webhook", "sent", 1)
        return channels

    async def _mail(self, account_id: str, channels: Channels, plans: list[_Plan], now: float) -> Channels:
        waiting = [p for p in plans if p.mail_due is not None]
        if channels.mail is None or channels.mail_paused is not None or self.outgoing.smtp is None:
            for plan in waiting:
                plan.mail_due = None
            return channels
        if not any(p.mail_due is not None and p.mail_due <= now for p in waiting):
            return channels
        for plan in waiting:
            if not self.still_news(plan.row):
                plan.mail_due = None
        waiting = [p for p in waiting if p.mail_due is not None]
        if not waiting:
            return channels
        if now < channels.mail_last + MAIL_EVERY:
            for plan in waiting:
                plan.mail_due = channels.mail_last + MAIL_EVERY  # gathered into the next message
            return channels
        rows = [p.row for p in waiting]
        unsubscribe = self.outgoing.page_url.rstrip("/") + "/account/unsubscribe?key=" + channels.unsubscribe_key
        message = mail.compose(
            rows,
            channels.mail,
            self.outgoing.mail_from,
            self.outgoing.page_url,
            unsubscribe,
            {},
            now,
        )
        tries = max(p.mail_tries for p in waiting)
        try:
            await mail.send(self.outgoing.smtp, message, self.outgoing.smtp_tls)
        except (mail.MailRefused, mail.MailFailed) as exc:
            tries += 1
            if tries >= MAIL_TRIES:
                self.counted("mail", "paused", len(waiting))
                return self._paused(account_id, channels, plans, "mail", f"it failed {tries} times running ({exc})")
            for plan in waiting:
                plan.mail_tries, plan.mail_due = tries, now + retry_after(tries)
            self.counted("mail", "retry", len(waiting))
            logger.info("notifications: a mail will be tried again: %s", exc)
            return channels
        for plan in waiting:
            plan.mail_due = None
        self.sent += len(waiting)
        self.counted("mail", "sent", len(waiting))
        return replace(channels, mail_last=now)

    @staticmethod
    def _paused(account_id: str, channels: Channels, plans: list[_Plan], channel: str, why: str) -> Channels:
        logger.warning("notifications: an account's %s is paused: %s", channel, why)
        for plan in plans:
            if channel == "webhook":
                plan.hook_due = None
            else:
                plan.mail_due = None
        if channel == "webhook":
            return replace(channels, webhook_paused=why)
        return replace(channels, mail_paused=why)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


def _due(row: OutboxRow) -> float:
    """When a claimed row first fell due: the earlier of its channels' times (its creation when neither is set)."""
    times = [t for t in (row.mail_due, row.hook_due) if t is not None]
    return min(times) if times else row.created_at
