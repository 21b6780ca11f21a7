"""What a store keeps for games that fit lives: accounts' vacations, each account's channels of notification, and the
outbox of notifications waiting to be sent (server/notify/).

The outbox is written in the same transaction as the change that causes a notification (a game's save carries its
notices), so none is lost: a sender takes rows from it by claiming them in the store for a while (`claim`), sends
them, and settles each (done, or to try again at a later time). A sender that dies mid-send leaves its claim to
expire, and another sender (another node) sends those rows again: the one way a notification goes twice, each time
with the same id (docs/notifications.md).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

EVENTS = ("your_turn", "game_started", "game_ended", "player_out", "nudged", "named", "challenge")
"""What an account may be told of: a turn waits for its orders; a game it is in started, ended, or lost a player;
it was nudged or named in a game's chat; a challenge arrived."""


@dataclass(frozen=True)
class Notice:
    """One notification for one account: what happened (`kind`), in which game, and what the account may know of
    it (`body`: JSON values, never more than its seat saw)."""

    account_id: str
    kind: str
    game_id: str | None
    body: Mapping[str, Any]
    at: float
    """When it happened (the time of day): the outbox sends it from then on."""

    def body_text(self) -> str:
        return json.dumps(dict(self.body), ensure_ascii=False, separators=(",", ":"), sort_keys=True)

    def told(self) -> dict[str, Any]:
        """The notice as the other nodes of a cluster hear of it (JSON values)."""
        return {
            "account": self.account_id,
            "kind": self.kind,
            "game": self.game_id,
            "body": dict(self.body),
            "at": self.at,
        }

    @classmethod
    def heard(cls, told: Any) -> Notice | None:
        """A notice another node told of, or None if `told` is not one."""
        if not isinstance(told, dict):
            return None
        account, kind, game, body, at = (told.get(k) for k in ("account", "kind", "game", "body", "at"))
        if not (isinstance(account, str) and isinstance(kind, str) and isinstance(body, dict)):
            return None
        if not (game is None or isinstance(game, str)) or not isinstance(at, int | float):
            return None
        return cls(account, kind, game, body, float(at))


@dataclass(frozen=True)
class OutboxRow:
    """A notice in the outbox: `mail_due` and `hook_due` say when each channel is next to be tried (None: nothing
    left to do on it), with the tries made so far."""

    id: int
    notice: Notice
    created_at: float
    mail_due: float | None
    hook_due: float | None
    mail_tries: int = 0
    hook_tries: int = 0


@dataclass(frozen=True)
class Channels:
    """How an account is told: by mail, by webhook, on the web page, in the text client; and of which events."""

    mail: str | None = None
    webhook: str | None = None
    webhook_secret: str = ""
    events: tuple[str, ...] = EVENTS
    page: bool = True
    terminal: bool = True
    mail_paused: str | None = None
    """Why mail stopped (bounces, failures, an unsubscribe), until the account sets its address again."""
    webhook_paused: str | None = None
    unsubscribe_key: str = ""
    """What the one-click unsubscribe of its mail names (not a session: it does nothing else)."""
    mail_last: float = 0.0
    """When its last mail went: mail is gathered into one message an hour at most."""

    def text(self) -> str:
        return json.dumps({**asdict(self), "events": list(self.events)}, sort_keys=True)

    @classmethod
    def of_text(cls, text: str) -> Channels:
        data = json.loads(text)
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        known["events"] = tuple(known.get("events", EVENTS))
        return cls(**known)


@dataclass(frozen=True)
class VacationRecord:
    account_id: str
    start: float
    end: float


class NoticeStore(ABC):
    """Vacations, channels and the outbox of one store."""

    # ---- vacations --------------------------------------------------------------------------------------------------

    @abstractmethod
    async def add_vacation(self, vacation: VacationRecord, at: float) -> None: ...

    @abstractmethod
    async def cut_vacation(self, account_id: str, end: float, at: float) -> bool:
        """The account's vacation under way (one that ends after `end`) ends at `end`; True if one did."""

    @abstractmethod
    async def vacations_of(self, account_id: str, since: float) -> list[VacationRecord]:
        """The account's vacations that ended after `since`, oldest first."""

    @abstractmethod
    async def vacations_changed(self, since: float) -> list[VacationRecord]:
        """Each account's latest vacation, for the accounts whose vacations changed at or after `since` (every
        node hears of vacations set or ended elsewhere)."""

    # ---- channels ---------------------------------------------------------------------------------------------------

    @abstractmethod
    async def channels(self, account_id: str) -> Channels | None: ...

    @abstractmethod
    async def set_channels(self, account_id: str, channels: Channels) -> None: ...

    @abstractmethod
    async def unsubscribed(self, key: str) -> str | None:
        """Stop the mail of the account whose unsubscribe key this is; its id, or None for no such key."""

    # ---- the outbox -------------------------------------------------------------------------------------------------

    @abstractmethod
    async def enqueue(self, notices: Sequence[Notice]) -> None:
        """Keep notices in the outbox in a transaction of their own (a change that is no game's: a challenge). A
        game's change keeps its notices with its save instead."""

    @abstractmethod
    async def claim(self, sender: str, now: float, lease: float, limit: int) -> list[OutboxRow]:
        """Up to `limit` rows due by `now` that no sender holds (or whose sender's claim ran out), held by `sender`
        until `now + lease`, oldest first; with them, every other row of the same accounts due for mail (a digest
        gathers them)."""

    @abstractmethod
    async def settle(self, row_id: int, mail_due: float | None, hook_due: float | None, tries: tuple[int, int]) -> None:
        """A claimed row sent (its channel's due None) or to try again at a time; a row with nothing left to do on
        any channel goes. The claim is let go."""

    @abstractmethod
    async def pending(self) -> int:
        """Rows still in the outbox (for tests and the bench)."""


