"""Where each game is played: the one seam between the lobby and the rest of the server's world.

A server alone plays every game it keeps (LocalDirectory, below). Several nodes sharing a PostgreSQL store play each
game on one node at a time (server/cluster/directory.py). The lobby asks a directory, never which it has: which games
to play from the start, a new game's id, a game nobody here plays (claimed, or played elsewhere, or none), where a
game is played, the lobby's list and the games an id's start names across the whole server, what an address holds
everywhere, and it hears from the directory of games lost, created elsewhere, or left with nobody to play them. So
Colyseus' `Presence` is one interface for one process or many.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from server.matchmaking.queue import MemoryQueue, QueueStore
from server.storage.base import RestoredGame, Storage
from shared.protocol.lobby import GameStatus, GameSummary

RESTORED_LOG_ENTRIES = 256
"""How much of each game's log a server reads back when it restores or takes over a game: enough for clients that
were away a few turns; a client further behind gets a fresh snapshot, as it would from a running server. The whole
log stays stored."""


@dataclass(frozen=True)
class Elsewhere:
    """Another node plays the game; `url` is where its clients reach it (None: not known right now)."""

    url: str | None


@dataclass(frozen=True)
class Claimed:
    """The game is this server's to play from now on."""


class Held(Protocol):
    """A game this server plays now, as the directory sees it."""

    @property
    def finished(self) -> bool: ...

    @property
    def waits(self) -> bool:
        """What `waits` says of its summary, without making one."""
        ...

    def summary(self) -> GameSummary: ...


@dataclass(frozen=True)
class Hooks:
    """What a directory tells the lobby: a game it played is another node's now, or may be (`lost`), a game was
    created on some node (`listed`, with its summary), games nobody plays that play by themselves want a player
    (`orphans`), games a stopping node gave this one to play at once (`handed`), a word said in another node's lobby
    (`heard`: name and text), this node has its store again after losing it (`back`), and another node's games made
    notifications, for this node's connections of their accounts (`noticed`: as server/storage/notices.py's
    `Notice.told` wrote them)."""

    lost: Callable[[str], Coroutine[Any, Any, None]]
    listed: Callable[[GameSummary], Coroutine[Any, Any, None]]
    orphans: Callable[[list[str]], Coroutine[Any, Any, None]]
    handed: Callable[[list[str]], Coroutine[Any, Any, None]]
    heard: Callable[[str, str], Coroutine[Any, Any, None]]
    back: Callable[[], Coroutine[Any, Any, None]]
    noticed: Callable[[list[Any]], Coroutine[Any, Any, None]]


class Directory(ABC):
    """Where each game of the server is played."""

    @property
    def own_url(self) -> str:
        """Where clients reach this server's node ("" for a server alone: its clients are already here)."""
        return ""

    def describe(self) -> str:
        """What this server is, for its log."""
        return "a server alone"

    def listening(self, host: str, port: int) -> None:
        """The server listens on `host` and `port` now (a node says so to the others as it starts)."""
        return None

    @property
    def peers(self) -> list[str]:
        """Where each of the server's nodes is reached, this one first; none for a server alone."""
        return []

    @property
    def node_name(self) -> str:
        """This node's id among the server's nodes ("" for a server alone)."""
        return ""

    def queue(self) -> QueueStore:
        """Where the server's quick play queue and challenges live: this process's memory for a server alone (a
        restart ends every connection, and so every wait)."""
        return MemoryQueue()

    @abstractmethod
    async def start(self, hooks: Hooks) -> list[RestoredGame]:
        """Begin, and return the games this server plays from its start (its unfinished games and its most recent
        finished ones, oldest first), which the lobby restores."""

    async def stop(self) -> None:
        """Let go of every game and of whatever the directory holds open."""
        return None

    @property
    def alive(self) -> bool:
        """Whether this server may play games now (a node: it holds its session with the store)."""
        return True

    async def ready(self) -> bool:
        """Whether this server may play games now, asked of what it holds (a node: its session answers)."""
        return True

    async def leaving(self) -> list[str]:
        """This server is stopping: nobody is to be sent here any more. Returns where its games may go now (the other
        nodes' addresses); none for a server alone."""
        return []

    async def hand_off(self, games: Mapping[str, str]) -> None:
        """Let go of these games at once, each given to the node reached at its address, which takes it now."""
        return None

    async def say(self, name: str, text: str) -> None:
        """A word said in this server's lobby, for the lobbies of its other nodes (through `Hooks.heard`)."""
        return None

    async def tell_notices(self, told: list[dict[str, Any]]) -> None:
        """Notifications this node's games made, for the other nodes' connections (through `Hooks.noticed`)."""
        return None

    @abstractmethod
    async def reserve(self, game_id: str, creator: str | None) -> bool:
        """Hold a new game's id for this server, before the game is kept, noting the address that asked for it
        (`creator`); False if the id is taken anywhere."""

    @abstractmethod
    async def credit(self, game_id: str, creator: str) -> None:
        """Count a game this server made against the address `creator`, as one it created (a quick play game the
        server's computers fill, which they play alone once its people resign)."""

    @abstractmethod
    async def claim(self, game_id: str) -> Claimed | Elsewhere | None:
        """Take a game this server does not play now: Claimed (it is this server's, to read from the store),
        Elsewhere (another node plays it), or None (there is no such game to play: never was, or closed)."""

    async def release(self, game_id: str) -> None:
        """Let go of a game this server no longer plays (a finished game forgotten, a game lost, a failed start)."""
        return None

    async def owner_url(self, game_id: str) -> str | None:
        """Where the node that plays a game is reached, if another does."""
        return None

    @abstractmethod
    async def page(self, offset: int, limit: int, held: Mapping[str, Held]) -> tuple[list[GameSummary], int]:
        """A page of the server's games, newest first, and how many there are: those `held` here as they are now."""

    @abstractmethod
    async def ids_starting(self, start: str, held: Mapping[str, Held]) -> set[str]:
        """The ids of the server's games that start with `start` (any case): what a typed id may name."""

    @abstractmethod
    async def announce(self, game_id: str, summary: GameSummary) -> None:
        """A game was created here: every lobby of the server (this one's too) hears of it through `Hooks.listed`."""

    @abstractmethod
    async def waiting_games(self, address: str, held: Mapping[str, Held]) -> int:
        """How many games created from `address` wait for players, or are played by computers alone, on the whole
        server: what the per-address limit counts."""


