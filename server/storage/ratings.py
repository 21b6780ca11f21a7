"""Ratings as a store keeps them, in the same database as the games (every store has its ratings: `ratings()`).

One row per holder and rule set (`ratings`): a holder is an account (its id) or one of the server's computer
strategies (`bot:aggressive`), each rated like a person. Each rated game's change is a row per player
(`rating_changes`, keyed by the game and the holder) and the game itself a row (`rated_games`, keyed by the game): all
written in the same transaction as the save that ends the game, so that a game is rated once, whatever fails
(a store asked to rate a game it has rated already rates nothing: `RatedEnd`).

The model (how a ranking changes skills) is server/ratings/model.py; a store keeps rows.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from server.ratings.model import NEW, Skill, rate

BOT_PREFIX = "bot:"
"""A computer strategy's holder: `bot:` and the strategy's name (no account's id or name begins so)."""

ACTIVE_DAYS = 180.0
"""A leaderboard lists the holders who played a rated game of its rule set in this many days."""


@dataclass(frozen=True)
class Placed:
    """A player of a rated game: who is rated (`holder`), and the seat's name in that game."""

    holder: str
    player: str
    place: int
    """Its place in the game's final ranking (1 for the first; tied players share one: 1, 2, 2, 4)."""


@dataclass(frozen=True)
class RatedEnd:
    """A rated game's final ranking, rated in the same transaction as the save that ends the game, once: the
    holders from first to last (tied ones together), each holder once, and how many seats the game had."""

    game_id: str
    ruleset: str
    at: float
    places: tuple[tuple[Placed, ...], ...]
    players: int

    @property
    def holders(self) -> list[str]:
        return sorted(p.holder for tied in self.places for p in tied)


@dataclass(frozen=True)
class RatingChange:
    """One player's rating before and after one rated game."""

    game_id: str
    ruleset: str
    holder: str
    player: str
    place: int
    """1 for the first; tied players share a place (1, 2, 2, 4)."""
    players: int
    before: Skill
    after: Skill
    at: float
    won: bool
    """First alone: a tie for first (a draw) is nobody's win."""


@dataclass(frozen=True)
class Standing:
    """A holder's rating in one rule set, with its games and wins."""

    holder: str
    name: str
    ruleset: str
    skill: Skill
    games: int
    wins: int
    last_at: float


@dataclass(frozen=True)
class Board:
    """A page of a leaderboard and how many holders it has in all."""

    standings: list[Standing] = field(default_factory=list)
    total: int = 0


def work_out(end: RatedEnd, before: Mapping[str, Skill]) -> list[RatingChange]:
    """The change of each player of a rated game, from their skills before it (missing: new)."""
    places = [[p.holder for p in tied] for tied in end.places]
    after = rate(places, before)
    return [
        RatingChange(
            end.game_id,
            end.ruleset,
            placed.holder,
            placed.player,
            placed.place,
            end.players,
            before.get(placed.holder, NEW),
            after[placed.holder],
            end.at,
            placed.place == 1 and len(tied) == 1,
        )
        for tied in end.places
        for placed in tied
    ]


def holder_name(holder: str, names: Mapping[str, str]) -> str:
    """What a holder is called: its account's name, or a computer strategy's holder as it is."""
    return holder if holder.startswith(BOT_PREFIX) else names.get(holder, "?")


class RatingStore(ABC):
    """Where a server's ratings are read (they are written with the save that ends a rated game)."""

    @abstractmethod
    async def leaderboard(self, ruleset: str, since: float, offset: int, limit: int) -> Board:
        """The holders rated in `ruleset` who played it at `since` or later (not deleted accounts), highest shown
        rating first (ties: more games first, then by name)."""

    @abstractmethod
    async def standings_of(self, holder: str) -> list[Standing]:
        """The holder's rating in every rule set it was rated in."""

    @abstractmethod
    async def history(self, holder: str, ruleset: str | None, limit: int) -> list[RatingChange]:
        """The holder's last `limit` rating changes (of one rule set, or all), oldest first."""

    @abstractmethod
    async def changes_of(self, game_id: str) -> list[RatingChange]:
        """A rated game's changes, by place; none if it was not rated (yet)."""


def ordered(standings: Sequence[Standing]) -> list[Standing]:
    return sorted(standings, key=lambda s: (-s.skill.ordinal, -s.games, s.name.lower()))


class MemoryRatings(RatingStore):
    """The ratings of a store in memory: they end with the process, as its games do."""

    def __init__(self, accounts: Callable[[], Mapping[str, tuple[str, bool]]]) -> None:
        """`accounts`: each account's name and whether it was deleted, by id (the store's accounts)."""
        self.skills: dict[tuple[str, str], Standing] = {}
        self.changes: list[RatingChange] = []
        self.rated: set[str] = set()
        self._accounts = accounts

    def rate(self, end: RatedEnd) -> None:
        """Rate a game's end (called in the save that ends it), once."""
        if end.game_id in self.rated:
            return
        before = {h: s.skill for (h, r), s in self.skills.items() if r == end.ruleset and h in end.holders}
        changes = work_out(end, before)
        self.rated.add(end.game_id)
        self.changes.extend(changes)
        for change in changes:
            old = self.skills.get((change.holder, end.ruleset))
            self.skills[(change.holder, end.ruleset)] = Standing(
                change.holder,
                "",
                end.ruleset,
                change.after,
                (old.games if old else 0) + 1,
                (old.wins if old else 0) + change.won,
                end.at,
            )

    def _named(self, standing: Standing) -> Standing:
        return Standing(
            standing.holder,
            holder_name(standing.holder, {k: name for k, (name, _) in self._accounts().items()}),
            standing.ruleset,
            standing.skill,
            standing.games,
            standing.wins,
            standing.last_at,
        )

    async def leaderboard(self, ruleset: str, since: float, offset: int, limit: int) -> Board:
        found = [
            self._named(s)
            for (_, r), s in self.skills.items()
            if r == ruleset and s.last_at >= since and not self._accounts().get(s.holder, ("", False))[1]
        ]
        listed = ordered(found)
        return Board(listed[offset : offset + limit], len(listed))

    async def standings_of(self, holder: str) -> list[Standing]:
        return sorted((self._named(s) for (h, _), s in self.skills.items() if h == holder), key=lambda s: s.ruleset)

    async def history(self, holder: str, ruleset: str | None, limit: int) -> list[RatingChange]:
        mine = [c for c in self.changes if c.holder == holder and (ruleset is None or c.ruleset == ruleset)]
        return mine[-limit:] if limit > 0 else []

    async def changes_of(self, game_id: str) -> list[RatingChange]:
        return sorted((c for c in self.changes if c.game_id == game_id), key=lambda c: (c.place, c.player))
