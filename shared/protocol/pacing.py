"""Token buckets: a client may send a burst, then a steady rate. The server refuses frames past that; a client uses
the same bucket, filled with the limits the server's welcome announces, to wait rather than be refused.

The clock is an argument (shared/ reads no clock of its own): callers pass time.monotonic, tests a fake."""

from __future__ import annotations

from collections.abc import Callable


class TokenBucket:
    def __init__(self, capacity: float, rate: float, clock: Callable[[], float]) -> None:
        self.capacity = capacity
        self.rate = rate
        self._clock = clock
        self._tokens = capacity
        self._last = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.capacity, self._tokens + (now - self._last) * self.rate)
        self._last = now

    def take(self) -> bool:
        """Spend one token if there is one."""
        self._refill()
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False

    def full(self) -> bool:
        """Whether the bucket is as a new one would be: a bucket kept per key may then be let go."""
        self._refill()
        return self._tokens >= self.capacity

    def wait_time(self) -> float:
        """Seconds until a token is there (0 if one is there now)."""
        self._refill()
        if self._tokens >= 1:
            return 0.0
        return (1 - self._tokens) / self.rate if self.rate > 0 else float("inf")
