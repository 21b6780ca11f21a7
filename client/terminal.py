"""How the text client writes to the terminal: each player's colour and the other styles, the terminal's size, text
printed above the prompt, broken at word boundaries to the terminal's width, without touching what the player is
typing, and a password's prompt that shows nothing of what is typed."""

from __future__ import annotations

import os
import sys

from prompt_toolkit.application import get_app_or_none, get_app_session
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.layout.processors import Processor, Transformation, TransformationInput
from prompt_toolkit.shortcuts import print_formatted_text
from prompt_toolkit.styles import Style

from shared.game.presentation import PLAYER_STYLES, Fragments, wrap

PLAYER_COLOURS = (
    "ansigreen",
    "ansibrightblue",
    "ansired",
    "ansiyellow",
    "ansimagenta",
    "ansicyan",
    "ansibrightred",
    "ansibrightgreen",
)
assert len(PLAYER_COLOURS) == PLAYER_STYLES
STYLE = Style.from_dict(
    {
        **{f"player.{i}": f"{colour} bold" for i, colour in enumerate(PLAYER_COLOURS)},
        "neutral": "ansigray",
        "title": "bold underline",
        "muted": "ansigray",
        "error": "ansired bold",
        "ok": "ansigreen",
        "hint": "ansicyan",
        "turn": "bold reverse",
        "win": "ansiyellow bold",
        "bottom-toolbar": "reverse",
    }
)


def size() -> tuple[int, int]:
    """The terminal's columns and rows (prompt_toolkit's output: 80 by 40 when there is no terminal)."""
    measured = get_app_session().output.get_size()
    return measured.columns, measured.rows


def interactive() -> bool:
    """Whether the client writes to a terminal a person reads (not a pipe, a file or a test's dummy output): only
    then is a long answer shown a screen at a time."""
    try:
        return os.isatty(get_app_session().output.fileno())
    except (NotImplementedError, OSError, ValueError):
        return False


def fragments(text: Fragments | str, style: str = "") -> Fragments:
    """Text as styled fragments, ending with a line's end."""
    out: Fragments = [(style, text)] if isinstance(text, str) else list(text)
    if out and not "".join(part for _, part in out).endswith("\n"):
        out.append(("", "\n"))
    return out


def print_above(text: Fragments) -> None:
    """Print above the prompt (or plainly before it exists), broken to the terminal's width."""
    shown = wrap(text, size()[0] - 1)
    print_formatted_text(FormattedText(shown), style=STYLE, end="")
    refresh()


def bell() -> None:
    """Ring the terminal's bell (a game not on screen waits for the player)."""
    app = get_app_or_none()
    if app is not None and app.is_running:
        app.output.bell()
    else:
        sys.stdout.write("\a")
        sys.stdout.flush()


def refresh() -> None:
    """Draw the prompt and the status bar again, when they are there."""
    app = get_app_or_none()
    if app is not None and app.is_running:
        app.invalidate()


class Unechoed(Processor):
    """What is typed at a password's prompt shown as nothing at all, not even its length (no stars, the cursor
    still), as getpass and sudo ask for one."""

    def apply_transformation(self, transformation_input: TransformationInput) -> Transformation:
        return Transformation([], source_to_display=lambda _: 0, display_to_source=lambda _: 0)
