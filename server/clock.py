"""Time as the server sees it: now, the time of day, and a call later. Passed in, so that a test can move time
itself: every clock the server reads is one of these (a match's timers, the frontier's rate limits, the computers'
share of the time, the name of a rescued database). What the server measures of itself for its metrics (how long a
request or a commit took) is a stopwatch's, below: it changes nothing the server does."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Protocol


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a clock that never goes back: what waits and deadlines are measured on."""
        ...

    def wall(self) -> float:
        """The time of day, in seconds since the epoch: what a record says a game was created at."""
        ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer: ...


def stopwatch() -> float:
    """Seconds on the finest clock there is, for measuring how long something took (metrics alone: no decision of
    the server reads it)."""
    return time.perf_counter()


def timestamp(clock: Clock) -> str:
    """The clock's time of day, local, as a file's name holds it (20261128-110047)."""
    return time.strftime("%Y%m%d-%H%M%S", time.localtime(clock.wall()))


class RunningLoop:
    """The event loop running in this thread, asked for once and kept while it runs. asyncio.get_running_loop()
    makes a system call each time (getpid: CPython's check for a fork), and the server asks on every message (its
    rate limits' clock) and every change (its store): 2 % of a busy event loop's samples at 6,250 games."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = 0

    def get(self) -> asyncio.AbstractEventLoop:
        """The running loop, as asyncio.get_running_loop() gives it (RuntimeError where none runs)."""
        loop = self._loop
        if loop is None or self._thread != threading.get_ident() or not loop.is_running():
            loop = self._loop = asyncio.get_running_loop()
            self._thread = threading.get_ident()
        return loop


class LoopClock:
    """The running event loop's clock."""

    def __init__(self) -> None:
        self._running = RunningLoop()

    def now(self) -> float:
        return self._running.get().time()

    def wall(self) -> float:
        return time.time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return self._running.get().call_later(delay, callback)


class ManualClock:
    """A clock that moves only when told: `advance(seconds)` runs every callback that falls due, in order."""

    WALL_START = 1_700_000_000.0
    """The time of day when the clock's `now` is 0 (14 November 2023): a fixed day, so that records made under it
    read the same on every run."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._due: list[tuple[float, int, Callable[[], None], _ManualTimer]] = []
        self._count = 0

    def now(self) -> float:
        return self._now

    def wall(self) -> float:
        return self.WALL_START + self._now

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        timer = _ManualTimer()
        self._count += 1
        self._due.append((self._now + max(delay, 0.0), self._count, callback, timer))
        return timer

    def advance(self, seconds: float) -> int:
        """Move time on; returns how many callbacks ran."""
        self._now += seconds
        ran = 0
        while True:
            ready = sorted((d for d in self._due if d[0] <= self._now and not d[3].cancelled), key=lambda d: d[:2])
            if not ready:
                break
            entry = ready[0]
            self._due.remove(entry)
            entry[2]()
            ran += 1
        self._due = [d for d in self._due if not d[3].cancelled]
        return ran

    @property
    def pending(self) -> int:
        return sum(not d[3].cancelled for d in self._due)


class _ManualTimer:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True
