"""Tab completion: command names first, then each argument by what it names.

The candidates come from the game on screen: `place` and the FROM of `move`/`attack` offer the player's own
territories, the TO of `attack` the territories next to FROM that someone else holds, `join`/`watch` the games the
lobby last listed. Matching ignores case, like the parser (D4); a name with spaces is offered in double quotes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from client.commands import SPECS, Arg, Spec, resolve_command, tokens
from shared.rules.names import match_name

CREATE_OPTIONS = ("units=", "neutral=", "time=", "choose")


class Candidates(Protocol):
    """Where the completer finds names: the client's knowledge of the game on screen and of the lobby."""

    def territories(self) -> Sequence[str]: ...

    def own_territories(self) -> Sequence[str]: ...

    def attackable_from(self, source: str) -> Sequence[str]: ...

    def game_ids(self) -> Sequence[str]: ...

    def map_names(self) -> Sequence[str]: ...


@dataclass
class StaticCandidates:
    """Fixed lists: for tests, and for a client not yet in a game."""

    all_territories: Sequence[str] = ()
    own: Sequence[str] = ()
    borders: dict[str, Sequence[str]] = field(default_factory=dict)
    games: Sequence[str] = ()
    maps: Sequence[str] = ()

    def territories(self) -> Sequence[str]:
        return self.all_territories

    def own_territories(self) -> Sequence[str]:
        return self.own

    def attackable_from(self, source: str) -> Sequence[str]:
        return [t for t in self.borders.get(source, ()) if t not in self.own]

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
        if len(words) == 1:
            yield from self._complete(partial, typed, sorted({s.name for s in SPECS}))
            return
        spec = resolve_command(words[0])
        if not isinstance(spec, Spec):
            return
        position = len(words) - 2
        if position >= len(spec.args):
            return
        yield from self._complete(partial, typed, self._names(spec.args[position], words))

    def _names(self, kind: Arg, words: list[str]) -> Sequence[str]:
        c = self.candidates
        if kind is Arg.COMMAND:
            return sorted({s.name for s in SPECS})
        if kind is Arg.OWN:
            return c.own_territories() or c.territories()
        if kind is Arg.TARGET:
            return c.territories()
        if kind is Arg.ENEMY:
            source = match_name(words[2], c.territories()) if len(words) > 3 else None
            if isinstance(source, str):
                return c.attackable_from(source) or c.territories()
            return c.territories()
        if kind is Arg.GAME:
            return c.game_ids()
        if kind is Arg.MAP:
            return c.map_names()
        if kind is Arg.OPTION:
            return CREATE_OPTIONS
        return ()

    @staticmethod
    def _complete(partial: str, typed: int, names: Sequence[str]) -> Iterable[Completion]:
        wanted = partial.casefold()
        for name in names:
            if name.casefold().startswith(wanted):
                yield Completion(_quoted(name), start_position=-typed, display=name)
