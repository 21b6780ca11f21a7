"""Plain text written to a terminal, broken at word boundaries to its width as the text client breaks what it prints:
the map editor's shell and the Warzone console print long lines (a continent with its territories, a territory with
its neighbours) that a terminal would otherwise cut in the middle of a word. Text for a file or a pipe goes as it is,
so scripts read whole lines."""

from __future__ import annotations

import os
from typing import TextIO

from shared.game.presentation import wrap


def terminal_width(stream: TextIO) -> int | None:
    """The columns of the terminal `stream` writes to; None when it writes to a file or a pipe."""
    try:
        if not stream.isatty():
            return None
        return os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError, AttributeError):
        return None


def fitted(text: str, stream: TextIO) -> str:
    """`text` broken at spaces to fit the terminal `stream` writes to (a broken line goes on indented), or as it
    is."""
    width = terminal_width(stream)
    if width is None:
        return text
    return "".join(part for _, part in wrap([("", text)], width - 1))


def write_line(text: str, stream: TextIO) -> None:
    print(fitted(text, stream), file=stream, flush=True)
