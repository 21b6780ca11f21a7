"""The cyclic garbage a server's life leaves: a real server in a process of its own, its cycle collector off, asked
what the collector would find and what it is made of.

A server holding thousands of games walks what it holds whole only rarely (server/collector.py): what it lets go of
must be freed by counting references alone. Here the collector never runs, not even when the server asks for a
collection itself (its computers' young generations, the memory given back after slow readers), until `garbage`
asks: then what a whole collection would free is found as the collector finds it (`unreachable`), and reported: how
many objects, of which types, and the cycles that hold them, each told as the references that close it
(`Followers ._public_map -> function ... -> Match .followers -> Followers`), alike cycles counted together; then it
is collected.

`python tests/cycles_support.py DATA_DIR CODE` is that process: the SQLite server of checkout CODE (`--store DSN`:
a node on that PostgreSQL database) on a free port (its line `PORT N` on stdout), then one command a line on stdin:
`garbage N` (once at most N of its connections are still open, a JSON line on stdout: the census since the last one)
or `stop`. With `--collector`, its collector is settled as `risc server` settles it instead, and asked `frozen N`
(what its young walks froze) or `walk N` (its whole walk, timed). `ServerApart` runs it from a test or a bench;
`a_life` lives a server's ordinary life against it, the same for both.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import json
import sys
import tempfile
import time
import types
import weakref
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

LIFE_SETTINGS: dict[str, Any] = {
    "messages_per_second": 100_000.0,
    "burst": 100_000,
    "bot_turn_pause": 0.0,
    "max_games": 100_000,
    "finished_games_kept": 0,
    "open_games_per_address": 100_000,
    "computer_games": 1_000,
    "min_turn_seconds": 0.1,
}
"""The server's settings for a life lived fast from one address: games of computers play at full speed, and every
finished game is let go at the next creation (the store keeps it)."""


# ---- the census (in the server's process) ---------------------------------------------------------------------------


def type_name(thing: object) -> str:
    """What an object is, as a reader of a cycle needs it: its class, and for code its function's name. (Its type
    alone is asked: a weak proxy among the garbage has lost what it stood for.)"""
    kind = type(thing)
    name = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
    if kind is types.FunctionType:
        return f"function {thing.__module__}.{thing.__qualname__}"  # type: ignore[attr-defined]
    if kind is types.MethodType:
        return f"method {getattr(thing.__func__, '__qualname__', '?')}"  # type: ignore[attr-defined]
    if kind is types.FrameType:
        return f"frame of {thing.f_code.co_qualname}"  # type: ignore[attr-defined]
    if kind in (types.CoroutineType, types.GeneratorType, types.AsyncGeneratorType):
        return f"{name} {thing.__qualname__}"  # type: ignore[attr-defined]
    return name


def _reference(owner: object, target: object) -> str:
    """How `owner` refers to `target`: an attribute, a key, an index; `?` when it cannot be told."""
    if type(owner) in (weakref.ProxyType, weakref.CallableProxyType):
        return "?"
    if isinstance(owner, dict):
        for key, value in owner.items():
            if value is target:
                return f"[{key!r}]" if isinstance(key, str | int) else "[…]"
            if key is target:
                return "(key)"
    if isinstance(owner, list | tuple):
        for index, value in enumerate(owner):
            if value is target:
                return f"[{index}]"
    if isinstance(owner, set | frozenset):
        return "(member)"
    if isinstance(owner, types.FrameType):
        if owner.f_back is target:
            return ".f_back"
        for name, value in owner.f_locals.items():
            if value is target:
                return f".{name}"
    if isinstance(owner, types.CellType):
        return ".cell_contents"
    if isinstance(owner, types.TracebackType):
        return ".tb_frame" if owner.tb_frame is target else ".tb_next"
    if isinstance(owner, types.CoroutineType):
        return ".cr_frame"
    names = ["__self__", "__func__", "__closure__", "__traceback__", "__context__", "__cause__", "__dict__"]
    names += [n for cls in type(owner).__mro__ for n in getattr(cls, "__slots__", ()) if isinstance(n, str)]
    with contextlib.suppress(TypeError):
        names += list(vars(owner))
    for name in names:
        with contextlib.suppress(Exception):
            if getattr(owner, name) is target:
                return f".{name}"
    return "?"


def _components(found: list[object]) -> list[list[int]]:
    """The strongly connected components of the garbage's references (Tarjan's, without recursion): the cycles."""
    index_of = {id(thing): n for n, thing in enumerate(found)}
    edges = [[index_of[id(r)] for r in gc.get_referents(thing) if id(r) in index_of] for thing in found]
    order = [-1] * len(found)
    low = [0] * len(found)
    on_stack = [False] * len(found)
    stack: list[int] = []
    components: list[list[int]] = []
    counter = 0
    for root in range(len(found)):
        if order[root] >= 0:
            continue
        work = [(root, 0)]
        order[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            node, at = work[-1]
            if at < len(edges[node]):
                work[-1] = (node, at + 1)
                nxt = edges[node][at]
                if order[nxt] < 0:
                    order[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack[nxt] = True
                    work.append((nxt, 0))
                elif on_stack[nxt]:
                    low[node] = min(low[node], order[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == order[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in edges[node]:
                    components.append(component)
    return components


def _telling(name: str) -> int:
    """How much an object's type tells of where a cycle comes from: the project's own first."""
    for rank, prefix in enumerate(("server.", "shared.", "client.", "function ", "method ", "websockets.")):
        if name.startswith(prefix):
            return rank
    return 9


def _cycle(found: list[object], members: list[int]) -> str:
    """The shortest way round a component from its most telling member back to it, as references."""
    inside = {id(found[m]): m for m in members}
    names = {m: type_name(found[m]) for m in members}
    start = min(members, key=lambda m: (_telling(names[m]), names[m]))
    came_from: dict[int, int] = {}
    queue = [start]
    for node in queue:
        for referent in gc.get_referents(found[node]):
            nxt = inside.get(id(referent))
            if nxt is None:
                continue
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                path.reverse()
                said = [names[start]]
                for owner, target in zip(path, [*path[1:], start], strict=True):
                    said.append(f"{_reference(found[owner], found[target])} -> {names[target]}")
                return " ".join(said)
            if nxt not in came_from:
                came_from[nxt] = node
                queue.append(nxt)
    return names[start]


def census(found: list[object], most: int = 40) -> dict[str, Any]:
    """What the collector found: how many objects, of which types (the most first), and the cycles among them,
    alike ones together (`objects`: the members of those cycles, not what they held)."""
    by_type = Counter(type_name(thing) for thing in found)
    cycles: dict[str, list[int]] = {}
    for members in _components(found):
        seen = cycles.setdefault(_cycle(found, members), [0, 0])
        seen[0] += 1
        seen[1] += len(members)
    ranked = sorted(cycles.items(), key=lambda item: (-item[1][1], item[0]))
    return {
        "found": len(found),
        "types": by_type.most_common(most),
        "cycles": [{"cycle": name, "count": count, "objects": objects} for name, (count, objects) in ranked],
    }


def unreachable() -> list[object]:
    """What a whole collection would free now, found as the collector finds it but before it runs a finalizer: the
    objects it tracks, less those referenced from elsewhere than the tracked ones (more references counted than the
    tracked ones hold) and all they reach. A collection's own list would miss some: closing a suspended generator
    (its finalizer) frees its cycle before the collector lists what it frees."""
    everything = gc.get_objects()
    tracked = [thing for thing in everything if thing is not everything]
    del everything
    index = {id(thing): n for n, thing in enumerate(tracked)}
    edges = [[index[id(r)] for r in gc.get_referents(thing) if id(r) in index] for thing in tracked]
    held = [0] * len(tracked)
    for targets in edges:
        for target in targets:
            held[target] += 1
    alive = [sys.getrefcount(tracked[n]) - 2 > held[n] for n in range(len(tracked))]  # the list's, the call's
    reached = [n for n, root in enumerate(alive) if root]
    while reached:
        for target in edges[reached.pop()]:
            if not alive[target]:
                alive[target] = True
                reached.append(target)
    found = [thing for thing, kept in zip(tracked, alive, strict=True) if not kept]
    tracked.clear()  # it holds the cells of this function's comprehensions, which hold it
    return found


def take_garbage() -> dict[str, Any]:
    """The census of the cyclic garbage there is now, then a whole collection that frees it: `collected`, what the
    collector said it freed, is `found` unless something was found amiss."""
    switching = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)  # no other thread (the store's) changes a count while they are read
    try:
        found = unreachable()
    finally:
        sys.setswitchinterval(switching)
    try:
        report = census(found)
    finally:
        del found
    report["collected"] = _collect()
    return report


# ---- the server's process --------------------------------------------------------------------------------------


async def quiet(server: Any, open_connections: int) -> None:
    """Until at most `open_connections` of the server's connections are open, what their ends set off has run, and
    the lobby's own background work (a game let go) is done."""
    websockets_server = server.transport._server
    while len(websockets_server.handler_tasks) > open_connections:
        await asyncio.wait(set(websockets_server.handler_tasks), return_when=asyncio.FIRST_COMPLETED)
    await server.lobby.settled()
    for _ in range(20):  # the callbacks a closed socket schedules (its transport's end, the writer's) run
        await asyncio.sleep(0)


