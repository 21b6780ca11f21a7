"""What a match writes to its store, and what becomes of a write the store will not take.

Apart from the match because a save comes with every change and has kinds of its own: an order issued or
withdrawn, or a commit that leaves the turn unresolved, is a small row; any other change saves the game's whole
progress with its new log entries. A write refused because another node owns the game now lets the game go (a
redirect); any other failure is a refusal that says the change did not happen.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Sequence

from server.core import Decision, Table
from server.core.entries import Entry
from server.ratings.ending import rated_end
from server.refusal import Redirect, Refusal
from server.storage.base import (
    CommitChange,
    GameProgress,
    GameRecord,
    OrderChange,
    OwnershipLost,
    RequestRecord,
    Storage,
)
from server.storage.codec import game_to_dict
from server.storage.notices import Notice
from server.storage.ratings import RatedEnd
from shared.protocol.built import built
from shared.protocol.codes import ErrorCode

logger = logging.getLogger("risc.server")


def progress_of(table: Table, seq: int, number: int) -> GameProgress:
    """The game's progress as the store keeps it: `seq` its log's last entry, `number` its last change."""
    game = table.game
    # Every field is typed already, so it is not validated again (a save comes with every change: built.py).
    return built(
        GameProgress,
        seats=list(table.seats),
        state=None if game is None else game_to_dict(table.ruleset, game),
        seq=seq,
        number=number,
        rematch=list(table.rematch),
        rematch_game=table.rematch_game,
        declined=list(table.declined),
        handed_over=list(table.handed_over),
        status=table.summary_status.value,
        pace=table.pace.state,
    )


class Keeper:
    """One game's writes. `lost` is called once the store says another node owns the game now."""

    def __init__(self, game_id: str, storage: Storage, lost: Callable[[], None]) -> None:
        self.game_id = game_id
        self.storage = storage
        self._lost = lost

    @property
    def shared(self) -> bool:
        """Whether other nodes read the same store (their lobbies list the game from its saved summary)."""
        return self.storage.shared

    async def create(self, record: GameRecord, table: Table, entries: Sequence[Entry], summary: str | None) -> None:
        """A new game, with its first entries: saved before it exists for anyone."""
        await self.storage.create(record, progress_of(table, len(entries), 1), entries, summary=summary)

    async def change(
        self,
        decision: Decision,
        entries: Sequence[Entry],
        last_seq: int,
        number: int,
        listed: Callable[[Table], str | None],
        request: RequestRecord | None,
        notices: Sequence[Notice] = (),
        rated: RatedEnd | None = None,
    ) -> None:
        """Keep a decision (other than an order alone: see `order`) with its numbered `entries` (after the log's
        `last_seq`) as change `number`, and the request that made it, if it has an id; `listed` makes the summary
        other nodes list, when the store is shared; `rated`: the game's end, rated in the same transaction."""
        game = decision.table.game
        seq = last_seq + len(entries)
        if decision.committed is not None and game is not None and not decision.resolved:
            commit = CommitChange(decision.committed, game.step, seq)  # a small row, as an order
            await self._write(
                "a change",
                lambda: self.storage.save_commit(self.game_id, commit, entries, request, decision.issued),
            )
        else:
            await self._write(
                "a change",
                lambda: self.storage.save(
                    self.game_id,
                    progress_of(decision.table, seq, number),
                    entries,
                    summary=listed(decision.table),
                    request=request,
                    notices=notices,
                    rated=rated,
                ),
            )

    async def rated_end(self, table: Table, entries: Sequence[Entry], at: float) -> RatedEnd | None:
        """What the store rates as `table`'s game ends with `entries`, if it is rated: its final ranking needs the
        whole log (who went out when), read back from the store once, at the end."""
        if not table.settings.rated:
            return None
        try:
            stored = await self.storage.load(self.game_id)
        except Exception as exc:
            raise self._unsaved("the game's end", exc) from exc
        log = [*(stored.events if stored is not None else []), *(json.loads(e.stored) for e in entries)]
        return rated_end(table, log, at)

    async def order(self, change: OrderChange, request: RequestRecord | None) -> None:
        """Keep an issued or withdrawn order as a small write rather than the whole progress (a save comes with
        every order)."""
        await self._write("an order", lambda: self.storage.save_order(self.game_id, change, request))

    async def orders(self, changes: Sequence[OrderChange], request: RequestRecord | None) -> None:
        """Keep the orders of one batch as small rows, in one write."""
        await self._write("the orders", lambda: self.storage.save_orders(self.game_id, changes, request))

    async def closed_unstarted(self, table: Table, seq: int, number: int) -> bool:
        """Keep a game that never started as over, with no game in it, so that a restarting server does not bring it
        back. False when the store could not (the game stays open; the lobby tries again later)."""
        progress = progress_of(table, seq, number).model_copy(update={"status": "finished"})
        try:
            await self.storage.save(self.game_id, progress, [])
        except Exception as exc:
            logger.error("game %s: could not close it: %s", self.game_id, exc)
            return False
        return True

    async def _write(self, what: str, write: Callable[[], Awaitable[None]]) -> None:
        """Carry out a write (making what it writes too): refused because another node owns the game now, the game is
        let go (Redirect); failed otherwise, the change did not happen (Refusal)."""
        try:
            await write()
        except OwnershipLost as exc:
            raise self._gone(exc) from exc
        except Exception as exc:
            raise self._unsaved(what, exc) from exc

    def _gone(self, exc: OwnershipLost) -> Redirect:
        """The store says another node owns this game now: nothing was kept, and this node lets the game go."""
        logger.warning("game %s: %s", self.game_id, exc)
        self._lost()
        return Redirect(self.game_id, None)

    def _unsaved(self, what: str, exc: Exception) -> Refusal:
        """What the player is told when the store could not keep a change: it did not happen."""
        logger.error("game %s: could not save %s: %s", self.game_id, what, exc)
        return Refusal(
            ErrorCode.STORAGE_FAILED, "the server could not save this change, so it did not happen; try again"
        )
