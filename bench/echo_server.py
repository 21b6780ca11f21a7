"""The physical limit of this stack: a bare websockets server that parses each JSON frame and answers in JSON.

Run by bench/server_load.py in its own process, beside the game server, so both face the same clients and the same
message sizes. It speaks three messages:
- {"type": "join", "group": g}: the connection is one of group g's players (answered with an ack);
- {"type": "echo", ...}: sent straight back, decoded and encoded again (an order and its acceptance);
- {"type": "sync", "group": g, "members": n, "note": b, "size": s, ...}: answered at once with a short ack (a commit
  and its acceptance); every player of the group gets a `note` frame of about b bytes (the update that tells of the
  commit), except for the n-th sync of a round, which every player gets as a `result` frame of about s bytes (a
  resolved turn told to every player of a game).
It keeps no game, checks no rule and serialises no view, so the game server cannot beat it on this machine.

`python bench/echo_server.py [--port 0] [--loop auto|uvloop|asyncio]` prints "PORT <n>" once it listens.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
from typing import Any

from websockets.asyncio.server import ServerConnection, serve


class Groups:
    def __init__(self) -> None:
        self.members: dict[str, list[ServerConnection]] = {}
        self.synced: dict[str, int] = {}


async def handle(ws: ServerConnection, groups: Groups) -> None:
    async for frame in ws:
        message: dict[str, Any] = json.loads(frame)
        kind = message.get("type")
        if kind == "join":
            groups.members.setdefault(str(message["group"]), []).append(ws)
            await ws.send(json.dumps({"type": "ack", "ref": message.get("ref")}))
            continue
        if kind != "sync":
            await ws.send(json.dumps(message))
            continue
        group = str(message["group"])
        await ws.send(json.dumps({"type": "ack", "group": group}))
        synced = groups.synced.get(group, 0) + 1
        last = synced >= int(message["members"])
        groups.synced[group] = 0 if last else synced
        kind, size = ("result", message["size"]) if last else ("note", message["note"])
        text = json.dumps({"type": kind, "group": group, "pad": "x" * max(0, int(size) - 40)})
        for member in groups.members.get(group, []):
            await member.send(text)


async def main(port: int) -> None:
    groups = Groups()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with serve(
        lambda ws: handle(ws, groups),
        "127.0.0.1",
        port,
        max_size=None,
        compression=None,
        ping_interval=20,
        ping_timeout=20,
    ) as server:
        print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)
        await stop.wait()


if __name__ == "__main__":
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench.server_load import run_on

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument(
        "--loop",
        choices=("auto", "uvloop", "asyncio"),
        default="auto",
        help="the event loop (auto: uvloop where installed)",
    )
    args = parser.parse_args()
    run_on(args.loop, main(args.port))
