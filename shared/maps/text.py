"""Turning the bytes of another game's map file into numbered lines, whatever editor last saved it.

Real Domination and Conquest files come as ASCII, Latin-1 or UTF-8 (with or without a BOM), with CRLF, LF,
CR or a mix of them, and with stray trailing spaces. Both readers share this so that they agree on line
numbers.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from shared.maps.findings import Finding, FindingCode, error
from shared.maps.limits import MAX_SUGGESTIONS

_LINE_END = re.compile(r"\r\n|\r|\n")

UTF8_BOM = b"\xef\xbb\xbf"


def decode_map_text(data: bytes) -> str:
    """UTF-8 (a BOM is dropped) where the bytes are valid UTF-8, else Latin-1, which decodes any byte.

    Domination itself reads BOM-less files as Latin-1, which turns the UTF-8 names of real files
    (Hawaii.map, estonia.map) into mojibake; trying UTF-8 first keeps those names right and costs nothing for
    Latin-1 files, whose accented letters are almost never valid UTF-8.
    """
    if data.startswith(UTF8_BOM):
        data = data[len(UTF8_BOM) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def numbered_lines(text: str) -> list[tuple[int, str]]:
    """(1-based line number, line without its end and trailing white space).

    Only CR, LF and CRLF end a line, as in Java's readLine: str.splitlines would also split at characters
    such as U+0085, which Latin-1 decoding can produce from a byte that was meant as a letter.
    """
    return [(number, line.rstrip()) for number, line in enumerate(_LINE_END.split(text), start=1)]


def section_header(line: str) -> str | None:
    """The name inside `[name]`, or None when the line is not a section header."""
    stripped = line.strip()
    if len(stripped) >= 2 and stripped[0] == "[" and stripped[-1] == "]":
        return stripped[1:-1].strip()
    return None


def is_comment(line: str) -> bool:
    return line.lstrip().startswith(";")


def parse_number(text: str) -> int | float | None:
    """A whole number where it is one (pixel positions in real files are), else a decimal, else None."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value == value and value not in (float("inf"), float("-inf")) else None


class SectionReading(Protocol):
    """What a reader keeps of the sections it met (those it knows, how many it did not) and its findings (the one
    that stopped it at a limit, `over`)."""

    seen_sections: set[str]
    unknown_sections: int
    findings: list[Finding]
    over: Finding | None

    def problem(self, line: int, message: str) -> Any: ...


def enter_section(
    reading: SectionReading, header: str, number: int, sections: Sequence[str], known: str, shown: Callable[[str], str]
) -> str:
    """The section a `[header]` line opens (in lower case), or "unknown": then a problem says so, with the known
    section its name is close to (`shown` as the format writes it; a few suggestions a file, each costs a string
    comparison) and what the format has (`known`), and its lines are ignored."""
    name = header.lower()
    if name in sections:
        reading.seen_sections.add(name)
        return name
    reading.unknown_sections += 1
    close = (
        difflib.get_close_matches(name, sections, n=1)
        if len(name) <= 40 and reading.unknown_sections <= MAX_SUGGESTIONS
        else []
    )
    hint = f" (did you mean [{shown(close[0])}]?)" if close else ""
    reading.problem(number, f"unknown section [{header}]{hint}; {known}; its lines are ignored")
    return "unknown"


def not_a_map(reading: SectionReading, needed: set[str], message: str) -> list[Finding] | None:
    """Why a whole file read gives no map: it passed a limit, or has none of the `needed` sections (`message`
    says so); None when a map can be built from it."""
    if reading.over is not None:
        return [*reading.findings, reading.over]
    if not reading.seen_sections & needed:
        return [*reading.findings, error(FindingCode.PARSE, message)]
    return None
