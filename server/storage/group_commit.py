"""Group commit: the changes of different games that arrive while a transaction is being written wait together, and
the next transaction carries all of them, so that they share its one commit (SQLite's fsync; PostgreSQL's round trip
and WAL flush). Each change's caller is answered once the transaction that carried it is committed, with its own
error if it failed: a change that fails alone fails alone, and its batch-mates are kept.

This is what both stores share: the queue, the one writer draining it, the answers, the count of transactions and
what to do when a whole transaction fails. How a batch is written is each store's own (`Commit`): SQLite's writer
thread and savepoints (server/storage/sqlite.py), PostgreSQL's pipelines and epochs (server/storage/postgres.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from server.clock import stopwatch
from server.storage.base import StorageError

_W = TypeVar("_W")


@dataclass(eq=False)
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


Commit = Callable[[list[Change[_W]]], Awaitable[bool]]
"""Write a batch of changes as one transaction: set `error` on each change that failed alone, raise if the transaction
itself failed, and say whether a transaction was committed (a batch whose every change failed may have none)."""


class GroupCommit(Generic[_W]):
    """The changes waiting for a transaction, and the one writer that carries them, batch after batch, while there
    are any (an asyncio task of the loop that wrote first)."""

    def __init__(
        self,
        commit: Commit[_W],
        *,
        alone_after_failure: bool,
        failure: Callable[[Exception], StorageError],
        committed: Callable[[float], None],
    ) -> None:
        """`commit`: the store's writing of a batch. `alone_after_failure`: when a transaction of several changes
        fails, write each of them again in a transaction of its own, so that the one that broke it fails alone (a
        store that cannot keep a failed change apart within its transaction); otherwise every change of it fails.
        `failure`: the StorageError that says what went wrong, from another error. `committed`: told the seconds
        each committed transaction took (the store's metrics)."""
        self._commit = commit
        self._alone_after_failure = alone_after_failure
        self._failure = failure
        self._committed = committed
        self._waiting: list[Change[_W]] = []
        self._writer: asyncio.Task[None] | None = None
        self.transactions = 0
        """Transactions committed: fewer than the changes when changes come together."""

    async def write(self, work: _W) -> None:
        """Carry `work` in the next transaction; return once that is committed. Raises StorageError (or the store's
        kind of it) if the change or its transaction failed: then nothing of the change is kept."""
        loop = asyncio.get_running_loop()
        if self._writer is not None and self._writer.get_loop().is_closed():  # a loop that ended mid-write
            self._writer, self._waiting = None, []
        change = Change(work, loop.create_future())
        self._waiting.append(change)
        if self._writer is None or self._writer.done():  # the writer starts once this turn of the loop is over
            self._writer = loop.create_task(self._write_batches())
        await change.done

    async def flushed(self) -> None:
        """Return once every change written so far is answered (a store closing)."""
        if self._writer is not None and not self._writer.done() and not self._writer.get_loop().is_closed():
            await asyncio.shield(self._writer)

    async def _write_batches(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                await self._transaction(batch)
            except Exception as exc:  # the transaction failed as a whole
                if not self._alone_after_failure or len(batch) == 1:
                    for change in batch:
                        change.settle(self._as_failure(exc))
                    continue
                for change in batch:
                    change.error = None
                    try:
                        await self._transaction([change])
                    except Exception as alone:
                        change.settle(self._as_failure(alone))
                    else:
                        change.settle()
                continue
            for change in batch:
                change.settle()

    async def _transaction(self, batch: list[Change[_W]]) -> None:
        began = stopwatch()
        if await self._commit(batch):
            self.transactions += 1
            self._committed(stopwatch() - began)

    def _as_failure(self, exc: Exception) -> StorageError:
        return exc if isinstance(exc, StorageError) else self._failure(exc)
