"""A store that lives as long as the process: for tests, and for servers that need not survive a restart.

It keeps JSON text, not objects, so whatever it accepts would also fit in a file or a database; like the SQLite
store it keeps each map once, however many games are played on it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from server.storage.accounts import AccountStore, MemoryAccounts, seats_of_accounts
from server.storage.base import (
    CommitChange,
    GameProgress,
    GameRecord,
    LogLine,
    OrderChange,
    RequestKey,
    RequestRecord,
    RestoredGame,
    Storage,
    StorageError,
    StoredGame,
    StoredLog,
    WholeSave,
    map_key,
    map_text,
    record_of,
    with_orders,
)
from server.storage.invitations import InvitationStore, MemoryInvitations
from server.storage.notices import MemoryNotices
from server.storage.ratings import MemoryRatings, RatingStore


class MemoryStorage(Storage):
    def __init__(self) -> None:
        super().__init__()
        self._records: dict[str, str] = {}  # without the map
        self._map_keys: dict[str, str] = {}
        self._maps: dict[str, str] = {}
        self._progress: dict[str, str] = {}
        self._events: dict[str, list[tuple[int, str]]] = {}
        self._orders: dict[str, list[OrderChange]] = {}  # since each game's last save
        self._commits: dict[str, list[CommitChange]] = {}  # likewise
        self._requests: dict[str, dict[RequestKey, RequestRecord]] = {}
        self._summaries: dict[str, str | None] = {}
        self._created: dict[str, float] = {}
        self._accounts = MemoryAccounts(self._summaries, self._created)
        self._notices = MemoryNotices()
        self._ratings = MemoryRatings(self._accounts.names)
        self._invitations = MemoryInvitations()

    def accounts(self) -> AccountStore:
        return self._accounts

    def notices(self) -> MemoryNotices:
        return self._notices

    def ratings(self) -> RatingStore:
        return self._ratings

    def invitations(self) -> InvitationStore:
        return self._invitations

    def _seated(self, game_id: str, progress: GameProgress) -> None:
        for account, player in seats_of_accounts(progress.seats):
            self._accounts.seats.setdefault(account, {}).setdefault(game_id, player)

    async def create(
        self, record: GameRecord, progress: GameProgress, events: Sequence[LogLine], *, summary: str | None = None
    ) -> None:
        if record.game_id in self._records:
            raise StorageError(f"game {record.game_id} exists already")
        game_map = map_text(record.game_map)
        texts = (
            record.model_dump_json(exclude={"game_map"}),
            progress.model_dump_json(),
            [(e.seq, e.stored) for e in events],
        )
        key = map_key(game_map)
        self._maps.setdefault(key, game_map)
        self._map_keys[record.game_id] = key
        self._records[record.game_id], self._progress[record.game_id], self._events[record.game_id] = texts
        self._summaries[record.game_id] = summary
        self._created[record.game_id] = record.created_at
        self._seated(record.game_id, progress)

    async def save_whole(self, save: WholeSave) -> None:
        game_id, progress, events = save.game_id, save.progress, save.events
        if game_id not in self._records:
            raise StorageError(f"no game {game_id} to save")
        progress_text = progress.model_dump_json()  # everything is encoded before anything is changed
        event_texts = self._new_entries(game_id, events)
        self._check_request(game_id, save.request)
        self._progress[game_id] = progress_text
        self._events[game_id].extend(event_texts)
        self._orders.pop(game_id, None)
        self._commits.pop(game_id, None)
        self._keep_request(game_id, save.request, progress)
        if save.summary is not None:
            self._summaries[game_id] = save.summary
        self._seated(game_id, progress)
        self._notices.keep(save.notices)
        if save.rated is not None:
            self._ratings.rate(save.rated)

    async def save_order(self, game_id: str, change: OrderChange, request: RequestRecord | None = None) -> None:
        if game_id not in self._records:
            raise StorageError(f"no game {game_id} to save")
        self._check_request(game_id, request)
        self._orders.setdefault(game_id, []).append(change)
        self._keep_request(game_id, request)

    async def save_orders(
        self, game_id: str, changes: Sequence[OrderChange], request: RequestRecord | None = None
    ) -> None:
        if game_id not in self._records:
            raise StorageError(f"no game {game_id} to save")
        self._check_request(game_id, request)
        self._orders.setdefault(game_id, []).extend(changes)
        self._keep_request(game_id, request)

    async def save_commit(
        self,
        game_id: str,
        commit: CommitChange,
        events: Sequence[LogLine],
        request: RequestRecord | None = None,
        orders: Sequence[OrderChange] = (),
    ) -> None:
        if game_id not in self._records:
            raise StorageError(f"no game {game_id} to save")
        texts = self._new_entries(game_id, events)
        self._check_request(game_id, request)
        self._orders.setdefault(game_id, []).extend(orders)
        self._events[game_id].extend(texts)
        self._commits.setdefault(game_id, []).append(commit)
        self._keep_request(game_id, request)

    def _new_entries(self, game_id: str, events: Sequence[LogLine]) -> list[tuple[int, str]]:
        """The entries to append, refused as the databases refuse them when a number is kept already."""
        kept = {seq for seq, _ in self._events[game_id]}
        texts = [(e.seq, e.stored) for e in events]
        numbers = [seq for seq, _ in texts]
        if len(set(numbers)) != len(numbers) or kept.intersection(numbers):
            raise StorageError(f"game {game_id}: a log entry of that number is kept already")
        return texts

    def _check_request(self, game_id: str, request: RequestRecord | None) -> None:
        if request is not None and request.key in self._requests.get(game_id, {}):
            raise StorageError(f"game {game_id}: request {request.request_id} was carried out already")

    def _keep_request(self, game_id: str, request: RequestRecord | None, saved: GameProgress | None = None) -> None:
        kept = self._requests.setdefault(game_id, {})
        if saved is not None:  # a whole save forgets the requests of steps long past, as the other stores do
            step = saved.step
            for old in [r for r in kept.values() if step is not None and r.step < step - 1]:
                del kept[old.key]
        if request is not None:
            kept[request.key] = request

    async def load(self, game_id: str, tail: int | None = None) -> StoredGame | None:
        if game_id not in self._records:
            return None
        log = self._log(game_id, tail)
        return StoredGame(
            record=self._record(game_id, json.loads(self._maps[self._map_keys[game_id]])),
            progress=self._progress_of(game_id),
            events=log.entries(),
        )

    async def load_unfinished(self, tail: int) -> list[RestoredGame]:
        maps: dict[str, dict[str, Any]] = {}
        games = []
        for game_id in await self.list_games(include_finished=False):
            key = self._map_keys[game_id]
            try:  # as in the SQLite store: a game that cannot be read is set aside, the others restored
                if key not in maps:
                    maps[key] = json.loads(self._maps[key])
                games.append(
                    RestoredGame(
                        record=self._record(game_id, maps[key]),
                        progress=self._progress_of(game_id),
                        log=self._log(game_id, tail),
                        map_key=key,
                        requests={key: r.reply for key, r in self._requests.get(game_id, {}).items()},
                    )
                )
            except (ValueError, StorageError) as exc:
                self.set_aside(game_id, exc)
        return games

    async def restore(self, game_id: str, tail: int) -> RestoredGame | None:
        if game_id not in self._records:
            return None
        key = self._map_keys[game_id]
        return RestoredGame(
            record=self._record(game_id, json.loads(self._maps[key])),
            progress=self._progress_of(game_id),
            log=self._log(game_id, tail),
            map_key=key,
            requests={key: r.reply for key, r in self._requests.get(game_id, {}).items()},
        )

    def _progress_of(self, game_id: str) -> GameProgress:
        progress = GameProgress.model_validate_json(self._progress[game_id])
        return with_orders(game_id, progress, self._orders.get(game_id, ()), self._commits.get(game_id, ()))

    def _record(self, game_id: str, game_map: dict[str, Any]) -> GameRecord:
        return record_of(self._records[game_id], game_map)

    async def read_log(self, game_id: str, before: int, count: int) -> StoredLog:
        older = [(seq, text) for seq, text in self._events.get(game_id, []) if seq < before]
        kept = older[-count:] if count > 0 else []
        return StoredLog.of_texts(kept[0][0] if kept else 1, [text for _, text in kept])

    def _log(self, game_id: str, tail: int | None) -> StoredLog:
        kept = self._events[game_id] if tail is None else self._events[game_id][-tail:] if tail > 0 else []
        return StoredLog.of_texts(kept[0][0] if kept else 1, [text for _, text in kept])

    async def list_games(self, include_finished: bool = True) -> list[str]:
        if include_finished:
            return list(self._records)
        return [g for g in self._records if not _finished(self._progress[g])]

    async def created_at(self, game_ids: Sequence[str]) -> dict[str, float]:
        return {g: float(json.loads(self._records[g])["created_at"]) for g in game_ids if g in self._records}


def _finished(progress: str) -> bool:
    """Whether a game's progress text says the game is over; False when it cannot be read (a damaged game is not
    finished: it is set aside when restored)."""
    try:
        return GameProgress.model_validate_json(progress).finished
    except ValueError:
        return False
