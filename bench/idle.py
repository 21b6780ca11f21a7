"""The server's memory holding many idle connections: each has said hello and watches one of a few running games.

Run by hand: `python bench/idle.py [--clients 10000] [--games 100] [--workers 4] [--store memory|sqlite]`. The server
runs in its own process (bench/server_load.py --serve; in-memory store unless told otherwise). The games' 300
players connect from this process; the idle spectators from WORKERS client processes of their own, each with its
open-files limit raised (resource.setrlimit, as the server's), a share of the clients, at most 200 connecting at
once. The figures: the server's RSS with the games alone, then once every spectator is connected and has received
the game's map and its view, and the time they took to connect.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from websockets.asyncio.client import ClientConnection

from bench.server_load import STORES, ServerProcess, _open, raise_open_files, seat_game

AT_ONCE = 200
"""Connections a client process opens at the same time (the server's listen backlog holds more)."""


async def _watch(port: int, game_id: str, deflate: bool) -> ClientConnection:
    ws = await _open(port, deflate=deflate)
    await ws.send(json.dumps({"type": "watch_game", "game_id": game_id}))
    while json.loads(await ws.recv())["type"] != "update":  # watching, the map, then the view
        pass
    return ws


async def _spectators(port: int, game_ids: list[str], count: int, ready: Any, done: Any, deflate: bool) -> None:
    raise_open_files()
    gate = asyncio.Semaphore(AT_ONCE)

    async def one(index: int) -> ClientConnection:
        async with gate:
            return await _watch(port, game_ids[index % len(game_ids)], deflate)

    watchers = await asyncio.gather(*(one(i) for i in range(count)))
    ready.wait()
    await asyncio.get_running_loop().run_in_executor(None, done.wait)
    for ws in watchers:
        ws.transport.abort()


def _spectators_main(*args: Any) -> None:
    asyncio.run(_spectators(*args))


async def _seat_games(port: int, games: int) -> tuple[list[str], list[ClientConnection]]:
    seated = [await seat_game(port, i) for i in range(games)]
    return [game_id for game_id, _ in seated], [ws for _, players in seated for ws in players]


def hold(
    server: ServerProcess, clients: int, games: int, workers: int, deflate: bool = False
) -> tuple[float, float, float]:
    loop = asyncio.new_event_loop()
    game_ids, players = loop.run_until_complete(_seat_games(server.port, games))
    loop.run_until_complete(asyncio.sleep(1))
    before = server.rss_mb()
    ctx = mp.get_context("fork")
    ready, done = ctx.Barrier(workers + 1), ctx.Barrier(workers + 1)
    shares = [clients // workers + (1 if w < clients % workers else 0) for w in range(workers)]
    start = time.monotonic()
    processes = [
        ctx.Process(target=_spectators_main, args=(server.port, game_ids, share, ready, done, deflate))
        for share in shares
    ]
    for p in processes:
        p.start()
    ready.wait(timeout=1200)
    took = time.monotonic() - start
    time.sleep(2)
    after = server.rss_mb()
    done.wait()
    for p in processes:
        p.join(60)
    for ws in players:  # unread updates may wait in these clients: a closing handshake would wait behind them
        with contextlib.suppress(Exception):
            ws.transport.abort()
    loop.close()
    return before, after, took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--workers", type=int, default=4, help="client processes holding the spectators")
    parser.add_argument("--store", choices=sorted(STORES), default="memory")
    parser.add_argument(
        "--deflate",
        action="store_true",
        help="the spectators offer permessage-deflate, as browsers and websockets' own client do",
    )
    args = parser.parse_args()
    raise_open_files()
    with tempfile.TemporaryDirectory(prefix="risc-idle-") as data_dir:
        server = ServerProcess.start(
            [
                str(Path(__file__).resolve().parent / "server_load.py"),
                "--serve",
                "--data-dir",
                data_dir,
                "--store",
                args.store,
            ]
        )
        try:
            before, after, took = hold(server, args.clients, args.games, args.workers, args.deflate)
        finally:
            server.stop()
    print(
        f"store: {STORES[args.store]}; {args.games} games of 3 players, {args.clients:,} idle spectators from "
        f"{args.workers} client processes{', offering permessage-deflate' if args.deflate else ''}"
    )
    print(
        f"RSS with the games alone: {before:.1f} MB; with {args.clients:,} idle connections: {after:.1f} MB "
        f"({(after - before) * 1024 / args.clients:.1f} KB a connection); connected in {took:.1f} s"
    )


if __name__ == "__main__":
    main()
