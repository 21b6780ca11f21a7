"""Issue 27's attack, games of the server's computers alone asked for as fast as one connection may, run in a process
of its own: the process that measures a bystander's answers meanwhile must not be the one kept busy by the attack.

`python -m tests.attack_support PORT ADDRESSES SECONDS` runs it against a server on 127.0.0.1:PORT and prints what
came of it as one JSON object. From each of ADDRESSES loopback addresses (127.0.0.2, 127.0.0.3, ...), one connection
sends a create_game for a game of five computers on a 60-territory map every 12 ms, whatever the answers, and
another takes its place whenever the server closes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from shared.protocol.codes import PROTOCOL_VERSION

ROOT = Path(__file__).resolve().parent.parent
COMPUTER_GAME = {"ruleset": "risc", "map": "meridian", "players": 5, "bots": 5}
"""A game whose every seat is one of the server's own players: it starts at once, and plays on by itself."""
EVERY = 0.012
ANSWERS_WITHIN = 30.0
"""How long the last requests' answers may take once the attack stops (it bounds only a server that never answers:
those left are counted as `unanswered`)."""


async def ask_for_computer_games(
    port: int, addresses: int, seconds: float, under_way: Callable[[], None] = lambda: None
) -> dict[str, Any]:
    """The attack; what came of it: requests sent, games created, refusals by code, connections the server closed.
    `under_way` is called once every address has had an answer."""
    ask = json.dumps({"type": "create_game", "settings": COMPUTER_GAME})
    end = time.monotonic() + seconds
    made: dict[str, Any] = {"tries": 0, "created": 0, "refused": {}, "closed": []}
    answered: set[str] = set()

    def heard(address: str) -> None:
        if address not in answered:
            answered.add(address)
            if len(answered) == addresses:
                under_way()

    async def once(address: str) -> None:
        async with connect(f"ws://127.0.0.1:{port}", max_size=None, ping_interval=None, local_addr=(address, 0)) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION}))
            await ws.recv()

            sent, answered_here = 0, 0
            all_answered = asyncio.Event()

            async def read() -> None:
                nonlocal answered_here
                with contextlib.suppress(ConnectionClosed):  # closed by the server: `closed` says how
                    async for frame in ws:
                        heard(address)
                        reply = json.loads(frame)
                        if reply.get("type") == "game_created":
                            made["created"] += 1
                        elif reply.get("type") == "error":
                            made["refused"][reply["code"]] = made["refused"].get(reply["code"], 0) + 1
                        if reply.get("type") in ("game_created", "error"):
                            answered_here += 1
                            if answered_here == sent:
                                all_answered.set()

            reader = asyncio.get_running_loop().create_task(read())
            while time.monotonic() < end and not reader.done():
                all_answered.clear()
                await ws.send(ask)
                sent += 1
                made["tries"] += 1
                await asyncio.sleep(EVERY)
            if reader.done():
                made["closed"].append(f"{ws.close_code} after {seconds - (end - time.monotonic()):.0f} s")
            elif answered_here < sent:  # every request is answered: what it was is counted before leaving
                await asyncio.wait(
                    [reader, asyncio.ensure_future(all_answered.wait())],
                    timeout=ANSWERS_WITHIN,
                    return_when=asyncio.FIRST_COMPLETED,
                )
            made["unanswered"] = made.get("unanswered", 0) + sent - answered_here
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)

    async def attacker(address: str) -> None:
        while time.monotonic() < end:
            try:
                await once(address)
            except (OSError, ConnectionClosed):
                await asyncio.sleep(0.1)

    await asyncio.gather(*(attacker(f"127.0.0.{2 + index}") for index in range(addresses)))
    return made


class Attack:
    """The attack run by another Python process."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self._process = process
        self._result: asyncio.Task[dict[str, Any]] = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def start(cls, port: int, addresses: int, seconds: float, cwd: Path = ROOT) -> Attack:
        """Start it, and return once it is under way (every address has had an answer)."""
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.attack_support",
            str(port),
            str(addresses),
            str(seconds),
            cwd=cwd,
            stdout=asyncio.subprocess.PIPE,
        )
        assert process.stdout is not None
        line = await process.stdout.readline()
        assert line.strip() == b"under way", f"the attack did not start: {line!r}"
        return cls(process)

    async def _read(self) -> dict[str, Any]:
        assert self._process.stdout is not None
        out = await self._process.stdout.read()
        assert await self._process.wait() == 0, "the attack failed"
        result: dict[str, Any] = json.loads(out)
        return result

    def done(self) -> bool:
        return self._result.done()

    async def result(self) -> dict[str, Any]:
        """What came of it, once it is over."""
        return await self._result


async def in_a_process(port: int, addresses: int, seconds: float, cwd: Path = ROOT) -> dict[str, Any]:
    """The whole attack, from another process: what came of it."""
    return await (await Attack.start(port, addresses, seconds, cwd)).result()


if __name__ == "__main__":
    port, addresses, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    result = asyncio.run(ask_for_computer_games(port, addresses, seconds, lambda: print("under way", flush=True)))
    print(json.dumps(result))
