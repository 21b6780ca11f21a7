"""Work a match or a server-run player starts in the background: kept referenced until done, its failure logged
rather than lost, and cancelled when its owner closes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

logger = logging.getLogger("risc.server")


class BackgroundTasks:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def spawn(self, work: Coroutine[Any, Any, None], failure: str) -> None:
        """Run `work`; if it fails, log `failure` with the exception."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)

        def finished(done: asyncio.Task[None]) -> None:
            self._tasks.discard(done)
            if not done.cancelled() and done.exception() is not None:
                logger.error("%s", failure, exc_info=done.exception())

        task.add_done_callback(finished)

    async def settled(self) -> None:
        """Until everything under way, and whatever it started meanwhile, is done: what a test waits for after
        moving a manual clock, rather than for a while."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def cancel(self) -> list[asyncio.Task[None]]:
        """Cancel everything under way; returns those tasks, for an owner that waits for them to end."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        return tasks
