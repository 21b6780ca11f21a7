"""`risc warzone`: the COMP 345 Warzone console's face, at one terminal or reading a file of commands.

Everything the console decides is shared/rulesets/warzone/console.py's, as the map editor's shell is a face on
shared/maps/editor.py: here a line is read (from the terminal, or with `-file F` from a file), what the console says
is printed, and its game log is written to the file given. The map files the console loads are read here too.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO

from client.terminal_text import write_line
from shared.maps import check_map_file
from shared.rulesets.warzone.console import (
    DEFAULT_MAX_TURNS,
    SAY,
    Console,
    State,
    parse_tournament,
)

__all__ = ["DEFAULT_MAX_TURNS", "Log", "State", "WarzoneConsole", "main", "parse_tournament"]


class Log:
    """The game log: one line per command, effect, order and change of state, tagged with its kind."""

    def __init__(self, out: TextIO | None) -> None:
        self.out = out

    def write(self, kind: str, text: str) -> None:
        if self.out is not None:
            for line in text.splitlines() or [""]:
                self.out.write(f"[{kind}] {line}\n")
            self.out.flush()


class WarzoneConsole:
    """The console at a terminal: each line handed to the core, what it says printed, what it logs written."""

    def __init__(
        self,
        say: Callable[[str], None],
        log: Log | None = None,
        seed: str | None = None,
        max_turns: int = DEFAULT_MAX_TURNS,
    ) -> None:
        self.say = say
        self.log = log or Log(None)
        self.core = Console(check_map_file, seed if seed is not None else str(secrets.randbelow(10**9)), max_turns)

    @property
    def state(self) -> State:
        return self.core.state

    @property
    def acting(self) -> str | None:
        return self.core.acting

    @property
    def finished(self) -> bool:
        return self.core.finished

    def handle(self, line: str) -> None:
        for kind, text in self.core.handle(line):
            if kind == SAY:
                self.say(text)
            else:
                self.log.write(kind, text)

    def run(self, lines: Iterable[str], echo: bool = False) -> None:
        for line in lines:
            if self.finished:
                return
            if echo and line.strip():
                self.say(f"> {line.rstrip()}")
            self.handle(line)
        if not self.finished:
            self.log.write("effect", "end of the commands")


def main(
    file: str | None = None,
    log_path: str | None = None,
    seed: str | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    out: TextIO | None = None,
    lines: Iterable[str] | None = None,
) -> int:
    """Run the console: commands from `file`, else from `lines`, else from the terminal."""
    stream = out or sys.stdout

    def say(text: str) -> None:
        write_line(text, stream)

    log_file = open(log_path, "w", encoding="utf-8") if log_path else None  # noqa: SIM115 (closed below)
    try:
        console = WarzoneConsole(say, Log(log_file), seed, max_turns)
        say(
            "Warzone (COMP 345 console). Commands: loadmap FILE, validatemap, addplayer NAME [-strategy S], "
            "gamestart; tournament -M ... -P ... -G N -D N; help."
        )
        if file is not None:
            try:
                text = Path(file).read_text(encoding="utf-8")
            except OSError as exc:
                say(f"error: cannot read the command file {file}: {exc.strerror or exc}")
                return 1
            console.run(text.splitlines(), echo=True)
        elif lines is not None:
            console.run(lines, echo=True)
        else:
            while not console.finished:
                try:
                    line = input(f"{console.acting or console.state.value}> ")
                except EOFError:
                    break
                console.handle(line)
        return 0
    finally:
        if log_file is not None:
            log_file.close()
