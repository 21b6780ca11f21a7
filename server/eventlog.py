"""The recent part of a game's log that a match keeps in memory, to catch up clients that were away a while.

A restored game starts with the last entries of its stored log as the store's JSON text: most games' clients come
back up to date or not at all, so those entries are read into objects only when a client needs some of them.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from server.entries import Entry, from_stored
from server.storage.base import StoredLog

logger = logging.getLogger("risc.server")


class EventLog:
    def __init__(self, game_id: str, seq: int, stored: StoredLog | None = None, limit: int = 2000) -> None:
        """`seq` is the number of the game's last entry; `stored` holds the entries up to it, if any are kept."""
        self._game_id = game_id
        self._limit = limit
        if stored is not None and stored.count and stored.first_seq + stored.count - 1 != seq:
            logger.error("game %s: its stored log ends at entry %d, its progress at %d: clients that were away get a "
                         "snapshot", game_id, stored.first_seq + stored.count - 1, seq)
            stored = None
        self._stored = stored if stored is not None and stored.count else None
        self._entries: list[Entry] = []
        self._first = self._stored.first_seq if self._stored is not None else seq + 1
        self._last = seq

    @property
    def last_seq(self) -> int:
        """The number of the game's last entry (0 before the first)."""
        return self._last

    @property
    def first_seq(self) -> int:
        """The number of the oldest entry still kept; last_seq + 1 when none is."""
        return self._first

    def __len__(self) -> int:
        return self._last - self._first + 1

    def after(self, seq: int) -> list[Entry] | None:
        """The entries after `seq`, or None when some of them are no longer kept (or `seq` is not yet reached)."""
        if not self._first - 1 <= seq <= self._last:
            return None
        if seq == self._last:
            return []
        self._read()
        if seq < self._first - 1:  # the stored entries could not be read
            return None
        return self._entries[seq - self._first + 1:]

    def extend(self, numbered: Sequence[Entry]) -> None:
        """Append newly saved entries, dropping the oldest once twice `limit` are kept."""
        if not numbered:
            return
        if self._stored is None and not self._entries:
            self._first = numbered[0].seq
        self._entries.extend(numbered)
        self._last = numbered[-1].seq
        if len(self) > 2 * self._limit:
            self._read()
            del self._entries[:-self._limit]
            self._first = self._entries[0].seq

    def _read(self) -> None:
        """Turn the stored text into entries; text that cannot be read is dropped (clients then get a snapshot)."""
        stored, self._stored = self._stored, None
        if stored is None:
            return
        try:
            self._entries[:0] = [from_stored(data) for data in stored.entries()]
        except (ValueError, KeyError, TypeError) as exc:
            logger.error("game %s: the stored log entries %d to %d cannot be read, so clients further behind get "
                         "a snapshot: %s", self._game_id, stored.first_seq, stored.first_seq + stored.count - 1, exc)
            self._first = self._entries[0].seq if self._entries else self._last + 1
