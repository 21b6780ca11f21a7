"""Sign-ins under attack beside games being played: what a flood of password guesses costs the players, and how many
sign-ins a second one core serves.

Run by hand: `python bench/accounts.py [--games 100] [--turn-every 2] [--seconds 30] [--flooders 50]
[--server-cpus 0 --client-cpus 1]`. The server runs in its own process (SQLite in a fresh data directory, accounts
on, its real Argon2id parameters); the clients in others. Three runs, one after another on the same server:

- quiet: GAMES games of 3 players, each player sending a turn's orders (one issue_orders) and committing once every
  TURN_EVERY seconds, as people play rather than all out; measured: the time from a turn's last commit to every player
  holding its result (p50, p99), the server's CPU share.
- flood: the same games, while FLOODERS connections, each from an address of its own (127.0.0.10 on), try wrong
  passwords on one account as fast as the server answers them: the same figures, and the guesses answered a second
  and the hashes the server made.
- sign-ins: with no games, 16 connections from 16 addresses sign in to accounts of their own (right passwords) as
  fast as they are answered: sign-ins a second, and the server's CPU share.

docs/performance.md keeps the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from websockets.asyncio.client import ClientConnection, connect

from bench.players import Followed, orders_for
from bench.server_load import ServerProcess, cpu_set, raise_open_files
from shared.protocol.codes import PROTOCOL_VERSION

PLAYERS = 3
PACE = 1 / 100
"""A flooder's pause between two requests: the server's default rate limit (100 messages a second a connection);
faster, its frames are refused and it is disconnected."""
PASSWORD = "correct horse battery staple"
Message = dict[str, Any]


async def _serve(data_dir: Path) -> None:
    from server.app import RiscServer, settle_collector
    from server.config import ServerConfig

    raise_open_files()
    config = ServerConfig(  # the server's own limits but for the games one address may create: the bench's
        host="127.0.0.1",
        port=0,
        data_dir=data_dir,
        max_games=10_000,
        connections_per_address=None,  # every player of the bench comes from this one address
        open_games_per_connection=10_000,
        open_games_per_address=10_000,
    )
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        asyncio.get_running_loop().add_signal_handler(sig, stop.set)
    async with RiscServer(config) as server:
        settle_collector()
        print(f"PORT {server.port}", flush=True)
        await stop.wait()


async def _open(port: int, source: str = "127.0.0.1") -> ClientConnection:
    ws = await connect(f"ws://127.0.0.1:{port}", max_size=None, ping_interval=None, local_addr=(source, 0))
    await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION}))
    json.loads(await ws.recv())
    return ws


async def _ask(ws: ClientConnection, message: Message) -> Message:
    await ws.send(json.dumps(message))
    while True:
        reply: Message = json.loads(await ws.recv())
        if reply.get("ref") == message.get("ref"):
            return reply


# ---- the games, played at a person's pace ---------------------------------------------------------------------------


async def _seat(ws: ClientConnection, game_id: str, me: str, turn_every: float, deadline: float, out: list[float],
                commits: dict[tuple[str, int], float]) -> None:  # fmt: skip
    """Play a seat: on each new turn, wait for the game's pace, send the turn's orders at once, commit; note when
    the result of each turn this player committed came."""
    followed = Followed()
    key: tuple[str, int] | None = None
    async for frame in ws:
        message: Message = json.loads(frame)
        if message["type"] == "game_map":
            followed.take_map(message["map"])
        if message["type"] != "update" or not followed.take_update(message):
            continue
        seen = followed.seen()
        new_key = (seen.phase, seen.turn)
        if new_key == key:
            continue
        if key in commits:
            out.append(time.monotonic() - commits[key])
        key = new_key
        if seen.phase == "finished" or time.monotonic() > deadline or me not in seen.alive:
            return
        await asyncio.sleep(turn_every)
        orders = orders_for(seen, me)
        if orders:
            await ws.send(json.dumps({"type": "issue_orders", "game_id": game_id, "turn": seen.turn, "orders": orders}))
        await ws.send(json.dumps({"type": "commit", "game_id": game_id, "turn": seen.turn}))
        commits[key] = max(commits.get(key, 0.0), time.monotonic())


async def _play(port: int, games: int, turn_every: float, seconds: float) -> list[float]:
    latencies: list[float] = []
    deadline = time.monotonic() + seconds
    seats = []
    for index in range(games):
        clients = [await _open(port) for _ in range(PLAYERS)]
        created = await _ask(clients[0], {"type": "create_game", "ref": "c", "settings": {"map": "seed", "players": 3}})
        game_id = created["game"]["game_id"]
        commits: dict[tuple[str, int], float] = {}
        for seat, ws in enumerate(clients):
            name = f"g{index}p{seat}"
            await _ask(ws, {"type": "join_game", "game_id": game_id, "name": name, "ref": "j"})
            seats.append(_seat(ws, game_id, name, turn_every, deadline, latencies, commits))
    tasks = [asyncio.ensure_future(s) for s in seats]
    await asyncio.wait(tasks, timeout=seconds + 30)
    return latencies


# ---- the guesses and the sign-ins -----------------------------------------------------------------------------------


async def _flood(port: int, flooders: int, seconds: float) -> dict[str, int]:
    answers: dict[str, int] = {}
    deadline = time.monotonic() + seconds

    async def guess(n: int) -> None:
        ws = await _open(port, f"127.0.0.{10 + n}")
        i = 0
        while time.monotonic() < deadline:
            i += 1
            await asyncio.sleep(PACE)  # as fast as the server lets a connection ask (its welcome's rate)
            reply = await _ask(ws, {"type": "sign_in", "ref": str(i), "name": "Target", "password": f"guess {n} {i}"})
            code = str(reply.get("code") or reply["type"])
            answers[code] = answers.get(code, 0) + 1

    await asyncio.gather(*(guess(n) for n in range(flooders)))
    return answers


async def _sign_ins(port: int, connections: int, seconds: float) -> int:
    done = 0
    deadline = time.monotonic() + seconds

    async def sign_in(n: int) -> None:
        nonlocal done
        ws = await _open(port, f"127.0.1.{10 + n}")
        i = 0
        while time.monotonic() < deadline:
            i += 1
            reply = await _ask(ws, {"type": "sign_in", "ref": str(i), "name": f"Player {n}", "password": PASSWORD})
            assert reply["type"] == "signed_in", reply
            done += 1
            await _ask(ws, {"type": "sign_out", "ref": f"o{i}"})
            ws = await _open(port, f"127.0.1.{10 + n}")  # signing out closes the connection

    await asyncio.gather(*(sign_in(n) for n in range(connections)))
    return done


def _client(cpus: set[int] | None, what: str, args: tuple[Any, ...], out: Any) -> None:
    if cpus:
        import os

        os.sched_setaffinity(0, cpus)
    raise_open_files()
    work = {"play": _play, "flood": _flood, "sign_ins": _sign_ins}[what]
    out.put(asyncio.run(work(*args)))  # type: ignore[operator]


def _run(cpus: set[int] | None, runs: list[tuple[str, tuple[Any, ...]]]) -> list[Any]:
    ctx = mp.get_context("fork")
    out = [ctx.Queue() for _ in runs]
    processes = [
        ctx.Process(target=_client, args=(cpus, what, args, q)) for (what, args), q in zip(runs, out, strict=True)
    ]
    for p in processes:
        p.start()
    results = [q.get() for q in out]
    for p in processes:
        p.join(30)
    return results


def _ms(values: list[float], q: float) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{1000 * ordered[min(len(ordered) - 1, int(len(ordered) * q))]:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--turn-every", type=float, default=2.0, help="seconds a player takes over a turn")
    parser.add_argument("--seconds", type=float, default=30.0, help="each run's length")
    parser.add_argument("--flooders", type=int, default=50, help="addresses guessing passwords")
    parser.add_argument("--server-cpus", default=None, metavar="0")
    parser.add_argument("--client-cpus", default=None, metavar="1")
    parser.add_argument("--serve", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        asyncio.run(_serve(args.serve))
        return
    with tempfile.TemporaryDirectory(prefix="risc-accounts-") as data_dir:
        server = ServerProcess.start(
            [str(Path(__file__).resolve()), "--serve", data_dir], cpus=cpu_set(args.server_cpus)
        )
        clients = cpu_set(args.client_cpus)
        try:

            async def accounts() -> None:
                ws = await _open(server.port)
                for name in ["Target", *(f"Player {n}" for n in range(16))]:
                    await _ask(ws, {"type": "sign_up", "ref": name, "name": name, "password": PASSWORD})
                    await ws.close()
                    ws = await _open(server.port)

            asyncio.run(accounts())
            rows = []
            for label, runs in (
                ("quiet", [("play", (server.port, args.games, args.turn_every, args.seconds))]),
                (
                    "flood",
                    [
                        ("play", (server.port, args.games, args.turn_every, args.seconds)),
                        ("flood", (server.port, args.flooders, args.seconds)),
                    ],
                ),
                ("sign-ins", [("sign_ins", (server.port, 16, args.seconds))]),
            ):
                cpu0, start = server.cpu_seconds(), time.monotonic()
                results = _run(clients, runs)
                busy = (server.cpu_seconds() - cpu0) / (time.monotonic() - start)
                latencies = results[0] if label != "sign-ins" else []
                extra = ""
                if label == "flood":
                    answers = results[1]
                    extra = f"guesses answered {sum(answers.values()) / args.seconds:.0f}/s {answers}"
                if label == "sign-ins":
                    extra = f"sign-ins {results[0] / args.seconds:.1f}/s"
                median = f"{1000 * statistics.median(latencies):.1f}" if latencies else "-"
                rows.append(
                    f"{label:9} turns {len(latencies):6}  p50 {median:>7} ms  p99 {_ms(latencies, 0.99):>7} ms  "
                    f"server CPU {100 * busy:5.1f} %  {extra}"
                )
                print(rows[-1], flush=True)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
