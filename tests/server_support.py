"""A real server on a free port in the test's event loop, and real WebSocket clients that record every frame."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections import deque
from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from client.connection import paced, pacer_for
from server.app import RiscServer
from server.clock import Clock
from server.config import ServerConfig
from server.storage import Storage
from shared.protocol.codes import PROTOCOL_VERSION
from shared.protocol.messages import SERVER_ADAPTER, Welcome
from shared.protocol.pacing import TokenBucket
from shared.protocol.patch import apply as apply_patch
from shared.protocol.patch import seats_keyed, seats_listed

Message = dict[str, Any]
TIMEOUT = 5.0

FAST = {"messages_per_second": 100_000.0, "burst": 100_000}
"""Limits loose enough for scripted clients that send as fast as the server answers."""


@contextlib.asynccontextmanager
async def running_server(
    storage: Storage | None = None,
    *,
    clock: Clock | None = None,
    seeds: Callable[[], int] | None = None,
    **settings: Any,
) -> AsyncIterator[RiscServer]:
    """A server on a free port. `clock`: the server's time (a ManualClock moves only when the test says);
    `seeds`: each new game's seed, for games that must play the same way every run."""
    settings.setdefault("bot_turn_pause", 0.0)  # games between the server's players run at full speed in tests
    config = ServerConfig(host="127.0.0.1", port=0, **settings)
    async with RiscServer(config, storage, seeds=seeds, clock=clock) as server:
        yield server


def url(server: RiscServer | int) -> str:
    """The address of a server in this process, or of one listening on the given port."""
    return f"ws://127.0.0.1:{server if isinstance(server, int) else server.port}"


def legible_view(view: Message, game_map: Message | None, summary: Message) -> Message:
    """A RISC view as these tests read it: territories and players as lists in the map's and the seats' order, each
    territory with its neighbours (from the map the server sent once), each player with whether they committed
    (from the summary). The server sends territories and players keyed by name, and the map apart: this puts back
    together the facts it sent, so the tests check the same facts whatever the wire's shape."""
    shown = dict(view)
    borders = (game_map or {}).get("borders", {})
    continents = {t["name"]: t.get("continent") for t in (game_map or {}).get("territories", [])}
    order = [t["name"] for t in (game_map or {}).get("territories", [])] or list(view.get("territories", {}))
    territories = view.get("territories", {})
    shown["territories"] = [
        {
            "name": name,
            "owner": territories[name].get("owner"),
            "units": territories[name].get("units", 0),
            "neighbours": [n for n in order if n in set(borders.get(name, []))],
            "continent": continents.get(name),
        }
        for name in order
        if name in territories
    ]
    seats = {s["name"]: s for s in summary.get("seats", [])}
    players = view.get("players", {})
    shown["players"] = [
        {
            "name": name,
            "committed": seats.get(name, {}).get("committed", False) or players[name].get("eliminated", False),
            "eliminated": players[name].get("eliminated", False),
            "territories": players[name].get("territories", 0),
            "units": players[name].get("units", 0),
        }
        for name in [s["name"] for s in summary.get("seats", [])]
        if name in players
    ]
    shown.setdefault("your_orders", [])
    shown.setdefault("pool_left", 0)
    shown.setdefault("winner", None)
    return shown


