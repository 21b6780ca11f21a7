"""`risc maps edit FILE`: the map editor's shell, and the runner for a file of its commands.

Both are thin faces on shared/maps/editor.py, which decides everything: here a line is read, the reply printed,
and the one effect a reply can ask for, writing the map, is carried out. The shell offers what prompt_toolkit
gives a typist: Tab completes commands, options, and the continents and territories of the map as it is now,
and the arrow keys recall earlier lines (kept between sessions where the user's config folder allows).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TextIO

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory, History, InMemoryHistory

from client.terminal_text import write_line
from client.tokens import config_dir
from shared.maps.edit_commands import COMMANDS, ArgKind, Token, expected_next, tokenize
from shared.maps.editor import (
    Action,
    EditorState,
    Reply,
    new_map,
    opened_map,
    opening_lines,
    picture_taken,
    run_line,
)
from shared.maps.findings import Severity
from shared.maps.loader import bundled_map_names, bundled_maps_dir, check_map_file
from shared.maps.pictures import MAX_PICTURE_BYTES, PictureFacts, read_picture
from shared.maps.saving import MapFormat, write_atomically
from shared.maps.validate import MapRules

HISTORY_FILE = "map-editor-history"


class EditorSession:
    """The state between lines, and the writing of a save the state asked for."""

    def __init__(self, state: EditorState) -> None:
        self.state = state

    def run(self, line: str) -> Reply | None:
        reply = run_line(self.state, line)
        if reply is None:
            return None
        if reply.action is Action.LOOK_AT_PICTURE and reply.picture is not None:
            reply = picture_taken(self.state, reply.picture, look_at_picture(reply.picture.path))
        plan = reply.save
        if reply.action is Action.SAVE and plan is not None:
            try:
                write_atomically(plan.path, plan.data)
            except OSError as exc:
                reason = exc.strerror or str(exc)
                return Reply(self.state, (f"error: cannot write {plan.path}: {reason}; nothing was changed",), ok=False)
            self.state = plan.after
            return Reply(plan.after, plan.lines)
        self.state = reply.state
        return reply


def look_at_picture(path: Path) -> PictureFacts | str:
    """What the file at `path` is as a map's picture, or why it cannot be one (read no further than a picture may
    be long)."""
    try:
        with path.open("rb") as file:
            return read_picture(file.read(MAX_PICTURE_BYTES + 1))
    except FileNotFoundError:
        return f"there is no file {path.name} beside the map ({path.parent})"
    except OSError as exc:
        return f"cannot read {path}: {exc.strerror or exc}"


def open_session(path: Path, rules: MapRules) -> tuple[EditorSession, list[str]] | list[str]:
    """The session for FILE and what to say first, or why FILE cannot be edited."""
    if path.is_dir():
        return [f"{path} is a folder, not a map file"]
    if not path.exists():
        state = new_map(path, rules)
        lines = opening_lines(state, None)
        if str(path) in bundled_map_names():
            lines.append(
                f'note: "{path}" is also a bundled map; to edit it, give its file: {bundled_maps_dir() / path}.toml'
            )
        return EditorSession(state), lines
    try:
        report = check_map_file(path)
    except OSError as exc:
        return [f"cannot read {path}: {exc.strerror or exc}"]
    opened = opened_map(path, report, rules)
    if opened is None:
        errors = [f for f in report.findings if f.severity is Severity.ERROR]
        return [f"{path} holds no map that can be edited:", *(f"  {f.message}" for f in errors)]
    lines = opening_lines(opened, report)
    if opened.source_format is MapFormat.NATIVE and _has_comments(path):
        lines.append("note: savemap writes a native map without the file's # comments")
    return EditorSession(opened), lines


def _has_comments(path: Path) -> bool:
    with contextlib.suppress(OSError, UnicodeDecodeError):
        return any(line.lstrip().startswith("#") for line in path.read_text(encoding="utf-8").splitlines())
    return False


def _print(lines: Iterable[str], out: TextIO) -> None:
    for line in lines:
        write_line(line, out)


def run_commands(
    session: EditorSession, lines: Iterable[str], source: str, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Each command echoed and answered; the first that fails stops the run with its line number (status 1).

    `quit` with unsaved changes fails: nobody is there to answer the question, so the changes are kept and the
    script is told how to say what it means (savemap first, or quit -force).
    """
    out, err = out or sys.stdout, err or sys.stderr
    for number, line in enumerate(lines, start=1):
        reply = session.run(line)
        if reply is None:
            continue
        print(f"> {line.strip()}", file=out)
        _print(reply.lines, out)
        if reply.action is Action.CONFIRM_QUIT:
            print(
                f"{source}:{number}: error: quit with unsaved changes: savemap first, or quit -force to drop them",
                file=err,
            )
            return 1
        if not reply.ok:
            said = next((text for text in reply.lines if text.startswith("error:")), "error: the command failed")
            print(f"{source}:{number}: {said}", file=err)
            return 1
        if reply.action is Action.QUIT:
            return 0
    if session.state.unsaved:
        print(f"{source}: note: the map has unsaved changes, which were not written", file=err)
    return 0


