"""What the text client's decisions read and keep, and the steps every one of them takes: asking the server and
saying why nothing came back, a refusal in the server's words, the game a command is for.

The session (client/session.py) keeps what the server said of each game; the state keeps what the screen is at: the
game on screen, those parked off it while one name plays several, the news held while a command is answered, and
what was last said of each game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from client import commands as cmd
from client.core.effects import Plan, Request, Show, Unsent
from client.followed import Followed
from client.link import LinkState
from client.tracker import Tracker
from shared.game.presentation import Context
from shared.protocol import messages as msg
from shared.protocol.accounts import AccountInfo, HomeGame
from shared.protocol.lobby import GameSummary

R = TypeVar("R", bound=msg.ServerMessage)

SEAT_KEPT = "Your seat stays yours: run the same command again to come back to the game."
"""What quitting says while a seat is in play (`{game_id}` names the game)."""


class Known(Protocol):
    """What the session knows, as the decisions read it: the games followed, the lobby as last listed, and the
    account it is signed in to."""

    @property
    def followed(self) -> Mapping[str, Followed]: ...

    @property
    def games(self) -> Sequence[GameSummary]: ...

    @property
    def account(self) -> AccountInfo | None:
        """The account signed in to (None: a guest)."""
        ...

    @property
    def accounts(self) -> str:
        """Whether the server has accounts: `off`, `optional` or `required`, as its welcome said."""
        ...


@dataclass
class State:
    url: str
    known: Known
    name: str | None = None
    watch_id: str | None = None
    """The game `--watch` named: watched at the start."""
    tracker: Tracker | None = None
    """The game on screen (played or watched); None in the lobby."""
    size: tuple[int, int] = (80, 24)
    """The terminal's columns and rows, as last measured."""
    page_rows: int | None = None
    """How many lines of a command's answer one screen shows above the prompt and the status bar; None: no paging
    (no terminal to page)."""
    maps: list[str] = field(default_factory=list)
    """The map ids the server last listed (for Tab)."""
    expecting: str | None = None
    """A game being joined, watched or resumed: its first updates put it on screen."""
    holding: int = 0
    held: list[tuple[Followed, list[Any], msg.Update]] = field(default_factory=list)
    """Updates that came while a command was being answered: shown after its answer, so that nothing printed is older
    than what it follows (the answer to a commit before the turn it resolved)."""
    seen: dict[str, int] = field(default_factory=dict)
    """The last log entry remembered in the seat store, by game."""
    trackers: dict[str, Tracker] = field(default_factory=dict)
    """The screen of each game played here, kept while it is off screen."""
    elsewhere: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    """What was last said of each game played off screen (its status, turn, whether it waits for the player)."""
    ended: set[str] = field(default_factory=set)
    """Games whose end was told with their statistics."""
    home: list[HomeGame] = field(default_factory=list)
    """The account's games as `home` last listed them: a number opens one."""
    queued_said: str | None = None
    """Who is queued for what, as quick play's wait was last shown (shown again only when it changes)."""
    relinking_as_guest: bool = False
    """The server closed the link because the account's session ended: it comes back as a guest's, unannounced
    (the sign-out was said)."""
    quit: bool = False
    seat_kept: str = SEAT_KEPT

    @property
    def signed_in(self) -> str | None:
        """The name of the account signed in to; None for a guest."""
        account = self.known.account
        return account.name if account is not None else None

    @property
    def columns(self) -> int:
        return self.size[0]

    @property
    def screen_rows(self) -> int:
        """The lines one screen of an answer may take."""
        return self.page_rows if self.page_rows is not None else self.size[1] - 2

    def setting(self) -> cmd.Setting:
        """What the parser and Tab read of the screen: the game on it, and the games known."""
        t = self.tracker
        games = list(dict.fromkeys([*self.known.followed, *(g.game_id for g in self.known.games)]))
        if t is None:
            return cmd.Setting(games=games)
        f = t.followed
        ruleset = f.ruleset
        simultaneous = f.game.simultaneous if f.game is not None else ruleset is None or ruleset.simultaneous
        return cmd.Setting(
            t.presentation, Context(f.game_map, f.view, f.player, tuple(f.orders)), games, f.players(), simultaneous
        )


def error(text: str) -> Show:
    return Show(text, "class:error")


def unsent_words(unsent: Unsent) -> str:
    """Why a request got no answer, and what the player can do about it."""
    if unsent.problems is not None:
        return f"Not sent: {unsent.problems}."
    if unsent.link is LinkState.CONNECTED:
        return f"No answer from the server: {unsent.lost}. Try again in a moment."
    if unsent.link is LinkState.RECONNECTING:
        return "Not connected to the server: the client reconnects by itself; try again in a moment."
    return "Disconnected from the server for good: type quit, then start the client again."


def send(request: Request) -> Plan[Any]:
    """The server's answer to a request (an error is a value), or None, having said why nothing came back."""
    reply = yield request
    if isinstance(reply, Unsent):
        yield error(unsent_words(reply))
        return None
    return reply


def answer(request: Request, wanted: type[R]) -> Plan[R | None]:
    """The server's answer when it is the one wanted; None, having said the server's refusal (or why nothing came
    back), otherwise."""
    reply = yield from send(request)
    if isinstance(reply, msg.Error):
        yield error(f"Refused: {reply.message}")
        return None
    return reply if isinstance(reply, wanted) else None


def on_screen(state: State, seated: bool = True) -> Plan[Tracker | None]:
    """The game on screen, for a command about it (`seated`: one only its players may give); None, said, without."""
    t = state.tracker
    if t is None:
        yield error("You are not in a game: games lists them; join or watch one.")
        return None
    if seated and t.player is None:
        yield error(f"You are watching game {t.game_id}: only its players give orders.")
        return None
    return t
