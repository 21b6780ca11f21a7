"""Accounts' vacations as the server's matches read them: each account's latest vacation, kept in memory (read once
at start, then kept up to date with this node's changes and, on a shared store, with every node's), so that arming a
game's deadline reads no store.

An account takes up to 10 days at a time, within a yearly allowance (the server's setting, counted over the last 365
days: days a vacation lasted, or will if it runs its course). Games that honour vacations wait for its orders rather
than its deadline while it lasts. Taking a turn in any game while on vacation ends it an hour later.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from server.clock import Clock
from server.core.table import Vacation
from server.refusal import Refusal
from server.storage.base import StorageError
from server.storage.notices import NoticeStore, VacationRecord
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import DAY, LONGEST_TURN
from shared.protocol.notifications import MOST_VACATION_DAYS

logger = logging.getLogger("risc.server")

TURN_ENDS_AFTER = 3600.0
"""Taking a turn while on vacation ends the vacation this long after."""
YEAR = 365 * DAY


class Vacations:
    def __init__(
        self,
        store: NoticeStore,
        clock: Clock,
        allowance_days: float,
        changed: Callable[[str], None],
        *,
        shared: bool = False,
        watch_every: float = 2.0,
    ) -> None:
        self.store = store
        self.clock = clock
        self.allowance_days = allowance_days
        self._changed = changed
        """Called with an account whose vacation changed: the games it sits in arm their deadlines again."""
        self._shared = shared
        self._watch_every = watch_every
        self._latest: dict[str, Vacation] = {}
        self._watcher: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Read the vacations that may still move a deadline; on a shared store, hear of every node's from now on."""
        now = self.clock.wall()
        for record in await self.store.vacations_changed(now - LONGEST_TURN - MOST_VACATION_DAYS * DAY):
            self._latest[record.account_id] = Vacation(record.start, record.end)
        if self._shared:
            self._watcher = asyncio.get_running_loop().create_task(self._watch(now))

    def of(self, account_id: str) -> Vacation | None:
        return self._latest.get(account_id)

    def until(self, account_id: str) -> float | None:
        """When the account's vacation under way ends, or None."""
        vacation = self._latest.get(account_id)
        now = self.clock.wall()
        return vacation.end if vacation is not None and vacation.start <= now < vacation.end else None

    async def used_days(self, account_id: str, ended_at: float | None = None) -> float:
        """Days of vacation the account took in the last 365 days (a vacation under way counted whole, or as though
        it ended at `ended_at`)."""
        now = self.clock.wall()
        last = float("inf") if ended_at is None else ended_at
        taken = await self.store.vacations_of(account_id, now - YEAR)
        return sum(max(0.0, min(v.end, max(v.start, last)) - max(v.start, now - YEAR)) for v in taken) / DAY

    async def take(self, account_id: str, days: float) -> Vacation | None:
        """A vacation of `days` from now (0: end the one under way). Refusal past 10 days or the allowance."""
        now = self.clock.wall()
        if days <= 0:
            await self._cut(account_id, now)
            return None
        if days > MOST_VACATION_DAYS:
            raise Refusal(
                ErrorCode.NO_VACATION_LEFT, f"a vacation lasts {MOST_VACATION_DAYS} days at most", field="days"
            )
        used = await self.used_days(account_id, ended_at=now)  # a new vacation replaces the one under way
        if used + days > self.allowance_days + 1e-9:
            left = max(0.0, self.allowance_days - used)
            raise Refusal(
                ErrorCode.NO_VACATION_LEFT,
                f"you have {left:.3g} of this server's {self.allowance_days:g} days of vacation a year left",
                field="days",
            )
        await self._cut(account_id, now)  # refused, the one under way goes on: only a vacation taken ends it
        vacation = Vacation(now, now + days * DAY)
        await self.store.add_vacation(VacationRecord(account_id, vacation.start, vacation.end), now)
        self._set(account_id, vacation)
        logger.info("an account went on vacation for %g days", days)
        return vacation

    async def took_turn(self, account_id: str) -> None:
        """The account took a turn: a vacation under way ends an hour from now."""
        if self.until(account_id) is None:
            return
        try:
            await self._cut(account_id, self.clock.wall() + TURN_ENDS_AFTER)
        except StorageError as exc:
            logger.warning("a vacation could not be ended after a turn: %s", exc)

    async def _cut(self, account_id: str, end: float) -> None:
        vacation = self._latest.get(account_id)
        if await self.store.cut_vacation(account_id, end, self.clock.wall()) and vacation is not None:
            self._set(account_id, Vacation(vacation.start, max(vacation.start, min(vacation.end, end))))

    def _set(self, account_id: str, vacation: Vacation) -> None:
        self._latest[account_id] = vacation
        self._changed(account_id)

    async def _watch(self, since: float) -> None:
        while True:
            await asyncio.sleep(self._watch_every)
            now = self.clock.wall()
            try:
                changed = await self.store.vacations_changed(since - 5.0)  # a margin for other nodes' clocks
            except (StorageError, OSError) as exc:
                logger.warning("vacations could not be read: %s", exc)
                continue
            since = now
            for record in changed:
                vacation = Vacation(record.start, record.end)
                if self._latest.get(record.account_id) != vacation:
                    self._set(record.account_id, vacation)

    async def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
