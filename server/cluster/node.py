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
lobby can tell its watchers; `risc_lobby`, the game's id), and on `risc_cluster` (JSON): a node came or went (every
node reads the list of nodes again, which its welcome gives clients), games handed to a node by one that stops (it
takes them at once), and a word said in a lobby (every node's lobby hears it). Nothing else goes through it: every
order stays with the node that owns its game.

Every session a node opens is named for it in pg_stat_activity (`risc-node:ID`, its listening `risc-node:ID:listen`,
its pool's `risc-store:ID`), so that fencing a node ends all of them: a frozen node's open transaction would otherwise
hold its games' rows locked against the node taking them over.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

from server.cluster.hearing import Hearing
from server.lobby.directory import Claimed, Elsewhere
from server.storage.base import StorageError, StorageUnavailable
from server.storage.postgres import LOBBY_CHANNEL, Epochs, PostgresStorage, lock_key
from server.tasks import BackgroundTasks

try:
    import psycopg
except ImportError:  # pragma: no cover
    psycopg = None  # type: ignore[assignment]

logger = logging.getLogger("risc.server")


REGISTER_TRIES = 30
"""Looks, 0.1 s apart, for the session of a node of the same id to end before this one is refused its id."""

CLUSTER_CHANNEL = "risc_cluster"
"""LISTEN/NOTIFY channel of what nodes tell each other (JSON, a `kind` each): `nodes` (one came or went), `hand_off`
(games given to a node), `chat` (a word said in a lobby). Older nodes do not listen to it, and lose nothing by it: a
game handed to one is taken when its players come."""

HOLDER_DYING = (0.015, 0.03)
"""Pauses before a claim tries a held lock again, then names its holder: PostgreSQL ends a killed node's session 8 to
17 ms after the kill on this machine (its process must die first), and meanwhile its lock is still held: a player
sent there would find nobody. A redirect to a live node costs 45 ms more for it, once per player who joins through
another node."""

NOTIFY_IDS = 200
NOTICES_PAYLOAD = 7000
"""The most bytes of notifications one NOTIFY carries (PostgreSQL takes payloads under 8000 bytes)."""
"""Game ids per hand-off notice (a notice's payload must stay under PostgreSQL's 8000 bytes)."""

LISTEN_WAIT = 10.0
"""Seconds a starting node waits for its listening session before joining without it (it keeps trying)."""

GameHandler = Callable[[str], Coroutine[Any, Any, None]]
GamesHandler = Callable[[list[str]], Coroutine[Any, Any, None]]
ChatHandler = Callable[[str, str], Coroutine[Any, Any, None]]
NoticesHandler = Callable[[list[Any]], Coroutine[Any, Any, None]]
Handler = Callable[[], Coroutine[Any, Any, None]]


@dataclass(frozen=True)
class Member:
    """A live node of the cluster: its id and where its clients reach it."""

    node_id: str
    url: str


def session_name(prefix: str, node_id: str, suffix: str = "") -> str:
    """A session's application_name (PostgreSQL keeps 63 bytes of it; the SQL below cuts alike, with left())."""
    return f"{prefix}:{node_id}{suffix}"[:63]


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
        self._on_handed: GamesHandler = _nothing_list
        self._on_chat: ChatHandler = _nothing_chat
        self._on_notices: NoticesHandler = _nothing_list
        self._on_back: Handler = _nothing_back
        self._stopping = False
        self._leaving = False
        self.members: list[Member] = [Member(node_id, public_url)]
        """The cluster's live nodes, this one first, as last read: again whenever a node says it came or went, and
        by the sweeper."""
        self.lost_sessions = 0
        """How many times this node lost its session (and every game with it)."""

    @property
    def application_name(self) -> str:
        return session_name("risc-node", self.node_id)

    @property
    def peers(self) -> list[str]:
        """Where the cluster's live nodes are reached, this one first."""
        return [m.url for m in self.members] or [self.public_url]

    @property
    def alive(self) -> bool:
        """Whether this node holds its session (and so may hold games) now."""
        return self._conn is not None and not self._stopping

    # ---- starting and stopping ---------------------------------------------------------------------------------

    async def start(
        self,
        *,
        on_lost: GameHandler,
        on_created: GameHandler,
        on_orphans: GamesHandler,
        on_handed: GamesHandler,
        on_chat: ChatHandler,
        on_back: Handler,
        on_notices: NoticesHandler | None = None,
    ) -> None:
        """Listen, connect, register, say so to the other nodes, and start beating and sweeping. `on_lost(game_id)`:
        a game this node held is no longer its own; `on_created(game_id)`: a game was created on some node;
        `on_orphans(ids)`: games nobody holds that play by themselves, to claim; `on_handed(ids)`: games a stopping
        node gave this one, to take now; `on_chat(name, text)`: a word said in another node's lobby; `on_back()`:
        the node has its session again after losing it; `on_notices(told)`: notifications another node's games made,
        for this node's connections of their accounts."""
        self._on_lost, self._on_created, self._on_orphans = on_lost, on_created, on_orphans
        self._on_handed, self._on_chat, self._on_back = on_handed, on_chat, on_back
        self._on_notices = on_notices or _nothing_list
        listening = asyncio.Event()
        self._tasks.spawn(self._listen(listening), f"node {self.node_id}: listening failed")
        with contextlib.suppress(TimeoutError):  # listening first: no node that joins from here on is missed
            await asyncio.wait_for(listening.wait(), LISTEN_WAIT)
        await self._connect()
        await self._tell({"kind": "nodes"})
        self.members = await self.nodes()
        self._tasks.spawn(self._beat(), f"node {self.node_id}: the heartbeat failed")
        self._tasks.spawn(self._sweep(), f"node {self.node_id}: the sweeper failed")

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

    async def leave(self) -> list[Member]:
        """Leave the cluster's list of nodes as this node stops, saying so, so that no node sends clients here any
        more; returns the other live nodes, where this one's games may go."""
        self._leaving = True
        try:
            await self._locked(
                "DELETE FROM nodes WHERE node_id = %s AND backend_pid = pg_backend_pid() RETURNING 1", (self.node_id,)
            )
            await self._tell({"kind": "nodes"})
            return [m for m in await self.nodes() if m.node_id != self.node_id]
        except StorageError as exc:
            logger.warning(
                "node %s: cannot tell the others it stops (%s): its games go as a dead node's", self.node_id, exc
            )
            return []

    async def hand_off(self, games: dict[str, Member]) -> None:
        """Let go of these games at once, each told to the node that is to take it (a lock let go is a lock another
        node takes at once: nobody waits for this one's session to end)."""
        for game_id in games:
            self.epochs.drop(game_id)
        mine = [g for g in games if g in self.held]
        self.held.difference_update(mine)
        if mine:
            with contextlib.suppress(StorageError):
                await self._locked(
                    "SELECT count(pg_advisory_unlock(k)) FROM unnest(%s::bigint[]) AS k", ([lock_key(g) for g in mine],)
                )
        by_node: dict[str, list[str]] = {}
        for game_id, member in games.items():
            by_node.setdefault(member.node_id, []).append(game_id)
        for node_id, ids in by_node.items():
            for start in range(0, len(ids), NOTIFY_IDS):
                with contextlib.suppress(StorageError):
                    await self._tell({"kind": "hand_off", "to": node_id, "games": ids[start : start + NOTIFY_IDS]})

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
                await conn.execute("SELECT pg_notify(%s, %s)", (CLUSTER_CHANNEL, json.dumps({"kind": "nodes"})))
            with contextlib.suppress(Exception):
                await conn.close()
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.close()
        self.held.clear()
        self.epochs.clear()

    # ---- owning games ------------------------------------------------------------------------------------------

    async def _locked(self, query: str, params: tuple[Any, ...]) -> Any:
        """Run one statement on the node's own session; a session that is gone costs this node every game. Raises
        StorageUnavailable when there is no session (a change asked meanwhile is refused `storage-failed`, as any
        the store cannot keep)."""
        async with self._conn_lock:
            conn = self._conn
            if conn is None:
                raise StorageUnavailable("this node has no session with the database right now")
            try:
                return await (await conn.execute(query, params)).fetchone()
            except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
                await self._session_lost()
                raise StorageUnavailable(f"this node lost its session with the database ({exc})") from exc
            except psycopg.Error as exc:
                raise StorageError(f"the {self.store.where} failed: {exc}") from exc

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
        if not await self._try_lock(game_id):
            holder = await self.holder(game_id)
            return Elsewhere(holder.url if holder is not None and holder.node_id != self.node_id else None)
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

    async def _try_lock(self, game_id: str) -> bool:
        """Take a game's lock if nobody holds it; one held is tried again after a moment or two, since its holder
        may be a node just killed whose session ends in a moment (HOLDER_DYING)."""
        for pause in (*HOLDER_DYING, None):
            row = await self._locked("SELECT pg_try_advisory_lock(%s)", (lock_key(game_id),))
            if row[0]:
                return True
            if pause is not None:
                await asyncio.sleep(pause)
        return False

    async def release(self, game_id: str) -> None:
        """Let go of a game this node no longer plays (a finished game forgotten, a game lost)."""
        self.epochs.drop(game_id)
        if game_id not in self.held:
            return
        self.held.discard(game_id)
        with contextlib.suppress(StorageError):
            await self._locked("SELECT pg_advisory_unlock(%s)", (lock_key(game_id),))

    async def ping(self) -> bool:
        """Whether this node's session answers now (a session found gone costs the node its games at once)."""
        if not self.alive:
            return False
        try:
            await self._locked("SELECT 1", ())
        except StorageError:
            return False
        return True

    async def holder(self, game_id: str) -> Member | None:
        """The node whose session holds the game's lock now, if a node of the cluster does: what the lock says, not
        what the game's row last said (a node that claimed it may have died since, and another node may be
        claiming it now)."""
        key = lock_key(game_id)

        async def read(conn: Any) -> Member | None:
            row = await (
                await conn.execute(
                    "SELECT n.node_id, n.public_url FROM pg_locks l JOIN nodes n ON n.backend_pid = l.pid "
                    "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
                    "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
                    "AND l.classid::bigint = %s AND l.objid::bigint = %s",
                    ((key >> 32) & 0xFFFFFFFF, key & 0xFFFFFFFF),
                )
            ).fetchone()
            return None if row is None else Member(str(row[0]), str(row[1]))

        result: Member | None = await self.store.run(read)
        return result

    async def owner_url(self, game_id: str) -> str | None:
        """Where the node that plays the game now is reached, if another node does."""
        holder = await self.holder(game_id)
        return None if holder is None or holder.node_id == self.node_id else holder.url

    async def nodes(self) -> list[Member]:
        """The cluster's live nodes, this one first: those whose own session is open and whose heartbeat is fresh
        (a killed node's session ends with it, so it is left out at once; a frozen one until it is fenced)."""

        async def read(conn: Any) -> list[Member]:
            rows = await (
                await conn.execute(
                    "SELECT n.node_id, n.public_url FROM nodes n JOIN pg_stat_activity a ON a.pid = n.backend_pid "
                    "AND a.application_name = left('risc-node:' || n.node_id, 63) "
                    "WHERE n.heartbeat > now() - make_interval(secs => %s) ORDER BY n.node_id <> %s, n.node_id",
                    (self.fence_after, self.node_id),
                )
            ).fetchall()
            return [Member(str(r[0]), str(r[1])) for r in rows]

        result: list[Member] = await self.store.run(read)
        return result

    async def _refresh_members(self) -> None:
        with contextlib.suppress(StorageError):
            self.members = await self.nodes()

    async def announce_created(self, game_id: str) -> None:
        """Tell every node's lobby (this one's too) that a game was created."""

        async def notify(conn: Any) -> None:
            await conn.execute("SELECT pg_notify(%s, %s)", (LOBBY_CHANNEL, game_id))

        await self.store.run(notify)

    async def say(self, name: str, text: str) -> None:
        """Tell the other nodes' lobbies a word said in this one's."""
        await self._tell({"kind": "chat", "from": self.node_id, "name": name, "text": text})

    async def tell_notices(self, told: Sequence[dict[str, Any]]) -> None:
        """Tell the other nodes of notifications this one's games made, so that an account's connections there are
        told live too: in as few NOTIFYs as PostgreSQL's 8000-byte payload allows."""
        batch: list[dict[str, Any]] = []
        size = 0
        for one in told:
            length = len(json.dumps(one, ensure_ascii=False)) + 1
            if batch and size + length > NOTICES_PAYLOAD:
                await self._tell({"kind": "notices", "from": self.node_id, "notices": batch})
                batch, size = [], 0
            if length <= NOTICES_PAYLOAD:
                batch.append(one)
                size += length
        if batch:
            await self._tell({"kind": "notices", "from": self.node_id, "notices": batch})

    async def _tell(self, notice: dict[str, Any]) -> None:
        payload = json.dumps(notice, ensure_ascii=False)

        async def notify(conn: Any) -> None:
            await conn.execute("SELECT pg_notify(%s, %s)", (CLUSTER_CHANNEL, payload))

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
        self._tasks.spawn(self._let_go(lost), f"node {self.node_id}: letting its games go failed")

    async def _let_go(self, lost: list[str]) -> None:
        """Not under the session's lock, which letting a game go may want; the pool's dead connections replaced
        first (the database restarted, or fencing ended them too), so that asking who plays each game now works."""
        await self.store.check()
        for game_id in lost:
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
                with contextlib.suppress(StorageError):
                    await self._tell({"kind": "nodes"})
                await self._refresh_members()
                self._tasks.spawn(self._on_back(), f"node {self.node_id}: taking its games back failed")
                continue
            if self._leaving:
                continue  # its row is gone: nobody is to send clients here any more
            with contextlib.suppress(StorageError):
                await self._locked(
                    "UPDATE nodes SET heartbeat = now(), backend_pid = pg_backend_pid() WHERE node_id = %s RETURNING 1",
                    (self.node_id,),
                )

    async def _sweep(self) -> None:
        while not self._stopping:
            await asyncio.sleep(self.sweep_every * random.uniform(0.75, 1.25))
            if self._conn is None or self._leaving:
                continue
            try:
                await self.fence()
                self.members = await self.nodes()
                orphans = await self.orphans()
            except StorageError as exc:
                logger.warning("node %s: sweeping failed (%s)", self.node_id, exc)
                continue
            if orphans:
                await self._on_orphans(orphans)

    async def fence(self) -> list[str]:
        """End every session of the nodes whose heartbeat stopped more than `fence_after` seconds ago (their own,
        which frees their games, and their pools' and listening ones, which may hold their games' rows locked in a
        transaction left open); returns their ids."""

        async def fence(conn: Any) -> list[str]:
            rows = await (
                await conn.execute(
                    "SELECT n.node_id, pg_terminate_backend(a.pid) FROM nodes n JOIN pg_stat_activity a "
                    "ON a.datname = current_database() AND a.application_name IN (left('risc-node:' || n.node_id, 63), "
                    "left('risc-node:' || n.node_id || ':listen', 63), left('risc-store:' || n.node_id, 63)) "
                    "WHERE n.node_id <> %s AND n.heartbeat < now() - make_interval(secs => %s)",
                    (self.node_id, self.fence_after),
                )
            ).fetchall()
            return sorted({str(r[0]) for r in rows})

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

    async def _listen(self, listening: asyncio.Event) -> None:
        """Hear what other nodes tell, reconnecting when the listening session drops (and reading the list of nodes
        again then: a node may have come or gone meanwhile)."""
        while not self._stopping:
            try:
                self._listener = await psycopg.AsyncConnection.connect(
                    self.store.dsn, autocommit=True, application_name=session_name("risc-node", self.node_id, ":listen")
                )
                hearing = Hearing(self._listener)
                await self._listener.execute(f"LISTEN {LOBBY_CHANNEL}")
                await self._listener.execute(f"LISTEN {CLUSTER_CHANNEL}")
                with hearing:
                    if listening.is_set():
                        await self._refresh_members()
                    listening.set()
                    while True:
                        await self._heard(*await hearing.next())
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

    async def _heard(self, channel: str, payload: str) -> None:
        if channel == LOBBY_CHANNEL:
            await self._on_created(payload)
            return
        try:
            notice = json.loads(payload)
            kind = notice["kind"]
        except (ValueError, KeyError, TypeError):
            return
        if kind == "nodes":
            self._tasks.spawn(self._refresh_members(), f"node {self.node_id}: reading the nodes failed")
        elif kind == "hand_off" and notice.get("to") == self.node_id and not self._leaving and not self._stopping:
            games = [g for g in notice.get("games", []) if isinstance(g, str)]
            self._tasks.spawn(self._on_handed(games), f"node {self.node_id}: taking handed games failed")
        elif kind == "notices" and notice.get("from") != self.node_id and isinstance(notice.get("notices"), list):
            await self._on_notices(notice["notices"])
        elif kind == "chat" and notice.get("from") != self.node_id:
            name, text = notice.get("name"), notice.get("text")
            if isinstance(name, str) and isinstance(text, str):
                await self._on_chat(name, text)


async def _nothing(_: str) -> None:
    return None


async def _nothing_list(_: Sequence[str]) -> None:
    return None


async def _nothing_chat(_: str, __: str) -> None:
    return None


async def _nothing_back() -> None:
    return None
