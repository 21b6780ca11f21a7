"""What is wrong (or merely odd) with a map, said in words a map author understands.

Every reader and the validator report problems as findings instead of raising at the first one, so that an
author sees everything to fix in one go.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypedDict, Unpack


class Severity(StrEnum):
    """An error makes a map unplayable; a warning is worth knowing but the game can go on."""

    ERROR = "error"
    WARNING = "warning"


class FindingCode(StrEnum):
    """Stable codes, so that tools and tests can tell findings apart without parsing the message."""

    PARSE = "parse"
    TOO_LARGE = "too-large"
    """Past a limit of shared/maps/limits.py: the map was not read (further)."""
    EMPTY = "empty"
    UNKNOWN_TERRITORY = "unknown-territory"
    UNKNOWN_CONTINENT = "unknown-continent"
    DUPLICATE_TERRITORY = "duplicate-territory"
    DUPLICATE_CONTINENT = "duplicate-continent"
    DUPLICATE_BORDER = "duplicate-border"
    SELF_BORDER = "self-border"
    NO_BORDERS = "no-borders"
    DISCONNECTED = "disconnected"
    ONE_WAY_BORDER = "one-way-border"
    UNREACHABLE = "unreachable"
    CONTINENT_SPLIT = "continent-split"
    CONTINENT_EMPTY = "continent-empty"
    CONTINENT_WORTHLESS = "continent-worthless"
    CONTINENT_MEMBERSHIP = "continent-membership"
    BAD_GROUPS = "bad-groups"
    CASE_MISMATCH = "case-mismatch"
    MISSING_COORDINATES = "missing-coordinates"
    NO_CONTINENT = "no-continent"
    FORMAT_LIMIT = "format-limit"
    PARTIAL_PRODUCTION = "partial-production"
    UNFAIR_PRODUCTION = "unfair-production"


@dataclass(frozen=True)
class Finding:
    """One problem; `territories` and `continents` name what it concerns, so a tool can point at them."""

    severity: Severity
    code: FindingCode
    message: str
    file: str | None = None
    line: int | None = None
    territories: tuple[str, ...] = field(default=())
    continents: tuple[str, ...] = field(default=())

    def __str__(self) -> str:
        where = ""
        if self.file is not None:
            where = self.file + (f":{self.line}" if self.line is not None else "") + ": "
        elif self.line is not None:
            where = f"line {self.line}: "
        return f"{where}{self.severity.value}: {self.message}"


class Where(TypedDict, total=False):
    """Where a finding points: a line of the file, territories, continents."""

    line: int | None
    territories: Iterable[str]
    continents: Iterable[str]


def _found(severity: Severity, code: FindingCode, message: str, where: Where) -> Finding:
    return Finding(
        severity,
        code,
        message,
        line=where.get("line"),
        territories=tuple(where.get("territories", ())),
        continents=tuple(where.get("continents", ())),
    )


def error(code: FindingCode, message: str, **where: Unpack[Where]) -> Finding:
    return _found(Severity.ERROR, code, message, where)


def warning(code: FindingCode, message: str, **where: Unpack[Where]) -> Finding:
    return _found(Severity.WARNING, code, message, where)


def errors_in(findings: Iterable[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity is Severity.ERROR]


class MapError(Exception):
    """Raised when a map cannot be played; carries every finding, errors and warnings alike."""

    def __init__(self, source: str, findings: list[Finding]) -> None:
        self.source = source
        self.findings = findings
        lines = [f"{source} cannot be played:"] + [f"  {f}" for f in findings if f.severity is Severity.ERROR]
        super().__init__("\n".join(lines))


def quote_list(names: Iterable[str], limit: int = 12) -> str:
    """'"A", "B" and 3 more' — keeps messages readable on 200-territory maps."""
    items = [f'"{n}"' for n in names]
    if len(items) > limit:
        return ", ".join(items[:limit]) + f" and {len(items) - limit} more"
    return ", ".join(items)
