"""The attacks of issues 19 and 27 against a real server on 127.0.0.1, and what each cost the server.

Run by hand: `python bench/attack.py [--only NAME] [--source DIR]`. Each attack starts a server process
(`python -m server` from --source, this checkout by default, so the same attacks can be run against an older
release), runs against it for a bounded number of tries and seconds, and prints one row: tries, refused, crashes
(tracebacks in the server's log), state changes the attacker made, bystanders disturbed (two players in a game of
their own and a spectator, who keep playing meanwhile), the server's memory (resident, peak and after) and time.
Only loopback traffic; every attack is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import sqlite3
import stat
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from websockets.exceptions import ConnectionClosed

from bench.map_attack import SHAPES
from shared.protocol.codes import PROTOCOL_VERSION
from tests.security_support import RawClient, client_frame
from tests.server_support import Client

ROOT = Path(__file__).resolve().parents[1]
MIB = 1024 * 1024
ANSWER_WAIT = 120.0
"""The longest an attack waits for one answer."""


@dataclass
class Row:
    attack: str
    tries: int = 0
    refused: int = 0
    crashes: int = 0
    changes: str = "none"
    disturbed: str = "none"
    memory: str = ""
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


STARTED: list[ServerProcess] = []
"""Every server started, so that one left running by an attack that failed is ended."""


class ServerProcess:
    """A server process on 127.0.0.1, its log kept, its memory sampled."""

    def __init__(self, source: Path, data: Path | None, *args: str, env: dict[str, str] | None = None) -> None:
        self.source = source
        self.args = ["--data-dir", str(data)] if data is not None else ["--memory"]
        self.args += list(args)
        self.env = {**os.environ, "PYTHONPATH": str(source), **(env or {})}
        self.log: list[str] = []
        self.port = 0
        self.peak = 0
        self.process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._sampler: asyncio.Task[None] | None = None

    async def start(self) -> ServerProcess:
        STARTED.append(self)
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "server",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            *self.args,
            cwd=self.source,
            env=self.env,
            stderr=asyncio.subprocess.PIPE,
        )
        assert self.process.stderr is not None
        while not self.port:
            line = (await asyncio.wait_for(self.process.stderr.readline(), 60)).decode()
            if not line:
                raise RuntimeError("the server exited: " + "".join(self.log[-5:]))
            self.log.append(line)
            found = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
            if found:
                self.port = int(found.group(1))
        self._reader = asyncio.get_running_loop().create_task(self._read_log())
        self._sampler = asyncio.get_running_loop().create_task(self._sample())
        return self

    async def _read_log(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        while line := await self.process.stderr.readline():
            self.log.append(line.decode(errors="replace"))

    async def _sample(self) -> None:
        while True:
            self.peak = max(self.peak, self.rss())
            await asyncio.sleep(0.02)

    def rss(self) -> int:
        assert self.process is not None
        try:
            text = Path(f"/proc/{self.process.pid}/status").read_text()
        except OSError:
            return 0
        found = re.search(r"VmRSS:\s+(\d+) kB", text)
        return int(found.group(1)) * 1024 if found else 0

    def cpu(self) -> float:
        assert self.process is not None
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def crashes(self) -> int:
        return sum("Traceback" in line for line in self.log)

    def lines(self, text: str) -> int:
        return sum(text in line for line in self.log)

    async def stop(self) -> float:
        """SIGTERM; the seconds until the process ended."""
        assert self.process is not None
        started = time.monotonic()
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), 300)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        for task in (self._sampler, self._reader):
            if task is not None:
                task.cancel()
        with contextlib.suppress(asyncio.CancelledError, TypeError):
            await asyncio.gather(*(t for t in (self._sampler, self._reader) if t is not None))
        return time.monotonic() - started


class Bystanders:
    """Two players in a game of their own and a spectator of it, playing on while an attack runs."""

    def __init__(self, port: int, password: str | None = None) -> None:
        self.port = port
        self.password = password
        self.clients: list[Client] = []
        self.game_id = ""
        self.failures = 0

    async def start(self) -> Bystanders:
        ann, bob, watcher = [await Client.connect(self.port, password=self.password) for _ in range(3)]
        self.clients = [ann, bob, watcher]
        reply = await ann.request(type="create_game", settings={"map": "seed", "players": 2})
        self.game_id = reply["game"]["game_id"]
        for client, name in ((ann, "ann"), (bob, "bob")):
            await client.request(type="join_game", game_id=self.game_id, name=name)
        await watcher.request(type="watch_game", game_id=self.game_id)
        return self

    async def check(self) -> str:
        """'none' if every bystander is still connected and answered, else what went wrong; with the slowest
        answer's time when it passed a second."""
        problems = []
        slowest = 0.0
        for index, client in enumerate(self.clients):
            if client.closed.is_set():
                problems.append(f"bystander {index} disconnected ({client.ws.close_code})")
                continue
            asked = time.monotonic()
            ref = f"check-{asked}"
            try:
                await client.send(type="list_games", ref=ref)
                reply = await client.wait_for(lambda m, ref=ref: m.get("ref") == ref, timeout=60, from_start=True)
                if reply["type"] != "games":
                    problems.append(f"bystander {index} got {reply.get('code')}")
            except AssertionError as exc:
                problems.append(f"bystander {index}: {exc}"[:80])
            slowest = max(slowest, time.monotonic() - asked)
        if slowest > 1:
            problems.append(f"answered in {slowest:.1f} s")
        return "; ".join(problems) or "none"

    async def close(self) -> None:
        for client in self.clients:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), 3)


