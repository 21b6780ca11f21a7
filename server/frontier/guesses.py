"""Password guesses, per address: the wait before each refusal once an address has failed a few times, and the log
of them in summary. The server's password (a hello) and accounts' passwords (a sign-in) are each guarded by one.

An address that has given a wrong password more than a few times waits before each further refusal, twice as long
each time up to a cap, and while one of its refusals waits, its other hellos are refused at once without their
password being looked at: a refusal that only waited would not slow an attacker down, who would try many passwords
at once on many connections (the right one answered at once). So an address tests at most one password per wait,
whatever it does, and every other address is served as before (a wait is a sleep of that connection's task alone).
A right password clears the address's failures; failures are forgotten after a quiet while.

Each wrong password used to be logged (752 lines a second under attack); now an address gets one line at its first
failure, then at most one a reporting period, saying how many there were.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum

logger = logging.getLogger("risc.server")

MAX_ADDRESSES = 10_000
"""Addresses whose failures are remembered at once; past it the longest quiet are forgotten first."""


class Verdict(Enum):
    WELCOME = "welcome"
    WRONG = "wrong"
    """A wrong (or missing) password, refused, after the address's wait."""
    BUSY = "busy"
    """Not looked at: a refusal of the same address was waiting."""


@dataclass
class _Address:
    failures: int = 0
    last: float = 0.0
    waiting: bool = False
    until: float = 0.0
    """When the address may guess again (a guesser that does not hold its refusals: `hold` False)."""
    unreported: int = 0
    unreported_busy: int = 0
    next_report: float = 0.0
    timer: asyncio.TimerHandle | None = None


