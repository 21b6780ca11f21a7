"""What a game store must do: create, save state plus new events atomically, load, list.

Records are pydantic models whose fields are plain JSON values, so a store may keep them as JSON text (the memory
store does, which keeps it honest) or spread them over tables. A store never interprets a game; the match does.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field

from shared.protocol.lobby import GameSettings
from shared.protocol.log import SequencedEvent


class SeatRecord(BaseModel):
    name: str
    token_hash: str = Field(description="sha256 of the seat token, hex: the token itself is never kept")
    group: int | None = None


class GameRecord(BaseModel):
    """What never changes once a game exists. `seed` never leaves the server (D1)."""

    game_id: str
    settings: GameSettings
    seed: int
    created_at: float
    game_map: dict[str, Any] = Field(description="the map as played, so a changed or deleted file cannot alter it")


class GameProgress(BaseModel):
    """What changes as the game goes on: saved whole, with the log entries that came with the change."""

    seats: list[SeatRecord]
    state: dict[str, Any] | None = Field(description="the engine's GameState without its map; null in the lobby")
    seq: int = Field(description="the number of the last log entry")
    rematch: list[str] = Field(default_factory=list)
    rematch_game: str | None = None


class StoredGame(BaseModel):
    record: GameRecord
    progress: GameProgress
    events: list[SequencedEvent]


class StorageError(Exception):
    """The store could not keep a change: the match then refuses the change rather than act on it unsaved."""


class Storage(ABC):
    @abstractmethod
    async def create(self, record: GameRecord, progress: GameProgress, events: Sequence[SequencedEvent]) -> None:
        """Keep a new game. Raises StorageError if its id exists."""

    @abstractmethod
    async def save(self, game_id: str, progress: GameProgress, events: Sequence[SequencedEvent]) -> None:
        """Replace the game's progress and append `events`, all or nothing."""

    @abstractmethod
    async def load(self, game_id: str, tail: int | None = None) -> StoredGame | None:
        """The game as last saved, with its whole log, or its last `tail` entries (what a running server needs)."""

    @abstractmethod
    async def list_games(self, include_finished: bool = True) -> list[str]:
        """Every kept game's id, oldest first; without the finished ones unless `include_finished`."""

    async def close(self) -> None:
        """Flush and let go of whatever the store holds open."""
        return None
