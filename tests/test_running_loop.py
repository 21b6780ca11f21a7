"""The running loop kept by server/clock.py: always the loop that runs in the asking thread, as
asyncio.get_running_loop() gives it."""

from __future__ import annotations

import asyncio
import threading

import pytest

from server.clock import LoopClock, RunningLoop


def test_it_is_the_loop_running_now_in_each_loop_and_each_thread_and_none_outside() -> None:
    running = RunningLoop()

    async def asked() -> tuple[asyncio.AbstractEventLoop, asyncio.AbstractEventLoop, asyncio.AbstractEventLoop]:
        first = running.get()
        await asyncio.sleep(0)
        return first, running.get(), asyncio.get_running_loop()

    first, again, actual = asyncio.run(asked())
    assert first is again is actual
    second, _, actual_second = asyncio.run(asked())  # the first loop ended: the next one is asked for
    assert second is actual_second and second is not first

    found: dict[str, object] = {}
    holding = threading.Event()
    release = threading.Event()

    async def held_in_a_thread() -> None:
        found["thread"] = (running.get(), asyncio.get_running_loop())
        holding.set()
        while not release.is_set():  # this thread's loop keeps running while the main thread's asks
            await asyncio.sleep(0.01)

    thread = threading.Thread(target=lambda: asyncio.run(held_in_a_thread()))
    thread.start()
    assert holding.wait(5)

    async def main_thread() -> tuple[asyncio.AbstractEventLoop, asyncio.AbstractEventLoop]:
        return running.get(), asyncio.get_running_loop()

    mine, actual_mine = asyncio.run(main_thread())
    release.set()
    thread.join(5)
    theirs, actual_theirs = found["thread"]  # type: ignore[misc]
    assert theirs is actual_theirs and mine is actual_mine and mine is not theirs
    with pytest.raises(RuntimeError):
        running.get()


async def test_the_loop_clock_reads_and_arms_the_running_loop() -> None:
    clock, loop = LoopClock(), asyncio.get_running_loop()
    assert abs(clock.now() - loop.time()) < 0.5
    fired = asyncio.Event()
    clock.call_later(0.01, fired.set)
    await asyncio.wait_for(fired.wait(), 2)
