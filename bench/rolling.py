"""`bench/cluster.py rolling`: a rolling restart of every node during play (docs/scaling.md, "Restarts and upgrades").

3 nodes, G games of 3 players, each game created on one node and joined through another. The players play as people
do (a pause to think before each turn's orders, `--think`), each order and commit sent with a request id and its
answer awaited; a game that moves is followed where its redirect says, a connection that drops is taken back through
the nodes in turn, as the text client does. Then each node in turn is told to stop (SIGTERM), waited for, and started
again on its port, `--rounds` times over (each node restarted twice by default).

What it reports:
- the pause of each game a stopping node played: from the SIGTERM to the moment every player of the game holds a
  view from its new node (p50, p99, the longest);
- what was lost: every order and commit a player was told was kept (`order_accepted`, `commit_accepted`) is looked
  for in the store at the end (the turn's `orders_revealed`, or the commit's entry), and each game's log is checked
  for a gap or a repeat in its numbers.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench.players import Followed, orders_for
from shared.protocol.codes import PROTOCOL_VERSION

Message = dict[str, Any]
PLAYERS = 3


@dataclass
class Kept:
    """What one player was told was kept, by turn: its orders in the order issued, and its commits."""

    orders: dict[int, list[Message]] = field(default_factory=dict)
    commits: set[int] = field(default_factory=set)


@dataclass
class Seat:
    """A player that plays as a person does and follows its game wherever it goes."""

    game_id: str
    name: str
    token: str
    ports: list[int]
    think: float
    kept: Kept = field(default_factory=Kept)
    followed: Followed = field(default_factory=Followed)
    seq: int = 0
    moving_since: float | None = None
    """When the game last left the node this player was on (a redirect, or the connection gone)."""
    back: list[tuple[float, float]] = field(default_factory=list)
    """(since, when): each time it held a view from the game's new node again."""
    url: str = ""
    ws: ClientConnection | None = None
    _replies: dict[str, asyncio.Future[Message]] = field(default_factory=dict)
    _refs: Any = field(default_factory=itertools.count)
    _acting: asyncio.Task[None] | None = None
    _planned: dict[int, list[Message]] = field(default_factory=dict)
    stopped: bool = False

    async def run(self) -> None:
        self.url = f"ws://127.0.0.1:{self.ports[0]}/"
        pause = 0.0
        while not self.stopped:
            with contextlib.suppress(OSError, ConnectionClosed, TimeoutError):
                await self._session()
                pause = 0.0
                continue
            if self.moving_since is None:
                self.moving_since = time.monotonic()
            await asyncio.sleep(pause * random.uniform(0.75, 1.0))
            pause = min(4.0, max(pause, 0.25) * 2)
            at = next((i for i, p in enumerate(self.ports) if self.url.endswith(f":{p}/")), -1)
            self.url = f"ws://127.0.0.1:{self.ports[(at + 1) % len(self.ports)]}/"

    async def _session(self) -> None:
        """One connection: the hello, the seat taken back (following redirects), then play until it moves."""
        for _ in range(4):
            async with connect(self.url, max_size=None, ping_interval=None, open_timeout=5) as ws:
                self.ws = ws
                await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION}))
                json.loads(await asyncio.wait_for(ws.recv(), 5))
                reader = asyncio.create_task(self._read(ws))
                try:
                    reply = await self.request(
                        {"type": "resume", "game_id": self.game_id, "token": self.token, "last_seq": self.seq}
                    )
                    if reply["type"] == "redirect":
                        self.url = reply["url"]
                        continue
                    if reply["type"] != "resumed":
                        await asyncio.sleep(0.1)  # the game is changing hands: a moment later
                        continue
                    moved = await reader
                    if moved is not None:
                        self.url = moved
                        return
                    raise ConnectionClosed(None, None)
                finally:
                    reader.cancel()
                    for future in self._replies.values():
                        future.cancel()
                    self._replies.clear()
                    if self._acting is not None:
                        self._acting.cancel()
                        self._acting = None
        raise OSError("sent on too often")

    async def _read(self, ws: ClientConnection) -> str | None:
        """Frames until the game moves (the redirect's address) or the connection ends (None)."""
        async for frame in ws:
            message = json.loads(frame)
            ref = message.get("ref")
            if ref is not None and ref in self._replies:
                self._replies.pop(ref).set_result(message)
                continue
            kind = message["type"]
            if kind == "redirect" and message.get("game_id") == self.game_id:
                self.moving_since = self.moving_since or time.monotonic()
                return str(message["url"])
            if kind == "game_map":
                self.followed.take_map(message["map"])
            elif kind == "update" and message.get("game_id") == self.game_id:
                self.seq = max(self.seq, message["seq"])
                self.followed.take_update(message)
                if message.get("view") is not None and self.moving_since is not None:
                    self.back.append((self.moving_since, time.monotonic()))
                    self.moving_since = None
                self._maybe_act()
        return None

    async def request(self, message: Message) -> Message:
        assert self.ws is not None
        ref = f"r{next(self._refs)}"
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._replies[ref] = future
        await self.ws.send(json.dumps({**message, "ref": ref}))
        return await asyncio.wait_for(future, 15)

    def _maybe_act(self) -> None:
        view, game = self.followed.view, self.followed.game
        if view is None or game is None or game.get("status") != "playing":
            return
        mine = next((s for s in game["seats"].values() if s.get("name") == self.name), None)
        if mine is None or not mine["awaited"] or mine["committed"]:
            return
        if self._acting is None or self._acting.done():
            self._acting = asyncio.get_running_loop().create_task(self._act(view["turn"]))

    async def _act(self, turn: int) -> None:
        await asyncio.sleep(self.think * random.uniform(0.5, 1.5))
        view = self.followed.view
        if view is None or view["turn"] != turn:
            return
        planned = self._planned.setdefault(turn, orders_for(self.followed.seen(), self.name))
        kept = self.kept.orders.setdefault(turn, [])
        for index in range(len(view.get("your_orders", [])), len(planned)):
            reply = await self.request(
                {
                    "type": "issue_order",
                    "game_id": self.game_id,
                    "turn": turn,
                    "order": planned[index],
                    "request_id": f"{self.game_id}-{self.name}-{turn}-{index}",
                }
            )
            if reply["type"] != "order_accepted":
                return  # it moved, or the store failed: taken up again from the next view
            kept.append(planned[index])
        reply = await self.request(
            {
                "type": "commit",
                "game_id": self.game_id,
                "turn": turn,
                "request_id": f"{self.game_id}-{self.name}-{turn}",
            }
        )
        if reply["type"] == "commit_accepted":
            self.kept.commits.add(turn)


