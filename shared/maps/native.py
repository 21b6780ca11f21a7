"""RISC's own map format: TOML, written by hand, validated by pydantic (see docs/maps.md)."""

from __future__ import annotations

import re
import tomllib
from typing import Any

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from shared.maps.findings import Finding, FindingCode, error
from shared.maps.limits import MAX_BORDERS, MAX_CONTINENTS, MAX_MAP_BYTES, MAX_TERRITORIES, too_large, too_many
from shared.maps.model import NO_DETAILS, Continent, GameMap, Territory, build_map
from shared.maps.pictures import picture_name


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ContinentSpec(_Strict):
    bonus: int = 0


class TerritorySpec(_Strict):
    borders: list[str] = Field(default_factory=list, description="two-way borders")
    one_way: list[str] = Field(default_factory=list, description="territories reachable from here but not back")
    continent: str | None = None
    size: int = Field(default=1, ge=1)
    x: float | None = None
    y: float | None = None
    food: int | None = Field(default=None, ge=0)
    technology: int | None = Field(default=None, ge=0)


class NativeMapFile(_Strict):
    name: str
    description: str = ""
    picture: str = Field(default="", description="the picture the map is drawn over: a file beside the map")
    continents: dict[str, ContinentSpec] = Field(default_factory=dict)
    territories: dict[str, TerritorySpec]
    starting_groups: dict[str, list[list[str]]] = Field(default_factory=dict)


_TOML_LINE = re.compile(r"at line (\d+)")


def _pydantic_findings(exc: ValidationError) -> list[Finding]:
    findings = []
    for problem in exc.errors():
        where = ".".join(str(part) for part in problem["loc"])
        findings.append(error(FindingCode.PARSE, f"{where}: {problem['msg']}"))
    return findings


def _past_limits(raw: dict[str, Any]) -> Finding | None:
    """The limit the parsed file passes, checked before anything is validated or built from it."""
    territories = raw.get("territories")
    if isinstance(territories, dict):
        if len(territories) > MAX_TERRITORIES:
            return too_many("territories", MAX_TERRITORIES)
        listed = sum(
            len(spec.get(key) or ())
            for spec in territories.values()
            if isinstance(spec, dict)
            for key in ("borders", "one_way")
            if isinstance(spec.get(key), list)
        )
        if listed > MAX_BORDERS:
            return too_many("borders", MAX_BORDERS)
    continents = raw.get("continents")
    if isinstance(continents, dict) and len(continents) > MAX_CONTINENTS:
        return too_many("continents", MAX_CONTINENTS)
    return None


def read_native(text: str) -> tuple[GameMap | None, list[Finding]]:
    """Parse a native map; structural problems come back as findings, never as exceptions."""
    if len(text) > MAX_MAP_BYTES:  # characters: at least as many bytes
        return None, [too_large(len(text.encode("utf-8", "surrogatepass")))]
    try:
        raw: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = _TOML_LINE.search(str(exc))
        # tomllib says "at end of document" for an unclosed array or string: point at the last line, where it gave up.
        line = int(match.group(1)) if match else max(1, len(text.splitlines()))
        return None, [error(FindingCode.PARSE, f"not valid TOML: {exc}", line=line)]
    over = _past_limits(raw)
    if over is not None:
        return None, [over]
    try:
        spec = NativeMapFile.model_validate(raw)
    except ValidationError as exc:
        return None, _pydantic_findings(exc)

    findings: list[Finding] = []
    groups: dict[int, list[list[str]]] = {}
    for key, value in spec.starting_groups.items():
        if not key.isdigit() or not 1 <= int(key) <= 16:
            findings.append(
                error(
                    FindingCode.BAD_GROUPS, f'starting_groups: "{key}" is not a player count (a whole number such as 3)'
                )
            )
            continue
        groups[int(key)] = value

    borders: dict[str, set[str]] = {name: set() for name in spec.territories}
    for name, t in spec.territories.items():
        for other in t.borders:
            borders[name].add(other)
            if other in borders:
                borders[other].add(name)
        borders[name].update(t.one_way)
    # A two-way border to an unknown name must still be reported: keep it on the known side only.
    territories = [
        Territory(name, t.continent, t.size, t.x, t.y, t.food, t.technology) for name, t in spec.territories.items()
    ]
    continents = [Continent(name, c.bonus) for name, c in spec.continents.items()]
    details = NO_DETAILS.with_picture(picture_name(spec.picture))
    game_map = build_map(spec.name, territories, borders, continents, groups, spec.description, details)
    return game_map, findings


def write_native(game_map: GameMap) -> str:
    """Render any map in the native format; two-way borders are written once, on the first territory."""
    doc: dict[str, Any] = {"name": game_map.name}
    if game_map.description:
        doc["description"] = game_map.description
    if game_map.details.picture:
        doc["picture"] = game_map.details.picture
    if game_map.continents:
        doc["continents"] = {c.name: {"bonus": c.bonus} for c in game_map.continents}
    order = {name: i for i, name in enumerate(game_map.names)}
    territories: dict[str, dict[str, Any]] = {}
    for t in game_map.territories:
        entry: dict[str, Any] = {}
        out = game_map.neighbours(t.name)
        two_way = sorted(
            (b for b in out if t.name in game_map.neighbours(b) and order.get(b, -1) > order[t.name]),
            key=order.__getitem__,
        )
        one_way = sorted((b for b in out if t.name not in game_map.neighbours(b)), key=lambda b: order.get(b, -1))
        entry["borders"] = two_way
        if one_way:
            entry["one_way"] = one_way
        if t.continent is not None:
            entry["continent"] = t.continent
        if t.size != 1:
            entry["size"] = t.size
        if t.x is not None:
            entry["x"] = t.x
        if t.y is not None:
            entry["y"] = t.y
        if t.food is not None:
            entry["food"] = t.food
        if t.technology is not None:
            entry["technology"] = t.technology
        territories[t.name] = entry
    doc["territories"] = territories
    if game_map.starting_groups:
        doc["starting_groups"] = {
            str(n): [list(g) for g in groups] for n, groups in sorted(game_map.starting_groups.items())
        }
    return tomli_w.dumps(doc)
