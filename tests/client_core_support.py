"""The text client's core carried out without a terminal or a server: each request a plan sends is answered by the
test, each question by the next line typed, and what it showed and sent is kept to look at."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from client import render
from client.core import effects as fx
from client.core.effects import Plan
from client.core.state import State
from client.followed import Followed
from shared.maps.codec import map_from_dict, map_to_dict
from shared.protocol.accounts import AccountInfo
from shared.protocol.lobby import GameSummary
from shared.protocol.messages import Update
from tests.engine_support import seed_map

T = TypeVar("T")


@dataclass
class Known:
    """What the session would know: the games followed, the lobby as last listed."""

    followed: dict[str, Followed] = field(default_factory=dict)
    games: list[GameSummary] = field(default_factory=list)
    account: AccountInfo | None = None
    accounts: str = "optional"


def unanswered(request: fx.Request) -> Any:
    raise AssertionError(f"no answer was expected for {request!r}")


@dataclass
class Run:
    """Carries plans out as the terminal would: `server` answers each request, `typed` each question in turn."""

    server: Callable[[fx.Request], Any] = unanswered
    typed: list[str | None] = field(default_factory=list)
    effects: list[fx.Effect] = field(default_factory=list)

    def __call__(self, plan: Plan[T]) -> T:
        answer: Any = None
        while True:
            try:
                effect = plan.send(answer)
            except StopIteration as done:
                return done.value  # type: ignore[no-any-return]
            self.effects.append(effect)
            if isinstance(effect, fx.Ask):
                assert self.typed, f"nothing typed for {effect.question!r}; shown so far:\n{self.shown}"
                answer = self.typed.pop(0)
            elif isinstance(effect, fx.Request):
                answer = self.server(effect)
            else:
                answer = None

    def take(self, effects: Iterable[fx.Effect]) -> None:
        """Effects returned at once (what the server said unasked), kept with the rest."""
        self.effects.extend(effects)

    @property
    def shown(self) -> str:
        """What the player saw: the text shown and the questions asked, in order."""
        out = []
        for effect in self.effects:
            if isinstance(effect, fx.Show):
                text = render.plain([(effect.style, effect.text)] if isinstance(effect.text, str) else effect.text)
                out.append(text if text.endswith("\n") else text + "\n")
            elif isinstance(effect, fx.Ask):
                out.append(effect.question)
        return "".join(out)

    def sent(self, kind: type[fx.Request] = fx.Request) -> list[fx.Request]:
        return [e for e in self.effects if isinstance(e, kind)]


def seed_followed(game_id: str, player: str | None) -> Followed:
    return Followed(game_id, player, game_map=map_from_dict(map_to_dict(seed_map())))


def state_of(*followed: Followed, name: str | None = None, games: Iterable[GameSummary] = ()) -> State:
    known = Known({f.game_id: f for f in followed}, list(games))
    return State("ws://game-night.example:8765", known, name=name)


def taken(followed: Followed, update: Update) -> list[Any]:
    """The update taken in as the session takes it: the log entries it brought."""
    return followed.apply(update, 0.0)