def mib(size: int) -> str:
    return f"{size / MIB:.0f} MiB"


async def finish(row: Row, started: float, server: ServerProcess, bystanders: Bystanders | None = None) -> None:
    """The end of an attack: its time, the bystanders' state, the server stopped, its crashes and peak memory."""
    row.seconds = time.monotonic() - started
    if bystanders is not None:
        row.disturbed = await bystanders.check()
        await bystanders.close()
    await server.stop()
    row.crashes = server.crashes()
    row.memory = f"peak {mib(server.peak)}"


# ---- the attacks --------------------------------------------------------------------------------------------------


async def slow_readers(source: Path, folder: Path, clients: int = 300, requests: int = 400) -> Row:
    """Clients that ask for the game list again and again and never read the answers (issue 19: 2.4 GB)."""
    row = Row("exhaustion: clients that stop reading")
    server = await ServerProcess(source, None).start()
    setup = await Client.connect(server.port)
    for _ in range(40):  # a list of 40 games: each answer is some 25 KB
        await setup.request(type="create_game", settings={"map": "seed"})
    size = len(json.dumps(await setup.request(type="list_games")))
    await setup.close()
    bystanders = await Bystanders(server.port).start()
    before = server.rss()
    started = time.monotonic()
    stalled = []
    for _ in range(clients):
        client, _ = await RawClient.connect(server.port)
        await client.send(type="hello", protocol=PROTOCOL_VERSION)
        stalled.append(client)
    for client in stalled:
        with contextlib.suppress(ConnectionError):
            await client.send_many([{"type": "list_games"}] * requests)
    await asyncio.sleep(5)  # the server answers what it can; the slow readers are closed or hold their caps
    row.seconds = time.monotonic() - started
    row.disturbed = await bystanders.check()
    during = server.rss()
    for client in stalled:
        client.abort()
    await asyncio.sleep(6)  # the server's trim comes 2 s after the last slow reader's socket is closed
    after = server.rss()
    row.tries = clients * requests
    row.refused = server.lines("reads too slowly")
    row.crashes = server.crashes()
    row.memory = f"{mib(before)} before, peak {mib(server.peak)}, {mib(during)} at the end, {mib(after)} after"
    row.notes.append(f"each answer {size} bytes; {row.refused} of {clients} connections closed as too slow")
    await bystanders.close()
    await server.stop()
    return row


