"""A starting server reads back only the recent part of each game's log; the whole log stays stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.match import Match
from server.storage import GameProgress, MemoryStorage, SqliteStorage, Storage
from server.storage.base import StoredGame
from tests.test_server_storage import joined, record


class Inbox:
    """A subscriber that keeps what it is sent."""

    def __init__(self) -> None:
        self.sent: list[object] = []

    def send(self, message: object, text: str | None = None) -> None:
        self.sent.append(message)


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
async def test_load_gives_the_whole_log_or_its_last_entries_in_order(kind: str, tmp_path: Path) -> None:
    storage: Storage = MemoryStorage() if kind == "memory" else SqliteStorage(tmp_path / "games.sqlite3")
    events = [joined(seq, f"p{seq}") for seq in range(1, 51)]
    await storage.create(record(), GameProgress(seats=[], state=None, seq=50), events)
    whole = await storage.load("g1")
    tail = await storage.load("g1", tail=5)
    assert whole is not None and tail is not None
    assert [e.seq for e in whole.events] == list(range(1, 51))
    assert [e.seq for e in tail.events] == [46, 47, 48, 49, 50]
    await storage.close()


def test_a_restored_match_catches_up_recent_clients_and_snapshots_the_others() -> None:
    events = [joined(seq, f"p{seq}") for seq in range(1, 101)]
    stored = StoredGame(record=record(), progress=GameProgress(seats=[], state=None, seq=100), events=events[-10:])
    match = Match.restore(stored, MemoryStorage())
    assert match.seq == 100

    recent, behind = Inbox(), Inbox()
    match._catch_up(recent, None, 95)  # type: ignore[arg-type]
    match._catch_up(behind, None, 40)  # type: ignore[arg-type]
    (update,) = recent.sent
    assert [e.seq for e in update.events] == [96, 97, 98, 99, 100] and not update.snapshot  # type: ignore[attr-defined]
    (snapshot,) = behind.sent
    assert snapshot.snapshot and snapshot.events == []  # type: ignore[attr-defined]
