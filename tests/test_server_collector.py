"""The server's garbage collection in small parts (server/collector.py): a walk freezes what came since the last one
without walking it, so that no collection goes over what the server holds but a rare whole one, which frees the
garbage cycles among objects frozen earlier: once an hour has passed since the last and the heap has doubled, or a
day has passed."""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import weakref
from collections.abc import Iterator

import pytest

from server import collector


class Knot:
    """An object in a cycle of its own: only the cycle collector frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def collection_as_it_was() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    gc.collect()


def test_a_walk_freezes_what_came_without_walking_it(collection_as_it_was: None) -> None:
    gc.unfreeze()
    dropped = Knot()
    gone = weakref.ref(dropped)
    del dropped
    kept = Knot()
    frozen = gc.get_freeze_count()

    found = collector.walk()

    assert found == 0 and gone() is not None  # not walked: a cycle that came since waits for the whole walk
    assert gc.get_freeze_count() > frozen  # what came (kept among it) is walked no more
    assert gc.get_count()[0] < 10  # the young generation is empty: its next collection walks only what comes after
    assert kept.me is kept
    collector.walk(thaw=True)
    assert gone() is None


def test_a_cycle_among_frozen_objects_waits_for_the_walk_that_thaws(collection_as_it_was: None) -> None:
    knot = Knot()
    later = weakref.ref(knot)
    collector.walk()  # the knot survives, and is frozen
    del knot

    collector.walk()
    assert later() is not None  # an ordinary walk does not go over what it froze

    collector.walk(thaw=True)
    assert later() is None


def test_a_whole_walk_waits_for_an_hour_and_for_the_heap_to_double() -> None:
    walker = collector.Walker(whole_at=100.0, blocks_after=1_000)
    hour = collector.WHOLE_WALK_SOONEST
    assert walker.growth == 2 and hour == 3600
    assert not walker.whole_due(100.0 + hour - 1, 5_000)  # doubled and more, but within the hour
    assert not walker.whole_due(100.0 + hour, 1_999)  # the hour passed, but not doubled
    assert walker.whole_due(100.0 + hour, 2_000)
    assert walker.whole_due(100.0 + 10 * hour, 2_000)


def test_a_whole_walk_comes_a_day_after_the_last_whatever_the_server_holds() -> None:
    walker = collector.Walker(whole_at=100.0, blocks_after=1_000)
    day = collector.WHOLE_WALK_LATEST
    assert day == 24 * 3600
    assert not walker.whole_due(100.0 + day - 1, 1_000)
    assert walker.whole_due(100.0 + day, 1_000)
    assert walker.whole_due(100.0 + day, 10)  # fewer than after the last: a day is a day


def test_a_step_walks_whole_only_when_due_and_counts_from_there(
    collection_as_it_was: None, caplog: pytest.LogCaptureFixture
) -> None:
    knot = Knot()
    later = weakref.ref(knot)
    collector.walk()  # the knot survives, and is frozen
    del knot
    walker = collector.Walker(whole_at=0.0, blocks_after=sys.getallocatedblocks())

    walker.step(10.0)  # within the hour
    walker.step(collector.WHOLE_WALK_SOONEST)  # an hour, but the heap has not doubled
    assert later() is not None and walker.whole_at == 0.0

    half = walker.blocks_after = sys.getallocatedblocks() // 2  # as though the heap had doubled since
    with caplog.at_level(logging.INFO, logger="risc.server"):
        found = walker.step(collector.WHOLE_WALK_SOONEST + 1)
    assert later() is None and found >= 1
    assert walker.whole_at == collector.WHOLE_WALK_SOONEST + 1  # the next counts from this one
    assert walker.blocks_after > 1.5 * half  # from the heap as the walk left it, not from half of it
    assert "walked all it holds" in caplog.text and "unreachable objects freed" in caplog.text


async def test_settling_turns_python_s_own_full_collections_off_and_starts_the_walker(
    collection_as_it_was: None,
) -> None:
    collector.settle_collector()
    try:
        young, _, oldest = gc.get_threshold()
        assert young == collector.YOUNG_COLLECTION_EVERY and oldest == collector.NEVER
        walker = collector._walker
        assert walker is not None and not walker.done() and walker.get_loop() is asyncio.get_running_loop()
        collector.settle_collector()
        assert collector._walker is walker  # one walker a loop, however often a server settles
    finally:
        if collector._walker is not None:
            collector._walker.cancel()


def test_past_the_hour_the_heap_is_read_at_most_once_a_second_however_often_the_walker_walks(
    collection_as_it_was: None,
) -> None:
    walker = collector.Walker(whole_at=0.0, blocks_after=sys.getallocatedblocks())
    hour, every = collector.WHOLE_WALK_SOONEST, collector.HEAP_READ_EVERY
    assert every > collector.WALK_EVERY
    walker.step(hour)  # read: not doubled
    assert walker.asked_at == hour
    walker.blocks_after = sys.getallocatedblocks() // 2  # as though the heap had doubled since
    walker.step(hour + collector.WALK_EVERY)  # within the second: not read, so no whole walk yet
    assert walker.whole_at == 0.0 and walker.asked_at == hour
    walker.step(hour + every)
    assert walker.whole_at == hour + every
