"""A server killed with SIGKILL mid-turn loses nothing it acknowledged: a new one on the same store (its SQLite file, or
the PostgreSQL database a node of the same name shared) carries the game on, with every placement, order and commit
in place."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.persistence_support import commit, issue_all, latest_view, next_turn, play_to_the_end, resume
from tests.server_support import Client, create_game, join
from tests.test_server_process import start_server

NAMES = ["ann", "bob", "cyd"]


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
async def test_a_killed_server_resumes_every_acknowledged_change(
    store: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    where = (
        ["--data-dir", str(tmp_path)]
        if store == "sqlite"
        else ["--store", request.getfixturevalue("postgres_dsn"), "--node-id", "only"]
    )
    process, port = await start_server(*where)
    try:
        clients = [await Client.connect(port) for _ in NAMES]
        game_id = await create_game(clients[0], players=3)
        tokens = [await join(c, game_id, n) for c, n in zip(clients, NAMES, strict=True)]
        for client in clients:
            await client.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        for _ in range(3):  # placement and two turns
            view = latest_view(clients[0], game_id)
            for client, name in zip(clients, NAMES, strict=True):
                await issue_all(client, game_id, name)
                await commit(client, game_id)
            await next_turn(clients, game_id, (view["phase"], view["turn"]))
        turn = latest_view(clients[0], game_id)["turn"]
        ann_orders = await issue_all(clients[0], game_id, "ann")
        await commit(clients[0], game_id)
        bob_orders = await issue_all(clients[1], game_id, "bob")
        assert ann_orders and bob_orders
        process.kill()
        await process.wait()

        process, port = await start_server(*where)
        clients = [await Client.connect(port) for _ in NAMES]
        views = [(await resume(c, game_id, t))["view"] for c, t in zip(clients, tokens, strict=True)]
        assert {v["turn"] for v in views} == {turn}
        assert views[0]["your_orders"] == ann_orders and views[1]["your_orders"] == bob_orders
        assert views[2]["your_orders"] == []
        committed = {p["name"]: p["committed"] for p in views[2]["players"]}
        assert committed == {"ann": True, "bob": False, "cyd": False}

        await commit(clients[1], game_id)
        await issue_all(clients[2], game_id, "cyd")
        await commit(clients[2], game_id)
        assert await play_to_the_end(clients, NAMES, game_id, turn) in NAMES
    finally:
        if process.returncode is None:
            process.kill()
            await asyncio.wait_for(process.wait(), 10)
