"""The server's own players' work comes after people's: one computer's turn at a time, games people play first, and
never more than a share of the server's time, however many games the computers play.

A game whose every seat is one of the server's players plays on by itself. Hundreds of them (one client asked for a
game of five computers every 12 ms) took a whole core: every computer decided in a worker thread of its own, beside
the event loop, and every one of them issued its orders and resolved its turns on the loop, so a bystander's request
waited behind them all (1.25 s), and a new connection 2.8 s.

So a computer's turn — deciding its orders (in the one thread computers think in), issuing them, committing, and
the resolution that may bring — waits for its turn in one queue, games that people play before games of computers
alone; after each turn the garbage it left is collected, and the queue rests as long as all that took (`share` 0.5:
the computers get at most half of the time). People's requests are never behind more than one computer's turn,
whose work is a handful of short steps between waits for the store; the rest of the time is theirs. Games of
computers alone slow down as they grow in number: that is their cost, and no one else's.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import heapq
import itertools
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from server.clock import Clock, LoopClock

_T = TypeVar("_T")

URGENT, IN_TIME = 0, 1
"""A turn's place in the queue: games people play before games of computers alone."""


class ComputerTime:
    def __init__(self, share: float = 0.5, pause: float = 0.0, clock: Clock | None = None) -> None:
        """`clock`: the server's, on which a turn's work and the rest after it are measured."""
        if not 0 < share <= 1:
            raise ValueError(f"computers' share of the time must be above 0 and at most 1, not {share:g}")
        self.share = share
        self._clock: Clock = clock or LoopClock()
        self.pause = pause
        """Seconds a computer waits before each turn of a game where only computers are left, so that its players
        who are out can watch it (ServerConfig.bot_turn_pause)."""
        self._thread: ThreadPoolExecutor | None = None
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._busy = False
        self.turns = 0
        """Turns taken so far (for benchmarks and tests)."""
        self.rested = 0.0
        """Seconds the queue rested after them."""

    @contextlib.asynccontextmanager
    async def turn(self, urgent: bool) -> AsyncIterator[None]:
        """One computer's turn of work: it starts after every turn queued before it (the urgent ones first), and the
        queue rests after it, so that the computers take at most `share` of the time."""
        await self._take(URGENT if urgent else IN_TIME)
        started = self._clock.now()
        try:
            yield
        except BaseException:
            self._hand_on()
            raise
        try:
            collect_garbage()
            rest = (self._clock.now() - started) * (1 - self.share) / self.share
            if rest > 0:
                self.rested += rest
                await asyncio.sleep(rest)
        finally:
            self.turns += 1
            self._hand_on()

    async def think(self, decide: Callable[..., _T], *args: object) -> _T:
        """Run a computer's decision in the one thread computers think in (deciding may take a while on a large map;
        the event loop serves everyone meanwhile, and two computers never think at once)."""
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="risc-computer")
        return await asyncio.get_running_loop().run_in_executor(self._thread, decide, *args)

    def close(self) -> None:
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)
            self._thread = None

    async def _take(self, rank: int) -> None:
        if not self._busy and not self._waiting:
            self._busy = True
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (rank, next(self._order), future)
        heapq.heappush(self._waiting, entry)
        try:
            await future
        except BaseException:
            if future.done() and not future.cancelled():
                self._hand_on()  # the queue was handed to it as it was cancelled: pass it on
            else:
                self._waiting.remove(entry)
                heapq.heapify(self._waiting)
            raise

    def _hand_on(self) -> None:
        """The next turn waiting starts (the queue stays busy), or the queue is free."""
        while self._waiting:
            _, _, future = heapq.heappop(self._waiting)
            if not future.done():
                future.set_result(None)
                return
        self._busy = False


def collect_garbage() -> None:
    """Collect what a computer's turn left for the cycle collector, in the computers' own time.

    A collection the interpreter starts by itself (after 20,000 allocations, server/collector.py) took 5
    to 16 ms of CPU once games of computers alone ran, at any moment: whichever person's request was under way waited
    for it. Collected after every computer's turn, the youngest generation holds a few hundred objects (0.1 ms), and
    the middle one, when due, about a millisecond. The oldest is left to the server's walker (server/collector.py),
    which walks only what came since its last walk."""
    counts, thresholds = gc.get_count(), gc.get_threshold()
    gc.collect(1 if counts[1] >= thresholds[1] else 0)
