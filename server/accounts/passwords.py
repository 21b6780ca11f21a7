"""Passwords: what one may be, and their Argon2id hashes, made and checked off the event loop, a few at a time.

OWASP's minimum for Argon2id is 19 MiB of memory, two passes, one lane (m=19456, t=2, p=1): a hash takes about 25 ms
of one core here. Hashing runs in a pool of its own threads (argon2-cffi releases the interpreter's lock while it
works), at most `workers` at once, with at most `waiting` more queued: a flood of sign-ins waits for that pool, or is
told the server is busy, and never holds the event loop that plays the games. A hash made with weaker parameters
than today's is made again at the next sign-in (`needs_rehash`).
"""

from __future__ import annotations

import asyncio
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_T = TypeVar("_T")

SHORTEST = 8
LONGEST = 256

OWASP_TIME_COST = 2
OWASP_MEMORY_KIB = 19 * 1024
OWASP_PARALLELISM = 1


class WeakPassword(ValueError):
    """A password that is too short or too long, with why."""


class Busy(Exception):
    """Too many hashes are waiting already."""


def normalised(password: str) -> str:
    """The password as it is hashed: NFKC, so that the same characters typed on another keyboard (a full-width
    digit, a composed accent) are the same password. Raises WeakPassword for one shorter than 8 or longer than 256
    characters once normalised."""
    text = unicodedata.normalize("NFKC", password)
    if len(text) < SHORTEST:
        raise WeakPassword(f"a password has at least {SHORTEST} characters (this one has {len(text)})")
    if len(text) > LONGEST:
        raise WeakPassword(f"a password has at most {LONGEST} characters (this one has {len(text)})")
    return text


class Passwords:
    def __init__(
        self,
        *,
        workers: int = 2,
        waiting: int = 256,
        time_cost: int = OWASP_TIME_COST,
        memory_kib: int = OWASP_MEMORY_KIB,
        parallelism: int = OWASP_PARALLELISM,
    ) -> None:
        self.hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="risc-passwords")
        self._room = asyncio.Semaphore(workers + waiting)
        self._dummy: str | None = None
        self.hashed = 0
        """Hashes made or checked: what the benchmark reads."""

    async def _off_loop(self, work: Callable[[], _T]) -> _T:
        if self._room.locked():
            raise Busy("too many sign-ins are being checked right now: try again in a moment")
        async with self._room:
            self.hashed += 1
            return await asyncio.get_running_loop().run_in_executor(self._pool, work)

    async def hash(self, password: str) -> str:
        """The Argon2id hash of a normalised password."""
        return await self._off_loop(lambda: self.hasher.hash(password))

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether `password` (normalised) is the one `stored` hashes. With no hash (no such account), a dummy hash
        of the same parameters is checked instead, so that the answer takes the same work either way."""
        if stored is None or not stored:
            if self._dummy is None:
                self._dummy = await self.hash("not the password of any account")
            stored = self._dummy
            password = password + "\x00"  # never the dummy's

        def check() -> bool:
            try:
                return bool(self.hasher.verify(stored, password))
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False

        return await self._off_loop(check)

    def needs_rehash(self, stored: str) -> bool:
        """Whether a hash was made with other (weaker) parameters than today's."""
        try:
            return self.hasher.check_needs_rehash(stored)
        except InvalidHashError:
            return True

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
