"""A served game under load, beside the bare websockets limit of the same machine.

Run by hand: `python bench/server_load.py [--games 1,10,100,300] [--workers 2] [--seconds 60] [--max-turns 60]
[--store sqlite|memory]`.
For each number of games G it starts the game server in its own process (the default SQLite store in a fresh
temporary data directory, or `--store memory`; limits loosened so that fast clients are not rate limited), then
WORKERS client processes play G games of 3 all-out players on the seed map
over raw websockets, as fast as the server answers: create, join, place every unit, then each turn issue the orders
one by one (each awaited) and commit. Then the same clients run the same pattern — the same number of frames of
the same sizes — against bench/echo_server.py, which only parses and answers JSON.

Figures, for each: the time from the last commit of a turn to the moment all 3 players of the game hold the result
(p50, p99; one clock, as all 3 clients of a game live in one process), frames per second through the server (in and
out), the server's CPU time per resolved turn, and its RSS at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = 3
Message = dict[str, Any]


# ---- the servers, each in its own process ------------------------------------------------------------------------

async def _serve_game(port: int, data_dir: Path, store: str) -> None:
    import signal

    from server.app import RiscServer
    from server.config import ServerConfig
    from server.storage import MemoryStorage, open_storage

    raise_open_files()
    config = ServerConfig(host="127.0.0.1", port=port, data_dir=data_dir, messages_per_second=1e9, burst=10**9,
                          outbound_bytes=1 << 40, outbound_total_bytes=1 << 40, max_games=10_000)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    storage = MemoryStorage() if store == "memory" else open_storage(data_dir)
    async with RiscServer(config, storage) as server:
        print(f"PORT {server.port}", flush=True)
        await stop.wait()


STORES = {"sqlite": "SQLite in a fresh data directory (WAL, synchronous=FULL)", "memory": "in memory"}


def raise_open_files() -> None:
    """Lift this process's soft limit on open files to its hard limit: a thousand sockets pass the usual 1,024."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))


@dataclass
class ServerProcess:
    process: subprocess.Popen[str]
    port: int

    @classmethod
    def start(cls, argv: list[str]) -> ServerProcess:
        process = subprocess.Popen([sys.executable, *argv], cwd=ROOT, stdout=subprocess.PIPE, text=True)
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith("PORT "):
            process.kill()
            raise RuntimeError(f"the server did not start: {line!r}")
        return cls(process, int(line.split()[1]))

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


# ---- the players -------------------------------------------------------------------------------------------------

def placement(view: Message, me: str) -> list[Message]:
    """Every unit on one territory that borders someone else's: the fastest way to end a game."""
    by_name = {t["name"]: t for t in view["territories"]}
    mine = [t for t in view["territories"] if t["owner"] == me]
    front = [t for t in mine if any(by_name[n]["owner"] != me for n in t["neighbours"])] or mine
    return [{"kind": "place", "territory": front[0]["name"], "units": view["pool_left"]}] if view["pool_left"] else []


def all_out(view: Message, me: str) -> list[Message]:
    """Moves toward the front first, then every frontier territory that outnumbers its weakest foe attacks it with
    all it has. (Attacking always, two fronts emptied against each other swap owners turn after turn.)"""
    by_name = {t["name"]: t for t in view["territories"]}
    mine = [t for t in view["territories"] if t["owner"] == me]
    distance: dict[str, int] = {}
    queue: deque[str] = deque()
    for t in mine:
        if any(by_name[n]["owner"] != me for n in t["neighbours"]):
            distance[t["name"]] = 0
            queue.append(t["name"])
    while queue:
        name = queue.popleft()
        for n in by_name[name]["neighbours"]:
            if by_name[n]["owner"] == me and n not in distance:
                distance[n] = distance[name] + 1
                queue.append(n)
    moves, attacks = [], []
    for t in mine:
        if t["units"] <= 0:
            continue
        foes = [by_name[n] for n in t["neighbours"] if by_name[n]["owner"] != me]
        if foes:
            beaten = [f for f in foes if f["units"] < t["units"]]
            # The strongest foe this one outnumbers, else the weakest: chasing only the weakest lets big armies
            # pass each other into emptied territories for ever.
            target = (max(beaten, key=lambda f: (f["units"], f["name"])) if beaten
                      else min(foes, key=lambda f: (f["units"], f["name"])))
            if t["units"] <= target["units"] and view["turn"] % 4:
                continue  # gather for a winning blow; every fourth turn strike regardless, so no front stalls
            attacks.append({"kind": "attack", "source": t["name"], "target": target["name"], "units": t["units"]})
        elif t["name"] in distance:
            closer = min((n for n in t["neighbours"] if n in distance), key=lambda n: distance[n])
            moves.append({"kind": "move", "source": t["name"], "target": closer, "units": t["units"]})
    return moves + attacks