async def crafted_maps(source: Path, folder: Path) -> Row:
    """Games asked on crafted map files (each shape at 1 MiB, and a 5.5 MB file), then a stop at once."""
    row = Row("exhaustion: crafted map files")
    paths = []
    for name, (suffix, make) in SHAPES.items():
        path = folder / f"{name.split(':')[0]}-{len(paths)}{suffix}"
        path.write_text(make(MIB), encoding="utf-8")
        paths.append(path)
    big = folder / "big.map"
    big.write_text(SHAPES["domination: no borders at all"][1](int(5.5 * MIB)), encoding="utf-8")
    paths.append(big)
    server = await ServerProcess(source, None).start()
    bystanders = await Bystanders(server.port).start()
    client = await Client.connect(server.port)
    cpu, started, slowest = server.cpu(), time.monotonic(), 0.0
    unanswered = 0
    for index, path in enumerate(paths):
        asked = time.monotonic()
        row.tries += 1
        try:
            await client.send(type="create_game", settings={"map": str(path)}, ref=f"map-{index}")
            reply = await client.wait_for(
                lambda m, ref=f"map-{index}": m.get("ref") == ref, timeout=ANSWER_WAIT, from_start=True
            )
        except (AssertionError, ConnectionClosed):  # still reading it (the next would wait behind it), or gone
            unanswered += 1
            slowest = max(slowest, time.monotonic() - asked)
            if client.closed.is_set():
                row.notes.append(
                    f"the attacker's connection was closed ({client.ws.close_code}, "
                    f"{client.ws.close_reason or 'no reason'})"
                )
            break
        slowest = max(slowest, time.monotonic() - asked)
        row.refused += int(reply["type"] == "error")
    row.seconds = time.monotonic() - started
    cpu = server.cpu() - cpu
    row.disturbed = await bystanders.check()
    # A stop asked while a crafted map is being read: how long until the process ends.
    with contextlib.suppress(ConnectionClosed):
        await client.send(type="create_game", settings={"map": str(paths[4])}, ref="last")
    await asyncio.sleep(0.05)
    stopped = await server.stop()
    row.crashes = server.crashes()
    row.memory = f"peak {mib(server.peak)}"
    if unanswered:
        row.notes.append(f"no answer within {ANSWER_WAIT:g} s to the file {row.tries}, the attack stopped there")
    row.notes.append(
        f"{cpu:.1f} s of server CPU; slowest answer {slowest:.2f} s; stopped "
        f"{stopped:.1f} s after SIGTERM during a read"
    )
    return row


async def password_guesses(source: Path, folder: Path, seconds: float = 20.0, parallel: int = 50) -> Row:
    """Wrong passwords from one address as fast as they are answered, on many connections at once."""
    row = Row("exhaustion: password guessing")
    server = await ServerProcess(source, None, "--password", "right horse battery").start()
    bystanders = await Bystanders(server.port, "right horse battery").start()
    end = time.monotonic() + seconds
    tested = 0
    started = time.monotonic()

    async def guesser() -> None:
        nonlocal tested
        while time.monotonic() < end:
            client = await Client.connect(server.port, hello=False)
            try:
                hello = client.request(type="hello", protocol=PROTOCOL_VERSION, password="guess")
                reply = await asyncio.wait_for(hello, max(0.1, end - time.monotonic()))
                row.tries += 1
                row.refused += int(reply["type"] == "error")
                tested += "too many" not in str(reply.get("message"))
            except (TimeoutError, AssertionError):
                pass
            finally:
                client.ws.transport.abort()

    await asyncio.gather(*(guesser() for _ in range(parallel)))
    await finish(row, started, server, bystanders)
    row.notes.append(
        f"{tested} passwords tested ({tested / row.seconds:.1f} a second); "
        f"{server.lines('wrong password')} log lines about them"
    )
    return row


async def foreign_origins(source: Path, folder: Path, tries: int = 200) -> Row:
    """WebSocket handshakes as a web page of another site makes them."""
    row = Row("trust: handshakes from other origins")
    server = await ServerProcess(source, None).start()
    bystanders = await Bystanders(server.port).start()
    started = time.monotonic()
    origins = ["http://evil.example", "null", f"http://127.0.0.1:{server.port + 1}", "https://127.0.0.1.evil.example"]
    for index in range(tries):
        _, head = await RawClient.connect(server.port, headers={"Origin": origins[index % len(origins)]})
        row.tries += 1
        row.refused += head.startswith("HTTP/1.1 403")
    _, head = await RawClient.connect(server.port, headers={"Origin": f"http://127.0.0.1:{server.port}"})
    row.notes.append(f"the server's own origin: {head.split(chr(13))[0]}")
    await finish(row, started, server, bystanders)
    return row


