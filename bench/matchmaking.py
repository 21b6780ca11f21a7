"""Quick play under load: 1,000 players queueing for three-player RISC over two nodes sharing PostgreSQL, from
several client processes (docs/ratings.md).

Each player is an account with a session and a RISC rating of its own (mu drawn around 25, sigma 3: ratings from
about 700 to 2,000), written into the store before the run (no password hashing: the sessions are made as a
sign-in makes them). The players connect (half to each node) and queue at moments spread over `--spread` seconds,
each asking for computers after `--computers` seconds so that the last one, who finds no two others, is seated too.
The figures: every player seated exactly once (by what each was told, and by the store's account_games), the time
from asking to being seated (p50, p99), and the spread of ratings within each game (highest less lowest, p50 and
p90) against the same players seated at random.

Run by hand: `python bench/matchmaking.py [--players 1000] [--processes 4] [--spread 20] [--store postgresql://...]`.
Without --store it starts a throwaway PostgreSQL of its own (as the tests do).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import math
import random
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cluster import own_postgres, start_node
from bench.server_load import raise_open_files
from bench.strength import percentile
from server.ratings.model import Skill
from shared.protocol.codes import PROTOCOL_VERSION


def seed(dsn: str, players: int, draw: random.Random) -> list[dict[str, Any]]:
    """The accounts, their sessions and their RISC ratings, written into the store (its schema made by a node)."""
    import psycopg

    from shared.protocol.names import skeleton

    made = []
    now = time.time()
    with psycopg.connect(dsn, autocommit=True) as db:
        for n in range(players):
            name = f"Player {n:04}"
            token = secrets.token_urlsafe(32)
            skill = Skill(draw.gauss(25.0, 5.0), 3.0)
            made.append({"name": name, "token": token, "rating": skill.shown})
            db.execute(
                "INSERT INTO accounts (account_id, name, name_key, password_hash, created_at) "
                "VALUES (%s, %s, %s, '', %s)",
                (f"a{n:04}", name, skeleton(name), now),
            )
            db.execute(
                "INSERT INTO sessions (token_hash, account_id, created_at, last_used_at, expires_at) "
                "VALUES (%s, %s, %s, %s, %s)",
                (hashlib.sha256(token.encode()).hexdigest(), f"a{n:04}", now, now, now + 86_400),
            )
            db.execute(
                "INSERT INTO ratings (holder, ruleset, mu, sigma, games, wins, last_at) "
                "VALUES (%s, 'risc', %s, %s, 30, 10, %s)",
                (f"a{n:04}", skill.mu, skill.sigma, now),
            )
    return made


async def _player(url: str, who: dict[str, Any], delay: float, computers: float) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    await asyncio.sleep(delay)
    async with connect(url, max_size=None, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "session": who["token"]}))
        welcome = json.loads(await ws.recv())
        assert welcome["account"]["name"] == who["name"], welcome
        asked = time.monotonic()
        await ws.send(json.dumps({"type": "quick_play", "ruleset": "risc", "players": 3, "computers_after": computers}))
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "error":
                raise RuntimeError(f"{who['name']}: {message['message']}")
            if message["type"] == "quick_play_found":
                return {
                    "name": who["name"],
                    "game_id": message["game_id"],
                    "rated": message["rated"],
                    "seconds": time.monotonic() - asked,
                }


async def _clients(job: dict[str, Any]) -> list[dict[str, Any]]:
    return list(
        await asyncio.gather(*(_player(url, who, delay, job["computers"]) for url, who, delay in job["players"]))
    )


def client_process() -> None:
    """One client process: its share of the players from standard input, what each was told on standard output."""
    raise_open_files()
    job = json.loads(sys.stdin.read())
    print(json.dumps(asyncio.run(_clients(job))))


def percentile_of(values: list[float], share: float) -> float:
    """The nearest-rank percentile of sorted `values`."""
    return values[max(0, math.ceil(share * len(values)) - 1)]


def spreads(games: list[list[int]]) -> list[int]:
    return [max(g) - min(g) for g in games if len(g) > 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--spread", type=float, default=20.0, help="seconds over which the players queue")
    parser.add_argument("--computers", type=float, default=60.0, help="seconds after which computers fill a game")
    parser.add_argument("--store", default=None)
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        client_process()
        return
    draw = random.Random("matchmaking")
    postgres = own_postgres() if args.store is None else None
    dsn = args.store or postgres.fresh()  # type: ignore[union-attr]
    nodes = [start_node(dsn, "a"), start_node(dsn, "b")]
    try:
        players = seed(dsn, args.players, draw)
        urls = [f"ws://127.0.0.1:{node.port}" for node in nodes]
        jobs: list[list[Any]] = [[] for _ in range(args.processes)]
        for n, who in enumerate(players):
            jobs[n % args.processes].append((urls[n % 2], who, draw.uniform(0, args.spread)))
        started = time.monotonic()
        processes = [
            subprocess.Popen(
                [sys.executable, __file__, "--client"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
            for _ in jobs
        ]
        for process, job in zip(processes, jobs, strict=True):
            assert process.stdin is not None
            process.stdin.write(json.dumps({"players": job, "computers": args.computers}))
            process.stdin.close()
        told: list[dict[str, Any]] = []
        for process in processes:
            assert process.stdout is not None
            told += json.loads(process.stdout.read())
            process.wait()
        elapsed = time.monotonic() - started
        import psycopg

        with psycopg.connect(dsn) as db:
            seated = dict(db.execute("SELECT account_id, count(*) FROM account_games GROUP BY account_id").fetchall())
            nodes_of = dict(db.execute("SELECT owner, count(*) FROM games GROUP BY owner").fetchall())
        rating = {p["name"]: p["rating"] for p in players}
        games: dict[str, list[int]] = {}
        for t in told:
            games.setdefault(t["game_id"], []).append(rating[t["name"]])
        names = [t["name"] for t in told]
        print(
            f"{len(told)} of {len(players)} players told they were seated, each once: "
            f"{len(set(names)) == len(names) == len(players)}; the store seats each once: "
            f"{sorted(set(seated.values())) == [1] and len(seated) == len(players)}; {len(games)} games "
            f"({sum(1 for t in told if not t['rated'])} players in unrated games filled by computers), "
            f"formed by node a {nodes_of.get('a', 0)}, b {nodes_of.get('b', 0)}; all seated in {elapsed:.0f} s"
        )
        seconds = sorted(t["seconds"] for t in told)
        print(f"time to be seated: p50 {statistics.median(seconds):.2f} s, p99 {percentile_of(seconds, 0.99):.2f} s")
        formed = spreads([g for g in games.values() if len(g) == 3])
        shuffled = list(rating.values())
        draw.shuffle(shuffled)
        at_random = spreads([shuffled[i : i + 3] for i in range(0, len(shuffled) - 2, 3)])
        print(
            f"rating spread within a game (highest less lowest): quick play p50 {percentile(formed, 0.5)}, "
            f"p90 {percentile(formed, 0.9)}; seated at random p50 {percentile(at_random, 0.5)}, "
            f"p90 {percentile(at_random, 0.9)} (ratings {min(rating.values())} to {max(rating.values())})"
        )
    finally:
        for node in nodes:
            node.stop()
        if postgres is not None and postgres.cluster is not None:
            postgres.cluster.stop()


if __name__ == "__main__":
    main()