async def make_games(ports: list[int], games: int, think: float) -> list[Seat]:
    """Games created on node i mod 3, each of whose players comes back through the next node first."""
    return [
        Seat(game_id, name, token, entry, think) for game_id, name, token, entry in await seated_games(ports, games)
    ]


async def seated_games(ports: list[int], games: int) -> list[tuple[str, str, str, list[int]]]:
    """Games created on node i mod 3, each of its players seated: (game, player, token, the nodes it is to come back
    through: the next node first, then the others)."""
    seats: list[tuple[str, str, str, list[int]]] = []
    for index in range(games):
        owner, entry = ports[index % len(ports)], ports[(index + 1) % len(ports)]
        async with connect(f"ws://127.0.0.1:{owner}/") as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION}))
            await ws.recv()
            await ws.send(json.dumps({"type": "create_game", "settings": {"map": "seed", "players": PLAYERS}}))
            game_id = json.loads(await ws.recv())["game"]["game_id"]
        for player in range(PLAYERS):
            async with connect(f"ws://127.0.0.1:{owner}/") as ws:
                await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION}))
                await ws.recv()
                await ws.send(json.dumps({"type": "join_game", "game_id": game_id, "name": f"p{player}"}))
                while (joined := json.loads(await ws.recv()))["type"] != "joined":
                    pass
            others = [p for p in ports if p != entry]
            seats.append((game_id, f"p{player}", joined["token"], [entry, *others]))
    return seats


@dataclass
class Figures:
    pauses: list[float]
    games_moved: int
    lost_orders: int
    lost_commits: int
    log_faults: int
    orders_kept: int
    commits_kept: int
    turns: int


