"""The SQL of ratings, one text for both databases (written with SQLite's `?`; PostgreSQL's store reads each `?` as
its `%s`), and rows to records: what the SQLite and PostgreSQL stores share of their ratings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.ratings.model import Skill
from server.storage.ratings import RatedEnd, RatingChange, Standing, holder_name

_CHANGE = "game_id, ruleset, holder, player, place, players, mu_before, sigma_before, mu_after, sigma_after, at, won"

ALREADY_RATED = "SELECT 1 FROM rated_games WHERE game_id = ?"
RATED_GAME = "INSERT INTO rated_games (game_id, ruleset, rated_at) VALUES (?, ?, ?)"
ADD_CHANGE = f"INSERT INTO rating_changes ({_CHANGE}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
SET_SKILL = (
    "INSERT INTO ratings (holder, ruleset, mu, sigma, games, wins, last_at) VALUES (?, ?, ?, ?, 1, ?, ?) "
    "ON CONFLICT (holder, ruleset) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
    "games = ratings.games + 1, wins = ratings.wins + excluded.wins, last_at = excluded.last_at"
)

_STANDING = (
    "SELECT r.holder, a.name, r.ruleset, r.mu, r.sigma, r.games, r.wins, r.last_at "
    "FROM ratings r LEFT JOIN accounts a ON a.account_id = r.holder"
)
LEADERBOARD = (
    _STANDING + " WHERE r.ruleset = ? AND r.last_at >= ? AND (a.deleted IS NULL OR NOT a.deleted) "
    "ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC, r.holder LIMIT ? OFFSET ?"
)
LEADERBOARD_SIZE = (
    "SELECT count(*) FROM ratings r LEFT JOIN accounts a ON a.account_id = r.holder "
    "WHERE r.ruleset = ? AND r.last_at >= ? AND (a.deleted IS NULL OR NOT a.deleted)"
)
STANDINGS_OF = _STANDING + " WHERE r.holder = ? ORDER BY r.ruleset"
HISTORY = f"SELECT {_CHANGE} FROM rating_changes WHERE holder = ? ORDER BY at DESC, game_id LIMIT ?"
HISTORY_OF_RULESET = (
    f"SELECT {_CHANGE} FROM rating_changes WHERE holder = ? AND ruleset = ? ORDER BY at DESC, game_id LIMIT ?"
)
CHANGES_OF = f"SELECT {_CHANGE} FROM rating_changes WHERE game_id = ? ORDER BY place, player"


def skills_query(count: int) -> str:
    """The skills of `count` holders in one rule set: (ruleset, holder, holder, ...)."""
    return f"SELECT holder, mu, sigma FROM ratings WHERE ruleset = ? AND holder IN ({', '.join('?' * count)})"


def change_rows(end: RatedEnd, changes: Sequence[RatingChange]) -> list[tuple[Any, ...]]:
    return [
        (
            c.game_id,
            c.ruleset,
            c.holder,
            c.player,
            c.place,
            c.players,
            c.before.mu,
            c.before.sigma,
            c.after.mu,
            c.after.sigma,
            c.at,
            c.won,
        )
        for c in changes
    ]


def skill_rows(end: RatedEnd, changes: Sequence[RatingChange]) -> list[tuple[Any, ...]]:
    return [(c.holder, end.ruleset, c.after.mu, c.after.sigma, int(c.won), end.at) for c in changes]


def standing(row: Sequence[Any]) -> Standing:
    holder, name = row[0], row[1]
    return Standing(
        holder,
        holder_name(holder, {holder: name} if name is not None else {}),
        row[2],
        Skill(float(row[3]), float(row[4])),
        int(row[5]),
        int(row[6]),
        float(row[7]),
    )


def change(row: Sequence[Any]) -> RatingChange:
    return RatingChange(
        row[0],
        row[1],
        row[2],
        row[3],
        int(row[4]),
        int(row[5]),
        Skill(float(row[6]), float(row[7])),
        Skill(float(row[8]), float(row[9])),
        float(row[10]),
        bool(row[11]),
    )
