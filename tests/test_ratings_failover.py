"""A rated game is rated exactly once whatever dies: real node processes on one real PostgreSQL, the node that plays
the game killed with SIGKILL at its last change (the resignation that ends it), again and again, each kill at
another moment of that change: the game ends on the other node, and its rating is written once, never twice nor
not at all, every player's chain of ratings unbroken (each game's rating before is the last one's after)."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import signal

import psycopg

from tests.cluster_support import follow, keep_reading_log
from tests.server_support import Client, create_game
from tests.test_accounts import PASSWORD
from tests.test_server_process import start_server

ROUNDS = 8
NODE_OPTIONS = ("--fence-after", "30", "--sweep-every", "0.3")


async def node(dsn: str, name: str) -> tuple[asyncio.subprocess.Process, int]:
    process, port = await start_server("--store", dsn, "--node-id", name, *NODE_OPTIONS)
    keep_reading_log(process)
    return process, port


async def resumed(port: int, session: str, game_id: str) -> Client:
    """Back to the account's seat through the node left (the database may take a moment to end the dead node's
    session and let go of its game)."""
    request = {"type": "resume", "game_id": game_id}
    for _ in range(100):
        client = await Client.connect(port, session=session)
        client, reply = await follow(client, await client.request(**request), **request)
        if reply["type"] == "resumed":
            return client
        await client.close()
        await asyncio.sleep(0.1)
    raise AssertionError(f"the seat never came back: {reply}")


async def test_the_owner_killed_at_a_rated_game_s_last_change_rates_it_once(postgres_dsn: str) -> None:
    draw = random.Random(33)
    nodes = [await node(postgres_dsn, "n0"), await node(postgres_dsn, "n1")]
    acknowledged_before_kill = 0
    try:
        first = await Client.connect(nodes[0][1])
        signed = await first.request(type="sign_up", name="Ann", password=PASSWORD)
        session = signed["session"]
        games = []
        for round_ in range(ROUNDS):
            (owner, owner_port), (_, other_port) = nodes
            ann = await Client.connect(owner_port, session=session)
            game_id = await create_game(ann, players=2, bots=1, rated=True)
            games.append(game_id)
            assert (await ann.request(type="join_game", game_id=game_id, name="Ann"))["type"] == "joined"
            await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
            await ann.send(type="resign", game_id=game_id, ref="last")
            await asyncio.sleep(draw.uniform(0.0, 0.03))  # somewhere before, during or after the save
            owner.send_signal(signal.SIGKILL)
            await owner.wait()
            acknowledged_before_kill += any(m.get("ref") == "last" and m["type"] == "resigned" for m in ann.frames)

            back = await resumed(other_port, session, game_id)
            update = await back.wait_for(lambda m, g=game_id: m["type"] == "update" and m["game_id"] == g)
            if update["game"]["status"] != "finished":  # the resignation was not kept: it is made again
                assert (await back.request(type="resign", game_id=game_id))["type"] == "resigned"
            await back.wait_for(lambda m: m["type"] == "update" and m["game"]["status"] == "finished", timeout=20)
            await back.close()
            nodes = [nodes[1], await node(postgres_dsn, f"n{round_ + 2}")]

        with psycopg.connect(postgres_dsn) as db:
            rated = [r[0] for r in db.execute("SELECT game_id FROM rated_games ORDER BY rated_at").fetchall()]
            changes = db.execute(
                "SELECT game_id, holder, mu_before, sigma_before, mu_after, sigma_after FROM rating_changes "
                "ORDER BY at, holder"
            ).fetchall()
            skills = db.execute("SELECT holder, mu, sigma, games FROM ratings ORDER BY holder").fetchall()
            ends = db.execute(
                "SELECT game_id, body FROM events WHERE body LIKE '%player_resigned%' ORDER BY game_id"
            ).fetchall()
        assert sorted(rated) == sorted(games)  # each game rated, none twice (its key)
        assert len(changes) == 2 * ROUNDS
        assert sorted(json.loads(body)["event"]["player"] for _, body in ends) == ["Ann"] * ROUNDS  # resigned once
        for holder, mu, sigma, played in skills:
            mine = [c for c in changes if c[1] == holder]
            assert played == ROUNDS == len(mine)
            for before, after in itertools.pairwise(mine):
                assert (after[2], after[3]) == (before[4], before[5]), "a game's rating started from the last one's"
            assert (mine[-1][4], mine[-1][5]) == (mu, sigma)
        print(f"{acknowledged_before_kill} of {ROUNDS} resignations were acknowledged before the kill")
    finally:
        for process, _ in nodes:
            if process.returncode is None:
                process.kill()
                await process.wait()
