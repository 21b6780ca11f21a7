"""What a game store must do: create, save state plus new events atomically, load, list.

Records are pydantic models whose fields are plain JSON values, so a store may keep them as JSON text (the memory
store does, which keeps it honest) or spread them over tables. A store never interprets a game; the match does.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field, TypeAdapter

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


_EVENTS = TypeAdapter(list[SequencedEvent])


@dataclass(frozen=True)
class StoredLog:
    """The last entries of a game's log as the store keeps them, a JSON array of SequencedEvent, not yet read.

    A starting server restores many games whose clients mostly need none of the older entries: reading them into
    objects (validating every entry) is left until a client is to be caught up.
    """

    text: str = "[]"
    first_seq: int = 1
    count: int = 0

    @classmethod
    def of_texts(cls, first_seq: int, texts: Sequence[str]) -> StoredLog:
        """The log of consecutive entries `texts` (each a SequencedEvent as JSON), the first numbered `first_seq`."""
        return cls("[" + ",".join(texts) + "]", first_seq, len(texts))

    @classmethod
    def of(cls, events: Sequence[SequencedEvent]) -> StoredLog:
        return cls.of_texts(events[0].seq if events else 1, [e.model_dump_json() for e in events])

    def entries(self) -> list[SequencedEvent]:
        """The entries as objects. Raises ValueError if the text is not this log's consecutive entries."""
        entries = _EVENTS.validate_json(self.text)
        if [e.seq for e in entries] != list(range(self.first_seq, self.first_seq + self.count)):
            raise ValueError(f"the stored log entries are not numbered {self.first_seq} to "
                             f"{self.first_seq + self.count - 1}")
        return entries


@dataclass(frozen=True)
class RestoredGame:
    """An unfinished game as a starting server needs it: its record, its progress, the last part of its log.

    `map_key` names the map as played (see map_key): games with the same key were played on the same map, so a
    server builds that map once for all of them. The record's `game_map` dict may be shared among them: never change it.
    """

    record: GameRecord
    progress: GameProgress
    log: StoredLog
    map_key: str


def map_text(game_map: dict[str, Any]) -> str:
    """A map as played, as canonical JSON text: the same map always gives the same text."""
    return json.dumps(game_map, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def map_key(text: str) -> str:
    """What a map is kept under, once however many games are played on it: the sha256 of its canonical text."""
    return hashlib.sha256(text.encode()).hexdigest()


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
    async def load_unfinished(self, tail: int) -> list[RestoredGame]:
        """Every unfinished game, oldest first, each with the last `tail` entries of its log: what a starting server
        restores, read in one pass."""

    @abstractmethod
    async def list_games(self, include_finished: bool = True) -> list[str]:
        """Every kept game's id, oldest first; without the finished ones unless `include_finished`."""

    async def close(self) -> None:
        """Flush and let go of whatever the store holds open."""
        return None
