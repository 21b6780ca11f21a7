"""A real server on a free port in the test's event loop, and real WebSocket clients that record every frame."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections import deque
from collections.abc import AsyncIterator, Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from client.connection import paced, pacer_for
from server.app import RiscServer
from server.config import ServerConfig
from server.storage import Storage
from shared.protocol.codes import PROTOCOL_VERSION
from shared.protocol.messages import SERVER_ADAPTER, Welcome
from shared.protocol.pacing import TokenBucket

Message = dict[str, Any]
TIMEOUT = 5.0

FAST = {"messages_per_second": 100_000.0, "burst": 100_000}
"""Limits loose enough for scripted clients that send as fast as the server answers."""


@contextlib.asynccontextmanager
async def running_server(storage: Storage | None = None, **settings: Any) -> AsyncIterator[RiscServer]:
    settings.setdefault("bot_turn_pause", 0.0)  # games between the server's players run at full speed in tests
    config = ServerConfig(host="127.0.0.1", port=0, **settings)
    async with RiscServer(config, storage) as server:
        yield server


def url(server: RiscServer | int) -> str:
    """The address of a server in this process, or of one listening on the given port."""
    return f"ws://127.0.0.1:{server if isinstance(server, int) else server.port}"


class Client:
    """One connection. Every frame received is kept in `frames`, checked against the server-to-client schema."""

    _refs = itertools.count(1)

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: list[Message] = []
        self.raw: list[str] = []
        self._cursor = 0
        self._arrived = asyncio.Event()
        self._reader = asyncio.get_running_loop().create_task(self._read())
        self.closed = asyncio.Event()
        self.pacer: TokenBucket | None = None

    @classmethod
    async def connect(cls, server: RiscServer | int, *, hello: bool = True, password: str | None = None) -> Client:
        client = cls(await connect(url(server), max_size=None))
        if hello:
            welcome = await client.request(type="hello", protocol=PROTOCOL_VERSION, password=password)
            assert welcome["type"] == "welcome", welcome
        return client

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                assert isinstance(frame, str), "the server sends text frames only"
                SERVER_ADAPTER.validate_json(frame)  # every frame the server sends fits the published schema
                self.raw.append(frame)
                self.frames.append(json.loads(frame))
                self._arrived.set()
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()
            self._arrived.set()

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def send_raw(self, frame: str | bytes) -> None:
        await self.ws.send(frame)

    async def request(self, **message: Any) -> Message:
        """Send with a fresh ref and return the reply that carries it (the answer or an error). Requests keep to the
        limits the server's welcome announced, as the text client does: a long scripted game would outrun them."""
        await paced(self.pacer)
        ref = f"r{next(self._refs)}"
        await self.send(ref=ref, **message)
        reply = await self.wait_for(lambda m: m.get("ref") == ref, from_start=True)
        if reply["type"] == "welcome":
            self.pacer = pacer_for(Welcome.model_validate(reply))
        return reply

    async def wait_for(self, match: Callable[[Message], bool], *, timeout: float = TIMEOUT,
                       from_start: bool = False) -> Message:
        """The first frame not yet taken by wait_for (or, from_start, any frame) that matches."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            start = 0 if from_start else self._cursor
            for index in range(start, len(self.frames)):
                if match(self.frames[index]):
                    if not from_start:
                        self._cursor = index + 1
                    return self.frames[index]
            if self.closed.is_set():
                raise AssertionError(f"connection closed before the expected frame; got {self.frames[-3:]}")
            self._arrived.clear()
            left = end - loop.time()
            if left <= 0:
                raise AssertionError(f"no matching frame within {timeout} s; last frames: {self.frames[-3:]}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)

    async def wait_type(self, kind: str, **fields: Any) -> Message:
        return await self.wait_for(lambda m: m["type"] == kind and all(m.get(k) == v for k, v in fields.items()))

    def latest(self, kind: str, game_id: str | None = None) -> Message | None:
        for frame in reversed(self.frames):
            if frame["type"] == kind and (game_id is None or frame.get("game_id") == game_id):
                return frame
        return None

    async def close(self) -> None:
        await self.ws.close()
        await self.closed.wait()


async def create_game(client: Client, **settings: Any) -> str:
    reply = await client.request(type="create_game", settings={"map": "seed", **settings})
    assert reply["type"] == "game_created", reply
    return str(reply["game"]["game_id"])


async def join(client: Client, game_id: str, name: str, group: int | None = None) -> str:
    """Join and return the seat token."""
    message: Message = {"type": "join_game", "game_id": game_id, "name": name}
    if group is not None:
        message["group"] = group
    reply = await client.request(**message)
    assert reply["type"] == "joined", reply
    return str(reply["token"])


async def seated_game(server: RiscServer, names: list[str], **settings: Any) -> tuple[str, list[Client], list[str]]:
    """A game with every seat taken by a fresh connection (so it has started), with their tokens."""
    clients = [await Client.connect(server) for _ in names]
    game_id = await create_game(clients[0], players=len(names), **settings)
    tokens = [await join(c, game_id, n) for c, n in zip(clients, names, strict=True)]
    for client in clients:
        await client.wait_for(lambda m: m["type"] == "update" and m["view"] is not None, timeout=TIMEOUT)
    return game_id, clients, tokens


def current_view(client: Client, game_id: str) -> Message:
    update = client.latest("update", game_id)
    assert update is not None and update["view"] is not None, "no view received yet"
    return dict(update["view"])


def owned(view: Message, player: str) -> list[str]:
    return [t["name"] for t in view["territories"] if t["owner"] == player]


def territory(view: Message, name: str) -> Message:
    return next(t for t in view["territories"] if t["name"] == name)


def reachable_own(view: Message, player: str, start: str) -> set[str]:
    """Own territories joined to `start` by own territories (R13)."""
    by_name = {t["name"]: t for t in view["territories"]}
    seen, queue = {start}, deque([start])
    while queue:
        for nxt in by_name[queue.popleft()]["neighbours"]:
            if nxt not in seen and by_name[nxt]["owner"] == player:
                seen.add(nxt)
                queue.append(nxt)
    return seen