def _quoted(name: str) -> str:
    return f'"{name}"' if " " in name else name


class MapCompleter(Completer):
    """Completion from the command table and the map as it is now: the right names for each argument."""

    def __init__(self, session: EditorSession) -> None:
        self.session = session
        self.paths = PathCompleter(expanduser=True)

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        before = document.text_before_cursor
        words = tokenize(before)
        open_quote = before.count('"') % 2 == 1
        if not words or (before[-1].isspace() and not open_quote):
            words.append(Token("", False))
        partial = words[-1].text
        typed = len(partial) + (1 if open_quote else 0)
        if len(words) == 1:
            yield from _matching(partial, typed, [spec.name for spec in COMMANDS])
            return
        expected = expected_next(words[:-1])
        if expected is None:
            return
        kind, spec = expected
        flags = [option.flag for option in spec.options]
        if kind is ArgKind.FILE and not partial.startswith("-"):
            yield from self.paths.get_completions(Document(partial), complete_event)
            return
        yield from _matching(partial, typed, self._names(kind, flags))

    def _names(self, kind: ArgKind, flags: Sequence[str]) -> Sequence[str]:
        game_map = self.session.state.draft
        if kind is ArgKind.CONTINENT:
            return [c.name for c in game_map.continents]
        if kind is ArgKind.TERRITORY:
            return game_map.names
        if kind in (ArgKind.OPTION, ArgKind.FILE):
            return flags
        if kind is ArgKind.FORMAT:
            return [fmt.value for fmt in MapFormat]
        if kind is ArgKind.COMMAND:
            return [spec.name for spec in COMMANDS]
        return ()


def _matching(partial: str, typed: int, names: Sequence[str]) -> Iterable[Completion]:
    wanted = partial.casefold()
    for name in names:
        if name.casefold().startswith(wanted):
            yield Completion(_quoted(name), start_position=-typed, display=name)


def _history() -> History:
    """Lines from earlier sessions where the config folder can be written, else this session's only."""
    try:
        folder = config_dir()
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        path = folder / HISTORY_FILE
        path.touch(exist_ok=True)
    except OSError:
        return InMemoryHistory()
    return FileHistory(str(path))


def run_shell(session: EditorSession) -> int:
    """The interactive editor: Ctrl-C drops the line being typed, Ctrl-D is quit."""
    prompt: PromptSession[str] = PromptSession(
        completer=MapCompleter(session), history=_history(), complete_while_typing=False
    )
    while True:
        marker = "*" if session.state.unsaved else ""
        try:
            line = prompt.prompt(f"{session.state.path.name}{marker}> ")
        except KeyboardInterrupt:
            continue
        except EOFError:
            line = "quit"
        reply = session.run(line)
        if reply is None:
            continue
        _print(reply.lines, sys.stdout)
        if reply.action is Action.QUIT:
            return 0
        if reply.action is Action.CONFIRM_QUIT and _confirm("quit without saving? [y/N] "):
            return 0


def _confirm(question: str) -> bool:
    """Only a yes leaves; anything else, Ctrl-C or Ctrl-D included, stays."""
    try:
        answer: str = PromptSession[str]().prompt(question)
    except (KeyboardInterrupt, EOFError):
        answer = ""
    if answer.strip().casefold() in ("y", "yes"):
        return True
    print("not quitting: savemap writes the map, quit -force leaves without saving")
    return False


def edit(file: str, rules: MapRules, commands: str | None) -> int:
    """`risc maps edit`: the shell on a terminal; a file of commands (or standard input) otherwise."""
    try:
        return _edit(file, rules, commands)
    except BrokenPipeError:
        # Whoever read the output went away (`| head`): stop quietly, and keep Python from complaining at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _edit(file: str, rules: MapRules, commands: str | None) -> int:
    opened = open_session(Path(file), rules)
    if isinstance(opened, list):
        _print(opened, sys.stderr)
        return 1
    session, lines = opened
    _print(lines, sys.stdout)
    if commands == "-" or (commands is None and not sys.stdin.isatty()):
        return run_commands(session, sys.stdin, "<stdin>")
    if commands is not None:
        try:
            text = Path(commands).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            print(f"cannot read the commands in {commands}: {exc}", file=sys.stderr)
            return 1
        return run_commands(session, text.splitlines(), commands)
    return run_shell(session)
