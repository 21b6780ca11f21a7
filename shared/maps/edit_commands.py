"""The map editor's command language: the SOEN 6441 grammar (../shared/spec/classic.md M1) plus undo, help and quit.

Parsing is pure: a line gives a command value or a CommandError that says what is wrong and how to say it right.
One table (COMMANDS) describes every command, its options and what each argument names; the parser, `help` and
the shell's completion all read it, so they cannot disagree. Names with spaces are written in double quotes; a
quoted word is always a name, never an option.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from shared.maps.editing import (
    AddBorder,
    AddContinent,
    AddTerritory,
    Edit,
    RemoveBorder,
    RemoveContinent,
    RemoveTerritory,
)
from shared.maps.saving import MapFormat, parse_format


class ArgKind(StrEnum):
    """What an argument names, so that completion can offer the right names."""

    NEW_NAME = "new name"
    VALUE = "value"
    CONTINENT = "continent"
    TERRITORY = "territory"
    FILE = "file"
    FORMAT = "format"
    COMMAND = "command"
    OPTION = "option"
    """Not an argument: where the command's options (-add, -remove...) are expected."""


@dataclass(frozen=True)
class Arg:
    label: str
    kind: ArgKind


@dataclass(frozen=True)
class OptionSpec:
    flag: str
    args: tuple[Arg, ...] = ()


@dataclass(frozen=True)
class CommandSpec:
    name: str
    usage: str
    summary: str
    details: str
    options: tuple[OptionSpec, ...] = ()
    positional: tuple[Arg, ...] = ()
    """Arguments before any option; all optional except for the edit commands, which have none."""
    aliases: tuple[str, ...] = ()
    repeatable: bool = False
    """Options may be given again and again (the edit commands); at least one is then required."""
    example: str = ""


_NAME = Arg("NAME", ArgKind.NEW_NAME)
COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "editcontinent",
        "editcontinent -add NAME VALUE -remove NAME",
        "add or remove continents",
        "-add NAME VALUE adds a continent worth VALUE units (a whole number, 0 or more) to whoever holds all of it; "
        "-remove NAME removes a continent together with its territories and their borders.",
        (
            OptionSpec("-add", (_NAME, Arg("VALUE", ArgKind.VALUE))),
            OptionSpec("-remove", (Arg("NAME", ArgKind.CONTINENT),)),
        ),
        repeatable=True,
        example="editcontinent -add North_Europe 5 -add East_Europe 4",
    ),
    CommandSpec(
        "editcountry",
        "editcountry -add NAME CONTINENT -remove NAME",
        "add or remove territories",
        "-add NAME CONTINENT adds a territory to a continent; -remove NAME removes a territory and its borders.",
        (
            OptionSpec("-add", (_NAME, Arg("CONTINENT", ArgKind.CONTINENT))),
            OptionSpec("-remove", (Arg("NAME", ArgKind.TERRITORY),)),
        ),
        aliases=("editterritory",),
        repeatable=True,
        example='editcountry -add England North_Europe -add "Isle of Man" North_Europe -remove Wales',
    ),
    CommandSpec(
        "editneighbor",
        "editneighbor -add A B -remove A B",
        "add or remove borders",
        "-add A B makes A and B border each other, both ways; -remove A B removes the border between them, both ways.",
        (
            OptionSpec("-add", (Arg("A", ArgKind.TERRITORY), Arg("B", ArgKind.TERRITORY))),
            OptionSpec("-remove", (Arg("A", ArgKind.TERRITORY), Arg("B", ArgKind.TERRITORY))),
        ),
        aliases=("editneighbour",),
        repeatable=True,
        example='editneighbor -add England "Isle of Man" -add England Scotland -remove England Iceland',
    ),
    CommandSpec(
        "editpicture",
        "editpicture FILE | editpicture -remove",
        "give the map the picture it is drawn over, or take it away",
        "FILE is a .png, .jpg, .gif or .bmp file beside the map, named without a folder: the game's web page draws "
        "the map over it, each territory at its position as a pixel of the picture. -remove takes the picture "
        "away. savemap keeps it in the map's own format (Domination's [files] pic, Conquest's [Map] image, the "
        "native format's picture).",
        (OptionSpec("-remove"),),
        (Arg("FILE", ArgKind.FILE),),
        aliases=("picture",),
        example="editpicture europe_pic.png",
    ),
    CommandSpec(
        "showmap",
        "showmap",
        "show the continents, the territories and their borders",
        "Every continent with its value and territories, then every territory with its continent and neighbours; "
        "a one-way border is marked as such.",
    ),
    CommandSpec(
        "validatemap",
        "validatemap",
        "say whether the map is valid, and name every problem",
        "Names each problem with the territories or continents it concerns: a map in pieces, a continent in "
        "pieces, a territory in no continent or an unknown one, a one-way border, an empty continent, a name "
        "given twice. Errors stop savemap; warnings do not.",
    ),
    CommandSpec(
        "savemap",
        "savemap [FILE] [-format domination|conquest|native]",
        "write the map to a file",
        "Refused while the map has errors. Without FILE, writes the file being edited. The format follows the "
        "option, else the file's name: .toml is native, .map the format the map was read from, else "
        "Domination. What the source file held for its game (pictures, colours, [Map] settings) is kept where "
        "the format can hold it. The file is replaced all at once: a failure never leaves half a map.",
        (OptionSpec("-format", (Arg("FORMAT", ArgKind.FORMAT),)),),
        (Arg("FILE", ArgKind.FILE),),
    ),
    CommandSpec(
        "undo",
        "undo",
        "take back the last edit command",
        "Each edit command is one step, however many -add and -remove it holds; undo again to go further back.",
    ),
    CommandSpec(
        "help",
        "help [COMMAND]",
        "list the commands, or explain one",
        "",
        (),
        (Arg("COMMAND", ArgKind.COMMAND),),
        aliases=("?",),
    ),
    CommandSpec(
        "quit",
        "quit [-force]",
        "leave the editor",
        "Asks first when there are unsaved changes; -force leaves without asking.",
        (OptionSpec("-force"),),
        aliases=("exit", "q"),
    ),
)
SPEC_BY_WORD: dict[str, CommandSpec] = {w: spec for spec in COMMANDS for w in (spec.name, *spec.aliases)}


