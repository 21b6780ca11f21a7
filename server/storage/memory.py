"""A store that lives as long as the process: for tests, and for servers that need not survive a restart.

It keeps JSON text, not objects, so whatever it accepts would also fit in a file or a database.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.storage.base import GameProgress, GameRecord, Storage, StorageError, StoredGame
from shared.protocol.log import SequencedEvent


class MemoryStorage(Storage):
    def __init__(self) -> None:
        self._records: dict[str, str] = {}
        self._progress: dict[str, str] = {}
        self._events: dict[str, list[str]] = {}

    async def create(self, record: GameRecord, progress: GameProgress, events: Sequence[SequencedEvent]) -> None:
        if record.game_id in self._records:
            raise StorageError(f"game {record.game_id} exists already")
        texts = (record.model_dump_json(), progress.model_dump_json(), [e.model_dump_json() for e in events])
        self._records[record.game_id], self._progress[record.game_id], self._events[record.game_id] = texts

    async def save(self, game_id: str, progress: GameProgress, events: Sequence[SequencedEvent]) -> None:
        if game_id not in self._records:
            raise StorageError(f"no game {game_id} to save")
        progress_text = progress.model_dump_json()  # everything is encoded before anything is changed
        event_texts = [e.model_dump_json() for e in events]
        self._progress[game_id] = progress_text
        self._events[game_id].extend(event_texts)

    async def load(self, game_id: str, tail: int | None = None) -> StoredGame | None:
        if game_id not in self._records:
            return None
        texts = self._events[game_id] if tail is None else self._events[game_id][-tail:] if tail else []
        return StoredGame(record=GameRecord.model_validate_json(self._records[game_id]),
                          progress=GameProgress.model_validate_json(self._progress[game_id]),
                          events=[SequencedEvent.model_validate_json(e) for e in texts])

    async def list_games(self, include_finished: bool = True) -> list[str]:
        if include_finished:
            return list(self._records)
        return [g for g in self._records
                if (GameProgress.model_validate_json(self._progress[g]).state or {}).get("phase") != "finished"]
