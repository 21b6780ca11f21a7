"""The ratings of the SQLite store: written in the save that ends a rated game (`rate_in`, in that save's
transaction), read in a worker thread as its games are."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from server.ratings.model import Skill
from server.storage import rating_rows as sql
from server.storage.ratings import Board, RatedEnd, RatingChange, RatingStore, Standing, work_out

if TYPE_CHECKING:
    from server.storage.sqlite import SqliteStorage


def rate_in(db: sqlite3.Connection, end: RatedEnd) -> None:
    """Rate a game's end in the transaction that saves it; a game rated already is not rated again."""
    if db.execute(sql.ALREADY_RATED, (end.game_id,)).fetchone() is not None:
        return
    holders = end.holders
    before = {
        holder: Skill(mu, sigma)
        for holder, mu, sigma in db.execute(sql.skills_query(len(holders)), (end.ruleset, *holders))
    }
    changes = work_out(end, before)
    db.execute(sql.RATED_GAME, (end.game_id, end.ruleset, end.at))
    db.executemany(sql.ADD_CHANGE, sql.change_rows(end, changes))
    db.executemany(sql.SET_SKILL, sql.skill_rows(end, changes))


class SqliteRatings(RatingStore):
    def __init__(self, store: SqliteStorage, kept: bool) -> None:
        """`kept`: the database has ratings (one of an older schema, read as it is, has none)."""
        self.store = store
        self.kept = kept

    async def leaderboard(self, ruleset: str, since: float, offset: int, limit: int) -> Board:
        if not self.kept:
            return Board()

        def read(db: sqlite3.Connection) -> Board:
            rows = db.execute(sql.LEADERBOARD, (ruleset, since, limit, offset)).fetchall()
            total = db.execute(sql.LEADERBOARD_SIZE, (ruleset, since)).fetchone()[0]
            return Board([sql.standing(r) for r in rows], int(total))

        return await self.store.read(read)

    async def standings_of(self, holder: str) -> list[Standing]:
        if not self.kept:
            return []
        return await self.store.read(
            lambda db: [sql.standing(r) for r in db.execute(sql.STANDINGS_OF, (holder,)).fetchall()]
        )

    async def history(self, holder: str, ruleset: str | None, limit: int) -> list[RatingChange]:
        if not self.kept:
            return []
        query, params = (
            (sql.HISTORY, (holder, limit)) if ruleset is None else (sql.HISTORY_OF_RULESET, (holder, ruleset, limit))
        )
        rows = await self.store.read(lambda db: db.execute(query, params).fetchall())
        return [sql.change(r) for r in reversed(rows)]

    async def changes_of(self, game_id: str) -> list[RatingChange]:
        if not self.kept:
            return []
        return await self.store.read(lambda db: [sql.change(r) for r in db.execute(sql.CHANGES_OF, (game_id,))])
