"""Paces kept per key (a connection, an address): a token bucket for each, made when the key first asks, and let go
once it is full again, so that keys that come and go (connections, addresses) leave nothing behind.

Apart from the frontier's rate limit (one bucket per connection, on the connection itself) because the paces of what
a connection asks for that costs more than a frame (a word to the whole lobby, a finished game played again) count
what all the connections of one address ask together: opening more connections buys nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from shared.protocol.pacing import TokenBucket

TIDY_EVERY = 1024
"""Buckets kept before the full ones are let go (each time as many more are made)."""


class Paces:
    def __init__(self, clock: Callable[[], float], burst: float, rate: float) -> None:
        self._clock = clock
        self.burst, self.rate = burst, rate
        self._buckets: dict[Hashable, TokenBucket] = {}
        self._tidy_at = TIDY_EVERY

    def take(self, key: Hashable) -> float | None:
        """Spend one of `key`'s tokens: None when it had one, else the seconds until it has."""
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self._tidy_at:
                self._tidy()
            bucket = self._buckets[key] = TokenBucket(self.burst, self.rate, self._clock)
        return None if bucket.take() else bucket.wait_time()

    def forget(self, key: Hashable) -> None:
        self._buckets.pop(key, None)

    def __len__(self) -> int:
        return len(self._buckets)

    def _tidy(self) -> None:
        self._buckets = {key: bucket for key, bucket in self._buckets.items() if not bucket.full()}
        self._tidy_at = len(self._buckets) + TIDY_EVERY
