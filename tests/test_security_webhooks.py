"""A hostile client against webhooks (docs/notifications.md): URLs whose names resolve slowly, through a real server
with its SQLite store and real connections. The machine's own resolver answers at once, so a name server that never
answers is played by `socket.getaddrinfo` itself: each lookup of a name under `slow.test` blocks its thread, as a
real lookup blocks while a name server says nothing."""

from __future__ import annotations

import asyncio
import socket
import threading
from pathlib import Path
from typing import Any

import pytest

from server.storage import SqliteStorage
from tests.days_support import PASSWORD, account
from tests.server_support import FAST, Client, running_server
from tests.test_accounts import signed_up

ATTEMPTS = 12


class SilentNameServer:
    """Lookups of names under `slow.test` wait until the test ends; how many threads are caught is counted."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.caught = 0
        self.lock = threading.Lock()
        self.loop = asyncio.get_running_loop()
        self.four_caught = asyncio.Event()
        self.real = socket.getaddrinfo

    def getaddrinfo(self, host: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(host, str) and host.endswith(".slow.test"):
            with self.lock:
                self.caught += 1
                if self.caught == 4:
                    self.loop.call_soon_threadsafe(self.four_caught.set)
            self.release.wait(60)
            raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
        return self.real(host, *args, **kwargs)


async def test_webhook_names_that_never_resolve_hold_up_no_sign_in_nor_store_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twelve `set_notifications` (from twelve connections of one account) naming webhooks whose names never resolve
    took every thread of the pool the store reads in (the event loop's own): nobody could sign in, nor read their
    home, until the name server answered."""
    names = SilentNameServer()
    monkeypatch.setattr(socket, "getaddrinfo", names.getaddrinfo)
    try:
        await attacked(tmp_path, names)
    finally:
        names.release.set()


async def attacked(tmp_path: Path, names: SilentNameServer) -> None:
    async with running_server(SqliteStorage(tmp_path / "games.sqlite3"), **FAST) as server:
        await account(server, "Ann")
        mallory, session = await signed_up(server, "Mallory")
        hers = [await Client.connect(server, session=session) for _ in range(ATTEMPTS)]  # each waits on its own
        for i, connection in enumerate(hers):
            await connection.send(type="set_notifications", webhook=f"https://hook{i}.slow.test/x", ref=f"slow{i}")
        await asyncio.wait_for(names.four_caught.wait(), 5)
        ann = await Client.connect(server)
        signed = await ann.request(type="sign_in", name="Ann", password=PASSWORD)
        assert signed["type"] == "signed_in", signed
        assert (await ann.request(type="my_games"))["type"] == "my_games"
        answers = [
            await connection.wait_for(lambda m, r=f"slow{i}": m.get("ref") == r, timeout=15)
            for i, connection in enumerate(hers)
        ]
        assert all(a["type"] == "error" and a["code"] == "bad-channel" for a in answers), answers
        assert "did not resolve within 5 s" in answers[0]["message"], answers[0]
        assert names.caught <= 4, "the lookups a server waits on at once are bounded"
        assert (await mallory.request(type="notifications"))["webhook"] is None
