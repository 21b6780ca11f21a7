"""What a node does while its PostgreSQL restarts or drops its connections (found by failing the cluster over): a
request the store cannot carry out is refused `storage-failed`, as docs/storage.md says, never answered `internal`;
and a game read back over a connection the database dropped is not damaged, so it is never set aside."""

from __future__ import annotations

import asyncio
import logging

import pytest

from tests.cluster_support import node_of, nodes
from tests.postgres_support import PostgresCluster, restart
from tests.server_support import Client, create_game, seated_game


async def test_creating_a_game_while_postgresql_restarts_is_refused_storage_failed_never_internal(
    postgres_dsn: str, postgres_cluster: PostgresCluster
) -> None:
    async with nodes(postgres_dsn, 1) as (a,):
        ann = await Client.connect(a)
        await create_game(ann, players=2)  # the node's session and its pool are in use
        restart(postgres_cluster)
        refused: list[str] = []
        for _ in range(500):
            reply = await ann.request(type="create_game", settings={"map": "seed", "players": 2})
            if reply["type"] == "game_created":
                break
            refused.append(reply["code"])
            await asyncio.sleep(0.02)
        assert reply["type"] == "game_created", refused[-5:]  # the node is back on the database
        assert set(refused) <= {"storage-failed"}, refused


async def test_a_game_read_back_over_a_connection_the_database_dropped_is_not_set_aside(
    postgres_dsn: str, postgres_cluster: PostgresCluster, caplog: pytest.LogCaptureFixture
) -> None:
    async with nodes(postgres_dsn, 2, fence_after=60.0) as (a, b):
        game_id, _, tokens = await seated_game(a, ["ann", "bob"])
        node_of(a)._tasks.cancel()  # node a dies, as far as the database knows: its session ends, its game is free
        assert postgres_cluster.end_sessions(postgres_dsn, "risc-node:a") == 1
        # every pooled connection of both nodes dropped, as a restarting database drops them
        assert postgres_cluster.end_sessions(postgres_dsn, "risc-store%", like=True) >= 1
        caplog.set_level(logging.INFO, logger="risc.server")
        ann = await Client.connect(b)
        refused = []
        for _ in range(50):
            reply = await ann.request(type="resume", game_id=game_id, token=tokens[0])
            if reply["type"] == "resumed":
                break
            refused.append(reply)
        assert reply["type"] == "resumed", refused  # node b took it over once its pool had a working connection
        assert all(r["type"] == "error" and r["code"] == "storage-failed" for r in refused), refused
        assert "set aside" not in " ".join(r["message"] for r in refused)
        assert b.storage.damaged == {}
        assert not [r for r in caplog.records if "set aside" in r.getMessage()]
