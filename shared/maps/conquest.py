"""Conquest (Sean O'Connor) .map files: ../shared/spec/map-formats.md section 2.

Everything is linked by name, and the game matches names without regard to case, so real files mix
"Lucon's Keep" and "Lucon's keep": this reader does the same and reports each such spelling as a warning.
Borders are kept as written: a link given on one side only stays one-way (validation warns about it).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from shared.maps.findings import Finding, FindingCode, error, quote_list, warning
from shared.maps.limits import (
    MAX_BORDERS,
    MAX_CONTINENTS,
    MAX_MAP_BYTES,
    MAX_TERRITORIES,
    too_large,
    too_many,
)
from shared.maps.model import Continent, FileDetails, GameMap, Territory, build_map
from shared.maps.text import (
    decode_map_text,
    enter_section,
    is_comment,
    not_a_map,
    numbered_lines,
    parse_number,
    section_header,
)

SECTIONS = ("map", "continents", "territories")


@dataclass
class _Row:
    """One [Territories] line, its names still as written."""

    name: str
    line: int
    x: int | float | None
    y: int | float | None
    continent: str
    neighbours: list[str]


@dataclass
class _Reading:
    findings: list[Finding] = field(default_factory=list)
    properties: dict[str, str] = field(default_factory=dict)
    settings: list[tuple[str, str]] = field(default_factory=list)
    """The [Map] lines as written (key case kept), for writing the file again."""
    continents: list[tuple[Continent, int]] = field(default_factory=list)
    rows: list[_Row] = field(default_factory=list)
    seen_sections: set[str] = field(default_factory=set)
    continent_lines: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Each continent's name in lower case: its name as defined, and its line."""
    borders_listed: int = 0
    over: Finding | None = None
    """Set once the file passes a limit (limits.py): reading stops there."""
    unknown_sections: int = 0

    def problem(self, line: int, message: str, territories: list[str] | None = None) -> None:
        self.findings.append(error(FindingCode.PARSE, message, line=line, territories=territories or ()))


def read_conquest(data: bytes) -> tuple[GameMap | None, list[Finding]]:
    """Parse a Conquest map. None only when the text has neither a [Continents] nor a [Territories] section.

    Conquest maps carry no name of their own: the map's name is "" and the loader uses the file's name.
    """
    if len(data) > MAX_MAP_BYTES:
        return None, [too_large(len(data))]
    reading = _Reading()
    section: str | None = None
    for number, line in numbered_lines(decode_map_text(data)):
        if reading.over is not None:
            return None, [*reading.findings, reading.over]
        if not line.strip() or is_comment(line):
            continue
        header = section_header(line)
        if header is not None:
            section = enter_section(
                reading,
                header,
                number,
                SECTIONS,
                "a Conquest map has [Map], [Continents] and [Territories]",
                str.capitalize,
            )
        elif section is None:
            reading.problem(number, f'"{line.strip()}" comes before any section ([Map], [Continents], [Territories])')
        elif section == "map":
            _read_property(reading, line, number)
        elif section == "continents":
            _read_continent(reading, line, number)
        elif section == "territories":
            _read_territory(reading, line, number)
        # else: the lines of an unknown section, already reported at its header
    failed = not_a_map(
        reading,
        {"continents", "territories"},
        "this is not a Conquest map: it has no [Continents] or [Territories] section",
    )
    return (None, failed) if failed is not None else _build(reading)


def _read_property(reading: _Reading, line: str, number: int) -> None:
    key, equals, value = line.partition("=")
    if not equals or not key.strip():
        reading.problem(
            number, f'"{line.strip()}" is not a [Map] setting (expected: key=value, such as author=Sean O\'Connor)'
        )
        return
    reading.properties[key.strip().lower()] = value.strip()
    reading.settings.append((key.strip(), value.strip()))


def _read_continent(reading: _Reading, line: str, number: int) -> None:
    name, equals, value = line.rpartition("=")
    bonus = parse_number(value.strip())
    if not equals or not name.strip() or not isinstance(bonus, int):
        reading.problem(
            number, f'"{line.strip()}" is not a continent (expected: name=bonus, with a whole number as bonus)'
        )
        return
    name = name.strip()
    earlier = reading.continent_lines.get(name.lower())
    if earlier is not None:
        earlier_name, earlier_line = earlier
        case = "" if earlier_name == name else f' (as "{earlier_name}": names are matched ignoring case)'
        reading.findings.append(
            error(
                FindingCode.DUPLICATE_CONTINENT,
                f'continent "{name}" is defined twice{case}; the first is on line {earlier_line}',
                line=number,
                continents=[earlier_name],
            )
        )
        return
    if len(reading.continents) >= MAX_CONTINENTS:
        reading.over = too_many("continents", MAX_CONTINENTS, number)
        return
    reading.continent_lines[name.lower()] = (name, number)
    reading.continents.append((Continent(name, bonus), number))