_collect = gc.collect


def _collect_nothing(generation: int = 2) -> int:
    return 0


def whole_walk() -> dict[str, Any]:
    """The collector's whole walk (server/collector.py), timed: the objects it went over, what it freed."""
    from server.collector import walk

    objects = gc.get_freeze_count() + len(gc.get_objects())
    started, started_cpu = time.perf_counter(), time.thread_time()
    found = walk(thaw=True)
    return {
        "objects": objects,
        "found": found,
        "seconds": time.perf_counter() - started,
        "cpu": time.thread_time() - started_cpu,
    }


async def _serve(data_dir: Path, collector: bool, store: str | None) -> None:
    """The server (on SQLite, or a node on the PostgreSQL `store`), with its collector off (a census of its garbage:
    `garbage`), or `collector` as `risc server` settles it (what its young walks froze: `frozen`; its whole walk,
    timed: `walk`)."""
    from server.app import RiscServer, settle_collector
    from server.config import ServerConfig

    config = ServerConfig(host="127.0.0.1", port=0, data_dir=data_dir, store=store, **LIFE_SETTINGS)
    loop = asyncio.get_running_loop()
    commands = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(commands), sys.stdin)
    async with RiscServer(config) as server:
        if collector:
            settle_collector()
        else:
            _collect()  # what the start left is not the life's
            gc.disable()
            gc.collect = _collect_nothing  # nor the server's own collections (its computers', memory given back)
        print(f"PORT {server.port}", flush=True)
        while line := (await commands.readline()).decode().split():
            if line[0] == "stop":
                break
            await quiet(server, int(line[1]))
            if line[0] == "garbage" and not collector:
                answer = take_garbage()
            elif line[0] == "frozen":
                answer = {"frozen": gc.get_freeze_count(), "tracked": len(gc.get_objects())}
            elif line[0] == "walk":
                answer = whole_walk()
            else:
                answer = {"error": f"no such command here: {line[0]}"}
            print(json.dumps(answer), flush=True)


