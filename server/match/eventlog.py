"""The recent part of a game's log that a match keeps in memory, to catch up clients that were away a while.

A restored game starts with the last entries of its stored log as the store's JSON text: most games' clients come
back up to date or not at all, so those entries are read into objects only when a client needs some of them. A
client that wants older ones (a spectator who comes to a game taken over from another node, and reads it from its
start) has them read back from the store (`lacks`, `prepend`), up to what a running match keeps.

Two numbers run through the log (server/core/entries.py): each entry's place (`seq`, the store's), and the number of the
change that logged it (`number`, what clients are told and give back as `last_seq`). A client is caught up by change:
it is sent every entry of every change after the one it names.
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Sequence

from server.core.entries import Entry, from_stored
from server.storage.base import StoredLog

logger = logging.getLogger("risc.server")


class EventLog:
    def __init__(
        self, game_id: str, seq: int, stored: StoredLog | None = None, limit: int = 2000, number: int | None = None
    ) -> None:
        """`seq` is the place of the game's last entry, `number` its change's (by default `seq`: a game logged
        before changes were numbered told each entry as a change of its own); `stored` holds the entries up to
        it, if any are kept."""
        self._game_id = game_id
        self._limit = limit
        if stored is not None and stored.count and stored.first_seq + stored.count - 1 != seq:
            logger.error(
                "game %s: its stored log ends at entry %d, its progress at %d: clients that were away get a snapshot",
                game_id,
                stored.first_seq + stored.count - 1,
                seq,
            )
            stored = None
        self._stored = stored if stored is not None and stored.count else None
        self._entries: list[Entry] = []
        self._first = self._stored.first_seq if self._stored is not None else seq + 1
        self._last = seq
        self._last_number = seq if number is None else number
        self._whole_from = self._last_number + 1
        """The oldest change whose every entry is kept (the stored tail, cut by entry, may begin inside one)."""

    @property
    def last_seq(self) -> int:
        """The place of the game's last entry (0 before the first)."""
        return self._last

    @property
    def last_number(self) -> int:
        """The number of the game's last change: what its followers are told as `seq` (0 before the first)."""
        return self._last_number

    @property
    def first_seq(self) -> int:
        """The place of the oldest entry still kept; last_seq + 1 when none is."""
        return self._first

    def __len__(self) -> int:
        return self._last - self._first + 1

    def after(self, number: int) -> list[Entry] | None:
        """The entries of every change after the one numbered `number`, or None when some of them are no longer
        kept (or `number` is not yet reached)."""
        if not 0 <= number <= self._last_number:
            return None
        if number == self._last_number:
            return []
        self._read()
        entries = self._entries
        if not entries or number + 1 < self._whole_from:  # not kept, or the stored entries could not be read
            return None
        return entries[bisect.bisect_right(entries, number, key=lambda e: e.number) :]

    def kept(self) -> list[Entry]:
        """Every entry still kept, oldest first (the stored tail read in)."""
        self._read()
        return list(self._entries)

    def lacks(self, number: int) -> bool:
        """Whether a follower that was sent change `number` wants older entries than this log keeps, which the store
        may still have (this log does not start at the game's first entry)."""
        return 0 <= number < self._last_number and number + 1 < self._whole_from and self._first > 1

    @property
    def room(self) -> int:
        """How many older entries may still be read back: a running match keeps up to twice its limit."""
        return max(0, 2 * self._limit - len(self))

    def prepend(self, older: StoredLog) -> None:
        """Put entries read back from the store before the oldest kept (they must end just before it)."""
        if not older.count or older.first_seq + older.count != self._first:
            return
        self._read()
        try:
            kept = older.entries()
            read = [from_stored(data) for data in kept]
        except (ValueError, KeyError, TypeError) as exc:
            logger.error("game %s: older log entries read back cannot be read: %s", self._game_id, exc)
            return
        self._entries[:0] = read
        self._first = read[0].seq
        whole = read[0].seq == 1 or "change" not in kept[0]
        self._whole_from = read[0].number if whole else read[0].number + 1

    def extend(self, numbered: Sequence[Entry]) -> None:
        """Append newly saved entries (one change's), dropping the oldest once twice `limit` are kept."""
        if not numbered:
            return
        if self._stored is None and not self._entries:
            self._first = numbered[0].seq
            self._whole_from = numbered[0].number
        self._entries.extend(numbered)
        self._last = numbered[-1].seq
        self._last_number = numbered[-1].number
        if len(self) > 2 * self._limit:
            self._read()
            entries = self._entries
            cut = len(entries) - self._limit
            while cut > 0 and entries[cut].number == entries[cut - 1].number:
                cut -= 1  # a change is kept whole or not at all
            if cut > 0:
                del entries[:cut]
                self._first, self._whole_from = entries[0].seq, entries[0].number

    def _read(self) -> None:
        """Turn the stored text into entries; text that cannot be read is dropped (clients then get a snapshot)."""
        stored, self._stored = self._stored, None
        if stored is None:
            return
        try:
            kept = stored.entries()
            read = [from_stored(data) for data in kept]
        except (ValueError, KeyError, TypeError) as exc:
            logger.error(
                "game %s: the stored log entries %d to %d cannot be read, so clients further behind get a snapshot: %s",
                self._game_id,
                stored.first_seq,
                stored.first_seq + stored.count - 1,
                exc,
            )
            self._first = self._entries[0].seq if self._entries else self._last + 1
            self._whole_from = self._entries[0].number if self._entries else self._last_number + 1
            return
        self._entries[:0] = read
        # The tail was cut by entry: its first change is whole if it starts the log, or if it was stored before
        # changes were numbered (each entry a change of its own); otherwise it may have lost its first entries.
        whole = read[0].seq == 1 or "change" not in kept[0]
        self._whole_from = read[0].number if whole else read[0].number + 1
