"""A match's two timers: the turn's time limit (D3, C9), and the pace of the news that a seat's connection came or
went.

Apart from the match because they are machinery, not decisions: what the turn's timer times is the core's
(core.turn_clock); here a timer is armed, kept while what it times stays the same, and cancelled, on the clock the
server was given (a test's manual clock moves them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from server.clock import Clock, Timer


class TurnTimer:
    """The turn's time limit: one timer at a time, for what it times (its key: the turn and who is awaited)."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._timer: Timer | None = None
        self._key: Any = None
        self._deadline: float | None = None

    def arm(self, key: Any, seconds: float, due: Callable[[Any], None]) -> None:
        """Time `key` for `seconds`, then call `due(key)`; a timer already running for the same key runs on."""
        if self._timer is not None and self._key == key:
            return
        self.disarm()
        self._key = key
        self._deadline = self._clock.now() + seconds
        self._timer = self._clock.call_later(seconds, lambda: due(key))

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._deadline, self._key = None, None, None

    def rang(self) -> None:
        """The timer went off: the next `arm` starts a new one, even for the same key."""
        self._timer = None

    def forget(self) -> None:
        """What was timed is done with: the next `arm` starts afresh, whatever its key."""
        self._key = None

    def left(self) -> float | None:
        """Seconds until the deadline (none without one), to the millisecond: what an update tells."""
        if self._deadline is None:
            return None
        return round(max(0.0, self._deadline - self._clock.now()), 3)


class Pace:
    """News told at once, but at most once every `interval` seconds: news that comes sooner waits for the end of the
    interval, and news that comes meanwhile goes with it (what is told then says it all)."""

    def __init__(self, clock: Clock, interval: float, tell: Callable[[], None]) -> None:
        self._clock = clock
        self._interval = interval
        self._tell = tell
        self._last = float("-inf")
        self._timer: Timer | None = None
        self._closed = False

    def news(self, tell_now: Callable[[], None]) -> None:
        """Something to tell: `tell_now()` at once when the interval allows, else `tell` once it has passed."""
        if self._timer is not None:
            return
        now = self._clock.now()
        wait = self._last + self._interval - now
        if wait <= 0:
            self._last = now
            tell_now()
        else:
            self._timer = self._clock.call_later(wait, self._due)

    def _due(self) -> None:
        self._timer = None
        if not self._closed:
            self._last = self._clock.now()
            self._tell()

    def close(self) -> None:
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
