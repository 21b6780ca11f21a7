"""The server's garbage collection in small parts (server/collector.py): a walk frees what came since the last one and
freezes what survived, so that no walk goes over everything the server holds but the hourly one, which frees the
garbage cycles among objects frozen earlier."""

from __future__ import annotations

import asyncio
import gc
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


def test_a_walk_frees_new_garbage_cycles_and_freezes_what_survives(collection_as_it_was: None) -> None:
    gc.unfreeze()
    dropped = Knot()
    gone = weakref.ref(dropped)
    del dropped
    kept = Knot()
    frozen = gc.get_freeze_count()

    found = collector.walk()

    assert gone() is None and found >= 1  # the cycle that came since the last walk is freed
    assert gc.get_freeze_count() > frozen  # what survived (kept among it) is walked no more
    assert kept.me is kept


def test_a_cycle_among_frozen_objects_waits_for_the_walk_that_thaws(collection_as_it_was: None) -> None:
    knot = Knot()
    later = weakref.ref(knot)
    collector.walk()  # the knot survives, and is frozen
    del knot

    collector.walk()
    assert later() is not None  # an ordinary walk does not go over what it froze

    collector.walk(thaw=True)
    assert later() is None


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
