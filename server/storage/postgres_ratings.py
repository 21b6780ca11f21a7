"""The ratings of the PostgreSQL store: written in the transaction of the save that ends a rated game (`rate_in`),
read from any node."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from server.ratings.model import NEW, Skill
from server.storage import rating_rows as sql
from server.storage.ratings import Board, RatedEnd, RatingChange, RatingStore, Standing, work_out

if TYPE_CHECKING:
    from server.storage.postgres import PostgresStorage


def pg(query: str) -> str:
    """A query of rating_rows in PostgreSQL's placeholders."""
    return query.replace("?", "%s")


_CLAIM_GAME = "INSERT INTO rated_games (game_id, ruleset, rated_at) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING"
_MAKE_ROWS = (
    "INSERT INTO ratings (holder, ruleset, mu, sigma, games, wins, last_at) "
    "SELECT h, %s, %s, %s, 0, 0, %s FROM unnest(%s::text[]) AS h ORDER BY h ON CONFLICT DO NOTHING"
)
_LOCK_ROWS = "SELECT holder, mu, sigma FROM ratings WHERE ruleset = %s AND holder = ANY(%s) ORDER BY holder FOR UPDATE"
_SET_SKILL = (
    "UPDATE ratings SET mu = %s, sigma = %s, games = games + 1, wins = wins + %s, last_at = %s "
    "WHERE holder = %s AND ruleset = %s"
)


async def rate_in(conn: Any, end: RatedEnd) -> None:
    """Rate a game's end in the transaction that saves it (on `conn`, in a transaction): once, whichever node saves
    it, the holders' rows locked in one order so that games ending together on several nodes wait for each other
    rather than overwrite each other's change."""
    claimed = await conn.execute(_CLAIM_GAME, (end.game_id, end.ruleset, end.at))
    if claimed.rowcount != 1:
        return  # rated already
    holders = end.holders
    await conn.execute(_MAKE_ROWS, (end.ruleset, NEW.mu, NEW.sigma, end.at, holders))
    rows = await (await conn.execute(_LOCK_ROWS, (end.ruleset, holders))).fetchall()
    changes = work_out(end, {holder: Skill(float(mu), float(sigma)) for holder, mu, sigma in rows})
    async with conn.cursor() as cursor:
        await cursor.executemany(pg(sql.ADD_CHANGE), sql.change_rows(end, changes))
        await cursor.executemany(
            _SET_SKILL, [(c.after.mu, c.after.sigma, int(c.won), end.at, c.holder, end.ruleset) for c in changes]
        )


class PostgresRatings(RatingStore):
    def __init__(self, store: PostgresStorage) -> None:
        self.store = store

    async def leaderboard(self, ruleset: str, since: float, offset: int, limit: int) -> Board:
        rows = await self.store.rows(pg(sql.LEADERBOARD), (ruleset, since, limit, offset))
        total = await self.store.rows(pg(sql.LEADERBOARD_SIZE), (ruleset, since))
        return Board([sql.standing(r) for r in rows], int(total[0][0]))

    async def standings_of(self, holder: str) -> list[Standing]:
        return [sql.standing(r) for r in await self.store.rows(pg(sql.STANDINGS_OF), (holder,))]

    async def history(self, holder: str, ruleset: str | None, limit: int) -> list[RatingChange]:
        if ruleset is None:
            rows = await self.store.rows(pg(sql.HISTORY), (holder, limit))
        else:
            rows = await self.store.rows(pg(sql.HISTORY_OF_RULESET), (holder, ruleset, limit))
        return [sql.change(r) for r in reversed(rows)]

    async def changes_of(self, game_id: str) -> list[RatingChange]:
        return [sql.change(r) for r in await self.store.rows(pg(sql.CHANGES_OF), (game_id,))]
