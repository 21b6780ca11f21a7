"""The ladders: a rule set's leaderboard, a player's profile and a rated game's changes, read from the store's
ratings (any node reads them) and shown as people see them (server/ratings/model.py)."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar

from server.clock import Clock
from server.ratings.model import Skill
from server.refusal import Refusal
from server.storage.accounts import AccountStore
from server.storage.base import StorageError
from server.storage.ratings import ACTIVE_DAYS, BOT_PREFIX, RatingStore, Standing
from shared.protocol.codes import ErrorCode
from shared.protocol.names import skeleton
from shared.protocol.ratings import (
    GameRatings,
    LadderEntry,
    Leaderboard,
    Profile,
    RatedGame,
    Rating,
    RatingMove,
    RuleSetRating,
)
from shared.rulesets import RULESETS

_T = TypeVar("_T")

PROFILE_GAMES = 100
"""The most rated games a profile lists (the last), and so the points of its chart."""


def shown(skill: Skill) -> Rating:
    return Rating(rating=skill.shown, provisional=skill.provisional, mu=skill.mu, sigma=skill.sigma)


class Ladders:
    def __init__(self, ratings: RatingStore, accounts: AccountStore, clock: Clock) -> None:
        self.ratings = ratings
        self.accounts = accounts
        self.clock = clock

    async def leaderboard(self, ruleset: str, offset: int, limit: int) -> Leaderboard:
        if ruleset not in RULESETS:
            known = ", ".join(sorted(RULESETS))
            raise Refusal(ErrorCode.BAD_SETTINGS, f'there is no rule set "{ruleset}" (known: {known})', field="ruleset")
        since = self.clock.wall() - ACTIVE_DAYS * 86_400
        board = await self._read(self.ratings.leaderboard(ruleset, since, offset, limit))
        return Leaderboard(
            ruleset=ruleset,
            total=board.total,
            offset=offset,
            players=[self._entry(offset + i + 1, s) for i, s in enumerate(board.standings)],
        )

    @staticmethod
    def _entry(place: int, standing: Standing) -> LadderEntry:
        return LadderEntry(
            place=place,
            name=standing.name,
            computer=standing.holder.startswith(BOT_PREFIX),
            games=standing.games,
            wins=standing.wins,
            **shown(standing.skill).model_dump(),
        )

    async def profile(self, name: str) -> Profile:
        holder, shown_name = await self._holder(name)
        standings = await self._read(self.ratings.standings_of(holder))
        history = await self._read(self.ratings.history(holder, None, PROFILE_GAMES))
        return Profile(
            name=shown_name,
            computer=holder.startswith(BOT_PREFIX),
            ratings=[
                RuleSetRating(
                    ruleset=s.ruleset, games=s.games, wins=s.wins, last_played=s.last_at, **shown(s.skill).model_dump()
                )
                for s in standings
            ],
            games=[
                RatedGame(
                    game_id=c.game_id,
                    ruleset=c.ruleset,
                    at=c.at,
                    place=c.place,
                    players=c.players,
                    rating=c.after.shown,
                    change=c.after.shown - c.before.shown,
                    provisional=c.after.provisional,
                )
                for c in history
            ],
        )

    async def _holder(self, name: str) -> tuple[str, str]:
        """Whose ratings a name asks for: a computer strategy's holder, or an account's (by how its name looks)."""
        if name.startswith(BOT_PREFIX):
            return name, name
        account = await self._read(self.accounts.account_named(skeleton(name)))
        if account is None or account.deleted:
            raise Refusal(ErrorCode.NO_SUCH_PLAYER, f'no account is named "{name}"', field="name")
        return account.account_id, account.name

    async def game(self, game_id: str) -> GameRatings:
        changes = await self._read(self.ratings.changes_of(game_id))
        if not changes:
            return GameRatings(game_id=game_id, rated=False)
        names = {}
        for change in changes:
            if change.holder.startswith(BOT_PREFIX):
                names[change.holder] = change.holder
                continue
            account = await self._read(self.accounts.account(change.holder))
            names[change.holder] = account.name if account is not None else "?"
        return GameRatings(
            game_id=game_id,
            rated=True,
            ruleset=changes[0].ruleset,
            players=[
                RatingMove(
                    player=c.player,
                    name=names[c.holder],
                    place=c.place,
                    before=c.before.shown,
                    after=c.after.shown,
                    provisional=c.after.provisional,
                )
                for c in changes
            ],
        )

    @staticmethod
    async def _read(work: Awaitable[_T]) -> _T:
        try:
            return await work
        except StorageError as exc:
            raise Refusal(ErrorCode.STORAGE_FAILED, f"the ratings cannot be read right now ({exc})") from None
