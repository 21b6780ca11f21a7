"""Bytes on the wire: what each player and a spectator of a served RISC game receive per turn, now and before.

Run by hand: `python bench/wire.py [--turns 20] [--before DIR]`, where DIR is a checkout of the previous release
(protocol 1), made with `git worktree add DIR 1c14896`. For each release it starts that release's own server in its
own process (bench/server_load.py --serve, in-memory store), then 5 players and 1 spectator over raw websockets
play a RISC game on bigeurope.map (180 territories, ../shared/maps/domination beside the project): this release
gets the map uploaded with create_game, the previous one (which read maps from the server's disk) by its path. The
players play all out (bench/players.py): each turn they issue their orders one by one, each awaited, then commit.

Counted for every connection: each frame received, its payload plus its WebSocket header (TCP and IP headers are
left out), split into the start (up to and including the first view of the placement), placement, and every turn
from 1 to N; a frame counts toward the turn whose last view the client held when it came, so the update that
resolves a turn counts toward that turn. Printed per player (the mean of the 5) and for the spectator, by kind of
frame, and the ratio of the previous release's bytes per turn to this one's. Both servers send uncompressed frames;
what the same frames would take with permessage-deflate is worked out beside them (one zlib stream per connection,
as the extension keeps by default), to show what compression would add.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import tempfile
import time
import zlib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from websockets.asyncio.client import ClientConnection, connect

from bench.players import Followed, Seen, orders_for, seen_listed
from bench.server_load import ServerProcess
from shared.protocol.codes import PROTOCOL_VERSION
from shared.protocol.deflate import SparingClientDeflateFactory

ROOT = Path(__file__).resolve().parents[1]
BIGEUROPE = ROOT.parent / "shared" / "maps" / "domination" / "bigeurope.map"
PLAYERS = 5
Message = dict[str, Any]


def wire_bytes(frame: str | bytes) -> int:
    """A server-to-client frame's size on the wire: its payload and its WebSocket header (unmasked)."""
    size = len(frame.encode() if isinstance(frame, str) else frame)
    return size + (2 if size < 126 else 4 if size < 65536 else 10)


class CountingConnection(ClientConnection):
    """A client connection that counts the bytes its socket delivered, compressed or not, before decoding."""

    received = 0

    def data_received(self, data: bytes) -> None:
        self.received += len(data)
        super().data_received(data)


@dataclass
class Counts:
    """What one connection received, by part of the game and by kind of frame."""

    bytes: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    frames: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    deflated: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    """What the same frames would have taken with permessage-deflate (see `deflated_size`)."""
    _stream: Any = field(default_factory=lambda: zlib.compressobj(6, zlib.DEFLATED, -15))

    def add(self, part: str, kind: str, frame: str, wire: int | None = None) -> None:
        """Count a frame: `wire` is what it took on the wire when the bench measured it (compression negotiated),
        else its payload and header."""
        self.bytes[part][kind] += wire_bytes(frame) if wire is None else wire
        self.frames[part][kind] += 1
        self.deflated[part] += self.deflated_size(frame)

    def deflated_size(self, frame: str) -> int:
        """The frame compressed as permessage-deflate does with its defaults: one raw deflate stream for the whole
        connection (so a frame refers to the earlier ones), flushed at the end of each message, less the 4 bytes
        of the flush's empty block, plus the frame's header."""
        data = self._stream.compress(frame.encode()) + self._stream.flush(zlib.Z_SYNC_FLUSH)
        size = len(data) - 4
        return size + (2 if size < 126 else 4 if size < 65536 else 10)

    def total(self, part: str) -> int:
        return sum(self.bytes[part].values())