@dataclass(frozen=True)
class EditCommand:
    edits: tuple[Edit, ...]
    text: str
    """The command as typed: what `undo` says it takes back."""


@dataclass(frozen=True)
class EditPicture:
    """The map's picture named (a file beside the map), or taken away (None)."""

    name: str | None
    text: str


@dataclass(frozen=True)
class ShowMap:
    pass


@dataclass(frozen=True)
class ValidateMap:
    pass


@dataclass(frozen=True)
class SaveMap:
    file: str | None = None
    format: MapFormat | None = None


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class Help:
    topic: CommandSpec | None = None


@dataclass(frozen=True)
class Quit:
    force: bool = False


Command = EditCommand | EditPicture | ShowMap | ValidateMap | SaveMap | Undo | Help | Quit


@dataclass(frozen=True)
class CommandError:
    message: str


@dataclass(frozen=True)
class Token:
    text: str
    quoted: bool


_TOKEN = re.compile(r'"([^"]*)"?|(\S+)')


def tokenize(line: str) -> list[Token]:
    """Words, or "double-quoted names" that may hold spaces; an unclosed quote runs to the end of the line."""
    return [
        Token(m.group(1), True) if m.group(1) is not None else Token(m.group(2), False) for m in _TOKEN.finditer(line)
    ]


def resolve_command(word: str) -> CommandSpec | CommandError:
    """A command by name or alias ignoring case, or by a unique prefix of its name (`val` for validatemap)."""
    wanted = word.casefold()
    if wanted in SPEC_BY_WORD:
        return SPEC_BY_WORD[wanted]
    prefixed = [spec for spec in COMMANDS if spec.name.startswith(wanted)]
    if len(prefixed) == 1:
        return prefixed[0]
    if prefixed:
        return CommandError(f'"{word}" could be any of: {", ".join(s.name for s in prefixed)}')
    if wanted in ("editmap", "loadmap"):
        return CommandError(f"{word} opens a map: here, quit and run risc maps edit FILE for another one")
    close = difflib.get_close_matches(wanted, list(SPEC_BY_WORD), n=2, cutoff=0.6)
    names = list(dict.fromkeys(SPEC_BY_WORD[c].name for c in close))
    hint = f" (did you mean {' or '.join(names)}?)" if names else ""
    return CommandError(f'unknown command "{word}"{hint}; type help to list the commands')


def _option(spec: CommandSpec, token: Token) -> OptionSpec | None:
    if token.quoted or not token.text.startswith("-"):
        return None
    flag = "-" + token.text.lstrip("-").casefold()
    return next((o for o in spec.options if o.flag == flag), None)


def _looks_like_option(token: Token) -> bool:
    return not token.quoted and len(token.text) > 1 and token.text.startswith("-") and not token.text[1:].isdigit()


def _split(spec: CommandSpec, words: Sequence[Token]) -> tuple[list[str], list[tuple[str, list[str]]]] | CommandError:
    """The positional arguments, then each option with its arguments, checked against the spec's shape."""
    positional: list[str] = []
    options: list[tuple[str, list[str]]] = []
    index = 0
    while index < len(words):
        token = words[index]
        option = _option(spec, token)
        if option is None and _looks_like_option(token):
            flags = " or ".join(o.flag for o in spec.options)
            known = f"; {spec.name} takes {flags}" if flags else f"; {spec.name} takes no option"
            return CommandError(f'unknown option "{token.text}"{known}: {spec.usage}')
        if option is None:
            if len(positional) >= len(spec.positional):
                return _unexpected(spec, token, options)
            positional.append(token.text)
            index += 1
            continue
        if not spec.repeatable and any(flag == option.flag for flag, _ in options):
            return CommandError(f"{option.flag} is given twice: {spec.usage}")
        args = list(words[index + 1 : index + 1 + len(option.args)])
        if len(args) < len(option.args) or any(_option(spec, a) is not None for a in args):
            wanted = " ".join(a.label for a in option.args)
            return CommandError(f"{option.flag} needs {wanted}: {spec.usage}")
        options.append((option.flag, [a.text for a in args]))
        index += 1 + len(option.args)
    if spec.repeatable and not options:
        flags = " and ".join(o.flag for o in spec.options)
        return CommandError(f"{spec.name} needs at least one of {flags}: {spec.usage}")
    return positional, options