@dataclass
class Tally:
    frames: int = 0
    errors: int = 0
    resolved: int = 0
    finished: int = 0
    sizes: dict[str, list[int]] = field(default_factory=lambda: {"order": [], "accepted": [], "update": []})


@dataclass
class GameClock:
    """When each player committed and when each got the result, per (phase, turn) of one game."""

    commits: dict[tuple[str, int], list[int]] = field(default_factory=dict)
    results: dict[tuple[str, int], list[int]] = field(default_factory=dict)

    def latencies(self) -> list[float]:
        return [(max(self.results[k]) - max(c)) / 1e6 for k, c in self.commits.items()
                if len(self.results.get(k, ())) == PLAYERS]


async def _open(port: int) -> ClientConnection:
    ws = await connect(f"ws://127.0.0.1:{port}", max_size=None, ping_interval=None)
    await ws.send(json.dumps({"type": "hello", "protocol": 1}))
    reply = json.loads(await ws.recv())
    assert reply["type"] in ("welcome", "hello"), reply  # the echo server sends the hello back
    return ws


async def _request(ws: ClientConnection, message: Message) -> Message:
    await ws.send(json.dumps(message))
    while True:
        reply: Message = json.loads(await ws.recv())
        if reply.get("ref") == message.get("ref"):
            return reply


async def seat_game(port: int, index: int) -> tuple[str, list[ClientConnection]]:
    clients = [await _open(port) for _ in range(PLAYERS)]
    created = await _request(clients[0], {"type": "create_game", "ref": "c",
                                           "settings": {"map": "seed", "players": PLAYERS}})
    game_id = created["game"]["game_id"]
    for seat, ws in enumerate(clients):
        joined = await _request(ws, {"type": "join_game", "game_id": game_id, "name": f"g{index}p{seat}",
                                     "ref": "j"})
        assert joined["type"] == "joined", joined
    return game_id, clients


async def play_seat(ws: ClientConnection, game_id: str, me: str, clock: GameClock, tally: Tally,
                    max_turns: int, deadline: float) -> None:
    """Read every frame; on each new turn issue the orders one at a time, then commit."""
    pending: list[Message] = []
    key: tuple[str, int] | None = None
    turn = 0
    async for frame in ws:
        now = time.monotonic_ns()
        tally.frames += 1
        message: Message = json.loads(frame)
        kind = message["type"]
        if kind == "error":
            tally.errors += 1
        elif kind == "order_accepted":
            tally.sizes["accepted"].append(len(frame))
        if kind == "update" and message["view"] is not None:
            tally.sizes["update"].append(len(frame))
            view = message["view"]
            new_key = (view["phase"], view["turn"])
            if new_key == key:
                continue
            if key is not None:
                clock.results.setdefault(key, []).append(now)
            key, turn = new_key, view["turn"]
            if view["phase"] == "finished":
                tally.finished += 1
                return
            if turn > max_turns or time.monotonic() > deadline:
                return
            if me not in {p["name"] for p in view["players"] if not p["eliminated"]}:
                continue
            pending = placement(view, me) if view["phase"] == "placement" else all_out(view, me)
            pending.reverse()
        elif kind not in ("order_accepted", "error") or message.get("request") == "commit":
            continue
        if pending:
            text = json.dumps({"type": "issue_order", "game_id": game_id, "turn": turn, "order": pending.pop()})
            tally.sizes["order"].append(len(text))
            await ws.send(text)
        else:
            clock.commits.setdefault(key, []).append(time.monotonic_ns())
            await ws.send(json.dumps({"type": "commit", "game_id": game_id, "turn": turn}))
        tally.frames += 1


