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
- Python never starts a full collection by itself. Every second the walker collects what is not frozen, what came
  since its last walk and still lives, then freezes what survived: a walk costs what a second of play made, not what
  the server holds. Every second rather than every five: at 4,000 games a five-second walk went over 360,000
  objects and paused every game for up to 390 ms; a one-second walk goes over 70,000 in 60 ms, and the collector's
  CPU time a turn fell too (0.61 ms to 0.25), the young generations no longer left to grow between walks;
- once an hour the walker thaws everything first: that one walk is a whole one, and frees the garbage cycles among
  objects frozen earlier (a game let go, a connection closed), which no other walk sees.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc

YOUNG_COLLECTION_EVERY = 20_000
"""Objects allocated (net) between two collections of the youngest generation (Python's default: 700)."""
NEVER = 1 << 30
"""A threshold of the oldest generation that Python's own schedule never reaches."""
WALK_EVERY = 1.0
"""Seconds between two walks of what is not frozen (docs/performance.md: five seconds paused for longer)."""
THAW_EVERY = 3600.0
"""Seconds between two whole walks, everything thawed first."""

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


async def walk_forever(every: float = WALK_EVERY, thaw_every: float = THAW_EVERY) -> None:
    walks_per_thaw = max(1, round(thaw_every / every))
    walks = 0
    while True:
        await asyncio.sleep(every)
        walks += 1
        walk(thaw=walks % walks_per_thaw == 0)


def walk(thaw: bool = False) -> int:
    """Collect every generation but what is frozen (with `thaw`: everything), then freeze what survived. Returns the
    unreachable objects found."""
    if thaw:
        gc.unfreeze()
    found = gc.collect()
    gc.freeze()
    return found
