"""Writing a map as a Conquest .map file (../shared/spec/map-formats.md section 2), for Conquest itself to read.

Conquest links everything by name and splits its lines at commas, so the names decide what can be written:
conquest_problems says so before anything is written. A map read from a Conquest file gets its [Map] settings
back (author, image, wrap, scroll, warn) as the file had them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from shared.maps.findings import Finding, FindingCode, Severity, error, quote_list, warning
from shared.maps.model import GameMap
from shared.maps.text import decode_map_text
from shared.maps.validate import continents_wanted

MAX_TERRITORIES = 255
MAX_CONTINENTS = 32
MAX_NEIGHBOURS = 10
"""The limits of the format's author; the readers accept more, Conquest itself may not."""
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _unwritable(name: str) -> bool:
    """Fields are split at commas and trimmed; a line starting with ; or [ is a comment or a section."""
    return not name or name != name.strip() or "," in name or name[0] in ";[" or _CONTROL.search(name) is not None


def _same_ignoring_case(kind: str, names: Iterable[str], territories: bool) -> list[Finding]:
    spellings: dict[str, list[str]] = {}
    for name in names:
        spellings.setdefault(name.casefold(), []).append(name)
    return [
        error(
            FindingCode.FORMAT_LIMIT,
            f"Conquest matches names ignoring case, so these {kind} would be one: {quote_list(same)}",
            territories=same if territories else (),
        )
        for same in spellings.values()
        if len(same) > 1
    ]


def conquest_problems(game_map: GameMap) -> list[Finding]:
    """Why the map cannot be written as a Conquest file (errors), and where it passes Conquest's limits (warnings)."""
    findings = continents_wanted(game_map, "Conquest")
    continents = [c.name for c in game_map.continents]
    bad = [n for n in (*game_map.names, *continents) if _unwritable(n)]
    if bad:
        findings.append(
            error(
                FindingCode.FORMAT_LIMIT,
                "these names cannot be written in a Conquest file (a comma, a control character, "
                f"spaces at either end, or ; or [ first): {quote_list(bad)}",
            )
        )
    findings.extend(_same_ignoring_case("territories", game_map.names, True))
    findings.extend(_same_ignoring_case("continents", continents, False))
    if len(game_map.territories) > MAX_TERRITORIES:
        findings.append(
            warning(
                FindingCode.FORMAT_LIMIT,
                f"{len(game_map.territories)} territories: Conquest takes at most {MAX_TERRITORIES}",
            )
        )
    if len(continents) > MAX_CONTINENTS:
        findings.append(
            warning(FindingCode.FORMAT_LIMIT, f"{len(continents)} continents: Conquest takes at most {MAX_CONTINENTS}")
        )
    crowded = [n for n in game_map.names if len(game_map.neighbours(n) - {n}) > MAX_NEIGHBOURS]
    if crowded:
        findings.append(
            warning(
                FindingCode.FORMAT_LIMIT,
                f"Conquest takes at most {MAX_NEIGHBOURS} neighbours per territory; more in {quote_list(crowded)}",
                territories=crowded,
            )
        )
    return findings


def default_settings(game_map: GameMap, image: str) -> tuple[tuple[str, str], ...]:
    """[Map] for a map that was not read from a Conquest file: its picture beside it, and `warn=no` where the
    map has one-way borders, which is how Conquest maps mark them as deliberate."""
    one_way = any(a not in game_map.neighbours(b) for a in game_map.names for b in game_map.neighbours(a))
    return (("image", image), ("wrap", "no"), ("scroll", "none"), ("warn", "no" if one_way else "yes"))


def _pixel(value: float | None) -> str:
    """Conquest reads whole pixels, and finds each field by its position: a missing one is written as 0."""
    return "0" if value is None else str(round(value))


def write_conquest(game_map: GameMap, image: str) -> bytes:
    """The file's bytes. `image` names the picture for a map that brings no [Map] settings of its own.

    Latin-1, which the real files use, where it holds every name and reads back the same; else UTF-8. CRLF line
    ends, as Conquest is a Windows game. Territories keep the map's order, with a blank line where the continent
    changes, as the game's own files are laid out.
    """
    problems = [f for f in conquest_problems(game_map) if f.severity is Severity.ERROR]
    if problems:
        raise ValueError("; ".join(f.message for f in problems))
    details = game_map.details
    settings = details.properties if details.source == "conquest" and details.properties else ()
    image = details.picture or image  # a picture named in another format is kept
    lines = ["[Map]", *(f"{key}={value}" for key, value in settings or default_settings(game_map, image)), ""]
    lines.append("[Continents]")
    lines += [f"{c.name}={c.bonus}" for c in game_map.continents]
    lines += ["", "[Territories]"]
    defined = {c.name for c in game_map.continents}
    previous: str | None = None
    for t in game_map.territories:
        if t.continent is None or t.continent not in defined:
            raise ValueError(f'"{t.name}" is in continent "{t.continent}", which is not defined')
        if previous is not None and t.continent != previous:
            lines.append("")
        previous = t.continent
        neighbours = [n for n in game_map.neighbours_in_order(t.name) if n != t.name]
        lines.append(",".join([t.name, _pixel(t.x), _pixel(t.y), t.continent, *neighbours]))
    text = "\r\n".join(lines) + "\r\n"
    try:
        data = text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8")
    return data if decode_map_text(data) == text else text.encode("utf-8")