async def look_alike_names(source: Path, folder: Path) -> Row:
    """Names beside a seated "ann" that look like it or show nothing, in a game with free seats."""
    row = Row("trust: look-alike and invisible names")
    server = await ServerProcess(source, None).start()
    started = time.monotonic()
    owner = await Client.connect(server.port)
    reply = await owner.request(type="create_game", settings={"map": "seed", "players": 5})
    game_id = reply["game"]["game_id"]
    await owner.request(type="join_game", game_id=game_id, name="ann")
    for name in ["ann\u200d", "аnn", "ａnn", "ANN", "\u3164", "ann\u2800", "ΑΝΝ", "\u202eann", "an\u00adn"]:
        client = await Client.connect(server.port)
        reply = await client.request(type="join_game", game_id=game_id, name=name)
        row.tries += 1
        row.refused += int(reply["type"] == "error")
    seats = [s["name"] for s in (await owner.request(type="list_games"))["games"][0]["seats"]]
    row.changes = f"{len(seats) - 1} look-alike seats taken: " + ", ".join(repr(s) for s in seats[1:])
    await finish(row, started, server)
    return row


async def deep_frames(source: Path, folder: Path, tries: int = 50) -> Row:
    """Deeply nested frames, after a burst past the rate limit and on their own."""
    row = Row("faults: deeply nested frames")
    server = await ServerProcess(source, None).start()
    bystanders = await Bystanders(server.port).start()
    started = time.monotonic()
    deep = '{"type": "list_games", "ref": ' + "[" * 30_000 + "]" * 30_000 + "}"  # under the 64 KiB limit
    kept = 0
    codes: dict[str, int] = {}
    for index in range(tries):
        client, _ = await RawClient.connect(server.port, small_buffer=False)
        await client.send(type="hello", protocol=PROTOCOL_VERSION)
        await client.read_frame()
        if index % 2:  # past the rate limit first (by 5: 10 refused frames close a connection, by design)
            await client.send_many([{"type": "list_games"}] * 205)
        client.writer.write(client_frame(deep))
        await client.writer.drain()
        got_error = False
        with contextlib.suppress(TimeoutError, asyncio.IncompleteReadError, ConnectionError):
            while True:
                opcode, payload = await client.read_frame(timeout=5)
                if opcode == 0x8:
                    break
                message = json.loads(payload)
                if not got_error and message["type"] == "error" and message.get("request") is None:
                    got_error = True  # the deep frame's answer (its ref could not be read), whatever its code
                    codes[message.get("code")] = codes.get(message.get("code"), 0) + 1
                    await client.send(type="list_games", ref="after")
                elif message.get("ref") == "after":
                    kept += 1
                    break
        row.tries += 1
        row.refused += got_error
        client.abort()
    await finish(row, started, server, bystanders)
    row.notes.append(
        f"{kept} of {tries} connections still served after the deep frame; answers: "
        + (", ".join(f"{count} {code}" for code, count in sorted(codes.items())) or "none")
    )
    return row


async def bad_passwords_at_start(source: Path, folder: Path) -> Row:
    """`--password ""`, and a RISC_PASSWORD that is not UTF-8."""
    row = Row("faults: passwords no client can give")
    started = time.monotonic()
    for args, env in ((["--password", ""], None), ([], {"RISC_PASSWORD": "caf\udce9"})):
        environment = {**os.environ, "PYTHONPATH": str(source)}
        environment.pop("RISC_PASSWORD", None)
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "server",
            "--memory",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            *args,
            cwd=source,
            stderr=asyncio.subprocess.PIPE,
            env={k: v.encode("utf-8", "surrogateescape") for k, v in {**environment, **(env or {})}.items()},
        )
        try:
            assert process.stderr is not None
            line = (await asyncio.wait_for(process.stderr.readline(), 20)).decode(errors="replace")
        finally:
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
            await process.wait()
        row.tries += 1
        row.refused += "cannot start" in line
        row.notes.append(line.strip()[20:120])
    row.seconds = time.monotonic() - started
    return row


