"""Writing a map as a Domination .map file (../shared/spec/map-formats.md section 1), for Domination itself to read.

Whatever the file held that the rules never read (the `;` comments, `ver` and other preamble lines, [files], the
continent colours) comes back from the map's FileDetails when the map was read from a Domination file, so opening
and saving a map keeps the pictures and cards it needs. What Domination cannot hold is said before writing, by
domination_problems: a territory with no continent, names that clash once their spaces become `_`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from shared.maps.findings import Finding, FindingCode, Severity, error, quote_list, warning
from shared.maps.model import GameMap
from shared.maps.validate import continents_wanted

PALETTE = (
    "red",
    "blue",
    "green",
    "yellow",
    "magenta",
    "cyan",
    "orange",
    "pink",
    "gray",
    "lightgray",
    "darkgray",
    "white",
    "black",
)
"""The colour names Domination knows, for continents that have no colour of their own (a new one, or one read
from another format)."""
MAX_COUNTRIES = 254
"""A country's number is its pixel value in the map's gif, where 255 means no country."""
_WHITE_SPACE = re.compile(r"\s")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def domination_name(name: str) -> str:
    """A name as Domination can hold it: its lines are split at white space, and it shows `_` as a space."""
    return _WHITE_SPACE.sub("_", name)


def domination_problems(game_map: GameMap) -> list[Finding]:
    """Why the map cannot be written as a Domination file (errors), and what changes in writing it (warnings)."""
    findings = continents_wanted(game_map, "Domination")
    findings.extend(_clashes("territories", game_map.names))
    findings.extend(_clashes("continents", [c.name for c in game_map.continents]))
    bad = [c.name for c in game_map.continents if not c.name.strip() or c.name.lstrip().startswith(";")]
    bad += [n for n in game_map.names if not n.strip()]
    bad += [n for n in [*game_map.names, *(c.name for c in game_map.continents)] if _CONTROL.search(n.strip())]
    if bad:
        findings.append(
            error(
                FindingCode.FORMAT_LIMIT,
                f"these names cannot be written in a Domination file (empty, a control character, "
                f"or a continent starting with ;): {quote_list(bad)}",
            )
        )
    spaced = [n for n in [*game_map.names, *(c.name for c in game_map.continents)] if domination_name(n) != n]
    if spaced:
        findings.append(
            warning(
                FindingCode.FORMAT_LIMIT,
                f"Domination names hold no spaces: written with _ instead: {quote_list(spaced, 6)}",
                territories=[n for n in spaced if n in game_map],
            )
        )
    if len(game_map.territories) > MAX_COUNTRIES:
        findings.append(
            warning(
                FindingCode.FORMAT_LIMIT,
                f"{len(game_map.territories)} territories: Domination draws at most {MAX_COUNTRIES} countries",
            )
        )
    return findings


def _clashes(kind: str, names: Iterable[str]) -> list[Finding]:
    written: dict[str, list[str]] = {}
    for name in names:
        written.setdefault(domination_name(name), []).append(name)
    return [
        error(
            FindingCode.FORMAT_LIMIT,
            f'{kind} {quote_list(same)} would all be written as "{as_written}"',
            territories=same if kind == "territories" else (),
        )
        for as_written, same in written.items()
        if len(same) > 1
    ]


def _pixel(value: float | None) -> str:
    """Domination reads whole pixels; a territory without a position is drawn at 0 0, as every line needs one."""
    return "0" if value is None else str(round(value))


def _colours(game_map: GameMap) -> list[str]:
    """The continent's own colour where the source file gave one, else the first palette colour not yet used."""
    own = [
        game_map.details.colour(c.name) if game_map.details.source == "domination" else None
        for c in game_map.continents
    ]
    used = {colour for colour in own if colour is not None}
    free = [colour for colour in PALETTE if colour not in used] or list(PALETTE)
    colours = []
    for colour in own:
        if colour is None:
            colour = free[0]
            free = free[1:] or list(PALETTE)
        colours.append(colour)
    return colours


def write_domination(game_map: GameMap) -> bytes:
    """The file's bytes: ASCII where the names are, else UTF-8 behind a byte-order mark, which is how Domination
    knows to read UTF-8 (without one it reads Latin-1). CRLF line ends, as the game's own maps have."""
    problems = [f for f in domination_problems(game_map) if f.severity is Severity.ERROR]
    if problems:
        raise ValueError("; ".join(f.message for f in problems))
    details = game_map.details if game_map.details.source == "domination" else None
    lines: list[str] = [f"; {line}".rstrip() for line in game_map.description.splitlines()]
    if lines:
        lines.append("")
    preamble = [f"name {game_map.name}"] if game_map.name.strip() else []
    if details is not None:
        preamble += [f"{key} {value}".rstrip() for key, value in details.properties]
    if preamble:
        lines += [*preamble, ""]
    files = details.files if details is not None else ()
    if details is None and game_map.details.picture:  # a picture named in another format is kept
        files = (("pic", game_map.details.picture),)
    if files:
        lines += ["[files]", *(f"{key} {value}" for key, value in files), ""]

    continent_index = {c.name: i for i, c in enumerate(game_map.continents, start=1)}
    lines.append("[continents]")
    for continent, colour in zip(game_map.continents, _colours(game_map), strict=True):
        lines.append(f"{domination_name(continent.name)} {continent.bonus} {colour}")
    lines += ["", "[countries]"]
    number = {name: i for i, name in enumerate(game_map.names, start=1)}
    for t in game_map.territories:
        index = continent_index.get(t.continent) if t.continent is not None else None
        if index is None:
            raise ValueError(f'"{t.name}" is in continent "{t.continent}", which is not defined')
        lines.append(f"{number[t.name]} {domination_name(t.name)} {index} {_pixel(t.x)} {_pixel(t.y)}")
    lines += ["", "[borders]"]
    for t in game_map.territories:
        targets = [str(number[n]) for n in game_map.neighbours_in_order(t.name) if n != t.name]
        lines.append(" ".join([str(number[t.name]), *targets]))
    text = "\r\n".join(lines) + "\r\n"
    return text.encode("ascii") if text.isascii() else b"\xef\xbb\xbf" + text.encode("utf-8")