def check_store(dsn: str, seats: list[Seat]) -> tuple[int, int, int, int]:
    """Every order and commit acknowledged to a player, looked for in the store; and each game's log numbers.
    Returns (orders lost, commits lost, logs with a gap or a repeat, turns resolved)."""
    import psycopg

    lost_orders = lost_commits = faults = turns = 0
    with psycopg.connect(dsn) as db:
        for game_id in {s.game_id for s in seats}:
            rows = db.execute("SELECT seq, body FROM events WHERE game_id = %s ORDER BY seq", (game_id,)).fetchall()
            if [seq for seq, _ in rows] != list(range(1, len(rows) + 1)):
                faults += 1
            events = [json.loads(body)["event"] for _, body in rows]
            revealed = {e["turn"]: e["orders"] for e in events if e["kind"] == "orders_revealed"}
            committed = {(e["player"], e["turn"]) for e in events if e["kind"] == "player_committed"}
            turns += len(revealed)
            pending = db.execute(
                "SELECT player, step, body FROM pending_orders WHERE game_id = %s ORDER BY id", (game_id,)
            ).fetchall()
            for seat in (s for s in seats if s.game_id == game_id):
                for turn, orders in seat.kept.orders.items():
                    if turn in revealed:
                        stored = revealed[turn].get(seat.name, [])
                    else:
                        stored = [json.loads(b) for p, _, b in pending if p == seat.name and b is not None]
                    lost_orders += sum(1 for order in orders if order not in stored)
                for turn in seat.kept.commits:
                    if turn not in revealed and (seat.name, turn) not in committed:
                        lost_commits += 1
    return lost_orders, lost_commits, faults, turns


async def rolling(
    dsn: str,
    start_node: Callable[[str, int], Any],
    games: int,
    rounds: int,
    think: float,
    settle: float,
) -> Figures:
    """Three nodes, `games` games played on them, each node restarted in turn `rounds` times over."""
    import psycopg

    nodes = [start_node(f"node-{i + 1}", 0) for i in range(3)]
    ports = [n.port for n in nodes]
    seats = await make_games(ports, games, think)
    players = [asyncio.create_task(seat.run()) for seat in seats]
    pauses: list[float] = []
    moved_games = 0
    try:
        await asyncio.sleep(settle)
        for round_ in range(rounds):
            for index in range(len(nodes)):
                node_id = f"node-{index + 1}"
                with psycopg.connect(dsn) as db:
                    held = {
                        g
                        for (g,) in db.execute(
                            "SELECT game_id FROM games WHERE owner = %s AND phase = 'playing'", (node_id,)
                        ).fetchall()
                    }
                stopped_at = time.monotonic()
                nodes[index].process.terminate()
                await asyncio.to_thread(nodes[index].process.wait, 30)
                nodes[index] = await asyncio.to_thread(start_node, node_id, ports[index])
                await asyncio.sleep(settle)
                back = 0
                for game_id in held:
                    firsts = [
                        min((when for since, when in s.back if since >= stopped_at), default=None)
                        for s in seats
                        if s.game_id == game_id
                    ]
                    if all(t is not None for t in firsts):
                        pauses.append(max(t for t in firsts if t is not None) - stopped_at)
                        back += 1
                moved_games += len(held)
                print(
                    f"  round {round_ + 1}, {node_id}: {len(held)} games handed on, {back} back; "
                    f"slowest {max(pauses[-back:]) if back else float('nan'):.2f} s",
                    flush=True,
                )
    finally:
        for seat in seats:
            seat.stopped = True
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        for node in nodes:
            node.stop()
    lost_orders, lost_commits, faults, turns = check_store(dsn, seats)
    return Figures(
        pauses,
        moved_games,
        lost_orders,
        lost_commits,
        faults,
        sum(len(o) for s in seats for o in s.kept.orders.values()),
        sum(len(s.kept.commits) for s in seats),
        turns,
    )


def report(figures: Figures) -> None:
    pauses = sorted(figures.pauses)

    def p(q: float) -> float:
        return pauses[min(len(pauses) - 1, int(len(pauses) * q))] if pauses else float("nan")

    print(
        f"games handed on: {figures.games_moved}, back with every player: {len(pauses)}; pause from the SIGTERM to "
        f"every player holding the new node's view: p50 {statistics.median(pauses) if pauses else float('nan'):.2f} s, "
        f"p99 {p(0.99):.2f} s, most {pauses[-1] if pauses else float('nan'):.2f} s"
    )
    print(
        f"acknowledged: {figures.orders_kept} orders and {figures.commits_kept} commits, {figures.turns} turns "
        f"resolved; lost: {figures.lost_orders} orders, {figures.lost_commits} commits; logs with a gap or a repeat: "
        f"{figures.log_faults}"
    )