# ---- the test's or the bench's side ------------------------------------------------------------------------------


@dataclass
class ServerApart:
    """The server in its own process (module docstring), as its test or bench sees it."""

    process: asyncio.subprocess.Process
    port: int
    log: Path

    @classmethod
    @contextlib.asynccontextmanager
    async def running(
        cls, code: Path = ROOT, collector: bool = False, store: str | None = None
    ) -> AsyncIterator[ServerApart]:
        """The server of checkout `code` (this one by default), its collector off, or as `risc server` settles it;
        on SQLite, or a node on the PostgreSQL `store`."""
        with tempfile.TemporaryDirectory(prefix="risc-cycles-") as data_dir:
            log = Path(data_dir) / "server.log"
            with log.open("w") as stderr:
                process = await asyncio.create_subprocess_exec(
                    sys.executable,
                    str(Path(__file__).resolve()),
                    data_dir,
                    str(code),
                    *(["--collector"] if collector else []),
                    *(["--store", store] if store else []),
                    cwd=code,
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=stderr,
                    limit=1 << 26,
                )
            try:
                assert process.stdout is not None
                line = (await process.stdout.readline()).decode()
                if not line.startswith("PORT "):
                    raise RuntimeError(f"the server did not start: {line!r}: {log.read_text()[-2000:]}")
                yield cls(process, int(line.split()[1]), log)
            finally:
                if process.returncode is None:
                    assert process.stdin is not None
                    process.stdin.write(b"stop\n")
                    try:
                        await asyncio.wait_for(process.wait(), 30)
                    except TimeoutError:
                        process.kill()
                        await process.wait()

    async def garbage(self, open_connections: int = 0) -> dict[str, Any]:
        """The census of the cyclic garbage the server made since the last one (its collector off), once at most
        `open_connections` of its connections are open (all the caller still holds: those it ended have ended)."""
        return await self._ask("garbage", open_connections)

    async def frozen(self, open_connections: int = 0) -> dict[str, Any]:
        """The objects the server's collector has frozen (`frozen`) and those it tracks besides (`tracked`)."""
        return await self._ask("frozen", open_connections)

    async def whole_walk(self, open_connections: int = 0) -> dict[str, Any]:
        """The server's collector's whole walk, now, timed (`objects`, `found`, `seconds`, `cpu`)."""
        return await self._ask("walk", open_connections)

    async def _ask(self, command: str, open_connections: int) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{command} {open_connections}\n".encode())
        await self.process.stdin.drain()
        line = await self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the server's process ended: {self.log.read_text()[-3000:]}")
        answer = dict(json.loads(line))
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer


