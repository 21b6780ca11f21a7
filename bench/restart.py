"""A thousand games of 3 players in one server: its memory, and the time to start it again on them.

Run by hand: `python bench/restart.py [--games 1000] [--turns 3] [--workers 4]`. The server runs in its own process
(bench/server_load.py --serve) with the default SQLite store in a fresh data directory. WORKERS client processes
seat the games (create, 3 joins) and play each on the seed map with the all-out players through the placement and
TURNS turns, then stay connected. Measured:
- the server's RSS holding the games with their 3,000 players connected, then once they have all gone;
- the server stopped (SIGTERM: it finishes what is under way and closes the store) and started again on the same
  data directory: the time from starting the process until it listens (every unfinished game restored: read in one
  pass, maps built once), and until a client that resumes a seat of the newest game holds its update;
- the restarted server's RSS.
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

from bench.server_load import GameClock, ServerProcess, Tally, _open, _request, play_seat, raise_open_files

PLAYERS = 3
SERVE = str(Path(__file__).resolve().parent / "server_load.py")


async def _seat(port: int, index: int) -> tuple[str, list[ClientConnection], list[str]]:
    clients = [await _open(port) for _ in range(PLAYERS)]
    created = await _request(
        clients[0], {"type": "create_game", "ref": "c", "settings": {"map": "seed", "players": PLAYERS}}
    )
    game_id = created["game"]["game_id"]
    tokens = []
    for seat, ws in enumerate(clients):
        joined = await _request(ws, {"type": "join_game", "game_id": game_id, "name": f"g{index}p{seat}", "ref": "j"})
        assert joined["type"] == "joined", joined
        tokens.append(joined["token"])
    return game_id, clients, tokens


async def _players(port: int, games: list[int], turns: int, ready: Any, done: Any, out: Any) -> None:
    raise_open_files()
    gate = asyncio.Semaphore(20)

    async def seat(index: int) -> tuple[str, list[ClientConnection], list[str]]:
        async with gate:
            return await _seat(port, index)

    seated = await asyncio.gather(*(seat(i) for i in games))
    tally, deadline = Tally(), time.monotonic() + 600
    await asyncio.gather(
        *(
            play_seat(ws, game_id, f"g{i}p{s}", GameClock(), tally, turns, deadline)
            for (game_id, clients, _), i in zip(seated, games, strict=True)
            for s, ws in enumerate(clients)
        )
    )
    out.put(
        {
            "errors": tally.errors,
            "finished": tally.finished // PLAYERS,
            "newest": (seated[-1][0], f"g{games[-1]}p0", seated[-1][2][0]),
        }
    )
    ready.wait()
    await asyncio.get_running_loop().run_in_executor(None, done.wait)
    for _, clients, _ in seated:
        for ws in clients:
            ws.transport.abort()


def _players_main(*args: Any) -> None:
    asyncio.run(_players(*args))


async def _resume(port: int, game_id: str, token: str) -> float:
    """From connecting until the resumed seat holds its update (the server takes requests)."""
    start = time.monotonic()
    ws = await _open(port)
    await ws.send(json.dumps({"type": "resume", "game_id": game_id, "token": token}))
    while True:
        message = json.loads(await ws.recv())
        assert message["type"] != "error", message
        if message["type"] == "update":
            break
    took = time.monotonic() - start
    with contextlib.suppress(Exception):
        await ws.close()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--turns", type=int, default=3, help="turns each game is played before the measures")
    parser.add_argument("--workers", type=int, default=4, help="client processes")
    args = parser.parse_args()
    raise_open_files()
    ctx = mp.get_context("fork")
    with tempfile.TemporaryDirectory(prefix="risc-restart-") as data_dir:
        argv = [SERVE, "--serve", "--data-dir", data_dir, "--store", "sqlite"]
        server = ServerProcess.start(argv)
        try:
            ready, done = ctx.Barrier(args.workers + 1), ctx.Barrier(args.workers + 1)
            out = ctx.Queue()
            shares = [list(range(w, args.games, args.workers)) for w in range(args.workers)]
            start = time.monotonic()
            processes = [
                ctx.Process(target=_players_main, args=(server.port, share, args.turns, ready, done, out))
                for share in shares
            ]
            for p in processes:
                p.start()
            results = [out.get(timeout=1200) for _ in processes]
            played = time.monotonic() - start
            ready.wait()
            time.sleep(2)
            with_players = server.rss_mb()
            done.wait()
            for p in processes:
                p.join(60)
            time.sleep(3)
            alone = server.rss_mb()
        finally:
            server.stop()
        game_id, _, token = results[-1]["newest"]
        start = time.monotonic()
        server = ServerProcess.start(argv)
        listening = time.monotonic() - start
        try:
            answered = listening + asyncio.run(_resume(server.port, game_id, token))
            time.sleep(1)
            restarted = server.rss_mb()
        finally:
            server.stop()
    errors = sum(r["errors"] for r in results)
    finished = sum(r["finished"] for r in results)
    print(
        f"{args.games:,} games of {PLAYERS} players on the seed map, each played through the placement and "
        f"{args.turns} turns ({played:.1f} s; {finished} finished, {errors} errors); SQLite store"
    )
    print(
        f"RSS with the games and their {args.games * PLAYERS:,} players connected: {with_players:.1f} MB; "
        f"the games alone, the players gone: {alone:.1f} MB"
    )
    print(
        f"restart on the same data directory: listening after {listening:.2f} s (a process start included), "
        f"a resumed seat of the newest game holds its update after {answered:.2f} s; RSS then {restarted:.1f} MB"
    )


if __name__ == "__main__":
    main()