class LocalDirectory(Directory):
    """A server alone: it plays every game its store keeps, restored at its start."""

    def __init__(self, storage: Storage, finished_kept: int, tail: int) -> None:
        self.storage = storage
        self.finished_kept = finished_kept
        self.tail = tail
        self._hooks: Hooks | None = None
        self._creators: dict[str, dict[str, None]] = {}
        """The games of this server that may still count against the address that created each, by address: an
        address's count reads its own games, not every game held."""

    async def start(self, hooks: Hooks) -> list[RestoredGame]:
        self._hooks = hooks
        unfinished = await self.storage.load_unfinished(tail=self.tail)
        finished = (
            await self.storage.load_recent_finished(self.finished_kept, self.tail) if self.finished_kept > 0 else []
        )
        return sorted([*unfinished, *finished], key=lambda g: g.record.created_at)

    async def reserve(self, game_id: str, creator: str | None) -> bool:
        if await self.storage.created_at([game_id]):
            return False  # a game the store keeps that is not held any more (finished, and let go of)
        if creator is not None:
            await self.credit(game_id, creator)
        return True

    async def credit(self, game_id: str, creator: str) -> None:
        self._creators.setdefault(creator, {})[game_id] = None

    async def claim(self, game_id: str) -> Claimed | Elsewhere | None:
        return None  # every game this server plays is held from its start or its making: any other is none

    async def release(self, game_id: str) -> None:
        return None  # its creator's count lets go of it once it is not held

    async def page(self, offset: int, limit: int, held: Mapping[str, Held]) -> tuple[list[GameSummary], int]:
        newest = list(held.values())[::-1]
        return [m.summary() for m in newest[offset : offset + limit]], len(newest)

    async def ids_starting(self, start: str, held: Mapping[str, Held]) -> set[str]:
        return set(held)

    async def announce(self, game_id: str, summary: GameSummary) -> None:
        if self._hooks is not None:
            await self._hooks.listed(summary)

    async def waiting_games(self, address: str, held: Mapping[str, Held]) -> int:
        created = self._creators.get(address, {})
        for game_id in [g for g in created if g not in held]:
            del created[game_id]
        return sum(1 for game_id in created if held[game_id].waits)


def waits(summary: GameSummary) -> bool:
    """Whether a game counts against its creator: it waits for players, or the server's computers play it alone (it
    plays on by itself). A client asked for hundreds of such games, and took a whole core."""
    if summary.status == GameStatus.LOBBY:
        return True
    return summary.status == GameStatus.PLAYING and all(s.computer for s in summary.seats if not s.eliminated)
