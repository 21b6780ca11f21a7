"""What an account asks about being told of its games (its channels, its vacation), the notices its live connections
are sent at once, and the one-click unsubscribe of its mail (plain HTTP on the game's port).

The page and the text client are told live: a change that makes a notice sends it to the account's connections on
this server at once (the web page's when the account keeps `page` on, the others' when it keeps `terminal` on), and
the page shows it through the browser's Notification API while it is hidden, the text client with a bell and a line
for a game not on its screen. Mail and webhooks go from the store's outbox (server/notify/sender.py).
"""

from __future__ import annotations

import asyncio
import html
import http
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from dataclasses import replace
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

from websockets.http11 import Request, Response

from server.accounts.service import SignedIn
from server.frontier.web import response
from server.notify import mail, webhooks
from server.notify.sender import Outgoing, Sender
from server.notify.vacations import Vacations
from server.refusal import Refusal
from server.storage.base import StorageError
from server.storage.notices import Channels, Notice, NoticeStore, OutboxRow
from shared.protocol.codes import ErrorCode
from shared.protocol.notifications import (
    AskNotifications,
    AskVacation,
    ChannelProblem,
    NotificationSettings,
    SetNotifications,
    VacationStatus,
)
from shared.protocol.notifications import Notice as NoticeMessage

logger = logging.getLogger("risc.server")

UNSUBSCRIBE_PATH = "/account/unsubscribe"
PAGE_CLIENT = "risc-web"
"""The web page's name for itself in its hello: its connections are told when the account keeps `page` on; every
other client's when it keeps `terminal` on."""
_ADDRESS = re.compile(r"^[^@\s<>()\[\],;:\"\\]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$")


class Member(Protocol):
    signed: SignedIn | None
    client_name: str | None

    def send(self, message: Any, text: str | None = None) -> None: ...


def checked_address(text: str) -> str:
    """A mail address the server will write to: one address, no control character (no header injection)."""
    if not _ADDRESS.match(text) or any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise Refusal(ErrorCode.BAD_CHANNEL, "that is not a mail address the server can write to", field="mail")
    return text