def said(report: dict[str, Any], cycles: int = 12, kinds: int = 12) -> str:
    """A census in a few lines: the count, the cycles most objects were in, the most common types."""
    lines = [f"{report['found']:,} objects found"]
    lines += [f"  {c['count']:>6,} × {c['objects'] / c['count']:.0f} objects: {c['cycle']}" for c in report["cycles"]]
    del lines[1 + cycles :]
    lines += [f"  {count:>8,} {name}" for name, count in report["types"][:kinds]]
    return "\n".join(lines)


# ---- a server's ordinary life, lived against it ------------------------------------------------------------------


KINDS: dict[str, dict[str, Any]] = {
    "risc": {"ruleset": "risc", "map": "seed", "options": {"evolution": 1, "max_turns": 8}},
    "risc with fog": {"ruleset": "risc", "map": "seed", "options": {"evolution": 3, "max_turns": 8}},
    "warzone": {"ruleset": "warzone", "map": "seed", "options": {"max_turns": 8}},
    "classic": {"ruleset": "classic", "map": "seed", "options": {"max_turns": 4}},
    "grid": {"ruleset": "grid", "map": None, "options": {"max_turns": 4}},
}
"""Every rule set, each game short (a draw at its turn limit if nobody wins before)."""
TURN_SECONDS = 0.3
"""The time limit of a turn in the game whose one person never plays."""
RATING_CYCLES = "openskill.models.weng_lin.common"
"""Where the only cyclic garbage of a server's ordinary life is made: rating a game's end, openskill's nested
functions (compiled by mypyc) leave their closures' environments in cycles with the functions."""
RATED_GAME_GARBAGE = 8
"""The objects those cycles hold, a rated game (two cycles of three, and a list each)."""