def damage(database: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(database)) as db, db:
        games = [g for (g,) in db.execute("SELECT game_id FROM games WHERE phase != 'finished' ORDER BY rowid")]
        db.execute("UPDATE games SET progress = '{\"seats\": [' WHERE game_id = ?", (games[0],))
        db.execute(
            "INSERT INTO pending_orders (game_id, player, turn, position, body) VALUES (?, 'ann', 9, 0, '{}')",
            (games[1],),
        )
        db.execute("UPDATE games SET map_key = 'gone' WHERE game_id = ?", (games[2],))
    return games[:3]


async def damaged_games(source: Path, folder: Path, games: int = 50) -> Row:
    """One store, three damaged games among many: does the server start, with what?"""
    row = Row("faults: damaged game rows")
    data = folder / "damaged"
    server = await ServerProcess(source, data).start()
    client = await Client.connect(server.port)
    for _ in range(games):
        reply = await client.request(type="create_game", settings={"map": "seed"})
        await client.request(type="join_game", game_id=reply["game"]["game_id"], name="ann")
    await client.close()
    await server.stop()
    damaged = damage(data / "games.sqlite3")
    started = time.monotonic()
    server = ServerProcess(source, data)
    try:
        await server.start()
        client = await Client.connect(server.port)
        listed = len((await client.request(type="list_games"))["games"])
        await client.close()
        row.changes = f"{listed} games restored"
        await server.stop()
    except RuntimeError:
        row.changes = "the server did not start"
    row.seconds = time.monotonic() - started
    row.tries = len(damaged)
    row.refused = sum(f"game {g} set aside" in "".join(server.log) for g in damaged)
    row.crashes = server.crashes()
    row.notes += [line.strip()[20:200] for line in server.log if "listening" in line]
    return row


async def read_only_store(source: Path, folder: Path) -> Row:
    """A database the server cannot write."""
    row = Row("faults: read-only database")
    data = folder / "read-only"
    server = await ServerProcess(source, data).start()
    client = await Client.connect(server.port)
    await client.request(type="create_game", settings={"map": "seed"})
    await client.close()
    await server.stop()
    database = data / "games.sqlite3"
    header = bytearray(database.read_bytes())
    header[18] = 3  # read-only to SQLite itself, as chmod does not bind root
    database.write_bytes(bytes(header))
    database.chmod(stat.S_IRUSR)
    started = time.monotonic()
    server = ServerProcess(source, data)
    try:
        await server.start()
        client = await Client.connect(server.port)
        reply = await client.request(type="create_game", settings={"map": "seed"})
        row.tries, row.refused = 1, int(reply["type"] == "error")
        row.changes = f"started; create_game answered {reply.get('code') or reply['type']}"
        await client.close()
        await server.stop()
    except RuntimeError:
        row.tries, row.refused = 1, 1
        row.changes = "refused at start"
        row.notes.append("".join(server.log).strip()[20:200])
    row.crashes = server.crashes()
    row.seconds = time.monotonic() - started
    return row


async def deleted_store(source: Path, folder: Path, changes: int = 20) -> Row:
    """The database deleted while the server runs, then changes asked."""
    row = Row("faults: database deleted while running")
    data = folder / "deleted"
    server = await ServerProcess(source, data).start()
    client = await Client.connect(server.port)
    reply = await client.request(type="create_game", settings={"map": "seed", "players": 5})
    game_id = reply["game"]["game_id"]
    await client.request(type="join_game", game_id=game_id, name="ann")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{data / 'games.sqlite3'}{suffix}").unlink(missing_ok=True)
    started = time.monotonic()
    for index in range(changes):
        other = await Client.connect(server.port)
        reply = await other.request(type="join_game", game_id=game_id, name=f"p{index}")
        row.tries += 1
        row.refused += int(reply["type"] == "error")
        if reply["type"] == "joined":
            await other.request(type="leave_game", game_id=game_id)
        await other.close()
    row.seconds = time.monotonic() - started
    await client.close()
    await server.stop()
    row.crashes = server.crashes()
    told = server.lines("every change is refused")
    rescued = [p.name for p in data.iterdir() if ".rescued-" in p.name]
    row.changes = f"{row.tries - row.refused} changes acknowledged that no file keeps"
    row.notes.append(f"told once: {told} line(s); rescued copy: {', '.join(rescued) or 'none'}")
    return row


