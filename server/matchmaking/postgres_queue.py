"""The quick play queue and the invitations of nodes sharing a PostgreSQL store: rows every node reads; games formed
by one node at a time (a transaction-level advisory lock), its chosen rows marked with the new game's id in the same
transaction, so nobody is seated twice; rows of a game whose forming node died before making it wait again."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.matchmaking.forming import Ask, Formed, Queued
from server.matchmaking.queue import Decide, NewId, QueueStore, Seated
from server.storage.postgres import PostgresStorage, lock_key

FORMING_LOCK = 0x52495343_00000002
"""The advisory lock a node holds while it forms games (transaction-level: let go at its commit)."""
GONE_AFTER = 30.0
"""Seconds after which a waiting player whose node died (and who did not come back through another) is dropped."""

_ROW = "account_id, name, ruleset, players, pace, computers_after, rating, since"


def _queued(row: Sequence[Any]) -> Queued:
    return Queued(row[0], row[1], Ask(row[2], int(row[3]), row[4], row[5]), int(row[6]), float(row[7]))


class PostgresQueue(QueueStore):
    def __init__(self, store: PostgresStorage, fence_after: float) -> None:
        self.store = store
        self.fence_after = fence_after

    async def enqueue(self, queued: Queued, node: str) -> Queued:
        ask = queued.ask
        rows = await self.store.rows(
            f"INSERT INTO quick_queue ({_ROW}, node_id) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (account_id) DO UPDATE SET node_id = excluded.node_id, name = excluded.name, "
            "rating = excluded.rating, computers_after = excluded.computers_after, "
            "ruleset = excluded.ruleset, players = excluded.players, pace = excluded.pace, "
            "since = CASE WHEN quick_queue.ruleset = excluded.ruleset AND quick_queue.players = excluded.players "
            "AND quick_queue.pace = excluded.pace THEN quick_queue.since ELSE excluded.since END "
            f"WHERE quick_queue.game_id IS NULL RETURNING {_ROW}",
            (
                queued.account,
                queued.name,
                ask.ruleset,
                ask.players,
                ask.pace,
                ask.computers_after,
                queued.rating,
                queued.since,
                node,
            ),
        )
        return _queued(rows[0]) if rows else queued

    async def leave(self, account: str) -> bool:
        rows = await self.store.rows(
            "DELETE FROM quick_queue WHERE account_id = %s AND game_id IS NULL RETURNING 1", (account,)
        )
        return bool(rows)

    async def waiting(self) -> list[Queued]:
        rows = await self.store.rows(f"SELECT {_ROW} FROM quick_queue WHERE game_id IS NULL ORDER BY since, account_id")
        return [_queued(r) for r in rows]

    async def claim(self, decide: Decide, new_id: NewId) -> list[tuple[str, Formed]]:
        async def work(conn: Any) -> list[tuple[str, Formed]]:
            async with conn.transaction():
                locked = await (await conn.execute("SELECT pg_try_advisory_xact_lock(%s)", (FORMING_LOCK,))).fetchone()
                if not locked[0]:
                    return []
                rows = await (
                    await conn.execute(
                        f"SELECT {_ROW} FROM quick_queue WHERE game_id IS NULL ORDER BY since FOR UPDATE SKIP LOCKED"
                    )
                ).fetchall()
                claimed = []
                for formed in decide([_queued(r) for r in rows]):
                    game_id = await new_id()
                    await conn.execute(
                        "UPDATE quick_queue SET game_id = %s, rated = %s WHERE account_id = ANY(%s)",
                        (game_id, formed.rated, [q.account for q in formed.players]),
                    )
                    claimed.append((game_id, formed))
                return claimed

        result: list[tuple[str, Formed]] = await self.store.run(work)
        return result

    async def unclaim(self, game_id: str) -> None:
        await self.store.rows("UPDATE quick_queue SET game_id = NULL WHERE game_id = %s", (game_id,))

    async def seated(self, accounts: Sequence[str]) -> list[Seated]:
        rows = await self.store.rows(
            "DELETE FROM quick_queue q WHERE q.account_id = ANY(%s) AND q.game_id IS NOT NULL "
            "AND EXISTS (SELECT 1 FROM games g WHERE g.game_id = q.game_id) "
            "RETURNING q.account_id, q.game_id, q.name, q.rated",
            (list(accounts),),
        )
        return [Seated(r[0], r[1], r[2], bool(r[3])) for r in rows]

    async def sweep(self) -> None:
        """Formed games never made, whose id's lock nobody holds (their forming node is gone): their players wait
        again. Waiting players whose node is gone for GONE_AFTER seconds: dropped."""
        orphans = await self.store.rows(
            "SELECT DISTINCT q.game_id FROM quick_queue q WHERE q.game_id IS NOT NULL "
            "AND NOT EXISTS (SELECT 1 FROM games g WHERE g.game_id = q.game_id)"
        )

        async def put_back(conn: Any, game_id: str) -> None:
            key = lock_key(game_id)
            got = await (await conn.execute("SELECT pg_try_advisory_lock(%s)", (key,))).fetchone()
            if not got[0]:
                return  # its forming node is making it now
            try:
                await conn.execute(
                    "UPDATE quick_queue q SET game_id = NULL WHERE q.game_id = %s "
                    "AND NOT EXISTS (SELECT 1 FROM games g WHERE g.game_id = q.game_id)",
                    (game_id,),
                )
            finally:
                await conn.execute("SELECT pg_advisory_unlock(%s)", (key,))

        for (game_id,) in orphans:

            async def run(conn: Any, game_id: str = game_id) -> None:
                await put_back(conn, game_id)

            await self.store.run(run)
        await self.store.rows(
            "DELETE FROM quick_queue q WHERE q.game_id IS NULL AND NOT EXISTS (SELECT 1 FROM nodes n "
            "WHERE n.node_id = q.node_id AND n.heartbeat > now() - make_interval(secs => %s))",
            (self.fence_after + GONE_AFTER,),
        )
