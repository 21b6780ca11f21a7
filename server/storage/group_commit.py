"""Group commit: the changes of different games that arrive while a transaction is being written wait together, and
the next transaction carries all of them, so that they share its one commit (SQLite's fsync; PostgreSQL's round trip
and WAL flush). Each change's caller is answered once the transaction that carried it is committed, with its own
error if it failed: a change that fails alone fails alone, and its batch-mates are kept.

This is what both stores share: the queue, the one writer at a time, the answers, the count of transactions and what
to do when a whole transaction fails. How a batch is written is each store's own (`Commit`): SQLite's writer thread
and savepoints (server/storage/sqlite.py), PostgreSQL's pipelines and epochs (server/storage/postgres.py).

It runs on callbacks of the event loop rather than in a task of its own: the store answers a batch with a callback,
which answers the batch's callers and hands the writer the next batch at once, in the same turn of the loop (a task
awaiting a future would hand it over one turn later, and under load a turn of the loop is long).
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from server.clock import RunningLoop, stopwatch
from server.storage.base import StorageError

_W = TypeVar("_W")


@dataclass(eq=False, slots=True)
class Change(Generic[_W]):
    """One change waiting for the next transaction (`work`: what the store writes of it), and how it went: a store's
    `Commit` sets `error` on a change that failed alone."""

    work: _W
    done: asyncio.Future[None]
    error: BaseException | None = None

    def settle(self, error: BaseException | None = None) -> None:
        """Answer its caller (unless the caller was cancelled): done, or failed with `error` or its own."""
        if self.done.done():
            return
        failure = error or self.error
        if failure is None:
            self.done.set_result(None)
        else:
            self.done.set_exception(failure)


Finished = Callable[[bool | Exception], None]
"""How a store answers a batch, on the event loop: whether a transaction was committed (a batch whose every change
failed may have none), or the exception that failed the transaction itself."""

Commit = Callable[[list[Change[_W]], Finished], None]
"""Write a batch of changes as one transaction, setting `error` on each change that failed alone, then call the
`Finished` it is given, once, on the event loop."""


class GroupCommit(Generic[_W]):
    """The changes waiting for a transaction, and the batch being written (one at a time)."""

    def __init__(
        self,
        commit: Commit[_W],
        *,
        alone_after_failure: bool,
        failure: Callable[[Exception], StorageError],
        committed: Callable[[float], None],
        start: Callable[[Callable[[], None]], None] | None = None,
    ) -> None:
        """`commit`: the store's writing of a batch. `alone_after_failure`: when a transaction of several changes
        fails, write each of them again in a transaction of its own, so that the one that broke it fails alone (a
        store that cannot keep a failed change apart within its transaction); otherwise every change of it fails.
        `failure`: the StorageError that says what went wrong, from another error. `committed`: told the seconds
        each committed transaction took (the store's metrics). `start`: how an idle writer is given the changes
        that come to it (called with what hands them over): by default once this turn of the loop is over
        (loop.call_soon); a store that writes in a task of its own starts the task, which hands them over when it
        first runs, rather than a turn later."""
        self._commit = commit
        self._alone_after_failure = alone_after_failure
        self._failure = failure
        self._committed = committed
        self._start = start
        self._waiting: list[Change[_W]] = []
        self._alone: collections.deque[Change[_W]] = collections.deque()
        """Changes of a failed transaction, each to be written again in one of its own."""
        self._running = RunningLoop()
        self._flushed: asyncio.Future[None] | None = None
        """Set while the writer has work: done once it has written everything and waits for more."""
        self.transactions = 0
        """Transactions committed: fewer than the changes when changes come together."""

    def write(self, work: _W) -> asyncio.Future[None]:
        """Carry `work` in the next transaction: the future is done once that is committed, or fails with
        StorageError (or the store's kind of it) if the change or its transaction failed, and then nothing of the
        change is kept. (A future rather than a coroutine: nothing more to make for every change.)"""
        loop = self._running.get()
        if self._flushed is not None and self._flushed.get_loop().is_closed():  # a loop that ended mid-write
            self._flushed, self._waiting = None, []
            self._alone.clear()
        change = Change(work, loop.create_future())
        self._waiting.append(change)
        if self._flushed is None:  # the writer is idle: hand it what waits once this turn of the loop is over
            self._flushed = loop.create_future()
            (self._start or loop.call_soon)(self._next)
        return change.done

    async def flushed(self) -> None:
        """Return once every change written so far is answered (a store closing)."""
        if self._flushed is not None and not self._flushed.get_loop().is_closed():
            await asyncio.shield(self._flushed)

    def _next(self) -> None:
        """Hand the writer the next batch, or go idle."""
        if self._alone:
            batch = [self._alone.popleft()]
        elif self._waiting:
            batch, self._waiting = self._waiting, []
        else:
            if self._flushed is not None:
                if not self._flushed.done():
                    self._flushed.set_result(None)
                self._flushed = None
            return
        began = stopwatch()

        def finished(outcome: bool | Exception) -> None:
            self._finished(batch, began, outcome)

        try:
            self._commit(batch, finished)
        except Exception as exc:  # the store could not even start it
            self._finished(batch, began, exc)

    def _finished(self, batch: list[Change[_W]], began: float, outcome: bool | Exception) -> None:
        """Answer a written batch (on the event loop), and hand the writer what came meanwhile."""
        if isinstance(outcome, Exception):  # the transaction failed as a whole
            if self._alone_after_failure and len(batch) > 1:
                for change in batch:
                    change.error = None
                self._alone.extend(batch)
            else:
                failure = outcome if isinstance(outcome, StorageError) else self._failure(outcome)
                for change in batch:
                    change.settle(failure)
        else:
            if outcome:
                self.transactions += 1
                self._committed(stopwatch() - began)
            for change in batch:
                change.settle()
        self._next()
