"""The physical limit of this stack: a bare websockets server that parses each JSON frame and answers in JSON.

Run by bench/server_load.py in its own process, beside the game server, so both face the same clients and the same
message sizes. It speaks two messages:
- {"type": "echo", ...}: sent straight back, decoded and encoded again (an order and its acceptance);
- {"type": "sync", "group": g, "members": n, "size": s, ...}: answered at once with a short ack (a commit and its
  acceptance); once `members` syncs of group `g` have arrived, each of them gets a `result` frame of about `s` bytes
  (a resolved turn told to every player of a game).
It keeps no game, checks no rule and serialises no view, so the game server cannot beat it on this machine.

`python bench/echo_server.py [--port 0]` prints "PORT <n>" once it listens.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
from typing import Any

from websockets.asyncio.server import ServerConnection, serve

Waiting = dict[str, list[ServerConnection]]


async def handle(ws: ServerConnection, waiting: Waiting) -> None:
    async for frame in ws:
        message: dict[str, Any] = json.loads(frame)
        if message.get("type") != "sync":
            await ws.send(json.dumps(message))
            continue
        group = str(message["group"])
        await ws.send(json.dumps({"type": "ack", "group": group}))
        members = waiting.setdefault(group, [])
        members.append(ws)
        if len(members) >= int(message["members"]):
            del waiting[group]
            text = json.dumps({"type": "result", "group": group, "pad": "x" * int(message["size"])})
            for member in members:
                await member.send(text)


async def main(port: int) -> None:
    waiting: Waiting = {}
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with serve(lambda ws: handle(ws, waiting), "127.0.0.1", port, max_size=None, compression=None,
                     ping_interval=20, ping_timeout=20) as server:
        print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)
        await stop.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    asyncio.run(main(parser.parse_args().port))
