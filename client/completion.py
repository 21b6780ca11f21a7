"""Tab completion: command names first (the game's order commands only in the phases they are for), then each
argument by what it names.

The candidates come from the game on screen through its rule set's presentation (its own territories for a source,
the territories next to it for a target...), and from the lobby (game ids, maps). Matching ignores case, like the
parser (D4); a name with spaces is offered in double quotes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from client.commands import (
    HELP_TOPICS,
    Arg,
    Setting,
    Spec,
    client_commands,
    focus_names,
    order_commands,
    region_names,
    resolve_command,
    tokens,
)
from shared.game.presentation import ArgKind, OrderCommand

CREATE_OPTIONS = ("rules=", "time=", "bots=", "players=")
WORDS = {"signout": ("everywhere",), "sessions": ("end",)}
"""The words a command takes, by position."""


class Candidates(Protocol):
    """Where the completer finds names: the client's knowledge of the game on screen and of the lobby."""

    def setting(self) -> Setting: ...

    def phase(self) -> str | None: ...

    def game_ids(self) -> Sequence[str]: ...

    def map_names(self) -> Sequence[str]: ...


@dataclass
class StaticCandidates:
    """Fixed lists: for tests, and for a client not yet in a game."""

    fixed: Setting = field(default_factory=Setting)
    current_phase: str | None = None
    games: Sequence[str] = ()
    maps: Sequence[str] = ()

    def setting(self) -> Setting:
        return self.fixed

    def phase(self) -> str | None:
        return self.current_phase

    def game_ids(self) -> Sequence[str]:
        return self.games

    def map_names(self) -> Sequence[str]:
        return self.maps


def _quoted(name: str) -> str:
    return f'"{name}"' if " " in name else name


class CommandCompleter(Completer):
    def __init__(self, candidates: Candidates) -> None:
        self.candidates = candidates

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        before = document.text_before_cursor
        words = tokens(before)
        open_quote = before.count('"') % 2 == 1
        if not before or (before[-1].isspace() and not open_quote):
            words.append("")
        partial = words[-1]
        typed = len(partial) + (1 if open_quote else 0)
        setting = self.candidates.setting()
        if len(words) == 1:
            yield from self._complete(partial, typed, self._command_names(setting))
            return
        found = resolve_command(words[0], setting)
        if not isinstance(found, Spec | OrderCommand):
            return  # an unknown command, or one that takes nothing
        position = len(words) - 2
        if isinstance(found, OrderCommand) and found.repeat and found.args:
            position = min(position, len(found.args) - 1)
        if position >= len(found.args):
            if isinstance(found, Spec) and found.name == "create":
                yield from self._complete(partial, typed, CREATE_OPTIONS)
            return
        kind = found.args[position]
        if isinstance(found, OrderCommand):
            names: Sequence[str]
            if kind is ArgKind.CHOICE:
                names = found.options
            elif setting.presentation is None or not isinstance(kind, ArgKind):
                names = ()
            else:
                names = setting.presentation.candidates(kind, words, setting.context)
            yield from self._complete(partial, typed, names)
            return
        if kind is Arg.WORD:
            yield from self._complete(partial, typed, WORDS.get(found.name, ())[position : position + 1])
            return
        yield from self._complete(partial, typed, self._names(kind, setting))

    def _command_names(self, setting: Setting) -> list[str]:
        phase = self.candidates.phase()
        presentation = setting.presentation
        orders = [c.name for c in order_commands(setting) if not c.phases or phase is None or phase in c.phases]
        shows = [c.name for c in (presentation.shows if presentation is not None else ())]
        return sorted({*orders, *shows, *(s.name for s in client_commands(setting))})

    def _names(self, kind: Arg | ArgKind, setting: Setting) -> Sequence[str]:
        c = self.candidates
        if kind is Arg.COMMAND:  # what help takes: a topic or a command
            return sorted({*HELP_TOPICS, *self._command_names(setting)})
        if kind is Arg.GAME:
            return c.game_ids()
        if kind is Arg.MAP:
            return c.map_names()
        if kind is Arg.OPTION:
            return CREATE_OPTIONS
        if kind is Arg.PLAYER:
            return setting.players
        if kind is Arg.FOCUS:
            return focus_names(setting)
        if kind is Arg.REGION:
            return region_names(setting)
        return ()

    @staticmethod
    def _complete(partial: str, typed: int, names: Sequence[str]) -> Iterable[Completion]:
        wanted = partial.casefold()
        for name in names:
            if name.casefold().startswith(wanted):
                yield Completion(_quoted(name), start_position=-typed, display=name)
