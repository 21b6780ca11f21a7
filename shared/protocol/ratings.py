"""The protocol's messages about ratings, quick play and challenges (protocol 5): a rule set's leaderboard, a
player's profile, a rated game's changes; asking for a game by rule set, players and pace, and the wait; inviting a
named account to a game, and the answer. docs/protocol.md and docs/ratings.md say what each number means."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from shared.protocol.envelope import ClientMessageBase, ServerMessageBase
from shared.protocol.lobby import GameId, GameSettings, PlayerName
from shared.protocol.numbers import WHOLE

RuleSetName = Annotated[str, Field(min_length=1, max_length=32, description="a rule set's name (list_rulesets)")]
RatedName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=40,
        pattern=r"^(bot:[a-z_-]{1,32}|\w[\w .'-]{0,18}[\w.'-]|\w)$",
        description="an account's name, or a computer strategy's (bot:aggressive)",
    ),
]
Pace = Literal["live", "slow"]
"""live: a turn of minutes, played in one sitting; slow: a turn of hours, played over days."""


# ---- client to server ---------------------------------------------------------------------------------------------


class AskLeaderboard(ClientMessageBase):
    """A rule set's ladder: the accounts and computer strategies who played a rated game of it lately, best first."""

    type: Literal["leaderboard"] = "leaderboard"
    ruleset: RuleSetName
    offset: Annotated[int, Field(ge=0, le=1_000_000), WHOLE] = 0
    limit: Annotated[int, Field(ge=1, le=100), WHOLE] = 20


class AskProfile(ClientMessageBase):
    """A player's profile: their rating in each rule set, with their rated games and the rating after each."""

    type: Literal["profile"] = "profile"
    name: RatedName


class AskGameRatings(ClientMessageBase):
    """What a finished rated game did to its players' ratings."""

    type: Literal["game_ratings"] = "game_ratings"
    game_id: GameId


class QuickPlay(ClientMessageBase):
    """Queue for a rated game (an account's request): the server seats players of close rating together, in a
    window that widens the longer they wait. `computers_after`: fill the free seats with the server's computer
    players after that many seconds of waiting (the game is then not rated)."""

    type: Literal["quick_play"] = "quick_play"
    ruleset: RuleSetName
    players: Annotated[int, Field(ge=2, le=8), WHOLE] = 3
    pace: Pace = "live"
    computers_after: Annotated[float | None, Field(ge=5, le=3600)] = None


class LeaveQuickPlay(ClientMessageBase):
    type: Literal["leave_quick_play"] = "leave_quick_play"


class Challenge(ClientMessageBase):
    """Invite a named account to a new game of `settings`: the challenger takes its first seat, and the game is
    listed in the invited account's home, to accept (take a seat) or decline."""

    type: Literal["challenge"] = "challenge"
    name: PlayerName
    settings: GameSettings


class AnswerChallenge(ClientMessageBase):
    type: Literal["answer_challenge"] = "answer_challenge"
    game_id: GameId
    accept: bool


RATING_REQUESTS = (AskLeaderboard, AskProfile, AskGameRatings, QuickPlay, LeaveQuickPlay, Challenge, AnswerChallenge)


# ---- server to client ---------------------------------------------------------------------------------------------


class Rating(BaseModel):
    """A rating as people see it: one number (docs/ratings.md), provisional while the model is still unsure."""

    rating: int = Field(description="800 + 40 x (mu - 3 sigma): a new player's is 800")
    provisional: bool
    mu: float
    sigma: float


class LadderEntry(Rating):
    place: int
    name: str
    computer: bool = Field(description="one of the server's computer strategies (bot:NAME)")
    games: int
    wins: int


class Leaderboard(ServerMessageBase):
    type: Literal["leaderboard"] = "leaderboard"
    ruleset: str
    total: int
    offset: int
    players: list[LadderEntry]


class RuleSetRating(Rating):
    ruleset: str
    games: int
    wins: int
    last_played: float


class RatedGame(BaseModel):
    """One rated game of a player: where they came, and their rating after it."""

    game_id: str
    ruleset: str
    at: float
    place: int
    players: int
    rating: int
    change: int = Field(description="the shown rating's change in this game")
    provisional: bool


class Profile(ServerMessageBase):
    type: Literal["profile"] = "profile"
    name: str
    computer: bool
    ratings: list[RuleSetRating]
    games: list[RatedGame] = Field(description="the last rated games, oldest first")


class RatingMove(BaseModel):
    player: str = Field(description="the seat's name in the game")
    name: str = Field(description="whose rating it is: the account's name, or bot:STRATEGY")
    place: int
    before: int
    after: int
    provisional: bool


class GameRatings(ServerMessageBase):
    type: Literal["game_ratings"] = "game_ratings"
    game_id: str
    rated: bool = Field(description="false: the game is not rated, or not over yet")
    ruleset: str | None = None
    players: list[RatingMove] = Field(default_factory=list)


class QueuedFor(BaseModel):
    """One kind of game asked for, and who waits for it."""

    ruleset: str
    players: int
    pace: Pace
    names: list[str]


class QuickPlayWaiting(ServerMessageBase):
    """The wait: the reply to `quick_play`, then sent again as the queue changes, until the player is seated, leaves
    the queue or disconnects."""

    type: Literal["quick_play_waiting"] = "quick_play_waiting"
    ruleset: str
    players: int
    pace: Pace
    rating: int
    waited: float = Field(description="seconds since the player queued")
    window: int = Field(description="how widely a game's ratings may spread for this player now (shown points)")
    computers_in: float | None = Field(default=None, description="seconds until the computers fill the game")
    queued: list[QueuedFor] = Field(description="who is queued for what, across the server")


class QuickPlayLeft(ServerMessageBase):
    type: Literal["quick_play_left"] = "quick_play_left"


class QuickPlayFound(ServerMessageBase):
    """A game was formed: the player sits in it (an account's seat: `resume` takes it, on whichever node plays it)."""

    type: Literal["quick_play_found"] = "quick_play_found"
    game_id: str
    player: str
    rated: bool


class ChallengeSent(ServerMessageBase):
    type: Literal["challenge_sent"] = "challenge_sent"
    game_id: str
    to: str


class ChallengeAnswered(ServerMessageBase):
    """The reply to `answer_challenge`, and what the challenger is told."""

    type: Literal["challenge_answered"] = "challenge_answered"
    game_id: str
    name: str
    accepted: bool


RATING_ANSWERS = (
    Leaderboard,
    Profile,
    GameRatings,
    QuickPlayWaiting,
    QuickPlayLeft,
    QuickPlayFound,
    ChallengeSent,
    ChallengeAnswered,
)
