"""The real text client driven through prompt_toolkit's pipe input, no terminal: type a line, read what it shows."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.input.base import PipeInput
from prompt_toolkit.output import DummyOutput

from client.app import ClientApp
from client.connection import Backoff

TIMEOUT = 5.0
QUICK = Backoff(first=0.05, most=0.2)


class CountedBackoff(Backoff):
    """QUICK's delays, counted: `waited(n)` is set once the client has asked for its n-th delay, that is once n - 1
    attempts to reconnect have failed."""

    def __init__(self) -> None:
        super().__init__(first=0.05, most=0.2)
        self.asked = 0
        self._waits: dict[int, asyncio.Event] = {}

    def next_delay(self) -> float:
        self.asked += 1
        for n, event in self._waits.items():
            if self.asked >= n:
                event.set()
        return super().next_delay()

    def waited(self, n: int) -> asyncio.Event:
        event = self._waits.setdefault(n, asyncio.Event())
        if self.asked >= n:
            event.set()
        return event


class Driver:
    """One client process as a player sees it: what they type, and the text printed since they last looked."""

    def __init__(self, app: ClientApp, pipe: PipeInput, task: asyncio.Task[int]) -> None:
        self.app = app
        self.pipe = pipe
        self.task = task
        self._cursor = 0
        self.changed = asyncio.Event()
        """Set whenever the client shows something, draws its prompt, or stops: what a wait looks again on."""
        self._drawn: object = None
        shown = app.show

        def show(text: Any, style: str = "") -> None:
            shown(text, style)
            self.changed.set()

        app.show = show  # type: ignore[method-assign]
        task.add_done_callback(lambda _: self.changed.set())

    def _watch_prompt(self) -> None:
        """Be told each time the prompt is drawn (its application renders after it starts, and after each key)."""
        session = self.app.prompt_session
        if session is not None and self._drawn is not session:
            self._drawn = session
            session.app.after_render += lambda _: self.changed.set()

    async def _until(self, done: Any, what: str, timeout: float = TIMEOUT) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not done():
            if self.task.done():
                raise AssertionError(f"the client stopped while waiting for {what}; it showed:\n{self.app.text()}")
            self._watch_prompt()
            self.changed.clear()
            if done():
                break
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.0, end - loop.time()))
            except TimeoutError:
                raise AssertionError(
                    f"no {what} within {timeout} s; the client showed:\n{self.app.text()[-3000:]}"
                ) from None

    async def at_prompt(self) -> None:
        await self._until(
            lambda: (
                self.app.prompts > 0 and self.app.prompt_session is not None and self.app.prompt_session.app.is_running
            ),
            "prompt",
        )

    async def type(self, line: str) -> str:
        """Type a line and press Enter; returns what the client printed until it prompts again."""
        await self.at_prompt()
        before, start = self.app.prompts, len(self.app.text())
        self.pipe.send_text(line + "\r")
        await self._until(lambda: self.app.prompts > before, f"prompt after {line!r}")
        return self.app.text()[start:]

    async def expect(self, text: str, timeout: float = TIMEOUT) -> str:
        """Wait until `text` has been shown after what was already seen; returns everything shown up to it."""
        await self._until(lambda: text in self.app.text()[self._cursor :], repr(text), timeout)
        shown = self.app.text()
        end = shown.index(text, self._cursor) + len(text)
        seen, self._cursor = shown[self._cursor : end], end
        return seen

    def skip(self) -> None:
        """Consider everything shown so far as seen."""
        self._cursor = len(self.app.text())


class SizedOutput(DummyOutput):
    """A dummy output that says it is `columns` by `rows` (prompt_toolkit's own says 80 by 40)."""

    def __init__(self, columns: int, rows: int) -> None:
        self.size = Size(rows=rows, columns=columns)

    def get_size(self) -> Size:
        return self.size


@contextlib.asynccontextmanager
async def driven(url: str, size: tuple[int, int] = (80, 40), **options: Any) -> AsyncIterator[Driver]:
    """A ClientApp running on pipe input and a dummy output of `size` (columns, rows); it quits (or is stopped) when
    the block ends."""
    options.setdefault("backoff", QUICK)
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=SizedOutput(*size)):
        app = ClientApp(url, **options)
        task = asyncio.get_running_loop().create_task(app.run())
        driver = Driver(app, pipe, task)
        try:
            yield driver
        finally:
            if not task.done():
                with contextlib.suppress(Exception):
                    await driver.at_prompt()
                    pipe.send_text("quit\r")
                    await asyncio.wait_for(asyncio.shield(task), 2)
            if not task.done():
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