# ---- the same frames against the bare echo server ----------------------------------------------------------------

@dataclass
class Pattern:
    turns: int
    orders: int
    order_bytes: int
    accepted_bytes: int
    update_bytes: int


async def echo_seat(ws: ClientConnection, group: str, clock: GameClock, tally: Tally, pattern: Pattern,
                    deadline: float) -> None:
    order = json.dumps({"type": "echo", "pad": "x" * max(0, pattern.accepted_bytes - 30)})
    for turn in range(pattern.turns):
        if time.monotonic() > deadline:
            return
        for _ in range(pattern.orders):
            await ws.send(order)
            await ws.recv()
            tally.frames += 2
        clock.commits.setdefault(("orders", turn), []).append(time.monotonic_ns())
        await ws.send(json.dumps({"type": "sync", "group": group, "members": PLAYERS,
                                  "size": pattern.update_bytes}))
        tally.frames += 1
        while True:
            reply = json.loads(await ws.recv())
            tally.frames += 1
            if reply["type"] == "result":
                clock.results.setdefault(("orders", turn), []).append(time.monotonic_ns())
                tally.resolved += 1
                break


# ---- a client process --------------------------------------------------------------------------------------------

async def _worker(mode: str, port: int, games: list[int], args: Message, ready: Any, go: Any, done: Any,
                  out: Any) -> None:
    tally, clocks = Tally(), [GameClock() for _ in games]
    if mode == "game":
        seated = [await seat_game(port, i) for i in games]
    else:
        seated = [(f"e{i}", [await _open(port) for _ in range(PLAYERS)]) for i in games]
    ready.wait()
    go.wait()
    start = time.monotonic()
    deadline = start + args["seconds"]
    if mode == "game":
        await asyncio.gather(*(play_seat(ws, game_id, f"g{i}p{s}", clock, tally, args["max_turns"], deadline)
                               for (game_id, clients), i, clock in zip(seated, games, clocks, strict=True)
                               for s, ws in enumerate(clients)))
        tally.resolved = sum(len(c.latencies()) for c in clocks)
    else:
        pattern = Pattern(**args["pattern"])
        await asyncio.gather(*(echo_seat(ws, group, clock, tally, pattern, deadline)
                               for (group, clients), clock in zip(seated, clocks, strict=True) for ws in clients))
        tally.resolved //= PLAYERS
    elapsed = time.monotonic() - start
    out.put({"elapsed": elapsed, "frames": tally.frames, "errors": tally.errors, "resolved": tally.resolved,
             "finished": tally.finished // PLAYERS, "latencies": [x for c in clocks for x in c.latencies()],
             "sizes": tally.sizes})
    done.wait()
    for _, clients in seated:
        for ws in clients:
            with contextlib.suppress(Exception):
                await ws.close()


def _worker_main(*args: Any) -> None:
    asyncio.run(_worker(*args))


@dataclass
class Figures:
    p50: float
    p99: float
    frames_per_second: float
    cpu_ms_per_turn: float
    rss_mb: float
    resolved: int
    finished: int
    errors: int
    sizes: dict[str, list[int]]


