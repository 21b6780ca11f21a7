"""What a plan of the core yields, and what it is handed back.

A plan is a generator: each effect it yields is carried out by whoever runs it (the terminal, or a test), and the
answer goes back in through `send`: what the player typed for an `Ask`, the server's reply (or why there is none,
`Unsent`) for a request, nothing for the rest. So a decision reads top to bottom as the player lives it (ask the
server, then say what it answered) while the core itself never waits and never touches a socket, a file or a
terminal, as the sans-I/O protocol libraries do.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel

from client.followed import Followed
from client.link import LinkState
from shared.game.presentation import Fragments
from shared.protocol.lobby import GameSettings

T = TypeVar("T")

Plan = Generator["Effect", Any, T]
"""A decision under way: yields effects, is sent their answers, returns its result."""


@dataclass(frozen=True)
class Show:
    """Text printed above the prompt (a string in one style, or styled fragments)."""

    text: Fragments | str
    style: str = ""


@dataclass(frozen=True)
class Bell:
    """The terminal's bell: something waits for the player in a game not on screen."""


@dataclass(frozen=True)
class Ask:
    """A question at the prompt; the line typed comes back, stripped (None: input ended, or Ctrl-C). `secret`: a
    password, typed without echo and never kept (not in the transcript, not in the prompt's history)."""

    question: str
    secret: bool = False


@dataclass(frozen=True)
class Later:
    """A plan carried out beside the prompt while the player goes on typing (a finished game's figures)."""

    plan: Plan[None]


@dataclass(frozen=True)
class Seen:
    """How far a seat's player has seen its game's log, to keep with the seat (coming back shows what came after)."""

    game_id: str
    player: str
    seq: int


@dataclass(frozen=True)
class KeepSeat:
    """A seat to keep on disk (the rematch the server seated the player in while they were away)."""

    game_id: str
    player: str
    token: str


@dataclass(frozen=True)
class ForgetSeat:
    """A seat whose game is over or gone: no longer offered."""

    game_id: str
    player: str


@dataclass(frozen=True)
class Unsent:
    """What a request is answered with when it got no reply: the link's state then, and why (`problems`: what was
    typed cannot make a message the server would take, in the protocol's words; `lost`: the link's own words)."""

    link: LinkState
    problems: str | None = None
    lost: str = ""


# ---- requests: what the core asks of the server, through the session ------------------------------------------------


@dataclass(frozen=True)
class Request:
    """What the core asks of the server; answered with the server's reply, or `Unsent`. A face may have requests of
    its own (`risc play` makes its new game on the server it runs)."""


@dataclass(frozen=True)
class ListGames(Request):
    limit: int = 50


@dataclass(frozen=True)
class ListMaps(Request):
    pass


@dataclass(frozen=True)
class ListRuleSets(Request):
    pass


@dataclass(frozen=True)
class CreateGame(Request):
    settings: GameSettings


@dataclass(frozen=True)
class JoinGame(Request):
    game_id: str
    name: str
    group: int | None = None


@dataclass(frozen=True)
class WatchGame(Request):
    game_id: str
    follow: str | None = None


@dataclass(frozen=True)
class LeaveGame(Request):
    game_id: str


@dataclass(frozen=True)
class ResumeSeat(Request):
    """Back to a seat: with its token, or (None) the signed-in account's seat, which needs none."""

    game_id: str
    player: str
    token: str | None
    last_seq: int | None = None


@dataclass(frozen=True)
class IssueOrder(Request):
    followed: Followed
    order: Any


@dataclass(frozen=True)
class IssueOrders(Request):
    """Several orders in one message each batch (answered with a list of replies)."""

    followed: Followed
    orders: Sequence[Any]


@dataclass(frozen=True)
class ListOrders(Request):
    followed: Followed


@dataclass(frozen=True)
class WithdrawOrder(Request):
    followed: Followed
    index: int


@dataclass(frozen=True)
class ShiftOrder(Request):
    followed: Followed
    index: int
    to: int


@dataclass(frozen=True)
class Commit(Request):
    followed: Followed


@dataclass(frozen=True)
class HandOver(Request):
    followed: Followed
    player: str


@dataclass(frozen=True)
class Chat(Request):
    game_id: str | None
    text: str
    to: str | None = None
    name: str | None = None


@dataclass(frozen=True)
class Resign(Request):
    followed: Followed


@dataclass(frozen=True)
class Rematch(Request):
    followed: Followed


@dataclass(frozen=True)
class AskStatistics(Request):
    game_id: str


# ---- the account (protocol 5): a password is a field nobody prints ---------------------------------------------------


@dataclass(frozen=True)
class SignUp(Request):
    name: str
    password: str = field(repr=False)


@dataclass(frozen=True)
class SignIn(Request):
    name: str
    password: str = field(repr=False)


@dataclass(frozen=True)
class SignOut(Request):
    everywhere: bool = False


@dataclass(frozen=True)
class ChangePassword(Request):
    password: str = field(repr=False)
    new_password: str = field(repr=False)


@dataclass(frozen=True)
class ListSessions(Request):
    pass


@dataclass(frozen=True)
class EndSession(Request):
    session: str


@dataclass(frozen=True)
class MyGames(Request):
    pass


@dataclass(frozen=True)
class Said(Request):
    """A message of the protocol sent as it is, keeping nothing in the session (a nudge, a vacation, notification
    settings, ladders, quick play, challenges), and its answer."""

    message: BaseModel


Effect = Show | Bell | Ask | Later | Seen | KeepSeat | ForgetSeat | Request