class Seat:
    """One connection of the bench: it reads every frame, counts it, and (for a player) plays."""

    def __init__(self, ws: ClientConnection, protocol: int, name: str | None, turns: int, most: int | None) -> None:
        self.ws, self.protocol, self.name, self.turns, self.most = ws, protocol, name, turns, most
        self.counts = Counts()
        self.followed = Followed()
        self.part = "start"
        self.key: tuple[str, int] | None = None
        self.done = asyncio.Event()
        self.replies: asyncio.Queue[Message] = asyncio.Queue()
        self.game_id = ""
        self.compressed = isinstance(ws, CountingConnection)
        self._counted = ws.received if isinstance(ws, CountingConnection) else 0

    def _wire(self) -> int | None:
        """With compression negotiated: the bytes the socket delivered since the last frame read (a frame's bytes may
        come in the read before it, so a frame's own count is rough; a turn's, over many frames, is not)."""
        if not isinstance(self.ws, CountingConnection):
            return None
        wire, self._counted = self.ws.received - self._counted, self.ws.received
        return wire

    def _seen(self, message: Message) -> Seen | None:
        """The view the update leaves this client with, when it changed."""
        if self.protocol == 1:
            return seen_listed(message["view"]) if message["view"] is not None else None
        return self.followed.seen() if self.followed.take_update(message) else None

    async def read(self) -> None:
        async for frame in self.ws:
            message: Message = json.loads(frame)
            kind = message["type"]
            self.counts.add(self.part, kind, frame if isinstance(frame, str) else frame.decode(), self._wire())
            if kind == "game_map":
                self.followed.take_map(message["map"])
            elif kind == "update":
                seen = self._seen(message)
                if seen is not None:
                    self._turned(seen)
            elif message.get("ref") is not None:
                self.replies.put_nowait(message)

    def _turned(self, seen: Seen) -> None:
        key = (seen.phase, seen.turn)
        if key == self.key:
            return
        self.key = key
        self.part = "placement" if seen.phase == "placement" else f"turn {seen.turn}"
        if seen.phase == "finished" or seen.turn > self.turns:
            self.part = "after"
            self.done.set()
        elif self.name is not None:
            asyncio.get_running_loop().create_task(self.play(seen, seen.turn))

    async def request(self, message: Message) -> Message:
        await self.ws.send(json.dumps({**message, "ref": "r"}))
        return await self.replies.get()

    async def play(self, seen: Seen, turn: int) -> None:
        assert self.name is not None
        if self.name not in seen.alive:
            self.done.set()
            return
        for order in orders_for(seen, self.name, self.most):
            reply = await self.request({"type": "issue_order", "game_id": self.game_id, "turn": turn, "order": order})
            assert reply["type"] == "order_accepted", reply
        reply = await self.request({"type": "commit", "game_id": self.game_id, "turn": turn})
        assert reply["type"] == "commit_accepted", reply


async def _open(port: int, protocol: int, deflate: bool = False) -> ClientConnection:
    if deflate:
        ws = await connect(
            f"ws://127.0.0.1:{port}",
            max_size=None,
            ping_interval=None,
            compression=None,
            extensions=[SparingClientDeflateFactory()],
            create_connection=CountingConnection,
        )
    else:
        ws = await connect(f"ws://127.0.0.1:{port}", max_size=None, ping_interval=None, compression=None)
    await ws.send(json.dumps({"type": "hello", "protocol": protocol}))
    reply = json.loads(await ws.recv())
    assert reply["type"] == "welcome", reply
    return ws


async def play_game(
    port: int, protocol: int, turns: int, most: int | None, seconds: float, deflate: bool = False
) -> tuple[list[Counts], Counts]:
    names = [f"p{i}" for i in range(PLAYERS)]
    seats = [Seat(await _open(port, protocol, deflate), protocol, name, turns, most) for name in names]
    spectator = Seat(await _open(port, protocol, deflate), protocol, None, turns, most)
    everyone = [*seats, spectator]
    readers = [asyncio.get_running_loop().create_task(s.read()) for s in everyone]
    if protocol == 1:
        create: Message = {"type": "create_game", "settings": {"map": str(BIGEUROPE), "players": PLAYERS}}
    else:
        create = {
            "type": "create_game",
            "settings": {"map": None, "players": PLAYERS},
            "map_upload": {"name": BIGEUROPE.name, "text": BIGEUROPE.read_text(encoding="utf-8")},
        }
    created = await seats[0].request(create)
    assert created["type"] == "game_created", created
    game_id = created["game"]["game_id"]
    watching = await spectator.request({"type": "watch_game", "game_id": game_id})
    assert watching["type"] == "watching", watching
    for seat in everyone:
        seat.game_id = game_id
    for seat in seats:
        joined = await seat.request({"type": "join_game", "game_id": game_id, "name": seat.name})
        assert joined["type"] == "joined", joined
    await asyncio.wait_for(asyncio.gather(*(s.done.wait() for s in everyone)), seconds)
    await asyncio.sleep(0.2)  # the last frames of the turn, for the slowest reader
    for seat in everyone:
        with contextlib.suppress(Exception):
            await seat.ws.close()
    for reader in readers:
        reader.cancel()
    return [s.counts for s in seats], spectator.counts


def measure(
    root: Path, protocol: int, turns: int, most: int | None, seconds: float, deflate: bool = False
) -> tuple[list[Counts], Counts]:
    with tempfile.TemporaryDirectory(prefix="risc-wire-") as data_dir:
        server = ServerProcess.start(
            [str(root / "bench" / "server_load.py"), "--serve", "--store", "memory", "--data-dir", data_dir], cwd=root
        )
        try:
            cpu = server.cpu_seconds()
            counts = asyncio.run(play_game(server.port, protocol, turns, most, seconds, deflate))
            print(f"  (the server's CPU time for the game: {server.cpu_seconds() - cpu:.2f} s)")
            return counts
        finally:
            server.stop()