class Client:
    """One connection. Every frame received is kept in `frames`, checked against the server-to-client schema.

    Updates are kept with their view whole: the first comes whole, the rest as patches, applied here in order (and
    shown as `legible_view` gives it); `views` holds each game's view as the server's patches left it, `maps` each
    followed game's map."""

    _refs = itertools.count(1)

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: list[Message] = []
        self.raw: list[str] = []
        self._cursor = 0
        self._arrived = asyncio.Event()
        self.changed = asyncio.Event()
        """Set whenever a frame arrives (or the connection ends): what `until` looks again on."""
        self._reader = asyncio.get_running_loop().create_task(self._read())
        self.closed = asyncio.Event()
        self.pacer: TokenBucket | None = None
        self.maps: dict[str, Message] = {}
        self.views: dict[str, Message] = {}
        self.summaries: dict[str, Message] = {}
        """Each game's summary as the server's patches left it (seats keyed by position, as patches take it)."""
        self.orders: dict[str, list[Message]] = {}
        """Each game's orders of this turn, kept from the acceptances and withdrawals as a client keeps them."""

    @classmethod
    async def connect(
        cls,
        server: RiscServer | int,
        *,
        hello: bool = True,
        password: str | None = None,
        words: bool = False,
        source: str | None = None,
    ) -> Client:
        """A connection, from the loopback address `source` (127.0.0.2, ...) when given."""
        local = None if source is None else (source, 0)
        client = cls(await connect(url(server), max_size=None, local_addr=local))
        if hello:
            welcome = await client.request(type="hello", protocol=PROTOCOL_VERSION, password=password, words=words)
            assert welcome["type"] == "welcome", welcome
        return client

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                assert isinstance(frame, str), "the server sends text frames only"
                SERVER_ADAPTER.validate_json(frame)  # every frame the server sends fits the published schema
                self.raw.append(frame)
                self.frames.append(self._take(json.loads(frame)))
                self._arrived.set()
                self.changed.set()
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()
            self._arrived.set()
            self.changed.set()

    def _take(self, message: Message) -> Message:
        kind, game_id = message.get("type"), message.get("game_id")
        if kind == "game_map":
            self.maps[game_id] = message["map"]
        elif kind == "order_accepted":
            self.orders.setdefault(game_id, [])[message["index"] :] = [message["order"]]
        elif kind == "order_withdrawn":
            kept = self.orders.setdefault(game_id, [])
            if message["index"] < len(kept):  # a list begun before this connection is known by list_orders
                del kept[message["index"]]
        elif kind == "orders":
            self.orders[game_id] = list(message["orders"])
        elif kind == "update":
            if message["game"] is not None:
                self.summaries[game_id] = seats_keyed(message["game"])
            elif message["game_patch"] is not None:
                self.summaries[game_id] = apply_patch(self.summaries[game_id], message["game_patch"])
            before = self.latest_summary(game_id)
            message["game"] = seats_listed(self.summaries[game_id])  # the summary whole, as a client rebuilds it
            if before is not None and (before["step"], before["turn"]) != (
                message["game"]["step"],
                message["game"]["turn"],
            ):
                self.orders.pop(game_id, None)
            if message["view"] is not None:
                self.views[game_id] = message["view"]
            elif message["view_patch"] is not None:
                self.views[game_id] = apply_patch(self.views[game_id], message["view_patch"])
            if message["game"]["status"] == "lobby":
                self.views.pop(game_id, None)
            view = self.views.get(game_id)
            message["view"] = (
                None
                if view is None
                else {**legible_view(view, self.maps.get(game_id), message["game"]), "viewer": message["you"]}
            )
        return message

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

    async def wait_for(
        self, match: Callable[[Message], bool], *, timeout: float = TIMEOUT, from_start: bool = False
    ) -> Message:
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

    def latest_summary(self, game_id: str) -> Message | None:
        """The summary of the last update taken about the game."""
        update = self.latest("update", game_id)
        return None if update is None else update["game"]

    def latest(self, kind: str, game_id: str | None = None) -> Message | None:
        for frame in reversed(self.frames):
            if frame["type"] == kind and (game_id is None or frame.get("game_id") == game_id):
                return frame
        return None

    async def close(self) -> None:
        await self.ws.close()
        await self.closed.wait()


async def create_game(client: Client, *, upload: tuple[str, str] | None = None, **settings: Any) -> str:
    """Create a game (on the seed map unless told otherwise; `upload`: a map file's name and text, sent along)."""
    message: Message = {"type": "create_game", "settings": {"map": None if upload else "seed", **settings}}
    if upload is not None:
        message["map_upload"] = {"name": upload[0], "text": upload[1]}
    reply = await client.request(**message)
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


async def bob_commits_placement(bob: Client, game_id: str) -> None:
    """Bob, a raw client, places his whole pool on his first territory and commits the placement."""
    update = bob.latest("update", game_id)
    assert update is not None and update["view"] is not None
    mine = [t["name"] for t in update["view"]["territories"] if t["owner"] == "Bob"]
    reply = await bob.request(
        type="issue_order",
        game_id=game_id,
        turn=0,
        order={"kind": "place", "territory": mine[0], "units": update["view"]["pool_left"]},
    )
    assert reply["type"] == "order_accepted", reply
    assert (await bob.request(type="commit", game_id=game_id, turn=0))["type"] == "commit_accepted"


async def seated_game(server: RiscServer, names: list[str], **settings: Any) -> tuple[str, list[Client], list[str]]:
    """A game with every seat taken by a fresh connection (so it has started), with their tokens."""
    clients = [await Client.connect(server) for _ in names]
    game_id = await create_game(clients[0], players=len(names), **settings)
    tokens = [await join(c, game_id, n) for c, n in zip(clients, names, strict=True)]
    for client in clients:
        await client.wait_for(lambda m: m["type"] == "update" and m["view"] is not None, timeout=TIMEOUT)
    return game_id, clients, tokens


class Changing(Protocol):
    """Anything a test watches that says when something happened to it: a raw client (a frame came), a driven text
    client (it showed something), a subscriber inside the server."""

    changed: asyncio.Event


def looking(*sources: Changing) -> None:
    """From now on, what `sources` tell is news (call it before reading what they hold)."""
    for source in sources:
        source.changed.clear()


async def any_news(*sources: Changing, what: str = "change", timeout: float = TIMEOUT) -> None:
    """Until one of `sources` has told of a change since `looking` (at once if one has)."""
    loop = asyncio.get_running_loop()
    waits = [loop.create_task(source.changed.wait()) for source in sources]
    finished, pending = await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    if not finished:
        raise AssertionError(f"no {what} within {timeout} s")


async def until(done: Callable[[], bool], what: str, *sources: Changing, timeout: float = TIMEOUT) -> None:
    """Until `done()` holds, looked at again whenever one of `sources` tells of a change (the time limit only bounds
    a failing test): no polling, no sleep."""
    if not sources:
        raise TypeError(f"until({what!r}) needs something that tells of changes: a client, a driver, a watcher")
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        looking(*sources)
        if done():
            return
        await any_news(*sources, what=what, timeout=max(0.0, end - loop.time()))


async def barrier(client: Client) -> Message:
    """A request answered after everything the server had already queued for this connection (replies and updates
    go out in the order made): once its reply is here, what was coming has come. Returns the reply."""
    reply = await client.request(type="list_games", limit=1)
    assert reply["type"] == "games", reply
    return reply


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
