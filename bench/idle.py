"""The server's memory holding many idle connections: each has said hello and watches one of a few running games.

Run by hand: `python bench/idle.py [--clients 1000] [--games 100]`. The server runs in its own process (in-memory
store, as in bench/server_load.py); the figure is its RSS once every client is connected and has received its view,
beside its RSS with the games alone. Target: 1,000 idle connections under 150 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.server_load import STORE, ServerProcess, _open, raise_open_files, seat_game


async def hold(port: int, clients: int, games: int, server: ServerProcess) -> tuple[float, float]:
    seated = [await seat_game(port, i) for i in range(games)]
    await asyncio.sleep(1)
    before = server.rss_mb()
    watchers = []
    for i in range(clients):
        ws = await _open(port)
        await ws.send(json.dumps({"type": "watch_game", "game_id": seated[i % games][0]}))
        watchers.append(ws)
    for ws in watchers:  # each has its watching reply and its snapshot
        while json.loads(await ws.recv())["type"] != "update":
            pass
    await asyncio.sleep(2)
    after = server.rss_mb()
    for ws in watchers + [w for _, players in seated for w in players]:
        ws.transport.abort()  # unread updates wait in these clients: a closing handshake would wait behind them
    return before, after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    raise_open_files()
    with tempfile.TemporaryDirectory(prefix="risc-idle-") as data_dir:
        server = ServerProcess.start([str(Path(__file__).resolve().parent / "server_load.py"), "--serve",
                                      "--data-dir", data_dir])
        try:
            start = time.monotonic()
            before, after = asyncio.run(hold(server.port, args.clients, args.games, server))
            took = time.monotonic() - start
        finally:
            server.stop()
    print(f"store: {STORE}; {args.games} games of 3 players, {args.clients} idle spectators")
    print(f"RSS with the games alone: {before:.1f} MB; with {args.clients} idle connections: {after:.1f} MB "
          f"({(after - before) * 1024 / args.clients:.1f} KB a connection); connected in {took:.1f} s")


if __name__ == "__main__":
    main()