def measure(mode: str, server: ServerProcess, games: int, workers: int, args: Message) -> Figures:
    ctx = mp.get_context("fork")
    workers = max(1, min(workers, games))
    ready, go, done = ctx.Barrier(workers + 1), ctx.Barrier(workers + 1), ctx.Barrier(workers + 1)
    out = ctx.Queue()
    shares = [list(range(w, games, workers)) for w in range(workers)]
    processes = [ctx.Process(target=_worker_main, args=(mode, server.port, share, args, ready, go, done, out))
                 for share in shares]
    for p in processes:
        p.start()
    ready.wait(timeout=600)
    cpu0 = server.cpu_seconds()
    go.wait()
    results = [out.get(timeout=args["seconds"] + 120) for _ in processes]
    cpu1 = server.cpu_seconds()
    rss = server.rss_mb()
    done.wait()
    for p in processes:
        p.join(30)
    latencies = sorted(x for r in results for x in r["latencies"])
    resolved = sum(r["resolved"] for r in results)
    elapsed = max(r["elapsed"] for r in results)
    sizes: dict[str, list[int]] = {k: [x for r in results for x in r["sizes"][k]] for k in ("order", "accepted",
                                                                                          "update")}
    return Figures(p50=statistics.median(latencies) if latencies else float("nan"),
                   p99=latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else float("nan"),
                   frames_per_second=sum(r["frames"] for r in results) / elapsed,
                   cpu_ms_per_turn=(cpu1 - cpu0) * 1000 / max(1, resolved), rss_mb=rss, resolved=resolved,
                   finished=sum(r["finished"] for r in results), errors=sum(r["errors"] for r in results),
                   sizes=sizes)


def run(games: int, workers: int, seconds: float, max_turns: int, store: str) -> tuple[Figures, Figures]:
    with tempfile.TemporaryDirectory(prefix="risc-load-") as data_dir:
        server = ServerProcess.start([str(Path(__file__).resolve()), "--serve", "--data-dir", data_dir,
                                      "--store", store])
        try:
            game = measure("game", server, games, workers, {"seconds": seconds, "max_turns": max_turns})
        finally:
            server.stop()
    mean = statistics.fmean
    sizes = game.sizes
    pattern = Pattern(turns=max(1, round(game.resolved / games)),
                      orders=max(1, round(len(sizes["order"]) / max(1, game.resolved * PLAYERS))),
                      order_bytes=round(mean(sizes["order"])) if sizes["order"] else 100,
                      accepted_bytes=round(mean(sizes["accepted"])) if sizes["accepted"] else 200,
                      update_bytes=round(mean(sizes["update"])) if sizes["update"] else 2000)
    echo_server = ServerProcess.start([str(ROOT / "bench" / "echo_server.py")])
    try:
        echo = measure("echo", echo_server, games, workers, {"seconds": seconds, "pattern": vars(pattern)})
    finally:
        echo_server.stop()
    return game, echo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1,10,100,300", help="comma-separated numbers of concurrent games")
    parser.add_argument("--workers", type=int, default=2, help="client processes")
    parser.add_argument("--seconds", type=float, default=60.0, help="bound on each run's play")
    parser.add_argument("--max-turns", type=int, default=60, help="a game stops being played after this turn")
    parser.add_argument("--store", choices=sorted(STORES), default="sqlite", help="the server's game store")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--data-dir", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(_serve_game(0, args.data_dir, args.store))
        return
    print(f"store: {STORES[args.store]}; {args.workers} client processes; seed map, 3 all-out players a game; "
          f"at most {args.max_turns} turns, {args.seconds:g} s a run")
    header = ("| games | p50 ms | p99 ms | frames/s | CPU ms/turn | RSS MB | turns | finished "
              "| echo p50 ms | echo p99 ms | echo frames/s | echo RSS MB | frames/s vs echo |")
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for games in (int(g) for g in args.games.split(",")):
        game, echo = run(games, args.workers, args.seconds, args.max_turns, args.store)
        if game.errors:
            print(f"  ({game.errors} error frames in the game run)")
        print(f"| {games} | {game.p50:.1f} | {game.p99:.1f} | {game.frames_per_second:,.0f} | "
              f"{game.cpu_ms_per_turn:.2f} | {game.rss_mb:.0f} | {game.resolved} | {game.finished} | "
              f"{echo.p50:.1f} | {echo.p99:.1f} | {echo.frames_per_second:,.0f} | {echo.rss_mb:.0f} | "
              f"{game.frames_per_second / echo.frames_per_second:.2f} |", flush=True)


if __name__ == "__main__":
    main()
