"""Games in SQLite: restarts change nothing, damaged or foreign files are refused untouched, older schemas are
upgraded, and `risc replay` re-plays a stored game from its seed and spots an altered log."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from risc.cli import main
from server.storage import (
    DATABASE_NAME,
    GameProgress,
    GameRecord,
    MemoryStorage,
    SqliteStorage,
    Storage,
    StorageError,
    StoredGame,
)
from server.storage.codec import game_from_dict, map_to_dict
from server.storage.sqlite import SCHEMA_VERSION
from shared.maps import load_map
from shared.protocol.lobby import GameSettings
from shared.rulesets.risc.orders import PlaceOrder
from tests.engine_support import RISC, RiscGame, options, setup
from tests.persistence_support import commit, issue_all, latest_view, next_turn, resume
from tests.server_support import FAST, Client, create_game, current_view, join, owned, running_server, seated_game
from tests.test_server_process import start_server as start_server_process

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["ann", "bob"]
MAX_TURNS = 150


async def play_whole_game(data: Path, restart_every_turn: bool, seed: int = 20240611) -> tuple[str, StoredGame]:
    stack = contextlib.AsyncExitStack()
    server = await stack.enter_async_context(
        running_server(SqliteStorage(data / DATABASE_NAME), seeds=lambda: seed, **FAST)
    )
    try:
        game_id, clients, tokens = await seated_game(server, NAMES)
        for _ in range(MAX_TURNS):
            view = latest_view(clients[0], game_id)
            if view["phase"] == "finished":
                break
            for client, name in zip(clients, NAMES, strict=True):
                await issue_all(client, game_id, name)
                await commit(client, game_id)
            await next_turn(clients, game_id, (view["phase"], view["turn"]))
            if restart_every_turn and latest_view(clients[0], game_id)["phase"] != "finished":
                for client in clients:
                    await client.close()
                await stack.aclose()
                server = await stack.enter_async_context(
                    running_server(SqliteStorage(data / DATABASE_NAME), seeds=lambda: seed, **FAST)
                )
                clients = [await Client.connect(server) for _ in NAMES]
                for client, token in zip(clients, tokens, strict=True):
                    await resume(client, game_id, token)
        assert latest_view(clients[0], game_id)["phase"] == "finished"
    finally:
        await stack.aclose()
    storage = SqliteStorage(data / DATABASE_NAME)
    stored = await storage.load(game_id)
    await storage.close()
    assert stored is not None
    return game_id, stored


async def test_a_restart_between_every_turn_gives_the_same_game(tmp_path: Path) -> None:
    _, straight = await play_whole_game(tmp_path / "straight", restart_every_turn=False)
    _, restarted = await play_whole_game(tmp_path / "restarted", restart_every_turn=True)
    assert straight.progress.state is not None and straight.progress.state["board"]["winner"] in NAMES
    assert restarted.progress.state == straight.progress.state
    assert [e["event"] for e in restarted.events] == [e["event"] for e in straight.events]


async def test_replay_prints_each_turn_and_ok_and_finds_an_altered_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id, stored = await play_whole_game(tmp_path, restart_every_turn=False)
    assert await asyncio.to_thread(main, ["replay", game_id, "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Turn 0" in out and "Turn 1" in out and "attacked" in out and "standing:" in out
    assert re.search(r"^    \S+ moved \d+ from \S+ to \S+\.$", out, flags=re.M), "the moves are told too"
    assert out.rstrip().splitlines()[-1].startswith("OK")
    assert str(stored.record.seed) not in out

    revealed_turn, tampered = None, None
    for entry in stored.events:  # the first combat, and the turn it belongs to
        if entry["event"]["kind"] == "orders_revealed":
            revealed_turn = entry["event"]["turn"]
        if entry["event"]["kind"] == "combat":
            tampered = entry["seq"]
            break
    assert tampered is not None and revealed_turn is not None
    with contextlib.closing(sqlite3.connect(tmp_path / DATABASE_NAME)) as db, db:
        body = json.loads(
            db.execute("SELECT body FROM events WHERE game_id = ? AND seq = ?", (game_id, tampered)).fetchone()[0]
        )
        body["event"]["attacker_losses"] += 1
        db.execute("UPDATE events SET body = ? WHERE game_id = ? AND seq = ?", (json.dumps(body), game_id, tampered))
    assert await asyncio.to_thread(main, ["replay", game_id, "--data-dir", str(tmp_path)]) == 1
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert last.startswith(f"DIFFERS at turn {revealed_turn}:"), last


async def test_a_second_server_on_the_same_data_directory_is_refused_while_replay_reads_beside_the_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    process, port = await start_server_process("--data-dir", str(tmp_path))
    try:
        clients = [await Client.connect(port) for _ in NAMES]
        game_id = await create_game(clients[0], players=2)
        for client, name in zip(clients, NAMES, strict=True):
            await join(client, game_id, name)
        before = (tmp_path / DATABASE_NAME).read_bytes()

        second = await asyncio.to_thread(start_server, tmp_path)
        assert second.returncode == 1, second.stderr
        assert "another RISC server is running on the data directory" in second.stderr
        assert str(tmp_path) in second.stderr and f"process {process.pid}" in second.stderr
        assert "Traceback" not in second.stderr
        assert (tmp_path / DATABASE_NAME).read_bytes() == before

        assert await asyncio.to_thread(main, ["replay", game_id, "--data-dir", str(tmp_path)]) == 0
        assert capsys.readouterr().out.rstrip().splitlines()[-1].startswith("OK")
        reply = await clients[0].request(type="list_games")
        assert reply["type"] == "games" and [g["game_id"] for g in reply["games"]] == [game_id]
    finally:
        process.kill()
        await process.wait()
    process, port = await start_server_process("--data-dir", str(tmp_path))  # a killed server leaves no lock
    try:
        client = await Client.connect(port)
        reply = await client.request(type="list_games")
        assert [g["game_id"] for g in reply["games"]] == [game_id]
    finally:
        process.kill()
        await process.wait()


def start_server(data: Path) -> subprocess.CompletedProcess[str]:
    """A server that must refuse to start: it gets no signal and would otherwise run until the timeout."""
    return subprocess.run(
        [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0", "--data-dir", str(data)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=20,
    )


def test_a_file_of_random_bytes_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    database = tmp_path / DATABASE_NAME
    database.write_bytes(random.Random(5).randbytes(8192))
    before = database.read_bytes()
    result = start_server(tmp_path)
    assert result.returncode == 1
    assert "is not a RISC game database" in result.stderr and "Traceback" not in result.stderr
    assert database.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [DATABASE_NAME]


def test_another_applications_database_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    database = tmp_path / DATABASE_NAME
    with contextlib.closing(sqlite3.connect(database)) as db, db:
        db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)")
        db.execute("INSERT INTO photos (path) VALUES ('beach.jpg')")
    before = database.read_bytes()
    result = start_server(tmp_path)
    assert result.returncode == 1
    assert "another application" in result.stderr and "photos" in result.stderr
    assert "Traceback" not in result.stderr
    assert database.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [DATABASE_NAME]


def version_1_database(path: Path, games: list[tuple[GameRecord, GameProgress]]) -> None:
    """A database as the first release wrote it, made by hand: no phase column, user_version 1."""
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("PRAGMA application_id = 1380537155")
        db.execute(
            "CREATE TABLE games (game_id TEXT PRIMARY KEY, created_at REAL NOT NULL, record TEXT NOT NULL, "
            "progress TEXT NOT NULL)"
        )
        db.execute(
            "CREATE TABLE events (game_id TEXT NOT NULL REFERENCES games(game_id), seq INTEGER NOT NULL, "
            "body TEXT NOT NULL, PRIMARY KEY (game_id, seq)) WITHOUT ROWID"
        )
        for record, progress in games:
            db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?)",
                (record.game_id, record.created_at, record.model_dump_json(), progress.model_dump_json()),
            )
            db.execute(
                "INSERT INTO events VALUES (?, 1, ?)",
                (record.game_id, json.dumps({"seq": 1, "event": {"kind": "game_created"}})),
            )
        db.execute("PRAGMA user_version = 1")


async def test_a_database_of_an_older_schema_is_upgraded_with_its_games(tmp_path: Path) -> None:
    game_map = map_to_dict(load_map("seed"))

    def game(game_id: str, state: dict[str, Any] | None) -> tuple[GameRecord, GameProgress]:
        return (
            GameRecord(
                game_id=game_id,
                settings=GameSettings(map="seed"),
                seed=3,
                created_at=float(len(game_id)),
                game_map=game_map,
            ),
            GameProgress(seats=[], state=state, seq=1),
        )

    database = tmp_path / DATABASE_NAME
    version_1_database(database, [game("lobby", None), game("over", {"phase": "finished"})])
    storage = SqliteStorage(database)
    try:
        assert storage.schema_version == SCHEMA_VERSION
        assert await storage.list_games() == ["over", "lobby"]
        assert await storage.list_games(include_finished=False) == ["lobby"]
        stored = await storage.load("lobby")
        assert stored is not None and stored.record.seed == 3 and len(stored.events) == 1
    finally:
        await storage.close()
    with contextlib.closing(sqlite3.connect(database)) as db:
        assert dict(db.execute("SELECT game_id, phase FROM games")) == {"lobby": "lobby", "over": "finished"}


def version_2_database(path: Path, games: list[tuple[GameRecord, GameProgress]]) -> None:
    """A database as the second release wrote it, made by hand: each game's record holds its whole map."""
    version_1_database(path, games)
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("ALTER TABLE games ADD COLUMN phase TEXT NOT NULL DEFAULT 'lobby'")
        db.execute("UPDATE games SET phase = coalesce(json_extract(progress, '$.state.phase'), 'lobby')")
        db.execute("CREATE INDEX games_by_phase ON games (phase)")
        db.execute("PRAGMA user_version = 2")