def outbox_row(notice: Notice) -> tuple[str, str, str | None, str, float, float, float]:
    """A notice as the outbox tables' columns: account, kind, game, body, created, mail due, hook due."""
    at = notice.at
    return (notice.account_id, notice.kind, notice.game_id, notice.body_text(), at, at, at)


class MemoryNotices(NoticeStore):
    """The notices of a store in memory: they end with the process, as its games do."""

    def __init__(self) -> None:
        self._vacations: list[tuple[VacationRecord, float]] = []
        self._channels: dict[str, Channels] = {}
        self.rows: dict[int, OutboxRow] = {}
        self._claims: dict[int, tuple[str, float]] = {}
        self._next = 1

    async def add_vacation(self, vacation: VacationRecord, at: float) -> None:
        self._vacations.append((vacation, at))

    async def cut_vacation(self, account_id: str, end: float, at: float) -> bool:
        for i, (vacation, _) in enumerate(self._vacations):
            if vacation.account_id == account_id and vacation.end > end:
                self._vacations[i] = (replace(vacation, end=max(vacation.start, end)), at)
                return True
        return False

    async def vacations_of(self, account_id: str, since: float) -> list[VacationRecord]:
        return sorted(
            (v for v, _ in self._vacations if v.account_id == account_id and v.end > since), key=lambda v: v.start
        )

    async def vacations_changed(self, since: float) -> list[VacationRecord]:
        changed = {v.account_id for v, at in self._vacations if at >= since}
        latest: dict[str, VacationRecord] = {}
        for vacation, _ in self._vacations:
            if vacation.account_id in changed:
                before = latest.get(vacation.account_id)
                if before is None or vacation.start >= before.start:
                    latest[vacation.account_id] = vacation
        return list(latest.values())

    async def channels(self, account_id: str) -> Channels | None:
        return self._channels.get(account_id)

    async def set_channels(self, account_id: str, channels: Channels) -> None:
        self._channels[account_id] = channels

    async def unsubscribed(self, key: str) -> str | None:
        for account_id, channels in self._channels.items():
            if key and channels.unsubscribe_key == key:
                self._channels[account_id] = replace(channels, mail_paused="unsubscribed")
                return account_id
        return None

    def keep(self, notices: Sequence[Notice]) -> None:
        for notice in notices:
            self.rows[self._next] = OutboxRow(self._next, notice, notice.at, notice.at, notice.at)
            self._next += 1

    async def enqueue(self, notices: Sequence[Notice]) -> None:
        self.keep(notices)

    async def claim(self, sender: str, now: float, lease: float, limit: int) -> list[OutboxRow]:
        def free(row_id: int) -> bool:
            held = self._claims.get(row_id)
            return held is None or held[1] < now

        due = [
            r
            for r in sorted(self.rows.values(), key=lambda r: r.id)
            if free(r.id)
            and ((r.mail_due is not None and r.mail_due <= now) or (r.hook_due is not None and r.hook_due <= now))
        ][:limit]
        accounts = {r.notice.account_id for r in due}
        taken = {r.id: r for r in due}
        for row in self.rows.values():
            if row.notice.account_id in accounts and row.mail_due is not None and free(row.id):
                taken.setdefault(row.id, row)
        for row_id in taken:
            self._claims[row_id] = (sender, now + lease)
        return sorted(taken.values(), key=lambda r: r.id)

    async def settle(self, row_id: int, mail_due: float | None, hook_due: float | None, tries: tuple[int, int]) -> None:
        self._claims.pop(row_id, None)
        row = self.rows.get(row_id)
        if row is None:
            return
        if mail_due is None and hook_due is None:
            del self.rows[row_id]
        else:
            self.rows[row_id] = replace(
                row, mail_due=mail_due, hook_due=hook_due, mail_tries=tries[0], hook_tries=tries[1]
            )

    async def pending(self) -> int:
        return len(self.rows)