@dataclass
class Summary:
    start: float
    placement: float
    per_turn: float
    turns: int
    by_kind: dict[str, float]
    frames_per_turn: float
    deflated_per_turn: float

    @property
    def whole(self) -> float:
        """Everything from the first frame to the end of turn N."""
        return self.start + self.placement + self.per_turn * self.turns


def summarise(counts: list[Counts], turns: int) -> Summary:
    """The mean over the connections of each part; per turn: the mean over turns 1..N."""
    parts = [f"turn {t}" for t in range(1, turns + 1)]
    played = [p for p in parts if any(c.total(p) for c in counts)]
    kinds = sorted({k for c in counts for p in played for k in c.bytes[p]})
    per_turn = statistics.fmean(sum(c.total(p) for p in played) / max(1, len(played)) for c in counts)
    by_kind = {
        k: statistics.fmean(sum(c.bytes[p].get(k, 0) for p in played) / max(1, len(played)) for c in counts)
        for k in kinds
    }
    frames = statistics.fmean(sum(sum(c.frames[p].values()) for p in played) / max(1, len(played)) for c in counts)
    deflated = statistics.fmean(sum(c.deflated[p] for p in played) / max(1, len(played)) for c in counts)
    return Summary(
        statistics.fmean(c.total("start") for c in counts),
        statistics.fmean(c.total("placement") for c in counts),
        per_turn,
        len(played),
        by_kind,
        frames,
        deflated,
    )


def report(label: str, players: Summary, spectator: Summary) -> None:
    print(f"{label}: {players.turns} turns played")
    for who, s in (("  a player", players), ("  the spectator", spectator)):
        kinds = ", ".join(f"{k} {v:,.0f}" for k, v in sorted(s.by_kind.items(), key=lambda kv: -kv[1]))
        print(
            f"{who}: start {s.start:,.0f} B, placement {s.placement:,.0f} B, {s.per_turn:,.0f} B a turn "
            f"({s.frames_per_turn:.1f} frames: {kinds}); with permessage-deflate {s.deflated_per_turn:,.0f} B a turn"
        )


def compare(before: tuple[Summary, Summary], now: tuple[Summary, Summary]) -> None:
    for who, b, n in (("a player", before[0], now[0]), ("the spectator", before[1], now[1])):
        updates_b, updates_n = b.by_kind.get("update", 0.0), n.by_kind.get("update", 0.0)
        print(
            f"{who}: a turn {b.per_turn:,.0f} -> {n.per_turn:,.0f} B, {b.per_turn / n.per_turn:.1f} times fewer; "
            f"its updates {updates_b:,.0f} -> {updates_n:,.0f} B, {updates_b / updates_n:.1f} times; "
            f"the whole game {b.whole:,.0f} -> {n.whole:,.0f} B, {b.whole / n.whole:.1f} times"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=20, help="turns played after the placement")
    parser.add_argument(
        "--most", type=int, default=None, help="orders a player issues a turn at most (attacks first); default: all out"
    )
    parser.add_argument(
        "--before",
        type=Path,
        default=None,
        help="a checkout of the previous release (protocol 1) to measure beside this one",
    )
    parser.add_argument("--seconds", type=float, default=300.0, help="bound on each game")
    parser.add_argument(
        "--deflate",
        action="store_true",
        help="this release's clients also play a game with permessage-deflate, as the text client "
        "negotiates it (small frames sent as they are), counting what their sockets delivered",
    )
    args = parser.parse_args()
    if not BIGEUROPE.is_file():
        raise SystemExit(f"{BIGEUROPE} is missing: the real maps live in ../shared/maps from the project root")
    started = time.monotonic()
    print(
        f"bigeurope.map, {PLAYERS} players and 1 spectator, {args.turns} turns, "
        f"{'all out' if args.most is None else f'at most {args.most} orders a player a turn'} "
        "(bytes received: payload + WebSocket header; means over the players)"
    )
    now_players, now_spectator = measure(ROOT, PROTOCOL_VERSION, args.turns, args.most, args.seconds)
    now = summarise(now_players, args.turns), summarise([now_spectator], args.turns)
    report(f"this release (protocol {PROTOCOL_VERSION})", *now)
    if args.deflate:
        packed_players, packed_spectator = measure(
            ROOT, PROTOCOL_VERSION, args.turns, args.most, args.seconds, deflate=True
        )
        packed = summarise(packed_players, args.turns), summarise([packed_spectator], args.turns)
        report("this release, compression negotiated (bytes as the sockets delivered them)", *packed)
        compare(now, packed)
    if args.before is not None:
        before_players, before_spectator = measure(args.before.resolve(), 1, args.turns, args.most, args.seconds)
        before = summarise(before_players, args.turns), summarise([before_spectator], args.turns)
        report("the previous release (protocol 1)", *before)
        compare(before, now)
    print(f"({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
