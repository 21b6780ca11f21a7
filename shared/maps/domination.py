"""Domination (yura.net Risk) .map files: ../shared/spec/map-formats.md section 1.

Countries and continents are numbered by their position; borders are lists of numbers and may be one-way.
The reader accepts what real files do (any line end, trailing spaces, Latin-1 or UTF-8, no [files] section,
a country without x y) and reports everything else as findings with the line they come from, instead of
stopping at the first problem. Names are kept exactly as written, `_` included: the model has no separate
display name, and a name a player types must be the name the map defines.
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

SECTIONS = ("files", "continents", "countries", "borders")
FILE_KEYS = frozenset({"pic", "map", "crd", "prv"})
NO_CONTINENT = -1
"""The continent of a country whose line did not parse (already reported)."""


@dataclass
class _Country:
    name: str
    continent_index: int
    line: int
    x: int | float | None = None
    y: int | float | None = None


@dataclass
class _Reading:
    """What has been read so far; numbers are resolved once the whole file is read."""

    findings: list[Finding] = field(default_factory=list)
    name: str = ""
    comments: list[str] = field(default_factory=list)
    continents: list[Continent | None] = field(default_factory=list)
    countries: list[_Country] = field(default_factory=list)
    border_lines: list[tuple[int, list[int]]] = field(default_factory=list)
    seen_sections: set[str] = field(default_factory=set)
    properties: list[tuple[str, str]] = field(default_factory=list)
    files: list[tuple[str, str]] = field(default_factory=list)
    colours: list[tuple[str, str]] = field(default_factory=list)
    continent_names: set[str] = field(default_factory=set)
    borders_listed: int = 0
    over: Finding | None = None
    """Set once the file passes a limit (limits.py): reading stops there."""
    unknown_sections: int = 0

    def problem(self, line: int, message: str, territories: tuple[str, ...] = ()) -> None:
        self.findings.append(error(FindingCode.PARSE, message, line=line, territories=territories))


def read_domination(data: bytes) -> tuple[GameMap | None, list[Finding]]:
    """Parse a Domination map. None only when the text has none of the map's sections at all.

    The map's name is the file's `name` line, or "" when it has none (the loader then uses the file's name).
    """
    if len(data) > MAX_MAP_BYTES:
        return None, [too_large(len(data))]
    reading = _Reading()
    section: str | None = None
    preamble = True
    for number, line in numbered_lines(decode_map_text(data)):
        if reading.over is not None:
            return None, [*reading.findings, reading.over]
        if not line.strip():
            continue
        if is_comment(line):
            if preamble and section is None:
                reading.comments.append(line.lstrip()[1:].strip())
            continue
        preamble = False
        header = section_header(line)
        if header is not None:
            section = enter_section(
                reading,
                header,
                number,
                SECTIONS,
                "a Domination map has [files], [continents], [countries] and [borders]",
                str,
            )
            continue
        if section is None:
            _read_property(reading, line)
        elif section == "files":
            _read_file_entry(reading, line, number)
        elif section == "continents":
            _read_continent(reading, line, number)
        elif section == "countries":
            _read_country(reading, line, number)
        elif section == "borders":
            _read_borders(reading, line, number)
        # else: the lines of an unknown section, already reported at its header
    failed = not_a_map(
        reading,
        {"continents", "countries", "borders"},
        "this is not a Domination map: it has no [continents], [countries] or [borders] section",
    )
    return (None, failed) if failed is not None else _build(reading)


def _read_property(reading: _Reading, line: str) -> None:
    """`name`, `ver`, `test` or any `key value` before the first section: only the name matters to the rules;
    the others are kept for writing the file again."""
    key, _, value = line.strip().partition(" ")
    if key == "name" and value.strip():
        reading.name = value.strip()
    elif key != "name":
        reading.properties.append((key, value.strip()))


def _looks_like_continent(tokens: list[str]) -> bool:
    return len(tokens) in (2, 3) and parse_number(tokens[1]) is not None and parse_number(tokens[0]) is None


def _looks_like_country(tokens: list[str]) -> bool:
    return len(tokens) >= 3 and tokens[0].isdecimal() and not tokens[1].isdecimal()


def _read_file_entry(reading: _Reading, line: str, number: int) -> None:
    tokens = line.split()
    if tokens[0] in FILE_KEYS:
        reading.files.append((tokens[0], line.strip()[len(tokens[0]) :].strip()))
        return
    hint = ""
    if _looks_like_continent(tokens):
        hint = " It looks like a continent: is the [continents] header missing?"
    elif _looks_like_country(tokens):
        hint = " It looks like a country: is the [countries] header missing?"
    reading.problem(
        number, f'"{line.strip()}" is not a [files] entry (pic, map, crd or prv followed by a file name).{hint}'
    )


def _read_continent(reading: _Reading, line: str, number: int) -> None:
    """`name bonus colour`; the colour is only for drawing, so a missing one is not held against the map."""
    tokens = line.split()
    bonus = parse_number(tokens[1]) if len(tokens) >= 2 else None
    if len(reading.continents) >= MAX_CONTINENTS:
        reading.over = too_many("continents", MAX_CONTINENTS, number)
        return
    if len(tokens) in (2, 3) and isinstance(bonus, int):
        duplicate = tokens[0] in reading.continent_names
        if duplicate:
            reading.findings.append(
                error(
                    FindingCode.DUPLICATE_CONTINENT,
                    f'continent "{tokens[0]}" is defined twice',
                    line=number,
                    continents=[tokens[0]],
                )
            )
        reading.continent_names.add(tokens[0])
        reading.continents.append(Continent(tokens[0], bonus))
        if len(tokens) == 3 and not duplicate:  # the first definition's colour is the one kept
            reading.colours.append((tokens[0], tokens[2]))
        return
    hint = ""
    if _looks_like_country(tokens) and len(tokens) == 5:
        hint = " It looks like a country: is the [countries] header missing?"
    reading.problem(
        number,
        f'"{line.strip()}" is not a continent (expected: name bonus colour, with a whole number as bonus).{hint}',
    )
    reading.continents.append(None)  # keeps the numbering of the continents after it


def _read_country(reading: _Reading, line: str, number: int) -> None:
    """`id name continent x y`: ids count 1, 2, 3... in order, as Domination requires."""
    tokens = line.split()
    expected = len(reading.countries) + 1
    if expected > MAX_TERRITORIES:
        reading.over = too_many("countries", MAX_TERRITORIES, number)
        return
    shape = "expected: number name continent-number x y; names cannot contain spaces"
    looks_like_borders = all(t.isdecimal() for t in tokens)
    hint = " It looks like a border line: is the [borders] header missing?" if looks_like_borders else ""
    if not tokens[0].isdecimal() or (looks_like_borders and len(tokens) < 3):
        reading.problem(number, f'"{line.strip()}" is not a country ({shape}).{hint}')
        return
    if int(tokens[0]) != expected:
        reading.problem(
            number,
            f"country number {tokens[0]} where {expected} was expected: countries are "
            f"numbered 1, 2, 3... in the order they are listed.{hint}",
        )
        return
    if len(tokens) < 3 or not tokens[2].isdecimal():
        reading.problem(number, f'"{line.strip()}" is not a country ({shape})', tuple(tokens[1:2]))
        # Still counted, so that the countries after it keep their numbers.
        name = tokens[1] if len(tokens) > 1 else f"#{expected}"
        reading.countries.append(_Country(name, NO_CONTINENT, number))
        return
    country = _Country(tokens[1], int(tokens[2]), number)
    if len(tokens) == 3:
        reading.findings.append(
            warning(
                FindingCode.MISSING_COORDINATES,
                f'country "{country.name}" has no x y position',
                line=number,
                territories=[country.name],
            )
        )
    elif len(tokens) == 5 and None not in (parse_number(tokens[3]), parse_number(tokens[4])):
        country.x, country.y = parse_number(tokens[3]), parse_number(tokens[4])
    else:
        reading.problem(
            number,
            f'"{line.strip()}": the position of "{country.name}" must be two numbers x y ({shape})',
            (country.name,),
        )
    reading.countries.append(country)


def _read_borders(reading: _Reading, line: str, number: int) -> None:
    tokens = line.split()
    bad = [t for t in tokens if not t.isdecimal()]
    if bad:
        reading.problem(
            number,
            f'"{line.strip()}" is not a border line: it should hold only country numbers, not {quote_list(bad, 4)}',
        )
        return
    reading.borders_listed += len(tokens) - 1
    if reading.borders_listed > MAX_BORDERS:
        reading.over = too_many("borders", MAX_BORDERS, number)
        return
    reading.border_lines.append((number, [int(t) for t in tokens]))


def _build(reading: _Reading) -> tuple[GameMap, list[Finding]]:
    findings = reading.findings
    countries = reading.countries
    if "borders" not in reading.seen_sections and countries:
        findings.append(error(FindingCode.PARSE, "the file has no [borders] section, so no country borders another"))

    names: dict[int, str] = {}
    first_line: dict[str, int] = {}
    territories: list[Territory] = []
    unknown_continents: dict[int, list[_Country]] = defaultdict(list)
    for index, country in enumerate(countries, start=1):
        names[index] = country.name
        if country.name in first_line:
            findings.append(
                error(
                    FindingCode.DUPLICATE_TERRITORY,
                    f'country "{country.name}" (number {index}) is defined twice; the first is '
                    f"on line {first_line[country.name]}",
                    line=country.line,
                    territories=[country.name],
                )
            )
            continue
        first_line[country.name] = country.line
        continent: str | None = None
        if 1 <= country.continent_index <= len(reading.continents):
            slot = reading.continents[country.continent_index - 1]
            continent = slot.name if slot is not None else None
        elif country.continent_index != NO_CONTINENT:
            unknown_continents[country.continent_index].append(country)
        territories.append(Territory(country.name, continent, x=country.x, y=country.y))

    for index, members in unknown_continents.items():
        listed = [c.name for c in members]
        count = len(reading.continents)
        known = f"continents are numbered 1 to {count}" if count else "no continent is defined"
        findings.append(
            error(
                FindingCode.UNKNOWN_CONTINENT,
                f"continent number {index} does not exist ({known}); it is given for {quote_list(listed)}",
                line=members[0].line,
                territories=listed,
            )
        )

    borders: dict[str, list[str]] = defaultdict(list)
    known_targets: dict[str, set[str]] = defaultdict(set)
    unknown_sources: list[tuple[int, int]] = []
    for number, ids in reading.border_lines:
        source_id, *targets = ids
        source = names.get(source_id)
        if source is None:
            unknown_sources.append((number, source_id))
            continue
        unknown = [t for t in targets if t not in names]
        if unknown:
            unknown_listed = ", ".join(map(str, unknown))
            findings.append(
                error(
                    FindingCode.UNKNOWN_TERRITORY,
                    f'the borders of "{source}" name country number(s) {unknown_listed}, '
                    f"but there are only {len(names)} countries",
                    line=number,
                    territories=[source],
                )
            )
        repeated: list[str] = []
        for target_id in targets:
            target = names.get(target_id)
            if target is None:
                continue
            if target in known_targets[source]:
                repeated.append(target)
                continue
            known_targets[source].add(target)
            borders[source].append(target)
        if repeated:
            findings.append(
                warning(
                    FindingCode.DUPLICATE_BORDER,
                    f'"{source}" lists {quote_list(repeated)} more than once; counted once',
                    line=number,
                    territories=[source, *repeated],
                )
            )

    if unknown_sources:
        numbers = ", ".join(str(source_id) for _, source_id in unknown_sources[:12])
        more = f" and {len(unknown_sources) - 12} more" if len(unknown_sources) > 12 else ""
        findings.append(
            error(
                FindingCode.UNKNOWN_TERRITORY,
                f"borders are given for country number(s) {numbers}{more}, but there are only {len(names)} countries",
                line=unknown_sources[0][0],
            )
        )

    continents = [c for c in reading.continents if c is not None]
    description = "\n".join(reading.comments).strip()
    details = FileDetails("domination", tuple(reading.properties), tuple(reading.files), tuple(reading.colours))
    game_map = build_map(
        reading.name, territories, borders, _unique(continents), description=description, details=details
    )
    return game_map, findings


def _unique(continents: list[Continent]) -> list[Continent]:
    """The first of two continents with one name wins (the second is already an error)."""
    seen: set[str] = set()
    kept = []
    for continent in continents:
        if continent.name not in seen:
            seen.add(continent.name)
            kept.append(continent)
    return kept
