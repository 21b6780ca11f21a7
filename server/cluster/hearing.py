"""What a node's listening session hears (PostgreSQL's NOTIFY), read only when its socket has something to read.

psycopg's own `notifies()` waits in steps of a tenth of a second, each a new wait on the socket: an idle node spent
2.8 ms of CPU a second on them (measured on its own, asyncio's loop), most of what a node does while nobody plays.
Here the event loop watches the socket, and libpq reads what came when it comes.
"""

from __future__ import annotations

import asyncio
from types import TracebackType
from typing import Any

import psycopg
from psycopg.pq import ConnStatus


class Hearing:
    """The notifications a connection that has LISTENed hears, one at a time (`next`), while the `with` lasts: the
    loop watches its socket from the start of the block to its end, which comes before the connection is closed.
    Notifications psycopg read while the connection ran its LISTEN come first."""

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self._conn = conn
        self._heard: asyncio.Queue[tuple[str, str] | psycopg.Error] = asyncio.Queue()
        self._socket: int | None = None
        conn.add_notify_handler(self._handled)

    def _handled(self, notice: psycopg.Notify) -> None:
        """One psycopg read itself (while a command of the connection ran)."""
        self._heard.put_nowait((notice.channel, notice.payload))

    def __enter__(self) -> Hearing:
        self._socket = self._conn.pgconn.socket
        asyncio.get_running_loop().add_reader(self._socket, self._readable)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._stop_watching()
        self._conn.remove_notify_handler(self._handled)

    def _stop_watching(self) -> None:
        if self._socket is not None:
            asyncio.get_running_loop().remove_reader(self._socket)
            self._socket = None

    def _readable(self) -> None:
        pgconn = self._conn.pgconn
        try:
            pgconn.consume_input()
            if pgconn.status != ConnStatus.OK:  # read to its end: the socket would stay readable for ever
                raise psycopg.OperationalError("the listening session was closed")
        except psycopg.Error as exc:  # the session is gone: told to the one waiting, once
            self._stop_watching()
            self._heard.put_nowait(exc)
            return
        encoding = self._conn.info.encoding
        while (notice := pgconn.notifies()) is not None:
            self._heard.put_nowait((notice.relname.decode(encoding), notice.extra.decode(encoding)))

    async def next(self) -> tuple[str, str]:
        """The next notification heard (channel, payload); raises psycopg.Error once the session is gone."""
        heard = await self._heard.get()
        if isinstance(heard, psycopg.Error):
            raise heard
        return heard
