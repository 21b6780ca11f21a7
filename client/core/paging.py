"""A command's answer a screen at a time: what is longer than the terminal waits for Enter before it goes on, so the
player reads it from its first line (Warzone's `help orders`, a board of 40 territories, a server of 30 maps).

Each piece of text shown is kept whole on one screen where it fits one (a map's picture is never cut in two); one
longer than a screen is cut at its lines. Paging is the terminal's: without one (a script, a test reading the
transcript) everything is shown at once.
"""

from __future__ import annotations

from typing import Any, TypeVar

from client.core.effects import Ask, Plan, Show
from client.core.state import State
from shared.game.presentation import Fragments, wrap

T = TypeVar("T")

MORE = "(more: Enter shows the next screen, q stops) "


def screen_lines(shown: Show, width: int) -> list[Fragments]:
    """The lines `shown` takes on a terminal `width` columns wide, each without its line's end."""
    text: Fragments = [(shown.style, shown.text)] if isinstance(shown.text, str) else list(shown.text)
    lines: list[Fragments] = [[]]
    for style, part in wrap(text, width):
        pieces = part.split("\n")
        for number, piece in enumerate(pieces):
            if number:
                lines.append([])
            if piece:
                lines[-1].append((style, piece))
    if lines and not lines[-1]:
        lines.pop()
    return lines


def _joined(lines: list[Fragments]) -> Fragments:
    out: Fragments = []
    for one in lines:
        out += [*one, ("", "\n")]
    return out


def paged(state: State, plan: Plan[T]) -> Plan[T]:
    """`plan` carried out with what it shows cut into screens of `state.page_rows` lines, each after the first once
    the player presses Enter; what comes after they stop is not shown (the plan goes on: its requests are made)."""
    used = 0
    stopped = False
    answer: Any = None
    while True:
        try:
            effect = plan.send(answer)
        except StopIteration as done:
            result: T = done.value
            return result
        answer = None
        rows = state.page_rows
        if not isinstance(effect, Show) or rows is None:
            if isinstance(effect, Ask):
                used = 0  # the question and its answer start a new screen
            answer = yield effect
            continue
        if stopped:
            continue
        lines = screen_lines(effect, state.columns - 1)
        if used + len(lines) <= rows:
            used += len(lines)
            yield effect
            continue
        if used and len(lines) <= rows:  # a piece that fits a screen starts the next one, whole
            if not (yield from _more()):
                stopped = True
                continue
            used = len(lines)
            yield effect
            continue
        while lines:
            if used >= rows:
                if not (yield from _more()):
                    stopped = True
                    break
                used = 0
            chunk, lines = lines[: rows - used], lines[rows - used :]
            yield Show(_joined(chunk))
            used += len(chunk)


def _more() -> Plan[bool]:
    """Whether the player wants the next screen (Enter), or stops (q, anything else, or the end of input)."""
    typed: str | None = yield Ask(MORE)
    return typed == ""
