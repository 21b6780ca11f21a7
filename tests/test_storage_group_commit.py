"""Group commit in the SQLite store: the saves of different games that come together share one transaction (one
fsync); a save that fails fails alone and leaves nothing of itself; a transaction that fails fails every save in it
and keeps none of them, and the next saves are written as usual. Checked on a real file, read back by a new store."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from server.storage import GameProgress, SqliteStorage, StorageError
from server.storage.base import SeatRecord
from tests.test_server_storage import joined, record
from tests.test_storage_notices import notice

GAMES = 12


def progress(seq: int, *names: str) -> GameProgress:
    return GameProgress(seats=[SeatRecord(name=n, token_hash="0" * 64) for n in names], state=None, seq=seq)


async def created(path: Path, **options: float) -> SqliteStorage:
    storage = SqliteStorage(path, **options)
    await asyncio.gather(
        *(storage.create(record(f"g{i}"), progress(1, "ann"), [joined(1, "ann")]) for i in range(GAMES))
    )
    return storage


async def kept(path: Path, game_id: str) -> tuple[int, list[str], list[int]]:
    """What a new store on the file finds of a game: its progress's seq and seats, and its entries' numbers."""
    storage = SqliteStorage(path)
    try:
        stored = await storage.load(game_id)
    finally:
        await storage.close()
    assert stored is not None
    return stored.progress.seq, [s.name for s in stored.progress.seats], [e["seq"] for e in stored.events]


async def test_saves_of_many_games_at_once_share_a_transaction_and_all_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    storage = await created(path)
    assert storage.transactions < GAMES
    before = storage.transactions
    await asyncio.gather(*(storage.save(f"g{i}", progress(2, "ann", "bob"), [joined(2, "bob")]) for i in range(GAMES)))
    assert storage.transactions - before < GAMES
    await storage.close()
    for i in range(GAMES):
        assert await kept(path, f"g{i}") == (2, ["ann", "bob"], [1, 2])


async def test_a_save_that_fails_in_a_shared_transaction_fails_alone_and_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    storage = await created(path)
    before = storage.transactions
    saves = [
        storage.save(f"g{i}", progress(2, "ann", "bob"), [joined(1 if i == 3 else 2, "bob")]) for i in range(GAMES)
    ]  # g3's entry 1 exists already: refused
    saves.append(storage.save("nowhere", progress(2, "ann"), [joined(2, "bob")]))
    results = await asyncio.gather(*saves, return_exceptions=True)
    assert storage.transactions - before == 1
    assert isinstance(results[3], StorageError)
    assert isinstance(results[-1], StorageError) and "no game nowhere" in str(results[-1])
    assert [r for i, r in enumerate(results[:GAMES]) if i != 3] == [None] * (GAMES - 1)
    await storage.close()
    assert await kept(path, "g3") == (1, ["ann"], [1])  # its progress was written before its entry failed: undone
    for i in (0, 4, GAMES - 1):
        assert await kept(path, f"g{i}") == (2, ["ann", "bob"], [1, 2])


async def test_a_failed_transaction_fails_every_save_in_it_and_the_next_ones_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    storage = await created(path, busy_timeout=0.05)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock: the next transaction cannot begin
    try:
        results = await asyncio.gather(
            *(storage.save(f"g{i}", progress(2, "ann", "bob"), [joined(2, "bob")]) for i in range(3)),
            return_exceptions=True,
        )
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert all(isinstance(r, StorageError) and "locked" in str(r) for r in results), results
    await storage.save("g1", progress(2, "ann", "cyd"), [joined(2, "cyd")])
    await storage.close()
    assert await kept(path, "g0") == (1, ["ann"], [1])
    assert await kept(path, "g1") == (2, ["ann", "cyd"], [1, 2])


async def test_creating_a_game_twice_fails_that_creation_only(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    storage = await created(path)
    again, new = await asyncio.gather(
        storage.create(record("g0"), progress(5, "zed"), [joined(1, "zed")]),
        storage.create(record("fresh"), progress(1, "ann"), [joined(1, "ann")]),
        return_exceptions=True,
    )
    assert isinstance(again, StorageError) and "exists already" in str(again)
    assert new is None
    await storage.close()
    assert await kept(path, "g0") == (1, ["ann"], [1])
    assert await kept(path, "fresh") == (1, ["ann"], [1])


@pytest.mark.parametrize("waiting", [1, 5])
async def test_closing_waits_for_the_saves_under_way(tmp_path: Path, waiting: int) -> None:
    path = tmp_path / "games.sqlite3"
    storage = await created(path)
    saves = [
        asyncio.ensure_future(storage.save(f"g{i}", progress(2, "ann", "bob"), [joined(2, "bob")]))
        for i in range(waiting)
    ]
    await asyncio.sleep(0)
    await storage.close()
    await asyncio.gather(*saves)
    for i in range(waiting):
        assert await kept(path, f"g{i}") == (2, ["ann", "bob"], [1, 2])


async def test_a_save_that_fails_alone_in_its_transaction_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    storage = await created(path)
    with pytest.raises(StorageError, match="UNIQUE"):
        await storage.save("g0", progress(2, "ann", "bob"), [joined(1, "bob")])  # entry 1 exists
    await storage.save("g1", progress(2, "ann", "bob"), [joined(2, "bob")])
    await storage.close()
    assert await kept(path, "g0") == (1, ["ann"], [1])
    assert await kept(path, "g1") == (2, ["ann", "bob"], [1, 2])


async def test_a_transaction_written_again_after_a_change_failed_hands_back_each_claimed_notice_once(
    tmp_path: Path,
) -> None:
    """A change that fails undoes its transaction, which is written again with a savepoint for each change: the work
    of the others runs twice, and what it hands back (the outbox rows a sender claims) must not come twice."""
    path = tmp_path / "games.sqlite3"
    storage = await created(path)
    await storage.save("g0", progress(2, "ann"), [joined(2, "bob")], notices=[notice("a1"), notice("a2")])
    before = storage.transactions
    claimed, refused = await asyncio.gather(
        storage.notices().claim("node-1", now=200.0, lease=60.0, limit=10),
        storage.save("nowhere", progress(2, "ann"), [joined(2, "bob")]),  # the same transaction: it fails
        return_exceptions=True,
    )
    assert isinstance(refused, StorageError) and storage.transactions - before == 1
    assert isinstance(claimed, list) and sorted(r.notice.account_id for r in claimed) == ["a1", "a2"]
    await storage.close()
