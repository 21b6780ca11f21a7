"""The cyclic garbage collector of a server that holds thousands of games: its pauses kept short.

A full collection walks every object the collector tracks while every game waits. A server of 2,000 games and 6,200
connections tracks about 1.7 million objects, most of them its connections' own (websockets' and asyncio's: tasks,
futures, queues), and Python's own full collections, due whenever what outlived the younger generations has grown by
a quarter, paused it for half a second and more, every few seconds while games were being created (bench/capacity.py,
docs/performance.md). So, once the server has started:

- everything the start made (modules, rule sets' schemas, maps, restored games) is frozen (gc.freeze): no
  collection walks it again;
- the youngest generation is collected after 20,000 allocations rather than 700, by which time most of the
  coroutines and futures of the requests then under way are gone rather than promoted;
- Python never starts a full collection by itself. Ten times a second the walker freezes what came since its last
  walk and still lives, without walking it (freezing is a splice of lists: it costs nothing however much came), and
  what the server holds is walked only by the rare whole walk below. Walking what came every second before freezing
  it cost 0.15 to 0.5 ms of CPU a turn (3 to 12 % of the server's) and paused every game for up to 100 ms at 6,250
  games, over 50,000 to 90,000 objects a second, nearly all of them alive (the games' new states, the turn's log
  entries, the views kept for the next patch: docs/performance.md), since what the server lets go of is freed by
  counting references alone (tests/test_no_garbage_cycles.py). Freezing once a second, a server playing all out
  still ran a young collection (every 20,000 allocations) three or four times a second, each finding nothing
  unreachable and taking 2.5 ms at first, 37 ms once the heap had grown (its objects point into all of it, a cache
  miss each): 4 to 8 % of its CPU. Ten times a second, what came is frozen before it reaches 20,000 but in a burst.
  A garbage cycle that a young collection did not see before a walk froze it waits for the whole walk;
- rarely, the walker thaws everything first: that walk is a whole one, and frees the garbage cycles among objects
  frozen earlier, which no other walk sees. It goes over everything the server holds (1.3 s at 2,000 games, 5 s and
  more at 6,250) while every game waits, and what the server lets go of in its ordinary life (games, connections,
  sessions) is freed by counting references alone (tests/test_no_garbage_cycles.py): such cycles are rare. So a whole
  walk is due only once an hour has passed since the last one and the interpreter's heap has doubled since just
  after it (a server that grew, or garbage that piled up: a walk's cost shared over what came since, as Python's own
  schedule shares it), or once a day has passed, whatever the server holds (docs/performance.md). The heap is
  measured in the blocks Python's allocator has handed out (sys.getallocatedblocks: a fraction of a millisecond at
  millions of objects), not in the objects frozen, which gc.get_freeze_count counts one by one (tens of milliseconds
  at 2,000 games: read every second, it cost a game a turn more than a millisecond of CPU).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import sys
import time
from dataclasses import dataclass

logger = logging.getLogger("risc.server")

YOUNG_COLLECTION_EVERY = 20_000
"""Objects allocated (net) between two collections of the youngest generation (Python's default: 700)."""
NEVER = 1 << 30
"""A threshold of the oldest generation that Python's own schedule never reaches."""
WALK_EVERY = 0.1
"""Seconds between two walks, each freezing what came since the last (module docstring)."""
HEAP_READ_EVERY = 1.0
"""Seconds between two reads of the heap once the hour has passed (sys.getallocatedblocks)."""
WHOLE_WALK_SOONEST = 3600.0
"""A whole walk is due once this many seconds have passed since the last one..."""
WHOLE_WALK_GROWTH = 2.0
"""...and the blocks allocated are this many times those allocated just after it;"""
WHOLE_WALK_LATEST = 86_400.0
"""or once this many seconds have passed since it, whatever the server holds."""

_walker: asyncio.Task[None] | None = None


def settle_collector() -> None:
    """Once a server has started (on its event loop): freeze what it holds, tune the young generations, turn
    Python's own full collections off and start the walker that does them in small parts (module docstring)."""
    global _walker
    gc.collect()
    gc.freeze()
    _, older, _ = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, older * 2, NEVER)
    with contextlib.suppress(RuntimeError):  # no running loop: the tuning alone
        loop = asyncio.get_running_loop()
        if _walker is None or _walker.done() or _walker.get_loop() is not loop:
            _walker = loop.create_task(walk_forever(), name="garbage collector's walker")


@dataclass
class Walker:
    """The walks' schedule: each walk goes over what is not frozen, or everything when a whole walk is due."""

    whole_at: float
    """When the last whole walk was (the loop's time; at first, when the server settled its collector)."""
    blocks_after: int
    """The blocks allocated just after it (sys.getallocatedblocks)."""
    soonest: float = WHOLE_WALK_SOONEST
    growth: float = WHOLE_WALK_GROWTH
    latest: float = WHOLE_WALK_LATEST
    asked_at: float = float("-inf")
    """When the heap was last read to tell whether a whole walk is due: at most every HEAP_READ_EVERY seconds (it
    visits every pool of the allocator), however often the walker walks."""

    def whole_due(self, now: float, blocks: int) -> bool:
        """Whether the walk at `now`, with `blocks` allocated, is a whole one (module docstring)."""
        since = now - self.whole_at
        return since >= self.latest or (since >= self.soonest and blocks >= self.growth * self.blocks_after)

    def step(self, now: float) -> int:
        """One walk, whole when due; the unreachable objects found. Within the hour nothing else is read."""
        if now - self.whole_at < self.soonest or now - self.asked_at < HEAP_READ_EVERY:
            return walk()
        self.asked_at = now
        blocks = sys.getallocatedblocks()
        if not self.whole_due(now, blocks):
            return walk()
        started = time.perf_counter()
        found = walk(thaw=True)
        self.whole_at, self.blocks_after = now, sys.getallocatedblocks()
        logger.info(
            "the garbage collector walked all it holds in %.0f ms: %d unreachable objects freed, %d blocks allocated "
            "before, %d after",
            (time.perf_counter() - started) * 1000,
            found,
            blocks,
            self.blocks_after,
        )
        return found


async def walk_forever(every: float = WALK_EVERY) -> None:
    loop = asyncio.get_running_loop()
    walker = Walker(loop.time(), sys.getallocatedblocks())
    while True:
        await asyncio.sleep(every)
        walker.step(loop.time())


def walk(thaw: bool = False) -> int:
    """Freeze what is not frozen (module docstring); with `thaw`, first collect everything, frozen or not. Returns
    the unreachable objects found (none without `thaw`)."""
    found = 0
    if thaw:
        gc.unfreeze()
        found = gc.collect()
    gc.freeze()
    return found
