"""Make tests/data/postgres-previous.sql: a PostgreSQL store written by the previous release (its schema version is
whatever that release's is: the dump says), for tests/test_cluster_upgrade.py.

Run it from a checkout of the previous release (it plays on that checkout's own node), with PostgreSQL's programs
installed, writing into this checkout's tests/data:

    python tests/data/make_postgres_previous.py NEW/tests/data/postgres-previous.{sql,json}

It plays, on one node of a throwaway PostgreSQL: a game in its lobby with ann seated; a game of three at turn 1 where
ann issued her orders and committed and bob issued his, not committed; then dumps the database (pg_dump, plain SQL,
no owner and no privileges) and writes the games' ids and seat tokens beside it, with the commit it was made by (the
test runs that commit's code as the previous release's node, taken from the repository's history). It is made again
only when a release adds a schema step: the release before it makes it.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.persistence_support import commit, issue_all
from tests.postgres_support import server_programs, start_cluster
from tests.server_support import Client, create_game, join, running_server


async def play(dsn: str) -> dict[str, object]:
    async with running_server(store=dsn, node_id="old-1") as node:
        ann = await Client.connect(node)
        lobby = await create_game(ann, players=2)
        lobby_tokens = {"ann": await join(ann, lobby, "ann")}

        clients = [await Client.connect(node) for _ in range(3)]
        playing = await create_game(clients[0], players=3)
        names = ["ann", "bob", "cyd"]
        tokens = {name: await join(c, playing, name) for c, name in zip(clients, names, strict=True)}
        for client in clients:
            await client.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        for client, name in zip(clients, names, strict=True):  # the placement, turn 0
            await issue_all(client, playing, name)
            await commit(client, playing)
        await clients[0].wait_for(lambda m: m["type"] == "update" and m["game"]["turn"] == 1)
        ann_orders = await issue_all(clients[0], playing, "ann")
        await commit(clients[0], playing)
        bob_orders = await issue_all(clients[1], playing, "bob")
        return {
            "lobby": lobby,
            "lobby_tokens": lobby_tokens,
            "playing": playing,
            "tokens": tokens,
            "ann_orders": ann_orders,
            "bob_orders": bob_orders,
        }


def main() -> None:
    sql, kept = Path(sys.argv[1]), Path(sys.argv[2])  # the shell's {sql,json} gives both
    cluster = start_cluster()
    try:
        name = cluster.new_database()
        dsn = cluster.dsn(name)
        facts = asyncio.run(play(dsn))
        dump = subprocess.run(
            [str(server_programs() / "pg_dump"), "--no-owner", "--no-privileges", "-d", dsn],
            capture_output=True,
            text=True,
            check=True,
        )
        sql.write_text(dump.stdout)
        kept.write_text(json.dumps(facts, indent=2) + "\n")
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
