"""The map editor's session as pure decisions: a state and a command give a new state and what to say.

The shell (client/map_editor.py) and the command-file runner are thin faces on this: they read lines, print the
reply, and do the one thing that needs the outside world, writing a file, which `savemap` hands them as a SavePlan
(the bytes, where, and the state once they are written). So every command and every refusal can be tested here
without a terminal or a disk.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from shared.maps.edit_commands import (
    Command,
    CommandError,
    EditCommand,
    EditPicture,
    Help,
    Quit,
    SaveMap,
    ShowMap,
    Undo,
    ValidateMap,
    help_text,
    parse_command,
)
from shared.maps.editing import EditError, apply_edits
from shared.maps.findings import Finding, FindingCode, Severity
from shared.maps.loader import MapReport
from shared.maps.model import GameMap, build_map
from shared.maps.pictures import PictureFacts, name_problem
from shared.maps.saving import MapFormat, choose_format, format_findings, read_rendered, render_map
from shared.maps.validate import COURSE_ERRORS, MapRules, validate_map

RULES_NAMES = {MapRules.COURSE: "the course rules", MapRules.RISC: "the RISC rules"}


@dataclass(frozen=True)
class UndoStep:
    previous: GameMap
    command: str


@dataclass(frozen=True)
class EditorState:
    """The map being edited, the file it belongs to, and how to go back.

    `saved` is the map as last read or written: the draft has unsaved changes exactly when it differs, so undoing
    back to it leaves nothing to lose.
    """

    draft: GameMap
    path: Path
    source_format: MapFormat | None
    saved: GameMap
    rules: MapRules = MapRules.COURSE
    undo: tuple[UndoStep, ...] = ()

    @property
    def unsaved(self) -> bool:
        # the picture is among the details, which comparing maps leaves out
        return self.draft != self.saved or self.draft.details.picture != self.saved.details.picture


class Action(StrEnum):
    """What the shell must do after printing the reply."""

    NONE = "none"
    SAVE = "save"
    LOOK_AT_PICTURE = "look-at-picture"
    CONFIRM_QUIT = "confirm-quit"
    QUIT = "quit"


@dataclass(frozen=True)
class SavePlan:
    """A save decided but not yet done: write `data` to `path`; then the session is `after` and says `lines`.

    `after` holds the map as the file now holds it (a Domination file has `_` for spaces, a .map file a
    position for every territory), so that what the editor shows is what reopening the file would show.
    """

    path: Path
    data: bytes
    after: EditorState
    lines: tuple[str, ...]


@dataclass(frozen=True)
class PicturePlan:
    """A picture named but not yet looked at: read `path` (at most MAX_PICTURE_BYTES of it) and give what it is to
    `picture_taken`, which decides."""

    path: Path
    name: str
    command: str


@dataclass(frozen=True)
class Reply:
    state: EditorState
    lines: tuple[str, ...] = ()
    ok: bool = True
    action: Action = Action.NONE
    save: SavePlan | None = None
    picture: PicturePlan | None = None


def new_map(path: Path, rules: MapRules = MapRules.COURSE) -> EditorState:
    """An empty map named after its file, for a file that does not exist yet."""
    empty = build_map(path.stem, [], {})
    return EditorState(empty, path, None, empty, rules)


def opened_map(path: Path, report: MapReport, rules: MapRules = MapRules.COURSE) -> EditorState | None:
    """The session for a file that was read; None when the file holds no map at all."""
    if report.game_map is None:
        return None
    try:
        fmt: MapFormat | None = MapFormat(report.format)
    except ValueError:
        fmt = None
    return EditorState(report.game_map, path, fmt, report.game_map, rules)


def opening_lines(state: EditorState, report: MapReport | None) -> list[str]:
    """What the editor says first: what was opened, and what reading it found."""
    if report is None:
        return [
            f"{state.path} does not exist: this is a new map, which savemap will write there "
            f"({_format_for(state).label} format). Type help for the commands."
        ]
    fmt = state.source_format.label if state.source_format else report.format
    lines = [f"opened {state.path} ({fmt}): {_summary(state.draft)}. Type help for the commands."]
    read = _sorted([f for f in report.findings if f.line is not None])
    if read:
        lines.append("reading the file found:")
        lines += [f"  {_finding_text(f)}" for f in read]
    if any(f.code is FindingCode.PARSE and f.severity is Severity.ERROR for f in read):
        lines.append("the lines that could not be read are not in the map")
    return lines


def _format_for(state: EditorState) -> MapFormat:
    fmt = choose_format(state.path, None, state.source_format)
    return fmt if isinstance(fmt, MapFormat) else MapFormat.DOMINATION


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {plural or word + 's'}"


def _summary(game_map: GameMap) -> str:
    return (
        f"{game_map.name}, {_plural(len(game_map.territories), 'territory', 'territories')}, "
        f"{_plural(len(game_map.continents), 'continent')}"
    )


def _finding_text(finding: Finding) -> str:
    return str(dataclasses.replace(finding, file=None))


def run_line(state: EditorState, line: str) -> Reply | None:
    """One line as typed: None for a blank line or a comment."""
    command = parse_command(line)
    if command is None:
        return None
    if isinstance(command, CommandError):
        return Reply(state, (f"error: {command.message}",), ok=False)
    return execute(state, command)


def execute(state: EditorState, command: Command) -> Reply:
    match command:
        case EditCommand(edits, text):
            result = apply_edits(state.draft, edits)
            if isinstance(result, EditError):
                return Reply(state, (f"error: {result.message} (nothing was changed)",), ok=False)
            changed = dataclasses.replace(state, draft=result.game_map, undo=(*state.undo, UndoStep(state.draft, text)))
            return Reply(changed, result.messages)
        case EditPicture(name, text):
            return _picture(state, name, text)
        case Undo():
            if not state.undo:
                return Reply(state, ("error: nothing to undo",), ok=False)
            step = state.undo[-1]
            back = dataclasses.replace(state, draft=step.previous, undo=state.undo[:-1])
            return Reply(back, (f"undid: {step.command}",))
        case ShowMap():
            return Reply(state, tuple(show_map(state)))
        case ValidateMap():
            return Reply(state, tuple(validation_lines(state)))
        case SaveMap(file, fmt):
            return _save(state, Path(file).expanduser() if file else state.path, fmt)
        case Help(topic):
            return Reply(state, tuple(help_text(topic)))
        case Quit(force):
            if force or not state.unsaved:
                return Reply(state, action=Action.QUIT)
            return Reply(state, ("the map has unsaved changes",), action=Action.CONFIRM_QUIT)


def _picture(state: EditorState, name: str | None, text: str) -> Reply:
    current = state.draft.details.picture
    if name is None:
        if current is None:
            return Reply(state, ("error: the map has no picture to remove",), ok=False)
        return _with_picture(state, None, text, (f"the map has no picture now (it was drawn over {current})",))
    problem = name_problem(name)
    if problem is not None:
        return Reply(state, (f"error: {problem} (nothing was changed)",), ok=False)
    return Reply(state, action=Action.LOOK_AT_PICTURE, picture=PicturePlan(state.path.parent / name, name, text))


def picture_taken(state: EditorState, plan: PicturePlan, found: PictureFacts | str) -> Reply:
    """What the picture `plan` named turned out to be (its facts, or why it is no picture the page can show)."""
    if isinstance(found, str):
        return Reply(state, (f"error: {plan.name}: {found} (nothing was changed)",), ok=False)
    lines = [f"the map is drawn over {plan.name} ({found.width} x {found.height} pixels)"]
    outside = [
        t.name
        for t in state.draft.territories
        if t.x is not None and t.y is not None and not (0 <= t.x <= found.width and 0 <= t.y <= found.height)
    ]
    unplaced = [t.name for t in state.draft.territories if t.x is None or t.y is None]
    if outside:
        lines.append(
            f"  note: {_plural(len(outside), 'territory', 'territories')} lie outside it ({', '.join(outside[:5])}"
            f"{', ...' if len(outside) > 5 else ''}): a territory's position is a pixel of the picture"
        )
    if unplaced:
        lines.append(
            f"  note: {_plural(len(unplaced), 'territory', 'territories')} have no position yet: the page places "
            "the territories of a map by their positions on its picture"
        )
    return _with_picture(state, plan.name, plan.command, tuple(lines))


def _with_picture(state: EditorState, name: str | None, text: str, lines: tuple[str, ...]) -> Reply:
    draft = dataclasses.replace(state.draft, details=state.draft.details.with_picture(name))
    changed = dataclasses.replace(state, draft=draft, undo=(*state.undo, UndoStep(state.draft, text)))
    return Reply(changed, lines)


def _sorted(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: f.severity is not Severity.ERROR)


def validation_lines(state: EditorState) -> list[str]:
    findings = _sorted(validate_map(state.draft, state.rules))
    errors = sum(f.severity is Severity.ERROR for f in findings)
    warnings = len(findings) - errors
    rules = RULES_NAMES[state.rules]
    if errors:
        head = f"the map is not valid under {rules}: {_plural(errors, 'error')}"
        head += f", {_plural(warnings, 'warning')}" if warnings else ""
    else:
        head = f"the map is valid under {rules} ({_summary(state.draft)})"
        head += f", with {_plural(warnings, 'warning')}" if warnings else ""
    return [head, *(f"  {_finding_text(f)}" for f in findings)]


def _save(state: EditorState, path: Path, requested: MapFormat | None) -> Reply:
    fmt = choose_format(path, requested, state.source_format)
    if not isinstance(fmt, MapFormat):
        return Reply(state, (f"error: {fmt.message}; nothing was written",), ok=False)
    findings = validate_map(state.draft, state.rules)
    codes = {f.code for f in findings}
    findings += [f for f in format_findings(state.draft, fmt) if f.code not in codes]
    findings = _sorted(findings)
    errors = [f for f in findings if f.severity is Severity.ERROR]
    if errors:
        lines = [
            f"error: not saved: the map has {_plural(len(errors), 'error')} "
            f"(under {RULES_NAMES[state.rules]}, as a {fmt.label} file):",
            *(f"  {_finding_text(f)}" for f in findings),
        ]
        if (
            state.rules is MapRules.COURSE
            and all(f.code in COURSE_ERRORS | {FindingCode.NO_CONTINENT} for f in errors)
            and fmt is MapFormat.NATIVE
        ):
            lines.append("  RISC itself plays this map: edit it with --rules risc to save it as it is")
        return Reply(state, tuple(lines), ok=False)
    data = render_map(state.draft, fmt, path)
    written = read_rendered(data, fmt, path) or state.draft
    after = dataclasses.replace(state, draft=written, path=path, source_format=fmt, saved=written)
    said = (f"saved {path} ({fmt.label}): {_summary(state.draft)}", *(f"  {_finding_text(f)}" for f in findings))
    return Reply(state, action=Action.SAVE, save=SavePlan(path, data, after, said))


def show_map(state: EditorState) -> list[str]:
    game_map = state.draft
    names = game_map.names
    one_way = sum(1 for a in names for b in game_map.neighbours(a) if b != a and a not in game_map.neighbours(b))
    two_way = (sum(len(game_map.neighbours(a) - {a}) for a in names) - one_way) // 2
    fmt = state.source_format.label if state.source_format else "new"
    head = (
        f"{game_map.name} ({state.path}, {fmt}): {_plural(len(names), 'territory', 'territories')}, "
        f"{_plural(len(game_map.continents), 'continent')}, {_plural(two_way, 'border')}"
    )
    head += f", {one_way} one-way" if one_way else ""
    head += f", drawn over {game_map.details.picture}" if game_map.details.picture else ""
    head += "; unsaved changes" if state.unsaved else ""
    lines = [head]
    if not names and not game_map.continents:
        return [*lines, "  the map is empty: start with editcontinent -add NAME VALUE"]
    members = game_map.continent_members()
    lines.append("Continents:")
    if not game_map.continents:
        lines.append("  none")
    for continent in game_map.continents:
        inside = ", ".join(members[continent.name]) or "no territory"
        lines.append(f"  {continent.name} (worth {continent.bonus}): {inside}")
    lines.append("Territories:")
    if not names:
        lines.append("  none")
    defined = set(members)
    width = min(max((len(n) for n in names), default=0), 28)
    for t in game_map.territories:
        if t.continent is None:
            where = "no continent"
        elif t.continent in defined:
            where = t.continent
        else:
            where = f'unknown continent "{t.continent}"'
        lines.append(f"  {t.name:<{width}}  [{where}]  {_borders(game_map, t.name)}")
    return lines


def _borders(game_map: GameMap, name: str) -> str:
    out = [n for n in game_map.neighbours_in_order(name) if n != name]
    both = [n for n in out if name in game_map.neighbours(n)]
    to = [n for n in out if name not in game_map.neighbours(n)]
    into = [n for n in game_map.names if n != name and name in game_map.neighbours(n) and n not in out]
    parts = [", ".join(both)] if both else []
    parts += [f"one-way to {', '.join(to)}"] if to else []
    parts += [f"one-way from {', '.join(into)}"] if into else []
    return "; ".join(parts) or "no border"