async def backup_while_playing(source: Path, folder: Path, games: int = 200) -> Row:
    """`risc backup` while the server plays on."""
    row = Row("operations: backup beside a running server")
    data = folder / "backup-data"
    server = await ServerProcess(source, data).start()
    client = await Client.connect(server.port)
    for _ in range(games):
        reply = await client.request(type="create_game", settings={"map": "seed"})
        await client.request(type="join_game", game_id=reply["game"]["game_id"], name="ann")
    bystanders = await Bystanders(server.port).start()

    async def play_on() -> None:
        for index in range(100):
            reply = await client.request(type="create_game", settings={"map": "seed"})
            await client.request(type="join_game", game_id=reply["game"]["game_id"], name=f"p{index}")

    dest = folder / "backup.sqlite3"
    started = time.monotonic()
    playing = asyncio.get_running_loop().create_task(play_on())
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "risc",
        "backup",
        str(dest),
        "--data-dir",
        str(data),
        cwd=source,
        env={**os.environ, "PYTHONPATH": str(source)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate()
    row.seconds = time.monotonic() - started
    await playing
    row.disturbed = await bystanders.check()
    await bystanders.close()
    await client.close()
    await server.stop()
    row.tries = 1
    if process.returncode == 0 and dest.exists():
        with contextlib.closing(sqlite3.connect(dest)) as db:
            held = db.execute("SELECT count(*) FROM games").fetchone()[0]
            check = db.execute("PRAGMA integrity_check").fetchone()[0]
        row.changes = f"backup holds {held} games, integrity {check}"
    else:
        row.changes = f"backup failed: {(out + err).decode()[:120]}"
    row.crashes = server.crashes()
    row.notes.append(out.decode().strip()[:160])
    return row


ATTACKS: dict[str, Callable[[Path, Path], Awaitable[Row]]] = {
    "slow": slow_readers,
    "maps": crafted_maps,
    "passwords": password_guesses,
    "origins": foreign_origins,
    "names": look_alike_names,
    "deep": deep_frames,
    "start-passwords": bad_passwords_at_start,
    "damaged": damaged_games,
    "read-only": read_only_store,
    "deleted": deleted_store,
    "backup": backup_while_playing,
}


async def main() -> None:
    from bench.attack_word import WORD_ATTACKS  # they use this module's servers and bystanders
    from bench.attack_word2 import WORD2_ATTACKS

    ATTACKS.update(WORD_ATTACKS)
    ATTACKS.update(WORD2_ATTACKS)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="a comma-separated list of: " + ", ".join(ATTACKS))
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout whose server is attacked")
    args = parser.parse_args()
    chosen = [name for name in ATTACKS if not args.only or name in args.only.split(",")]
    for name in chosen:
        folder = Path(tempfile.mkdtemp(prefix=f"risc-attack-{name}-"))
        try:
            row = await ATTACKS[name](args.source.resolve(), folder)
        except Exception as exc:  # an attack that cannot run against this source says so and the others go on
            print(f"{name}: could not run ({type(exc).__name__}: {exc})", flush=True)
            continue
        finally:
            for server in STARTED:
                if server.process is not None and server.process.returncode is None:
                    server.process.kill()
                    await server.process.wait()
            STARTED.clear()
            for path in folder.rglob("*"):
                with contextlib.suppress(OSError):
                    path.chmod(0o700)
            shutil.rmtree(folder, ignore_errors=True)
        print(
            f"| {row.attack} | {row.tries} | {row.refused} | {row.crashes} | {row.changes} | {row.disturbed} | "
            f"{row.memory} | {row.seconds:.1f} s | {'; '.join(row.notes)} |",
            flush=True,
        )


if __name__ == "__main__":
    asyncio.run(main())