def address_of(host: str) -> str:
    """What failures are counted by: the IPv4 address, or the /64 network of an IPv6 address (one machine may hold
    many addresses of its network)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Guesses:
    def __init__(
        self,
        *,
        free: int,
        delay: float,
        delay_max: float,
        forget: float,
        report_every: float,
        clock: Callable[[], float] = time.monotonic,
        what: str = "hello",
        hold: bool = True,
    ) -> None:
        """`what`: what a guess is, for the log ("hello" with a wrong password, "sign-in"). `hold`: a wrong guess's
        refusal waits out the address's wait (a hello's); else it is answered at once, and the address's guesses
        are refused unread until its wait is over (a sign-in's: no connection is held)."""
        self.hold = hold
        self._checking: dict[str, int] = {}
        """Guesses of each address being looked at now (a sign-in's look takes a hash's time)."""
        self.free = free
        self.delay = delay
        self.delay_max = delay_max
        self.forget = forget
        self.report_every = report_every
        self._clock = clock
        self.what = what
        self._addresses: dict[str, _Address] = {}
        self._stopping = asyncio.Event()
        self.waits: list[float] = []
        """Every wait given, in order (the last 1,000): what the benchmark and the tests read."""

    def wait_after(self, failures: int) -> float:
        """The wait before refusing an address's `failures`-th wrong password: none for the first `free`, then
        `delay`, doubled at each further failure, up to `delay_max`."""
        beyond = failures - self.free
        if beyond <= 0:
            return 0.0
        return min(self.delay * 2.0 ** min(beyond - 1, 60), self.delay_max)

    def waiting(self, host: str) -> bool:
        entry = self._addresses.get(address_of(host))
        return entry is not None and entry.waiting

    async def check(self, host: str, given: str | None, expected: str | None) -> Verdict:
        """Whether a hello from `host` may come in; waits as long as the address has earned before refusing."""
        if expected is None:
            return Verdict.WELCOME

        async def right() -> bool:
            return password_matches(given, expected)

        return await self.attempt(host, right)

    async def attempt(self, host: str, right: Callable[[], Awaitable[bool]]) -> Verdict:
        """One guess from `host`, `right()` telling whether it was right: looked at only when no refusal of the
        address waits (BUSY otherwise, at once); a wrong one waits as long as the address has earned."""
        address = address_of(host)
        entry = self._addresses.get(address)
        checking = self._checking.get(address, 0)
        # At most as many guesses at once as the address has free failures left, and one once it has none: many
        # connections of one address cannot have their guesses looked at side by side.
        room = max(1, self.free - (entry.failures if entry is not None else 0))
        if (entry is not None and (entry.waiting or self._clock() < entry.until)) or checking >= room:
            if entry is not None:
                entry.unreported_busy += 1
                self._report(address, entry)
            return Verdict.BUSY
        self._checking[address] = checking + 1
        try:
            correct = await right()
        finally:
            left = self._checking[address] - 1
            if left:
                self._checking[address] = left
            else:
                del self._checking[address]
        entry = self._addresses.get(address)
        if correct:
            if entry is not None:
                self._flush(address, entry)
                del self._addresses[address]
            return Verdict.WELCOME
        now = self._clock()
        if entry is None or now - entry.last > self.forget:
            if entry is not None:
                self._flush(address, entry)
            entry = _Address(next_report=now)
        entry.failures += 1
        entry.last = now
        self._addresses.pop(address, None)
        self._addresses[address] = entry  # the most recent failure last: the oldest are forgotten first
        self._forget_oldest()
        entry.unreported += 1
        self._report(address, entry)
        wait = self.wait_after(entry.failures)
        if wait > 0 and not self.hold:
            self.waits = [*self.waits[-999:], wait]
            entry.until = now + wait
        elif wait > 0:
            self.waits = [*self.waits[-999:], wait]
            entry.waiting = True
            try:
                with contextlib.suppress(TimeoutError):  # the wait, cut short if the server stops
                    await asyncio.wait_for(self._stopping.wait(), wait)
            finally:
                entry.waiting = False
        return Verdict.WRONG

    def retry_in(self, host: str) -> float:
        """How long an address whose refusal waits should wait before it tries again (at least that refusal's)."""
        entry = self._addresses.get(address_of(host))
        if entry is None:
            return 0.0
        if not self.hold:
            return max(entry.until - self._clock(), 1.0)
        return self.wait_after(entry.failures + 1)

    def _report(self, address: str, entry: _Address) -> None:
        """Log the address's failures at once if its last line is a reporting period old, else once it is."""
        now = self._clock()
        if now >= entry.next_report:
            self._flush(address, entry)
        elif entry.timer is None:
            loop = asyncio.get_running_loop()
            entry.timer = loop.call_later(entry.next_report - now, self._flush, address, entry)

    def _flush(self, address: str, entry: _Address) -> None:
        if entry.timer is not None:
            entry.timer.cancel()
            entry.timer = None
        if not entry.unreported and not entry.unreported_busy:
            return
        parts = []
        if entry.unreported:
            parts.append(f"{entry.unreported} {self.what}{'s' * (entry.unreported != 1)} with a wrong password refused")
        if entry.unreported_busy:
            parts.append(f"{entry.unreported_busy} refused unread while a refusal waited")
        wait = self.wait_after(entry.failures + 1)
        logger.warning(
            "from %s: %s (%d failures in a row%s)",
            address,
            ", ".join(parts),
            entry.failures,
            f"; the next waits {wait:g} s" if wait else "",
        )
        entry.unreported = entry.unreported_busy = 0
        entry.next_report = self._clock() + self.report_every

    def _forget_oldest(self) -> None:
        now = self._clock()
        for address in list(self._addresses):
            entry = self._addresses[address]
            if len(self._addresses) <= MAX_ADDRESSES and now - entry.last <= self.forget:
                break
            if entry.waiting:
                continue
            self._flush(address, entry)
            del self._addresses[address]

    def close(self) -> None:
        """End every wait and log what is not yet reported (the server is stopping)."""
        self._stopping.set()
        for address, entry in self._addresses.items():
            self._flush(address, entry)


def password_matches(given: str | None, expected: str | None) -> bool:
    if expected is None:
        return True
    # surrogatepass: a str that is not UTF-8 text is compared as it is, never raises (config refuses such passwords)
    return given is not None and hmac.compare_digest(
        given.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass")
    )