async def test_a_version_2_database_is_upgraded_to_keep_each_map_once_with_its_games_intact(tmp_path: Path) -> None:
    seed, saltreach = map_to_dict(load_map("seed")), map_to_dict(load_map("saltreach"))
    games = [
        (
            GameRecord(
                game_id=game_id, settings=GameSettings(map=name), seed=i, created_at=float(i), game_map=game_map
            ),
            GameProgress(seats=[], state=None, seq=1),
        )
        for i, (game_id, name, game_map) in enumerate(
            [("one", "seed", seed), ("two", "seed", seed), ("three", "saltreach", saltreach)]
        )
    ]
    database = tmp_path / DATABASE_NAME
    version_2_database(database, games)
    storage = SqliteStorage(database)
    try:
        assert storage.schema_version == SCHEMA_VERSION
        for record, progress in games:
            stored = await storage.load(record.game_id)
            assert stored is not None and stored.record == record and stored.progress == progress
            assert [e["event"]["kind"] for e in stored.events] == ["game_created"]
        restored = await storage.load_unfinished(tail=10)
        assert [g.record for g in restored] == [record for record, _ in games]
    finally:
        await storage.close()
    with contextlib.closing(sqlite3.connect(database)) as db:
        assert db.execute("SELECT count(*) FROM maps").fetchone() == (2,)
        assert all("game_map" not in json.loads(text) for (text,) in db.execute("SELECT record FROM games"))