class Notifier:
    """The notifications of one server: channels and vacations asked about, live notices, the outbox's sender."""

    def __init__(
        self,
        store: NoticeStore,
        vacations: Vacations,
        sender: Sender,
        outgoing: Outgoing,
        connections: Callable[[], Iterable[Any]],
    ) -> None:
        self.store = store
        self.vacations = vacations
        self.sender = sender
        self.outgoing = outgoing
        self.connections = connections
        self.on_kept: Callable[[str], None] = lambda kind: None
        """Told the kind of each notice kept (the server's figures)."""
        self.elsewhere: Callable[[list[dict[str, Any]]], Awaitable[None]] | None = None
        """How the other nodes of a cluster hear of the notices kept here (server/lobby/directory.py)."""
        """The server's live connections (the transport's, once it is made)."""
        self._tasks: set[asyncio.Task[None]] = set()

    # ---- the account's requests ----------------------------------------------------------------------------------

    async def handle(self, member: Member, message: object, signed: SignedIn) -> None:
        match message:
            case AskNotifications():
                member.send(self._settings(await self._channels(signed.account_id), message.ref))
            case SetNotifications():
                channels = await self._changed(signed.account_id, message)
                await self._stored(self.store.set_channels(signed.account_id, channels))
                member.send(self._settings(channels, message.ref))
            case AskVacation():
                if message.days is not None:
                    await self._stored(self.vacations.take(signed.account_id, message.days))
                used = await self._stored(self.vacations.used_days(signed.account_id))
                member.send(
                    VacationStatus(
                        until=self.vacations.until(signed.account_id),
                        used_days=round(used, 4),
                        allowed_days=self.vacations.allowance_days,
                        ref=message.ref,
                    )
                )

    async def _channels(self, account_id: str) -> Channels:
        return await self._stored(self.store.channels(account_id)) or Channels()

    async def _changed(self, account_id: str, message: SetNotifications) -> Channels:
        channels = await self._channels(account_id)
        given = message.model_fields_set
        if "mail" in given:
            address = None if message.mail is None else checked_address(message.mail.strip())
            channels = replace(channels, mail=address, mail_paused=None, unsubscribe_key=secrets.token_urlsafe(24))
        if "webhook" in given:
            url = message.webhook
            if url is not None:
                try:
                    await webhooks.check(url, self.outgoing.webhook_allow)
                except webhooks.Unsendable as exc:
                    raise Refusal(ErrorCode.BAD_CHANNEL, f"that webhook will not do: {exc}", field="webhook") from None
            channels = replace(channels, webhook=url, webhook_paused=None, webhook_secret=secrets.token_hex(32))
        if message.events is not None:
            channels = replace(channels, events=tuple(dict.fromkeys(message.events)))
        if message.page is not None:
            channels = replace(channels, page=message.page)
        if message.terminal is not None:
            channels = replace(channels, terminal=message.terminal)
        return channels

    @staticmethod
    def _settings(channels: Channels, ref: str | None) -> NotificationSettings:
        return NotificationSettings(
            mail=channels.mail,
            webhook=channels.webhook,
            webhook_secret=channels.webhook_secret if channels.webhook else None,
            events=list(channels.events),  # type: ignore[arg-type]
            page=channels.page,
            terminal=channels.terminal,
            mail_paused=channels.mail_paused,
            webhook_paused=channels.webhook_paused,
            ref=ref,
        )

    async def problems(self, account_id: str) -> list[ChannelProblem]:
        """The account's paused channels, for its home."""
        try:
            channels = await self.store.channels(account_id)
        except StorageError:
            return []
        found = []
        if channels is not None and channels.mail_paused is not None and channels.mail_paused != "unsubscribed":
            found.append(ChannelProblem(channel="mail", why=channels.mail_paused))
        if channels is not None and channels.webhook_paused is not None:
            found.append(ChannelProblem(channel="webhook", why=channels.webhook_paused))
        return found

    @staticmethod
    async def _stored(work: Any) -> Any:
        try:
            return await work
        except StorageError as exc:
            logger.error("notifications: the store failed: %s", exc)
            raise Refusal(ErrorCode.STORAGE_FAILED, "the server could not reach its store: try again") from None

    # ---- live notices --------------------------------------------------------------------------------------------

    def kept(self, notices: Sequence[Notice]) -> None:
        """A change kept these in the outbox: its sender looks at once, and live connections are told now."""
        for notice in notices:
            self.on_kept(notice.kind)
        self.sender.poke()
        self._spawn(self._live(notices))
        if self.elsewhere is not None:
            self._spawn(self._tell_elsewhere(self.elsewhere, [n.told() for n in notices]))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _tell_elsewhere(
        tell: Callable[[list[dict[str, Any]]], Awaitable[None]], told: list[dict[str, Any]]
    ) -> None:
        try:
            await tell(told)
        except StorageError as exc:  # the mail and webhooks still go: only the other nodes' live notice is lost
            logger.warning("notifications: the other nodes could not be told: %s", exc)

    async def heard(self, told: list[Any]) -> None:
        """Notices another node kept: this node's connections of their accounts are told, as that node's are."""
        notices = [n for n in (Notice.heard(one) for one in told) if n is not None]
        if notices:
            await self._live(notices)

    async def _live(self, notices: Sequence[Notice]) -> None:
        accounts = {n.account_id for n in notices}
        held = [c for c in self.connections() if getattr(c, "signed", None) is not None]
        held = [c for c in held if c.signed.account_id in accounts]
        if not held:
            return
        for notice in notices:
            mine = [c for c in held if c.signed.account_id == notice.account_id]
            if not mine:
                continue
            try:
                channels = await self.store.channels(notice.account_id) or Channels()
            except StorageError:
                channels = Channels()
            if notice.kind not in channels.events:
                continue
            row = OutboxRow(0, notice, notice.at, None, None)
            message = NoticeMessage(
                id=f"{notice.game_id}:{notice.kind}:{notice.at:.3f}",
                kind=notice.kind,  # type: ignore[arg-type]
                game_id=notice.game_id,
                text=mail.line(row),
                body=dict(notice.body),
            )
            for conn in mine:
                page = getattr(conn, "client_name", None) == PAGE_CLIENT
                if channels.page if page else channels.terminal:
                    conn.send(message)

    async def challenge(self, account_id: str, by: str, text: str | None, at: float) -> None:
        """A challenge (of the ratings' quick play) for `account_id` from `by`: kept in the outbox in a transaction of
        its own and told live. A change that makes the challenge in the store itself keeps the same notice in its own
        transaction instead (`keep_outbox(db, [outbox_row(notice)])`, or PostgresNotices.enqueue_in) and calls
        `kept`."""
        notice = Notice(account_id, "challenge", None, {"by": by, "text": text}, at)
        await self.store.enqueue([notice])
        self.kept([notice])

    # ---- the one-click unsubscribe --------------------------------------------------------------------------------

    async def unsubscribe(self, request: Request) -> Response:
        """GET: a page with one button (a mail scanner that follows links unsubscribes nobody); POST (the button, or
        a mail program's one-click, RFC 8058): the account's mail stops."""
        key = parse_qs(urlsplit(request.path).query).get("key", [""])[0]
        if request.method == "GET":
            form = (
                "<!doctype html><meta charset=utf-8><title>RISC: stop mail</title>"
                f'<form method=post action="{UNSUBSCRIBE_PATH}?key={html.escape(key)}">'
                "<p>Stop the mail this server sends you about your games?</p>"
                "<button name=List-Unsubscribe value=One-Click>Stop the mail</button></form>"
            )
            return response(
                http.HTTPStatus.OK, "text/html; charset=utf-8", form.encode(), [("Cache-Control", "no-store")]
            )
        if request.method != "POST":
            return response(
                http.HTTPStatus.METHOD_NOT_ALLOWED, "text/plain", b"GET or POST\n", [("Allow", "GET, POST")]
            )
        try:
            account = await self.store.unsubscribed(key) if key else None
        except StorageError:
            return response(http.HTTPStatus.SERVICE_UNAVAILABLE, "text/plain", b"try again in a moment\n", [])
        if account is None:
            return response(http.HTTPStatus.NOT_FOUND, "text/plain", b"that link unsubscribes nobody (any more)\n", [])
        logger.info("notifications: an account unsubscribed from mail")
        return response(
            http.HTTPStatus.OK, "text/html; charset=utf-8", b"<!doctype html><p>No more mail: done.</p>", []
        )

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self.sender.close()
        await self.vacations.close()
