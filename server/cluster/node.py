"""This server as one node of several sharing a PostgreSQL store: who plays each game, and what nodes tell each other.

A game is played by one node at a time, the one holding its advisory lock: a session-level lock
(pg_try_advisory_lock) held on a connection of the node's own, never a pooled one (a pool may reset a session, and
with it the locks). Claiming a game takes its lock, then raises its epoch (`UPDATE games SET epoch = epoch + 1`),
which every write of the store names: a node that froze, lost its session (and with it its locks) and woke up finds
its writes refused (OwnershipLost) and lets the game go. When a node dies, PostgreSQL ends its session and frees
its locks at once; its clients come back through any node, which claims the game from the store.

The same connection beats a heartbeat into `nodes` every second. A node whose heartbeat stops (frozen, or cut off
from the database while PostgreSQL still holds its session) is fenced by the others after `fence_after` seconds:
its session is terminated (pg_terminate_backend), which frees its locks. Every node also sweeps: games nobody holds
that play by themselves (a turn clock, or the server's own players) are claimed, so their time limits and computer
players go on when none of their clients is connected.

Nodes hear of rare events by LISTEN/NOTIFY on a connection of their own: a game created on any node (so that every
lobby can tell its watchers). Nothing else goes through it: every order stays with the node that owns its game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Coroutine
from typing import Any

from server.lobby.directory import Claimed, Elsewhere
from server.storage.postgres import LOBBY_CHANNEL, Epochs, PostgresStorage, lock_key
from server.tasks import BackgroundTasks

try:
    import psycopg
except ImportError:  # pragma: no cover
    psycopg = None  # type: ignore[assignment]

logger = logging.getLogger("risc.server")


REGISTER_TRIES = 30
"""Looks, 0.1 s apart, for the session of a node of the same id to end before this one is refused its id."""

GameHandler = Callable[[str], Coroutine[Any, Any, None]]
GamesHandler = Callable[[list[str]], Coroutine[Any, Any, None]]


class NodeIdTaken(Exception):
    """Another live node runs under this node's id."""


