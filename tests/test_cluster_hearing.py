"""A node's listening session read when PostgreSQL sends it something (server/cluster/hearing.py): every
notification heard in order with its payload, and a session the database ended told once, as an error."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from server.cluster.hearing import Hearing
from tests.postgres_support import PostgresCluster


async def test_what_other_sessions_notify_is_heard_in_order_with_its_payload(postgres_dsn: str) -> None:
    listener = await psycopg.AsyncConnection.connect(postgres_dsn, autocommit=True, application_name="hearing-test")
    teller = await psycopg.AsyncConnection.connect(postgres_dsn, autocommit=True)
    try:
        hearing = Hearing(listener)
        await listener.execute("LISTEN lobby")
        await listener.execute("LISTEN cluster")
        await teller.execute("SELECT pg_notify('lobby', 'before the block')")
        with hearing:
            assert await asyncio.wait_for(hearing.next(), 5) == ("lobby", "before the block")
            for payload in ("one", "deux", "Ünïcødé ✓"):
                await teller.execute("SELECT pg_notify('cluster', %s)", (payload,))
            heard = [await asyncio.wait_for(hearing.next(), 5) for _ in range(3)]
            assert heard == [("cluster", "one"), ("cluster", "deux"), ("cluster", "Ünïcødé ✓")]
            await teller.execute("SELECT pg_notify('elsewhere', 'not listened to')")
            await teller.execute("SELECT pg_notify('lobby', 'last')")
            assert await asyncio.wait_for(hearing.next(), 5) == ("lobby", "last")
    finally:
        await listener.close()
        await teller.close()


async def test_a_session_the_database_ended_is_told_once_as_an_error(
    postgres_dsn: str, postgres_cluster: PostgresCluster
) -> None:
    listener = await psycopg.AsyncConnection.connect(postgres_dsn, autocommit=True, application_name="hearing-ended")
    try:
        hearing = Hearing(listener)
        await listener.execute("LISTEN lobby")
        with hearing:
            postgres_cluster.psql(
                "postgres",
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'hearing-ended'",
            )
            with pytest.raises(psycopg.Error):
                await asyncio.wait_for(hearing.next(), 5)
    finally:
        await listener.close()
