"""The store under attack or neglect: damaged rows, a file the server cannot write, a file deleted while it runs, and
backups taken beside a running server.

Issue 19, items 6, 7, 8 and 10. Every server here is real (SQLite in a temporary directory, real clients on
127.0.0.1); nothing is mocked but a store that fails on purpose.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from risc.cli import main
from server.app import RiscServer
from server.clock import ManualClock, timestamp
from server.config import ServerConfig
from server.storage import DATABASE_NAME, GameProgress, GameRecord, SqliteStorage, StorageError
from shared.protocol.log import SequencedEvent
from shared.rulesets.risc.board import Phase
from tests.persistence_support import commit, issue_all
from tests.server_support import FAST, Client, create_game, join, running_server, seated_game
from tests.test_server_storage import FailingStorage

ROOT = Path(__file__).resolve().parent.parent


def start_process(data: Path) -> subprocess.CompletedProcess[str]:
    """A server that must refuse to start: it would otherwise run until the timeout."""
    return subprocess.run(
        [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0", "--data-dir", str(data)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=20,
    )


def rows(database: Path, query: str, *args: object) -> list[tuple[object, ...]]:
    with contextlib.closing(sqlite3.connect(database)) as db:
        return db.execute(query, args).fetchall()


def change(database: Path, query: str, *args: object) -> None:
    with contextlib.closing(sqlite3.connect(database)) as db, db:
        db.execute(query, args)


async def games_in_play(data: Path, count: int) -> list[tuple[str, str]]:
    """`count` games on the seed map, each with ann and bob seated (so started), kept in `data`: (game, ann's token)
    for each."""
    async with running_server(SqliteStorage(data / DATABASE_NAME), **FAST) as server:
        games = []
        for _ in range(count):
            game_id, clients, tokens = await seated_game(server, ["ann", "bob"])
            games.append((game_id, tokens[0]))
            for client in clients:
                await client.close()
    return games


# ---- item 6: one damaged game is set aside, the others play on --------------------------------------------------


async def test_damaged_games_are_set_aside_untouched_and_named_and_the_others_are_restored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / DATABASE_NAME
    games = await games_in_play(tmp_path, 5)
    bad_json, future_order, no_map, bad_state, healthy = (game_id for game_id, _ in games)
    change(database, "UPDATE games SET progress = '{\"seats\": [' WHERE game_id = ?", bad_json)
    change(
        database,
        "INSERT INTO pending_orders (game_id, player, turn, position, body) VALUES (?, 'ann', 7, 0, ?)",
        future_order,
        json.dumps({"kind": "place", "territory": "Narnia", "units": 1}),
    )
    change(database, "UPDATE games SET map_key = 'no-such-map' WHERE game_id = ?", no_map)
    change(
        database,
        "UPDATE games SET progress = json_set(progress, '$.state.board.phase', 'halftime') WHERE game_id = ?",
        bad_state,
    )
    before = rows(database, "SELECT * FROM games ORDER BY game_id")

    caplog.set_level(logging.INFO, "risc")
    async with running_server(SqliteStorage(database), **FAST) as server:
        client = await Client.connect(server)
        listed = await client.request(type="list_games")
        assert [g["game_id"] for g in listed["games"]] == [healthy]
        ann = await Client.connect(server)  # the game that was restored plays on
        assert (await ann.request(type="resume", game_id=healthy, token=games[-1][1]))["type"] == "resumed"
        await ann.wait_type("update", game_id=healthy)
        assert await issue_all(ann, healthy, "ann")
        created = await create_game(client)
        assert created not in (bad_json, future_order, no_map, bad_state)
    log = caplog.text
    for game_id, why in ((bad_json, "progress"), (future_order, "step 7"), (no_map, "map"), (bad_state, "halftime")):
        line = next(line for line in log.splitlines() if f"game {game_id} set aside" in line)
        assert why in line, line
    assert "1 game restored, 4 set aside" in log
    assert rows(database, "SELECT * FROM games WHERE game_id NOT IN (?, ?) ORDER BY game_id", healthy, created) == [
        row for row in before if row[0] != healthy
    ]  # set aside, untouched

    assert await asyncio.to_thread(main, ["games", "damaged", "--data-dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    for game_id in (bad_json, future_order, no_map, bad_state):
        assert game_id in out
    assert healthy not in out and "4 damaged games" in out


async def test_a_store_with_no_damaged_game_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    await games_in_play(tmp_path, 1)
    assert await asyncio.to_thread(main, ["games", "damaged", "--data-dir", str(tmp_path)]) == 0
    assert "no damaged game" in capsys.readouterr().out


# ---- item 7: a store that cannot be written is refused at start; storage failures are storage-failed -------------


def make_read_only(database: Path) -> None:
    """Read-only for the OS, and for SQLite itself (a write version above 2 in the file's header makes SQLite open
    it read-only), since the OS lets root write any file and the suite may run as root."""
    data = bytearray(database.read_bytes())
    data[18] = 3
    database.write_bytes(bytes(data))
    database.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)


async def test_a_database_the_server_cannot_write_is_refused_at_start(tmp_path: Path) -> None:
    await games_in_play(tmp_path, 1)
    database = tmp_path / DATABASE_NAME
    make_read_only(database)
    before = database.read_bytes()
    with pytest.raises(StorageError, match="cannot be written"):
        SqliteStorage(database)
    result = await asyncio.to_thread(start_process, tmp_path)
    assert result.returncode == 1
    assert f"cannot start: the game database {database} cannot be written" in result.stderr
    assert "Traceback" not in result.stderr
    assert database.read_bytes() == before


class FullDisk(FailingStorage):
    """A store whose creations fail too, from a chosen moment, as on a full disk."""

    async def create(
        self,
        record: GameRecord,
        progress: GameProgress,
        events: Sequence[SequencedEvent],
        *,
        summary: str | None = None,
    ) -> None:
        if self.failing:
            raise StorageError("database or disk is full")
        await super().create(record, progress, events, summary=summary)


async def test_a_game_the_store_cannot_create_is_refused_as_storage_failed(caplog: pytest.LogCaptureFixture) -> None:
    storage = FullDisk()
    async with running_server(storage, **FAST) as server:
        client = await Client.connect(server)
        storage.failing = True
        reply = await client.request(type="create_game", settings={"map": "seed"})
        assert reply["type"] == "error" and reply["code"] == "storage-failed", reply
        assert reply["request"] == "create_game"
        assert server.lobby.matches == {}
    assert "Traceback" not in caplog.text


async def test_a_rematch_the_store_cannot_create_is_refused_as_storage_failed() -> None:
    storage = FullDisk()
    async with running_server(storage, **FAST) as server:
        game_id, (ann, bob), _ = await seated_game(server, ["ann", "bob"], initial_units=1)
        match = server.lobby.get(game_id)
        game = match.table.game
        assert game is not None  # played to its end at once: what is tested is what follows the end
        match.table = match.table.evolve(
            game=game.evolve(board=dataclasses.replace(game.board, phase=Phase.FINISHED, winner="ann"))
        )
        assert (await ann.request(type="rematch", game_id=game_id))["type"] == "rematch_pending"
        storage.failing = True
        reply = await bob.request(type="rematch", game_id=game_id)
        assert reply["type"] == "error" and reply["code"] == "storage-failed", reply


# ---- item 8: a database deleted or replaced under a running server ----------------------------------------------


async def test_a_database_deleted_while_the_server_runs_stops_every_change_and_its_games_are_rescued(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    database = tmp_path / DATABASE_NAME
    caplog.set_level(logging.INFO, "risc")
    clock = ManualClock()
    async with running_server(SqliteStorage(database, clock=clock), clock=clock, **FAST) as server:
        clients = [await Client.connect(server) for _ in range(3)]
        game_id = await create_game(clients[0], players=3)
        await join(clients[0], game_id, "ann")
        for suffix in ("", "-wal", "-shm"):
            Path(f"{database}{suffix}").unlink()
        for attempt in range(3):
            reply = await clients[1].request(type="join_game", game_id=game_id, name=f"bob{attempt}")
            assert reply["type"] == "error" and reply["code"] == "storage-failed", reply
        reply = await clients[2].request(type="create_game", settings={"map": "seed"})
        assert reply["type"] == "error" and reply["code"] == "storage-failed", reply
        assert [s.name for s in server.lobby.get(game_id).seats] == ["ann"]
    told = [r for r in caplog.records if "every change is refused" in r.getMessage()]  # each refusal is logged
    assert len(told) == 1 and told[0].levelno == logging.ERROR  # but what happened, and what to do, once
    rescued = [p for p in tmp_path.iterdir() if p.name.startswith(f"{DATABASE_NAME}.rescued-")]
    assert len(rescued) == 1 and f"move that copy to {database}" in told[0].getMessage()
    assert rescued[0].name == f"{DATABASE_NAME}.rescued-{timestamp(clock)}", "named by the server's clock"
    assert f"{database} was deleted" in told[0].getMessage() and str(rescued[0]) in told[0].getMessage()
    storage = SqliteStorage(rescued[0], read_only=True)
    try:
        stored = await storage.load(game_id)
        assert stored is not None and [s.name for s in stored.progress.seats] == ["ann"]
    finally:
        await storage.close()


async def test_a_database_replaced_while_the_server_runs_is_noticed(tmp_path: Path) -> None:
    database = tmp_path / DATABASE_NAME
    other = tmp_path / "other"
    other.mkdir()
    await games_in_play(other, 1)
    async with running_server(SqliteStorage(database), **FAST) as server:
        client = await Client.connect(server)
        game_id = await create_game(client)
        os.replace(other / DATABASE_NAME, database)
        reply = await client.request(type="join_game", game_id=game_id, name="ann")
        assert reply["type"] == "error" and reply["code"] == "storage-failed", reply


async def test_a_write_ahead_log_deleted_while_the_server_runs_is_noticed(tmp_path: Path) -> None:
    database = tmp_path / DATABASE_NAME
    async with running_server(SqliteStorage(database), **FAST) as server:
        client = await Client.connect(server)
        game_id = await create_game(client)
        Path(f"{database}-wal").unlink()
        reply = await client.request(type="join_game", game_id=game_id, name="ann")
        assert reply["type"] == "error" and reply["code"] == "storage-failed", reply


# ---- item 10: backups beside a running server -------------------------------------------------------------------


async def test_a_backup_taken_while_a_server_plays_a_game_opens_and_holds_the_game(tmp_path: Path) -> None:
    data = tmp_path / "data"
    backup = tmp_path / "backup" / "games.sqlite3"
    config = ServerConfig(host="127.0.0.1", port=0, data_dir=data, bot_turn_pause=0.0, **FAST)
    async with RiscServer(config) as server:
        game_id, clients, _ = await seated_game(server, ["ann", "bob"])
        for client, name in zip(clients, ["ann", "bob"], strict=True):
            await issue_all(client, game_id, name)
        playing = asyncio.create_task(commit(clients[0], game_id))  # the server writes while the backup reads
        assert await asyncio.to_thread(main, ["backup", str(backup), "--data-dir", str(data)]) == 0
        await playing
        acknowledged = server.lobby.get(game_id).table.game
    assert acknowledged is not None
    storage = SqliteStorage(backup, read_only=True)
    try:
        stored = await storage.load(game_id)
    finally:
        await storage.close()
    assert stored is not None and [s.name for s in stored.progress.seats] == ["ann", "bob"]
    assert stored.progress.state is not None and stored.progress.state["board"]["turn"] == 0
    assert set(stored.progress.state["orders"]) == {"ann", "bob"}  # the orders issued before it was taken

    restored = tmp_path / "restored"
    restored.mkdir()
    (restored / DATABASE_NAME).write_bytes(backup.read_bytes())
    async with running_server(SqliteStorage(restored / DATABASE_NAME)) as server:
        assert game_id in server.lobby.matches


def test_a_backup_never_overwrites_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(games_in_play(tmp_path, 1))
    dest = tmp_path / "kept.sqlite3"
    dest.write_text("precious")
    assert main(["backup", str(dest), "--data-dir", str(tmp_path)]) == 1
    assert "exists" in capsys.readouterr().err
    assert dest.read_text() == "precious"