class Node:
    def __init__(
        self,
        store: PostgresStorage,
        epochs: Epochs,
        node_id: str,
        public_url: str,
        *,
        heartbeat: float = 1.0,
        fence_after: float = 15.0,
        sweep_every: float = 2.0,
    ) -> None:
        self.store = store
        self.epochs = epochs
        """The epoch of each game this node claimed, which the store's writes name."""
        self.node_id = node_id
        self.public_url = public_url
        self.heartbeat = heartbeat
        self.fence_after = fence_after
        self.sweep_every = sweep_every
        self.held: set[str] = set()
        """The games whose advisory lock this node holds (a session lock taken twice must be let go twice, so it
        is never taken twice)."""
        self._conn: Any = None
        self._conn_lock = asyncio.Lock()
        self._listener: Any = None
        self._tasks = BackgroundTasks()
        self._on_lost: GameHandler = _nothing
        self._on_created: GameHandler = _nothing
        self._on_orphans: GamesHandler = _nothing_list
        self._stopping = False
        self.peers: list[str] = [public_url]
        """Where the cluster's live nodes are reached, this one first, as last read (the sweeper reads it again)."""
        self.lost_sessions = 0
        """How many times this node lost its session (and every game with it)."""

    @property
    def application_name(self) -> str:
        return f"risc-node:{self.node_id}"[:63]

    # ---- starting and stopping ---------------------------------------------------------------------------------

    async def start(self, *, on_lost: GameHandler, on_created: GameHandler, on_orphans: GamesHandler) -> None:
        """Connect, register, and start beating, sweeping and listening. `on_lost(game_id)`: a game this node held
        is no longer its own; `on_created(game_id)`: a game was created on some node; `on_orphans(ids)`: games
        nobody holds that play by themselves, to claim."""
        self._on_lost, self._on_created, self._on_orphans = on_lost, on_created, on_orphans
        await self._connect()
        self.peers = await self.nodes() or [self.public_url]
        self._tasks.spawn(self._beat(), f"node {self.node_id}: the heartbeat failed")
        self._tasks.spawn(self._sweep(), f"node {self.node_id}: the sweeper failed")
        self._tasks.spawn(self._listen(), f"node {self.node_id}: listening failed")

    async def _connect(self) -> None:
        conn = await psycopg.AsyncConnection.connect(
            self.store.dsn, autocommit=True, application_name=self.application_name
        )
        try:
            await self._register(conn)
        except BaseException:
            await conn.close()
            raise
        self._conn = conn

    async def _register(self, conn: Any) -> None:
        for _ in range(REGISTER_TRIES):  # a node of this id that was just killed: its session ends in a moment
            row = await (
                await conn.execute(
                    "SELECT n.backend_pid FROM nodes n JOIN pg_stat_activity a ON a.pid = n.backend_pid "
                    "WHERE n.node_id = %s AND a.application_name = %s AND a.pid <> pg_backend_pid() "
                    "AND n.heartbeat > now() - make_interval(secs => %s)",
                    (self.node_id, self.application_name, self.fence_after),
                )
            ).fetchone()
            if row is None:
                break
            await asyncio.sleep(0.1)
        else:
            raise NodeIdTaken(
                f"node id {self.node_id} is in use by a running node (its database session "
                f"{row[0]}): give this one another --node-id"
            )
        await conn.execute(
            "INSERT INTO nodes (node_id, public_url, backend_pid, started_at, heartbeat) "
            "VALUES (%s, %s, pg_backend_pid(), now(), now()) ON CONFLICT (node_id) DO UPDATE SET "
            "public_url = excluded.public_url, backend_pid = excluded.backend_pid, started_at = now(), "
            "heartbeat = now()",
            (self.node_id, self.public_url),
        )

    async def stop(self) -> None:
        """Let go of every game and leave the cluster's list of nodes. The locks are let go of before the session
        closes: a closed session's locks go only once the database's backend process has ended, a moment later,
        and a player sent to another node as this one stops would meanwhile be told the game is still played here."""
        self._stopping = True
        await asyncio.gather(*self._tasks.cancel(), return_exceptions=True)
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.execute("SELECT pg_advisory_unlock_all()")
            with contextlib.suppress(Exception):
                await conn.execute(
                    "DELETE FROM nodes WHERE node_id = %s AND backend_pid = pg_backend_pid()", (self.node_id,)
                )
            with contextlib.suppress(Exception):
                await conn.close()
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.close()
        self.held.clear()
        self.epochs.clear()

    # ---- owning games ------------------------------------------------------------------------------------------

    async def _locked(self, query: str, params: tuple[Any, ...]) -> Any:
        """Run one statement on the node's own session; a session that is gone costs this node every game."""
        async with self._conn_lock:
            conn = self._conn
            if conn is None:
                raise ConnectionError("this node has no session with the database right now")
            try:
                return await (await conn.execute(query, params)).fetchone()
            except psycopg.OperationalError:
                await self._session_lost()
                raise

    async def claim_new(self, game_id: str) -> bool:
        """Take the lock of a game about to be created here; False if some node holds that id's lock already."""
        if game_id in self.held:
            return False
        row = await self._locked("SELECT pg_try_advisory_lock(%s)", (lock_key(game_id),))
        if not row[0]:
            return False
        self.held.add(game_id)
        taken = await self._locked("SELECT EXISTS (SELECT 1 FROM games WHERE game_id = %s)", (game_id,))
        if taken[0]:  # a game of that id exists, which nobody plays now: another id
            await self.release(game_id)
            return False
        return True

    async def claim(self, game_id: str) -> Claimed | Elsewhere | None:
        """Take a game over from the store: its lock, then a new epoch. None if there is no such game (or it was
        closed before it started: it is over for everyone)."""
        epoch = self.epochs.get(game_id)
        if game_id in self.held and epoch is not None:
            return Claimed()
        row = await self._locked("SELECT pg_try_advisory_lock(%s)", (lock_key(game_id),))
        if not row[0]:
            return Elsewhere(await self.owner_url(game_id))
        self.held.add(game_id)
        row = await self._locked(
            "UPDATE games SET epoch = epoch + 1, owner = %s WHERE game_id = %s AND NOT closed RETURNING epoch",
            (self.node_id, game_id),
        )
        if row is None:
            await self.release(game_id)
            return None
        self.epochs.hold(game_id, int(row[0]))
        logger.info("game %s: claimed by node %s (epoch %d)", game_id, self.node_id, row[0])
        return Claimed()

    async def release(self, game_id: str) -> None:
        """Let go of a game this node no longer plays (a finished game forgotten, a game lost)."""
        self.epochs.drop(game_id)
        if game_id not in self.held:
            return
        self.held.discard(game_id)
        with contextlib.suppress(ConnectionError, psycopg.Error):
            await self._locked("SELECT pg_advisory_unlock(%s)", (lock_key(game_id),))

    async def owner_url(self, game_id: str) -> str | None:
        """Where the node that last claimed the game is reached, if it is still a node of the cluster."""

        async def read(conn: Any) -> str | None:
            row = await (
                await conn.execute(
                    "SELECT n.public_url FROM games g JOIN nodes n ON n.node_id = g.owner WHERE g.game_id = %s "
                    "AND n.heartbeat > now() - make_interval(secs => %s)",
                    (game_id, self.fence_after),
                )
            ).fetchone()
            return None if row is None else str(row[0])

        result: str | None = await self.store.run(read)
        return result

    async def nodes(self) -> list[str]:
        """The public addresses of the cluster's nodes whose heartbeat is fresh, this one first."""

        async def read(conn: Any) -> list[str]:
            rows = await (
                await conn.execute(
                    "SELECT public_url FROM nodes WHERE heartbeat > now() - make_interval(secs => %s) "
                    "ORDER BY node_id <> %s, node_id",
                    (self.fence_after, self.node_id),
                )
            ).fetchall()
            return [str(r[0]) for r in rows]

        result: list[str] = await self.store.run(read)
        return result

    async def announce_created(self, game_id: str) -> None:
        """Tell every node's lobby (this one's too) that a game was created."""

        async def notify(conn: Any) -> None:
            await conn.execute("SELECT pg_notify(%s, %s)", (LOBBY_CHANNEL, game_id))

        await self.store.run(notify)

    # ---- keeping the session, fencing, sweeping ------------------------------------------------------------------

    async def _session_lost(self) -> None:
        """The node's session is gone (the database restarted, the link was cut, another node fenced this one): its
        locks went with it, so every game it held may be another node's by now."""
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
        self._conn = None
        if self._stopping:
            return
        self.lost_sessions += 1
        lost = sorted(self.held)
        self.held.clear()
        self.epochs.clear()
        logger.error(
            "node %s: its database session was lost; letting go of its %d game%s",
            self.node_id,
            len(lost),
            "s" * (len(lost) != 1),
        )
        for game_id in lost:  # not under the session's lock, which letting a game go may want
            self._tasks.spawn(self._on_lost(game_id), f"game {game_id}: letting it go failed")

    async def _beat(self) -> None:
        """Say every `heartbeat` seconds that this node lives; win a session back after losing it."""
        pause = self.heartbeat
        while not self._stopping:
            await asyncio.sleep(pause)
            if self._conn is None:
                try:
                    await self._connect()
                except NodeIdTaken:
                    raise
                except Exception as exc:
                    logger.warning("node %s: cannot reach the database (%s); trying again", self.node_id, exc)
                    pause = min(5.0, pause * 2)
                    continue
                logger.info("node %s: back on the database", self.node_id)
                pause = self.heartbeat
                continue
            with contextlib.suppress(ConnectionError, psycopg.Error):
                await self._locked(
                    "UPDATE nodes SET heartbeat = now(), backend_pid = pg_backend_pid() WHERE node_id = %s RETURNING 1",
                    (self.node_id,),
                )

    async def _sweep(self) -> None:
        while not self._stopping:
            await asyncio.sleep(self.sweep_every * random.uniform(0.75, 1.25))
            if self._conn is None:
                continue
            try:
                await self.fence()
                self.peers = await self.nodes() or [self.public_url]
                orphans = await self.orphans()
            except (psycopg.Error, ConnectionError) as exc:
                logger.warning("node %s: sweeping failed (%s)", self.node_id, exc)
                continue
            if orphans:
                await self._on_orphans(orphans)

    async def fence(self) -> list[str]:
        """End the sessions of nodes whose heartbeat stopped more than `fence_after` seconds ago, freeing their
        games; returns their ids."""

        async def fence(conn: Any) -> list[str]:
            rows = await (
                await conn.execute(
                    "SELECT n.node_id, pg_terminate_backend(a.pid) FROM nodes n JOIN pg_stat_activity a "
                    "ON a.pid = n.backend_pid AND a.application_name = 'risc-node:' || n.node_id "
                    "WHERE n.node_id <> %s AND n.heartbeat < now() - make_interval(secs => %s)",
                    (self.node_id, self.fence_after),
                )
            ).fetchall()
            return [str(r[0]) for r in rows]

        fenced: list[str] = await self.store.run(fence)
        for node_id in fenced:
            logger.warning(
                "node %s: fenced node %s, whose heartbeat stopped over %g s ago: its games are free",
                self.node_id,
                node_id,
                self.fence_after,
            )
        return fenced

    async def orphans(self, limit: int = 50) -> list[str]:
        """Games nobody holds the lock of that need a node: unfinished games that play by themselves (a turn clock,
        the server's players, a seat handed over), and games waiting for players, which close once nobody has sat in
        them for a while (a node that died left them, and they counted against their creator's address)."""

        async def read(conn: Any) -> list[str]:
            rows = await (
                await conn.execute(
                    "SELECT g.game_id FROM games g WHERE NOT g.closed AND (g.phase = 'lobby' "
                    "OR (g.phase = 'playing' AND (g.clocked OR g.handed_over))) "
                    "AND NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.database = "
                    "(SELECT oid FROM pg_database WHERE datname = current_database()) "
                    "AND l.classid = ((g.lock_key >> 32) & 4294967295)::oid "
                    "AND l.objid = (g.lock_key & 4294967295)::oid AND l.objsubid = 1) "
                    "ORDER BY random() LIMIT %s",
                    (limit,),
                )
            ).fetchall()
            return [str(r[0]) for r in rows if r[0] not in self.held]

        result: list[str] = await self.store.run(read)
        return result

    async def _listen(self) -> None:
        """Hear of games created on any node, reconnecting when the listening session drops."""
        while not self._stopping:
            try:
                self._listener = await psycopg.AsyncConnection.connect(
                    self.store.dsn, autocommit=True, application_name=f"{self.application_name}:listen"[:63]
                )
                await self._listener.execute(f"LISTEN {LOBBY_CHANNEL}")
                async for notice in self._listener.notifies():
                    await self._on_created(notice.payload)
            except psycopg.Error as exc:
                if self._stopping:
                    return
                logger.warning("node %s: listening for new games failed (%s); trying again", self.node_id, exc)
                await asyncio.sleep(1.0)
            finally:
                if self._listener is not None:
                    with contextlib.suppress(Exception):
                        await self._listener.close()
                    self._listener = None


async def _nothing(_: str) -> None:
    return None


async def _nothing_list(_: list[str]) -> None:
    return None