def _read_territory(reading: _Reading, line: str, number: int) -> None:
    """`name,x,y,continent,neighbour,...`; spaces around commas and trailing commas are allowed."""
    fields = [f.strip() for f in line.split(",")]
    while fields and not fields[-1]:
        fields.pop()
    shape = "expected: name,x,y,continent,neighbour,neighbour,..."
    if len(fields) < 4 or not fields[0]:
        reading.problem(number, f'"{line.strip()}" is not a territory ({shape})')
        return
    name = fields[0]
    x, y = parse_number(fields[1]), parse_number(fields[2])
    for axis, text, value in (("x", fields[1], x), ("y", fields[2], y)):
        if value is None:
            what = f"no {axis} position" if not text else f'"{text}" as its {axis} position, not a number'
            reading.problem(number, f'territory "{name}" has {what} ({shape})', [name])
    if not fields[3]:
        reading.problem(number, f'territory "{name}" has no continent ({shape})', [name])
    if len(reading.rows) >= MAX_TERRITORIES:
        reading.over = too_many("territories", MAX_TERRITORIES, number)
        return
    neighbours = [f for f in fields[4:] if f]
    reading.borders_listed += len(neighbours)
    if reading.borders_listed > MAX_BORDERS:
        reading.over = too_many("borders", MAX_BORDERS, number)
        return
    reading.rows.append(_Row(name, number, x, y, fields[3], neighbours))


class _Names:
    """Case-insensitive lookup that remembers every spelling which differed from the definition."""

    def __init__(self) -> None:
        self.canonical: dict[str, str] = {}
        self.mismatches: dict[tuple[str, str], list[int]] = defaultdict(list)

    def define(self, name: str) -> str | None:
        """Register `name`; returns the earlier spelling when the name is already taken."""
        earlier = self.canonical.get(name.lower())
        if earlier is None:
            self.canonical[name.lower()] = name
        return earlier

    def find(self, written: str, line: int) -> str | None:
        found = self.canonical.get(written.lower())
        if found is not None and found != written:
            self.mismatches[(written, found)].append(line)
        return found

    def case_findings(self, kind: str) -> list[Finding]:
        findings = []
        for (written, found), lines in self.mismatches.items():
            more = f" (and on {len(lines) - 1} more line(s))" if len(lines) > 1 else ""
            territories = [found] if kind == "territory" else []
            findings.append(
                warning(
                    FindingCode.CASE_MISMATCH,
                    f'{kind} "{written}"{more} is defined as "{found}": names match ignoring case',
                    line=lines[0],
                    territories=territories,
                )
            )
        return findings


def _build(reading: _Reading) -> tuple[GameMap, list[Finding]]:
    findings = reading.findings
    if "territories" not in reading.seen_sections:
        findings.append(error(FindingCode.PARSE, "the file has no [Territories] section"))

    continent_names = _Names()
    for continent, _ in reading.continents:
        continent_names.define(continent.name)
    territory_names = _Names()
    rows: list[_Row] = []
    first_line: dict[str, int] = {}
    for row in reading.rows:
        earlier = territory_names.define(row.name)
        if earlier is not None:
            same = "" if earlier == row.name else f' (as "{earlier}": names are matched ignoring case)'
            findings.append(
                error(
                    FindingCode.DUPLICATE_TERRITORY,
                    f'territory "{row.name}" is defined twice{same}; the first is on line '
                    f"{first_line[earlier.lower()]}; this line is ignored",
                    line=row.line,
                    territories=[earlier],
                )
            )
            continue
        first_line[row.name.lower()] = row.line
        rows.append(row)

    territories: list[Territory] = []
    unknown_continents: dict[str, list[_Row]] = defaultdict(list)
    for row in rows:
        continent_name = continent_names.find(row.continent, row.line) if row.continent else None
        if continent_name is None and row.continent:
            unknown_continents[row.continent].append(row)
        territories.append(Territory(row.name, continent_name, x=row.x, y=row.y))
    for written, members in unknown_continents.items():
        listed = [r.name for r in members]
        findings.append(
            error(
                FindingCode.UNKNOWN_CONTINENT,
                f'continent "{written}" is not defined in [Continents]; it is given for {quote_list(listed)}',
                line=members[0].line,
                territories=listed,
                continents=[written],
            )
        )

    borders: dict[str, list[str]] = {}
    for row in rows:
        targets: list[str] = []
        seen: set[str] = set()
        repeated: list[str] = []
        for written in row.neighbours:
            target = territory_names.find(written, row.line)
            if target is None:
                findings.append(
                    error(
                        FindingCode.UNKNOWN_TERRITORY,
                        f'"{row.name}" borders "{written}", which is not a territory of the map',
                        line=row.line,
                        territories=[row.name, written],
                    )
                )
            elif target in seen:
                repeated.append(target)
            else:
                seen.add(target)
                targets.append(target)
        if repeated:
            findings.append(
                warning(
                    FindingCode.DUPLICATE_BORDER,
                    f'"{row.name}" lists {quote_list(repeated)} more than once; counted once',
                    line=row.line,
                    territories=[row.name, *repeated],
                )
            )
        borders[row.name] = targets
    findings.extend(continent_names.case_findings("continent"))
    findings.extend(territory_names.case_findings("territory"))

    author = reading.properties.get("author", "")
    description = f"by {author}" if author else ""
    continents = [c for c, _ in reading.continents]
    details = FileDetails("conquest", tuple(reading.settings))
    return build_map("", territories, borders, continents, description=description, details=details), findings
