"""Where the quick play queue lives: in memory for a server alone (a restart ends every connection,
and so every wait), in the PostgreSQL store for nodes that share one (server/matchmaking/postgres_queue.py), chosen
by the lobby's directory.

A queued player's row says what they asked, their rating, since when they wait, and the node their connection is on.
Forming takes the waiting rows, one forming node at a time, and marks each chosen row with its new game's id in the
same transaction; the game is then made under that id. A row whose game was never made (its forming node died in
between) goes back to waiting, its place kept; a row whose game exists is told to its player and dropped.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace

from server.matchmaking.forming import Formed, Queued

Decide = Callable[[list[Queued]], list[Formed]]
NewId = Callable[[], Awaitable[str]]


@dataclass(frozen=True)
class Seated:
    """A queued player whose game was made: where they sit."""

    account: str
    game_id: str
    player: str
    rated: bool


class QueueStore(ABC):
    @abstractmethod
    async def enqueue(self, queued: Queued, node: str) -> Queued:
        """Queue a player (their connection on `node`); one already waiting for the same keeps their place."""

    @abstractmethod
    async def leave(self, account: str) -> bool:
        """Take a waiting player out; False if they were not waiting (not queued, or seated already)."""

    @abstractmethod
    async def waiting(self) -> list[Queued]:
        """Everyone waiting, across the server."""

    @abstractmethod
    async def claim(self, decide: Decide, new_id: NewId) -> list[tuple[str, Formed]]:
        """Form games from the waiting players (`decide`), each under a new id, the chosen players marked with it in
        one transaction; none if another node is forming now."""

    async def made(self, game_id: str) -> None:
        """The game formed under `game_id` exists now (a shared store sees it in its games)."""
        return None

    @abstractmethod
    async def unclaim(self, game_id: str) -> None:
        """A formed game could not be made: its players wait again, in their places."""

    @abstractmethod
    async def seated(self, accounts: Sequence[str]) -> list[Seated]:
        """Those of `accounts` whose game was made; their rows are dropped (they are told once)."""

    async def sweep(self) -> None:
        """Put back the players of games whose forming node died before making them, and drop the rows of players
        whose node died and who did not come back (a store of one process has none)."""
        return None


class MemoryQueue(QueueStore):
    def __init__(self) -> None:
        self.rows: dict[str, tuple[Queued, str | None, bool]] = {}
        """Account -> (what they queued, the game formed for them, whether it is made)."""
        self.formed: dict[str, Formed] = {}

    async def enqueue(self, queued: Queued, node: str) -> Queued:
        found = self.rows.get(queued.account)
        if found is not None and found[1] is None and found[0].ask == queued.ask:
            queued = replace(queued, since=found[0].since)
        if found is None or found[1] is None:
            self.rows[queued.account] = (queued, None, False)
        return queued

    async def leave(self, account: str) -> bool:
        found = self.rows.get(account)
        if found is None or found[1] is not None:
            return False
        del self.rows[account]
        return True

    async def waiting(self) -> list[Queued]:
        return [q for q, game, _ in self.rows.values() if game is None]

    async def claim(self, decide: Decide, new_id: NewId) -> list[tuple[str, Formed]]:
        claimed = []
        for formed in decide(await self.waiting()):
            game_id = await new_id()
            for queued in formed.players:
                self.rows[queued.account] = (queued, game_id, False)
            self.formed[game_id] = formed
            claimed.append((game_id, formed))
        return claimed

    async def made(self, game_id: str) -> None:
        for account, (queued, game, _) in list(self.rows.items()):
            if game == game_id:
                self.rows[account] = (queued, game, True)

    async def unclaim(self, game_id: str) -> None:
        self.formed.pop(game_id, None)
        for account, (queued, game, _) in list(self.rows.items()):
            if game == game_id:
                self.rows[account] = (queued, None, False)

    async def seated(self, accounts: Sequence[str]) -> list[Seated]:
        told = []
        for account in accounts:
            found = self.rows.get(account)
            if found is not None and found[1] is not None and found[2]:
                queued, game_id = found[0], found[1]
                told.append(Seated(account, game_id, queued.name, self.formed[game_id].rated))
                del self.rows[account]
        return told