def version_3_database(path: Path, games: list[tuple[GameRecord, GameProgress]]) -> None:
    """A database as the third release wrote it, made by hand: maps kept once, every order in the progress."""
    version_2_database(path, games)
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("CREATE TABLE maps (map_key TEXT PRIMARY KEY, body TEXT NOT NULL)")
        db.execute("ALTER TABLE games ADD COLUMN map_key TEXT NOT NULL DEFAULT ''")
        for record, _ in games:
            body = json.dumps(record.game_map, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            key = hashlib.sha256(body.encode()).hexdigest()
            db.execute("INSERT OR IGNORE INTO maps VALUES (?, ?)", (key, body))
            db.execute(
                "UPDATE games SET record = ?, map_key = ? WHERE game_id = ?",
                (record.model_dump_json(exclude={"game_map"}), key, record.game_id),
            )
        db.execute("PRAGMA user_version = 3")


def state_as_saved_before_rule_sets(game: RiscGame) -> dict[str, Any]:
    """A RISC game as releases before rule sets had boards of their own kept it: the board's fields beside the
    players, orders and commits, no step."""
    board = RISC.dump_board(game.board)
    return {
        "ruleset": "risc",
        "players": list(game.players),
        **board,
        "orders": {p: [RISC.dump_order(o) for o in batch] for p, batch in game.orders.items()},
        "committed": sorted(game.committed),
    }


async def test_a_version_3_database_opens_with_its_games_and_their_orders_intact(tmp_path: Path) -> None:
    game_map = load_map("seed")
    state = setup(game_map, ["ann", "bob"], options(initial_units=4), seed=5)
    ann = state.board.territories_of("ann")[0]
    state = state.evolve(orders={"ann": (PlaceOrder(ann, 1), PlaceOrder(ann, 2))}, committed=frozenset({"bob"}))
    old_state = state_as_saved_before_rule_sets(state)
    assert set(old_state) >= {"phase", "turn", "owner", "units", "pools", "orders", "committed"}
    games = [
        (
            GameRecord(
                game_id=game_id,
                settings=GameSettings(map="seed"),
                seed=i,
                created_at=float(i),
                game_map=map_to_dict(game_map),
            ),
            GameProgress(seats=[], state=game_state, seq=1),
        )
        for i, (game_id, game_state) in enumerate([("lobby", None), ("placing", old_state)])
    ]
    database = tmp_path / DATABASE_NAME
    version_3_database(database, games)
    storage = SqliteStorage(database)
    try:
        assert storage.schema_version == SCHEMA_VERSION
        for record, progress in games:
            stored = await storage.load(record.game_id)
            assert stored is not None and stored.record == record and stored.progress == progress
        restored = await storage.load_unfinished(tail=10)
        assert [(g.record, g.progress) for g in restored] == games
        placing = restored[1].progress.state
        assert placing is not None and game_from_dict(RISC, placing, game_map, state.options) == state
    finally:
        await storage.close()


async def play_orders_and_withdrawals(storage: Storage) -> tuple[str, RiscGame]:
    """Orders issued and withdrawn before and after another player's commit (which, leaving the turn unresolved, is
    kept as a small row like them); the game's state once the server has stopped."""
    async with running_server(storage, **FAST) as server:
        game_id, (ann, bob, cyd), _ = await seated_game(server, ["ann", "bob", "cyd"], initial_units=6)
        view = current_view(ann, game_id)

        async def ask(client: Client, **request: Any) -> None:
            reply = await client.request(game_id=game_id, turn=0, **request)
            assert reply["type"] in {"order_accepted", "order_withdrawn", "commit_accepted"}, reply

        def place(player: str, index: int, units: int) -> dict[str, Any]:
            return {"kind": "place", "territory": owned(view, player)[index], "units": units}

        for units in (1, 2, 3):
            await ask(ann, type="issue_order", order=place("ann", units % 2, units))
        await ask(ann, type="withdraw_order", index=1)
        await ask(bob, type="issue_order", order=place("bob", 0, 6))
        await ask(bob, type="commit")
        await ask(ann, type="issue_order", order=place("ann", 1, 2))
        await ask(ann, type="withdraw_order", index=0)
        await ask(cyd, type="issue_order", order=place("cyd", 0, 1))
        await ask(cyd, type="withdraw_order", index=0)
        state = server.lobby.get(game_id).game
    assert state is not None
    assert [o.units for o in state.orders_of("ann")] == [3, 2] and state.orders_of("cyd") == ()
    assert state.committed == {"bob"}
    return game_id, state


@pytest.mark.parametrize("store", ["sqlite", "memory"])
async def test_issued_and_withdrawn_orders_are_loaded_as_they_were(tmp_path: Path, store: str) -> None:
    database = tmp_path / DATABASE_NAME
    storage: Storage = SqliteStorage(database) if store == "sqlite" else MemoryStorage()
    game_id, state = await play_orders_and_withdrawals(storage)
    if store == "sqlite":  # every order and bob's commit are rows of their own, not yet in the saved progress
        with contextlib.closing(sqlite3.connect(database)) as db:
            assert db.execute("SELECT count(*) FROM pending_orders").fetchone() == (9,)
            assert db.execute("SELECT player, step FROM pending_commits").fetchall() == [("bob", 0)]
            progress = json.loads(db.execute("SELECT progress FROM games").fetchone()[0])
            assert not progress["state"]["orders"] and not progress["state"]["committed"]
            last_entry = db.execute("SELECT max(seq) FROM events").fetchone()[0]
            assert db.execute("SELECT seq FROM pending_commits").fetchone() == (last_entry,) != (progress["seq"],)
        storage = SqliteStorage(database)
    try:
        stored = await storage.load(game_id)
        restored = await storage.load_unfinished(tail=10)
        assert stored is not None and stored.progress.state is not None
        assert game_from_dict(RISC, stored.progress.state, state.game_map, state.options) == state
        assert [g.progress for g in restored] == [stored.progress]
    finally:
        await storage.close()


async def test_a_kept_order_that_does_not_fit_the_saved_state_is_reported(tmp_path: Path) -> None:
    database = tmp_path / DATABASE_NAME
    game_id, _ = await play_orders_and_withdrawals(SqliteStorage(database))
    with contextlib.closing(sqlite3.connect(database)) as db, db:
        db.execute("UPDATE pending_orders SET position = 7 WHERE rowid = (SELECT max(rowid) FROM pending_orders)")
    storage = SqliteStorage(database)
    try:
        with pytest.raises(StorageError, match=f"game {game_id}: .* cyd at index 7 does not fit their 1 orders"):
            await storage.load(game_id)
    finally:
        await storage.close()
