"""Where each game is played on a server of several nodes sharing a PostgreSQL store (server/lobby/directory.py's
interface): the node that holds the game's lock plays it (server/cluster/node.py), the lobby lists every game of the
store, an id's start names any game of the store, and what an address holds is counted across the nodes."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from server.cluster.network import default_public_url
from server.cluster.node import Member, Node
from server.lobby.directory import Claimed, Directory, Elsewhere, Held, Hooks, waits
from server.matchmaking.postgres_queue import PostgresQueue
from server.matchmaking.queue import QueueStore
from server.storage.base import RestoredGame
from server.storage.postgres import PostgresStorage
from shared.protocol.lobby import GameSummary

logger = logging.getLogger("risc.server")


class ClusterDirectory(Directory):
    def __init__(self, store: PostgresStorage, node: Node) -> None:
        """`node`: this server as a node of the cluster, on the same store."""
        self.store = store
        self.node = node
        self._hooks: Hooks | None = None
        self._others: list[Member] = []
        """The live nodes this one's games may go to as it stops."""

    @property
    def own_url(self) -> str:
        return self.node.public_url

    def describe(self) -> str:
        return f"node {self.node.node_id} of the games in the {self.store.where}"

    def listening(self, host: str, port: int) -> None:
        """Where this node is reached, unless it was told (--public-url): this machine's address and the port."""
        if not self.node.public_url:
            self.node.public_url = default_public_url(host, port)

    @property
    def peers(self) -> list[str]:
        return self.node.peers

    @property
    def node_name(self) -> str:
        return self.node.node_id

    def queue(self) -> QueueStore:
        """The queue every node shares, in the store."""
        return PostgresQueue(self.store, self.node.fence_after)

    async def start(self, hooks: Hooks) -> list[RestoredGame]:
        """Join the cluster; no game is played from the start: each is claimed when a client asks for it, or by the
        sweeper when it plays by itself."""
        self._hooks = hooks
        await self.node.start(
            on_lost=hooks.lost,
            on_created=self._created,
            on_orphans=hooks.orphans,
            on_handed=hooks.handed,
            on_chat=hooks.heard,
            on_back=hooks.back,
            on_notices=hooks.noticed,
        )
        return []

    async def stop(self) -> None:
        await self.node.stop()

    @property
    def alive(self) -> bool:
        return self.node.alive

    async def ready(self) -> bool:
        return await self.node.ping()

    async def leaving(self) -> list[str]:
        self._others = await self.node.leave()
        return [m.url for m in self._others]

    async def hand_off(self, games: Mapping[str, str]) -> None:
        by_url = {m.url: m for m in self._others}
        await self.node.hand_off({g: by_url[url] for g, url in games.items() if url in by_url})

    async def say(self, name: str, text: str) -> None:
        await self.node.say(name, text)

    async def tell_notices(self, told: list[dict[str, Any]]) -> None:
        await self.node.tell_notices(told)

    async def reserve(self, game_id: str, creator: str | None) -> bool:
        if not await self.node.claim_new(game_id):
            return False
        if creator is not None:
            try:
                await self.credit(game_id, creator)
            except BaseException:
                await self.node.release(game_id)
                raise
        return True

    async def credit(self, game_id: str, creator: str) -> None:
        async def note(conn: Any) -> None:
            await conn.execute(
                "INSERT INTO creators (game_id, address) VALUES (%s, %s) ON CONFLICT DO NOTHING", (game_id, creator)
            )

        await self.store.run(note)

    async def claim(self, game_id: str) -> Claimed | Elsewhere | None:
        return await self.node.claim(game_id)

    async def release(self, game_id: str) -> None:
        await self.node.release(game_id)

    async def owner_url(self, game_id: str) -> str | None:
        return await self.node.owner_url(game_id)

    async def page(self, offset: int, limit: int, held: Mapping[str, Held]) -> tuple[list[GameSummary], int]:
        """Every game of the store that was not closed before it started, newest first: those played here as they
        are now, the others as their node last saved them."""

        async def read(conn: Any) -> tuple[list[tuple[str, str | None]], int]:
            rows = await (
                await conn.execute(
                    "SELECT game_id, summary FROM games WHERE NOT closed ORDER BY created_at DESC, game_id "
                    "OFFSET %s LIMIT %s",
                    (offset, limit),
                )
            ).fetchall()
            total = await (await conn.execute("SELECT count(*) FROM games WHERE NOT closed")).fetchone()
            return [(g, s) for g, s in rows], int(total[0])

        rows, total = await self.store.run(read)
        games = []
        for game_id, text in rows:
            match = held.get(game_id)
            if match is not None:
                games.append(match.summary())
            elif text is not None:
                with contextlib.suppress(ValidationError):
                    games.append(GameSummary.model_validate_json(text))
        return games, total

    async def ids_starting(self, start: str, held: Mapping[str, Held]) -> set[str]:
        pattern = start.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"

        async def read(conn: Any) -> list[str]:
            rows = await (
                await conn.execute(
                    "SELECT game_id FROM games WHERE game_id ILIKE %s AND NOT closed ORDER BY game_id LIMIT 20",
                    (pattern,),
                )
            ).fetchall()
            return [str(r[0]) for r in rows]

        found: list[str] = await self.store.run(read)
        return set(held) | set(found)

    async def announce(self, game_id: str, summary: GameSummary) -> None:
        """Through the store, so that every node's lobby (this one's too) tells its watchers."""
        await self.node.announce_created(game_id)

    async def _created(self, game_id: str) -> None:
        """A node (this one too) created a game: its summary as saved, for the lobby's watchers."""
        if self._hooks is None:
            return

        async def read(conn: Any) -> str | None:
            row = await (await conn.execute("SELECT summary FROM games WHERE game_id = %s", (game_id,))).fetchone()
            return None if row is None else row[0]

        text: str | None = await self.store.run(read)
        if text is not None:
            with contextlib.suppress(ValidationError):
                await self._hooks.listed(GameSummary.model_validate_json(text))

    async def waiting_games(self, address: str, held: Mapping[str, Held]) -> int:
        """Counted in the store, across the nodes: the unfinished games created from `address`, each as the node
        playing it sees it now (this one's), or as it was last saved."""

        async def read(conn: Any) -> list[tuple[str, str | None]]:
            rows = await (
                await conn.execute(
                    "SELECT g.game_id, g.summary FROM creators c JOIN games g USING (game_id) "
                    "WHERE c.address = %s AND g.phase <> 'finished'",
                    (address,),
                )
            ).fetchall()
            return [(g, s) for g, s in rows]

        rows: list[tuple[str, str | None]] = await self.store.run(read)
        count = 0
        for game_id, text in rows:
            match = held.get(game_id)
            if match is not None:
                count += match.waits
            elif text is not None:
                with contextlib.suppress(ValidationError):
                    count += waits(GameSummary.model_validate_json(text))
        return count