def _unexpected(spec: CommandSpec, token: Token, options: list[tuple[str, list[str]]]) -> CommandError:
    if options and spec.repeatable:
        flag, args = options[-1]
        example = " ".join(args[:2]) if len(args) >= 2 else f"{args[0]} {token.text}"
        wanted = " ".join(a.label for o in spec.options if o.flag == flag for a in o.args)
        return CommandError(
            f'unexpected "{token.text}" after {flag} {" ".join(args)}: {flag} takes {wanted}, and '
            f'a name with spaces goes in double quotes, as "{example}"'
        )
    return CommandError(f'unexpected "{token.text}": {spec.usage}')


def _whole_number(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def _edits(spec: CommandSpec, options: list[tuple[str, list[str]]]) -> tuple[Edit, ...] | CommandError:
    edits: list[Edit] = []
    for flag, args in options:
        add = flag == "-add"
        if spec.name == "editcontinent" and add:
            bonus = _whole_number(args[1])
            if bonus is None:
                return CommandError(
                    f'"{args[1]}" is not a whole number: a continent\'s VALUE is the units it '
                    f"gives (editcontinent -add {args[0]} 3)"
                )
            edits.append(AddContinent(args[0], bonus))
        elif spec.name == "editcontinent":
            edits.append(RemoveContinent(args[0]))
        elif spec.name == "editcountry":
            edits.append(AddTerritory(args[0], args[1]) if add else RemoveTerritory(args[0]))
        else:
            edits.append(AddBorder(args[0], args[1]) if add else RemoveBorder(args[0], args[1]))
    return tuple(edits)


def parse_command(line: str) -> Command | CommandError | None:
    """The command on a line; None for a blank line or a `#` comment."""
    if not line.strip() or line.lstrip().startswith("#"):
        return None
    words = tokenize(line)
    spec = resolve_command(words[0].text)
    if isinstance(spec, CommandError):
        return spec
    split = _split(spec, words[1:])
    if isinstance(split, CommandError):
        return split
    positional, options = split
    flags = {flag: args for flag, args in options}
    if spec.repeatable:
        edits = _edits(spec, options)
        return edits if isinstance(edits, CommandError) else EditCommand(edits, line.strip())
    if spec.name == "savemap":
        fmt: MapFormat | None = None
        if "-format" in flags:
            fmt = parse_format(flags["-format"][0])
            if fmt is None:
                return CommandError(f'unknown format "{flags["-format"][0]}": say domination, conquest or native')
        return SaveMap(positional[0] if positional else None, fmt)
    if spec.name == "help":
        if not positional:
            return Help()
        topic = resolve_command(positional[0])
        return topic if isinstance(topic, CommandError) else Help(topic)
    if spec.name == "quit":
        return Quit(force="-force" in flags)
    if spec.name == "editpicture":
        if ("-remove" in flags) == bool(positional):
            return CommandError(f"editpicture takes a FILE or -remove: {spec.usage}")
        return EditPicture(positional[0] if positional else None, line.strip())
    if spec.name == "showmap":
        return ShowMap()
    if spec.name == "validatemap":
        return ValidateMap()
    return Undo()


def expected_next(words: Sequence[Token]) -> tuple[ArgKind, CommandSpec] | None:
    """What the next word names, after these complete words (the command first): for completion.

    None when nothing more is expected or the command is unknown.
    """
    if not words:
        return None
    spec = resolve_command(words[0].text)
    if isinstance(spec, CommandError):
        return None
    index, positional = 1, 0
    while index < len(words):
        option = _option(spec, words[index])
        if option is None:
            positional += 1
            index += 1
            continue
        if index + len(option.args) >= len(words):
            return option.args[len(words) - index - 1].kind, spec
        index += 1 + len(option.args)
    if positional < len(spec.positional):
        return spec.positional[positional].kind, spec
    return (ArgKind.OPTION, spec) if spec.options else None


def help_text(topic: CommandSpec | None = None) -> list[str]:
    if topic is not None:
        also = f" (also: {', '.join(topic.aliases)})" if topic.aliases else ""
        lines = [f"{topic.usage}{also}", f"  {topic.summary}."]
        if topic.details:
            lines.append(f"  {topic.details}")
        if topic.repeatable:
            lines.append("  Options may repeat, and apply in order, all or none; undo takes the whole command back:")
        if topic.example:
            lines.append(f"    {topic.example}")
        return lines
    width = max(len(spec.usage) for spec in COMMANDS)
    lines = [f"  {spec.usage:<{width}}  {spec.summary}" for spec in COMMANDS]
    return [
        "Commands (names with spaces go in double quotes; existing names may be typed in any case, or as a "
        "unique prefix):",
        *lines,
        "help COMMAND explains one.",
    ]