@dataclass
class Life:
    """What a life did, counted."""

    games: int = 0
    connections: int = 0
    dropped: int = 0
    accounts: int = 0
    rated: int = 0
    """Rated games played to their end (each leaves a few objects of cyclic garbage: RATED_GAME_GARBAGE)."""
    problems: list[str] = field(default_factory=list)


_names = itertools.count(1)


def own_address(number: int) -> str:
    """A loopback address of its own for client `number`: what the server paces by address (a finished game's
    figures and replays) is then its alone."""
    return f"127.0.{number // 250 % 250 + 1}.{number % 250 + 1}"


async def a_life(port: int, games_per_kind: int = 1, at_once: int = 8) -> Life:
    """A server's ordinary life, every connection of it ended at the end. For each rule set: games of two people
    (network bots, one of whom loses its link mid-game and takes its seat back) and one of the server's computers,
    each created by a connection that leaves, watched by a spectator who says a word in its chat, to its end; and
    one game of computers alone. A game of a turn's time limit whose one person never plays. A rematch, and a
    replay. Lobby watchers, who list the rule sets and maps, one of whom speaks; accounts that sign up, play a game
    (resigned, its news a notice), ask its figures, sign in on a second device, sign out and in again; two
    accounts' rated game found by quick play, a nudge and a vacation in it; requests refused; a handshake cut
    short. Half the connections that end close cleanly, the others drop as a network failure would. `at_once`:
    games played at the same time."""
    from client.bot import NetworkBot
    from client.connection import Backoff
    from tests.server_support import Client, create_game, finished, join

    life = Life()
    quick = Backoff(first=0.05, most=0.2)
    gate = asyncio.Semaphore(at_once)
    url = f"ws://127.0.0.1:{port}"

    async def ended(client: Client, drop: bool) -> None:
        life.connections += 1
        if drop:
            life.dropped += 1
            client.ws.transport.abort()
            await client.closed.wait()
        else:
            await client.close()

    async def asked(client: Client, answer: str, **request: Any) -> None:
        reply = await client.request(**request)
        if reply["type"] != answer:
            life.problems.append(f"{request['type']}: {reply}")

    async def game(kind: str, number: int, computers: int) -> None:
        async with gate:
            settings = {**KINDS[kind], "players": 3, "bots": computers}
            creator = await Client.connect(port)
            game_id = await create_game(creator, **settings)
            spectator = await Client.connect(port)
            await asked(spectator, "watching", type="watch_game", game_id=game_id)
            await ended(creator, drop=number % 2 == 1)
            n = next(_names)
            bots = [NetworkBot(url, game_id, name=f"p{n}x{s}", seed=s, backoff=quick) for s in range(3 - computers)]
            playing = asyncio.gather(*(bot.run() for bot in bots))
            await spectator.wait_for(
                lambda m: m["type"] == "update" and spectator.summaries[game_id]["status"] != "lobby", timeout=120
            )
            await asked(spectator, "chat_sent", type="chat", game_id=game_id, text="good luck", name=f"fan{n}")
            if bots:
                await spectator.wait_for(
                    lambda m: m["type"] == "update" and spectator.summaries[game_id]["turn"] >= 1, timeout=120
                )
                if not playing.done():
                    await bots[0].connection.drop()
                    life.dropped += 1
            results = await asyncio.wait_for(playing, 300)
            problems = [e.message for bot in bots for e in bot.errors]
            if results != [0] * len(bots) or problems:
                life.problems.append(f"{kind} game {game_id}: {results} {problems}")
            await finished(spectator, game_id, timeout=300)
            await ended(spectator, drop=number % 2 == 0)
            life.games += 1
            life.connections += len(bots)

    async def timed() -> None:
        """A game of a turn's time limit whose one person never plays: each turn ends when its time runs out."""
        idle = await Client.connect(port)
        game_id = await create_game(
            idle, ruleset="risc", map="seed", players=3, bots=2, turn_seconds=TURN_SECONDS, options={"max_turns": 3}
        )
        await join(idle, game_id, f"idle{next(_names)}")
        await finished(idle, game_id, timeout=60)
        await ended(idle, drop=True)
        life.games += 1

    async def watcher(number: int) -> Client:
        client = await Client.connect(port)
        await asked(client, "games", type="list_games", watch=True, limit=50)
        await asked(client, "rulesets", type="list_rulesets")  # what a client asks before it offers a new game
        await asked(client, "maps", type="list_maps")
        if number == 0:
            await asked(client, "chat_sent", type="chat", game_id=None, text="anyone for a game?", name="watcher")
        return client

    async def account(number: int) -> None:
        n = next(_names)
        name, password = f"acct{n}", "correct horse battery"
        client = await Client.connect(port, source=own_address(n))
        signed = await client.request(type="sign_up", name=name, password=password)
        assert signed["type"] == "signed_in", signed
        game_id = await create_game(client, ruleset="risc", map="seed", players=3, bots=2, options={"max_turns": 3})
        await join(client, game_id, name)
        await client.wait_for(lambda m: m["type"] == "update" and client.summaries[game_id]["status"] != "waiting")
        await asked(client, "resigned", type="resign", game_id=game_id)
        await finished(client, game_id)
        await asked(client, "statistics", type="game_statistics", game_id=game_id)
        await asked(client, "my_games", type="my_games")
        again = await Client.connect(port, session=signed["session"])
        if again.welcome["account"] is None:
            life.problems.append(f"a session did not sign in: {again.welcome}")
        await ended(again, drop=number % 2 == 1)
        await asked(client, "signed_out", type="sign_out", everywhere=False)
        await client.closed.wait()  # the server closes a connection signed out
        life.connections += 1
        back = await Client.connect(port)
        await asked(back, "signed_in", type="sign_in", name=name, password=password)
        await ended(back, drop=number % 2 == 0)
        life.accounts += 1
        life.games += 1

    async def rematch() -> None:
        """Two people and a computer, the people resigned; both ask for a rematch, resign from it too, and look at
        the first game's replay."""
        n = next(_names)
        first, second = await Client.connect(port, source=own_address(n)), await Client.connect(port)
        game_id = await create_game(first, ruleset="risc", map="seed", players=3, bots=1, options={"max_turns": 3})
        await join(first, game_id, f"ann{n}")
        await join(second, game_id, f"bob{n}")

        async def resigned(playing: str) -> None:
            await first.wait_for(
                lambda m: m["type"] == "update" and first.summaries.get(playing, {}).get("status") == "playing"
            )
            for client in (first, second):
                await asked(client, "resigned", type="resign", game_id=playing)
            await finished(first, playing)

        await resigned(game_id)
        for client in (first, second):
            await asked(client, "rematch_pending", type="rematch", game_id=game_id)
        await resigned((await first.wait_type("resumed"))["game_id"])
        await asked(first, "replay", type="open_replay", game_id=game_id, sight=None)
        await asked(first, "replayed_turn", type="replay_turn", game_id=game_id, sight=None, index=1)
        await ended(first, drop=False)
        await ended(second, drop=True)
        life.games += 2

    async def quick_play() -> None:
        """Two accounts find each other in quick play (a rated game); one nudges, the other takes a vacation, and
        the first resigns; both look at the ratings."""
        n = next(_names)
        names = [f"quick{n}x{i}" for i in range(2)]
        players = [await Client.connect(port, source=own_address(n + i * 125)) for i in range(2)]
        for client, name in zip(players, names, strict=True):
            await asked(client, "signed_in", type="sign_up", name=name, password="correct horse battery")
        for client in players:
            await asked(client, "quick_play_waiting", type="quick_play", ruleset="risc", players=2, pace="live")
        game_id = (await players[0].wait_type("quick_play_found"))["game_id"]
        for client in players:
            await asked(client, "resumed", type="resume", game_id=game_id, token=None)
        await players[0].wait_for(
            lambda m: m["type"] == "update" and players[0].summaries[game_id]["status"] == "playing"
        )
        await asked(players[0], "nudged", type="nudge", game_id=game_id, player=names[1])
        await asked(players[1], "vacation", type="vacation", days=1)
        await asked(players[0], "resigned", type="resign", game_id=game_id)
        await finished(players[1], game_id)
        await asked(players[1], "game_ratings", type="game_ratings", game_id=game_id)
        await asked(players[0], "leaderboard", type="leaderboard", ruleset="risc")
        for number, client in enumerate(players):
            await ended(client, drop=number == 1)
        life.games += 1
        life.rated += 1
        life.accounts += 2

    async def refused() -> None:
        """A player whose requests are refused, each saying what is wrong: orders the rules refuse, the wrong turn,
        a game that is not there, settings no rule set has, a wrong password, a frame that is no JSON."""
        client = await Client.connect(port)
        game_id = await create_game(client, ruleset="risc", map="seed", players=3, bots=2, options={"max_turns": 3})
        await join(client, game_id, f"wrong{next(_names)}")
        await client.wait_for(lambda m: m["type"] == "update" and client.summaries[game_id]["status"] != "lobby")
        nowhere = {"kind": "place", "territory": "Nowhere", "units": 5}
        for code, request in [
            ("unknown-territory", {"type": "issue_order", "game_id": game_id, "turn": 0, "order": nowhere}),
            ("unknown-order", {"type": "issue_order", "game_id": game_id, "turn": 0, "order": {"kind": "fly"}}),
            ("wrong-turn", {"type": "commit", "game_id": game_id, "turn": 7}),
            ("no-such-game", {"type": "watch_game", "game_id": "zzzzzz"}),
            ("bad-settings", {"type": "create_game", "settings": {"ruleset": "risc", "options": {"evolution": 9}}}),
            ("bad-credentials", {"type": "sign_in", "name": "nobody", "password": "not the password"}),
        ]:
            reply = await client.request(**request)
            if reply.get("code") != code:
                life.problems.append(f"{request['type']}: {reply} rather than {code}")
        await client.send_raw("{no json")
        await client.wait_for(lambda m: m["type"] == "error" and m["code"] == "not-json")
        await asked(client, "resigned", type="resign", game_id=game_id)
        await finished(client, game_id)
        await ended(client, drop=False)
        life.games += 1

    async def cut_short() -> None:
        """A handshake cut short: half a request, then the connection drops."""
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        await writer.drain()
        writer.transport.abort()
        life.dropped += 1

    watchers = [await watcher(n) for n in range(2)]
    work = [game(kind, n, 1) for kind in KINDS for n in range(games_per_kind)]
    work += [game(kind, 0, 3) for kind in KINDS]
    work += [account(n) for n in range(2)]
    work += [timed(), cut_short(), rematch(), quick_play(), refused()]
    await asyncio.gather(*work)
    last = await Client.connect(port)  # a game created lets the finished ones go; left, it is closed at once
    game_id = await create_game(last, ruleset="risc", map="seed", players=3)
    await join(last, game_id, "Last")
    await asked(last, "left", type="leave_game", game_id=game_id)
    await ended(last, drop=False)
    for n, client in enumerate(watchers):
        await ended(client, drop=n % 2 == 1)
    return life


if __name__ == "__main__":  # DATA_DIR CODE [--collector] [--store DSN]: the server of checkout CODE
    sys.path.insert(0, sys.argv[2])
    from server.loop import choose_loop

    flags = sys.argv[3:]
    dsn = flags[flags.index("--store") + 1] if "--store" in flags else None
    with asyncio.Runner(loop_factory=choose_loop("auto").factory) as runner:  # the loop `risc server` runs
        runner.run(_serve(Path(sys.argv[1]), "--collector" in flags, dsn))
