"""`risc maps ...`: list the bundled maps, check map files, show one, convert one to the native format, edit one.

FILE is a bundled map's name (`seed`) or the path of a map in any format RISC reads (native TOML, Domination or
Conquest .map). A bad file is never a stack trace: it is a verdict and the findings that explain it.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import textwrap
from pathlib import Path
from typing import Any, TextIO

from shared.maps import Finding, GameMap, MapError, MapReport, Severity, bundled_map_names, check_map_file, load_map
from shared.maps.groups import neutral_territories, starting_groups
from shared.maps.native import write_native
from shared.maps.validate import MapRules, components

FORMAT_NAMES = {"native": "native", "domination": "Domination", "conquest": "Conquest"}
SHOWN_PLAYER_COUNTS = (2, 3, 4, 5)


def _list(args: argparse.Namespace) -> int:
    for name in bundled_map_names():
        game_map = load_map(name)
        print(f"{name:<16} {len(game_map.territories):>4} territories  {game_map.name}")
    return 0


def _read(ref: str) -> MapReport | str:
    """The report for one FILE, or why it could not even be opened."""
    try:
        return check_map_file(ref)
    except MapError as exc:
        return "; ".join(f.message for f in exc.findings)
    except IsADirectoryError:
        return f"{ref} is a folder, not a map file"
    except OSError as exc:
        return f"cannot read {ref}: {exc.strerror or exc}"


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {plural or word + 's'}"


def _counts(findings: list[Finding]) -> tuple[int, int]:
    errors = sum(f.severity is Severity.ERROR for f in findings)
    return errors, len(findings) - errors


def _finding_line(finding: Finding) -> str:
    """The finding without its file (the file heads the block): `line 17: error: ...`."""
    return str(dataclasses.replace(finding, file=None))


def _print_findings(findings: list[Finding], out: TextIO, indent: str = "  ") -> None:
    for finding in sorted(findings, key=lambda f: f.severity is not Severity.ERROR):
        print(
            textwrap.fill(
                _finding_line(finding),
                width=110,
                initial_indent=indent,
                subsequent_indent=indent + "    ",
                break_on_hyphens=False,
                break_long_words=False,
            ),
            file=out,
        )


def _summary(report: MapReport) -> str:
    game_map = report.game_map
    what = FORMAT_NAMES.get(report.format, report.format)
    if game_map is None:
        return what
    return (
        f"{what}, {_plural(len(game_map.territories), 'territory', 'territories')}, "
        f"{_plural(len(game_map.continents), 'continent')}"
    )


def verdict(report: MapReport) -> str:
    """ok / ok with warnings / invalid: what `check` says of a file."""
    errors, warnings = _counts(report.findings)
    if not report.playable:
        return f"invalid: {_plural(errors, 'error')}" + (f", {_plural(warnings, 'warning')}" if warnings else "")
    if warnings:
        return f"ok with {_plural(warnings, 'warning')}"
    return "ok"


def _check(args: argparse.Namespace) -> int:
    playable = 0
    for ref in args.files:
        report = _read(ref)
        if isinstance(report, str):
            print(f"{ref}: invalid: {report}")
            continue
        print(f"{ref}: {verdict(report)} ({_summary(report)})")
        _print_findings(report.findings, sys.stdout)
        playable += report.playable
    if len(args.files) > 1:
        print(f"{len(args.files)} files: {playable} can be played, {len(args.files) - playable} cannot")
    return 0 if playable == len(args.files) else 1


def _playable_map(ref: str) -> tuple[MapReport, GameMap] | None:
    """The map behind FILE when it can be played; otherwise says why on stderr and returns None."""
    report = _read(ref)
    if isinstance(report, str):
        print(f"{ref}: {report}", file=sys.stderr)
        return None
    if not report.playable or report.game_map is None:
        print(f"{ref}: {verdict(report)}; fix these first (risc maps check {ref}):", file=sys.stderr)
        _print_findings(report.findings, sys.stderr)
        return None
    return report, report.game_map


def _wrapped(label: str, names: list[str] | tuple[str, ...]) -> str:
    return textwrap.fill(
        ", ".join(names),
        width=110,
        initial_indent=f"    {label}: ",
        subsequent_indent=" " * 8,
        break_on_hyphens=False,
        break_long_words=False,
    )


def _show_groups(game_map: GameMap, players: int) -> list[str]:
    territories = len(game_map.territories)
    if territories < players:
        return [f"  {players} players: too few territories ({territories})"]
    groups = starting_groups(game_map, players)
    neutral = neutral_territories(game_map, groups)
    own = " (the map's own)" if game_map.starting_groups.get(players) else ""
    lines = [f"  {players} players: {players} groups of {len(groups[0])}, {len(neutral)} neutral{own}"]
    graph = game_map.undirected()
    for index, group in enumerate(groups):
        members = set(group)
        pieces = len(components({n: graph[n] & members for n in group}, group))
        shape = "in one piece" if pieces == 1 else f"in {pieces} pieces"
        lines.append(_wrapped(f"{chr(ord('A') + index)} ({shape})", group))
    if neutral:
        lines.append(_wrapped("neutral", neutral))
    return lines


def _show(args: argparse.Namespace) -> int:
    found = _playable_map(args.file)
    if found is None:
        return 1
    report, game_map = found
    names = game_map.names
    one_way = sum(1 for a in names for b in game_map.neighbours(a) if a not in game_map.neighbours(b))
    two_way = (sum(len(game_map.neighbours(a)) for a in names) - one_way) // 2
    print(f"{game_map.name}  ({FORMAT_NAMES.get(report.format, report.format)}, {report.source})")
    if game_map.description:
        for line in game_map.description.splitlines():
            print(f"  {line}")
    print(
        f"  {len(names)} territories, {two_way} two-way borders, {one_way} one-way, "
        f"{len(game_map.continents)} continents"
    )
    if game_map.continents:
        print("Continents:")
        members = game_map.continent_members()
        width = max(len(c.name) for c in game_map.continents)
        for continent in game_map.continents:
            print(
                f"  {continent.name:<{width}}  bonus {continent.bonus:>2}  "
                f"{_plural(len(members[continent.name]), 'territory', 'territories')}"
            )
    print("Starting groups:")
    for players in args.players or SHOWN_PLAYER_COUNTS:
        for line in _show_groups(game_map, players):
            print(line)
    _, warnings = _counts(report.findings)
    if warnings:
        print(f"Warnings ({warnings}):")
        _print_findings(report.findings, sys.stdout)
    return 0


def _convert(args: argparse.Namespace) -> int:
    found = _playable_map(args.file)
    if found is None:
        return 1
    report, game_map = found
    out = Path(args.output)
    try:
        out.write_text(write_native(game_map), encoding="utf-8")
    except OSError as exc:
        print(f"cannot write {out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    _, warnings = _counts(report.findings)
    print(
        f"wrote {out}: {game_map.name}, {len(game_map.territories)} territories, "
        f"{len(game_map.continents)} continents (from {FORMAT_NAMES.get(report.format, report.format)})"
    )
    if warnings:
        print(f"the map plays, with {_plural(warnings, 'warning')}:")
        _print_findings(report.findings, sys.stdout)
    return 0


def _edit(args: argparse.Namespace) -> int:
    from client.map_editor import edit  # prompt_toolkit is loaded only for the editor

    return edit(args.file, MapRules(args.rules), args.commands)


def _player_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of players") from None
    if not 1 <= value <= 16:
        raise argparse.ArgumentTypeError("a game has 1 to 16 players")
    return value


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("maps", help="list, check, show, convert and edit maps")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="the maps bundled with RISC")
    listing.set_defaults(handler=_list)

    check = actions.add_parser(
        "check",
        help="say whether map files can be played, and why not",
        description="A verdict per file (ok / ok with warnings / invalid) with every "
        "finding. Exit status 0 only if every file can be played.",
    )
    check.add_argument("files", nargs="+", metavar="FILE", help="a bundled map's name or a map file")
    check.set_defaults(handler=_check)

    show = actions.add_parser("show", help="a map's territories, continents and starting groups")
    show.add_argument("file", metavar="FILE", help="a bundled map's name or a map file")
    show.add_argument(
        "--players",
        type=_player_count,
        action="append",
        metavar="N",
        help="show the starting groups for N players (repeatable; default 2 to 5)",
    )
    show.set_defaults(handler=_show)

    convert = actions.add_parser(
        "convert",
        help="write a map in RISC's own format",
        description="Read a map in any format RISC reads and write it as a native "
        "TOML map. A map that cannot be played is not converted.",
    )
    convert.add_argument("file", metavar="FILE", help="a bundled map's name or a map file")
    convert.add_argument("-o", "--output", required=True, metavar="OUT", help="the .toml file to write")
    convert.set_defaults(handler=_convert)

    edit = actions.add_parser(
        "edit",
        help="edit a map with the SOEN 6441 commands (editcontinent, editcountry, editneighbor...)",
        description="Open FILE (any format RISC reads), or start a new map there when it does not exist, and edit "
        "it in a shell: editcontinent, editcountry, editneighbor, editpicture, showmap, validatemap, savemap, "
        "undo, help, quit. With --commands, or when standard input is not a terminal, the commands "
        "are read from a file instead; the first that fails stops the run with a non-zero status.",
    )
    edit.add_argument(
        "file", metavar="FILE", help="the map file to edit or create (.toml, or a Domination or Conquest .map)"
    )
    edit.add_argument(
        "--commands",
        metavar="F",
        default=None,
        help="run the commands in F, one per line (# starts a comment; - reads standard input)",
    )
    edit.add_argument(
        "--rules",
        choices=[r.value for r in MapRules],
        default=MapRules.COURSE.value,
        help="course (the default): a one-way border, a continent in pieces or an empty "
        "continent is an error, and every territory needs a continent, as in the course "
        "projects' editors; risc: only what stops RISC playing the map is an error",
    )
    edit.set_defaults(handler=_edit)
