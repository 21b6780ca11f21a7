"""One validation for every map, whatever format it came from (R4 and the map-format checks).

Errors make a map unplayable; warnings describe maps that still play (one-way borders, split continents...).
The map editor can ask for the stricter course rules (MapRules.COURSE), under which those are errors too.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, deque
from collections.abc import Iterable, Mapping, Sequence, Set
from enum import StrEnum

from shared.maps.findings import Finding, FindingCode, Severity, error, quote_list, warning
from shared.maps.model import GameMap


class MapRules(StrEnum):
    """Which maps count as valid.

    RISC plays any connected map (R4): a one-way border, a continent in pieces or an empty continent is only a
    warning, and a territory need not be in a continent. The map editors of the SOEN 6441 and COMP 345 course
    projects (../shared/spec/classic.md M1) refuse all of these, and so does the editor when asked to; their
    maps are the ones the Domination and Conquest formats carry, which need a continent for every territory.
    """

    RISC = "risc"
    COURSE = "course"


COURSE_ERRORS = frozenset({FindingCode.ONE_WAY_BORDER, FindingCode.CONTINENT_SPLIT, FindingCode.CONTINENT_EMPTY})
"""The warnings of the RISC rules that the course rules make errors."""


def components(graph: Mapping[str, Iterable[str]], order: Sequence[str]) -> list[list[str]]:
    """Connected pieces of an undirected graph, each in `order`'s order, largest first.

    Linear: each territory is given its piece's number, then `order` is walked once (listing each piece by a walk of
    `order` of its own cost a map of many pieces a time quadratic in its size).
    """
    piece_of: dict[str, int] = {}
    count = 0
    for start in order:
        if start in piece_of:
            continue
        piece_of[start] = count
        queue = deque([start])
        while queue:
            node = queue.popleft()
            for nxt in graph.get(node, ()):
                if nxt not in piece_of:
                    piece_of[nxt] = count
                    queue.append(nxt)
        count += 1
    pieces: list[list[str]] = [[] for _ in range(count)]
    for name in order:
        pieces[piece_of[name]].append(name)
    pieces.sort(key=len, reverse=True)
    return pieces


def _reachable(graph: Mapping[str, Iterable[str]], start: str, skip: Set[str] = frozenset()) -> set[str]:
    """Where `start` leads, not entering `skip` (territories already searched from elsewhere)."""
    seen = {start}
    queue = deque([start])
    while queue:
        for nxt in graph.get(queue.popleft(), ()):
            if nxt not in seen and nxt not in skip:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def cannot_reach_all(graph: Mapping[str, Iterable[str]], names: Sequence[str]) -> list[str]:
    """Territories from which some other territory cannot be reached along directed borders, in `names` order.

    Linear, not one search per territory: the root of the last search tree of a sweep over all territories
    reaches everything if any territory does (a "mother vertex"); those that reach everything are then
    exactly those that reach that root.
    """
    seen: set[str] = set()
    root = names[0] if names else ""
    for start in names:
        if start not in seen:
            root = start
            seen |= _reachable(graph, start, seen)
    if len(_reachable(graph, root)) < len(names):
        return list(names)
    reverse: dict[str, list[str]] = {n: [] for n in names}
    for source in names:
        for target in graph.get(source, ()):
            if target in reverse:
                reverse[target].append(source)
    reach_all = _reachable(reverse, root)
    return [n for n in names if n not in reach_all]


def validate_map(game_map: GameMap, rules: MapRules = MapRules.RISC) -> list[Finding]:
    """Every problem with the map's graph, continents and groups, all at once.

    Under the course rules each one-way border is an error of its own, so that every one is named.
    """
    names = game_map.names
    if not names:
        return [error(FindingCode.EMPTY, "the map has no territories")]
    known = set(names)
    findings: list[Finding] = _duplicate_findings(game_map)

    for source, targets in game_map.borders.items():
        if source not in known:
            findings.append(
                error(
                    FindingCode.UNKNOWN_TERRITORY,
                    f'borders are given for "{source}", which is not a territory of the map',
                    territories=[source],
                )
            )
            continue
        for target in sorted(targets - known):
            findings.append(
                error(
                    FindingCode.UNKNOWN_TERRITORY,
                    f'unknown territory "{target}" in the borders of "{source}"',
                    territories=[source, target],
                )
            )
        if source in targets:
            findings.append(
                warning(
                    FindingCode.SELF_BORDER, f'"{source}" lists itself as a neighbour; ignored', territories=[source]
                )
            )

    graph = game_map.undirected()
    for name in names:
        graph[name].discard(name)
    isolated = [n for n in names if not graph[n]]
    if isolated:
        findings.append(
            error(
                FindingCode.NO_BORDERS,
                f"territories with no border at all: {quote_list(isolated)}",
                territories=isolated,
            )
        )
    pieces = components(graph, names)
    if len(pieces) > 1:
        cut_off = [n for piece in pieces[1:] for n in piece]
        described = "; ".join(quote_list(p, 6) for p in pieces[1:6])
        more = f" (and {len(pieces) - 6} more pieces)" if len(pieces) > 6 else ""
        findings.append(
            error(
                FindingCode.DISCONNECTED,
                f"the map falls into {len(pieces)} pieces; cut off from the rest: {described}{more}",
                territories=cut_off,
            )
        )

    one_way = [
        (a, b)
        for a in names
        for b in sorted(game_map.neighbours(a))
        if b in known and b != a and a not in game_map.neighbours(b)
    ]
    if one_way and rules is MapRules.COURSE:
        findings.extend(
            error(
                FindingCode.ONE_WAY_BORDER, f'one-way border: "{a}" -> "{b}", with no border back', territories=[a, b]
            )
            for a, b in one_way
        )
    elif one_way:
        shown = ", ".join(f'"{a}" -> "{b}"' for a, b in one_way[:8])
        more = f" and {len(one_way) - 8} more" if len(one_way) > 8 else ""
        findings.append(
            warning(
                FindingCode.ONE_WAY_BORDER,
                f"{len(one_way)} one-way border(s): {shown}{more}",
                territories=sorted({n for pair in one_way for n in pair}),
            )
        )
        if len(pieces) == 1:
            directed = {n: [t for t in game_map.neighbours(n) if t in known] for n in names}
            stuck = cannot_reach_all(directed, names)
            if stuck:
                findings.append(
                    warning(
                        FindingCode.UNREACHABLE,
                        f"along one-way borders, these cannot reach every other territory: {quote_list(stuck)}",
                        territories=stuck,
                    )
                )

    findings.extend(_continent_findings(game_map, graph, rules))
    findings.extend(_group_findings(game_map))
    findings.extend(_production_findings(game_map))
    if rules is MapRules.COURSE:
        findings = [dataclasses.replace(f, severity=Severity.ERROR) if f.code in COURSE_ERRORS else f for f in findings]
    return findings


def _production_findings(game_map: GameMap) -> list[Finding]:
    """Food and technology (RISC E1) are all or nothing, and fair to the map's own starting groups: rule sets that
    need them assign their own where a map gives them only in part, or unequally to the groups of a count."""
    given = [t for t in game_map.territories if t.food is not None and t.technology is not None]
    if not given:
        return []
    if len(given) < len(game_map.territories):
        missing = [t.name for t in game_map.territories if t.food is None or t.technology is None]
        return [
            warning(
                FindingCode.PARTIAL_PRODUCTION,
                f"food and technology are missing for {quote_list(missing)}: rule sets that need them "
                "assign their own for the whole map",
                territories=missing,
            )
        ]
    by_name = {t.name: t for t in game_map.territories}
    findings: list[Finding] = []
    for players, groups in sorted(game_map.starting_groups.items()):
        if any(name not in by_name for group in groups for name in group):
            continue
        sums = [
            (
                sum(by_name[n].size for n in g),
                sum(by_name[n].food or 0 for n in g),
                sum(by_name[n].technology or 0 for n in g),
            )
            for g in groups
        ]
        if len(set(sums)) > 1:
            shown = "; ".join(f"size {s}, food {f}, technology {t}" for s, f, t in sums)
            findings.append(
                warning(
                    FindingCode.UNFAIR_PRODUCTION,
                    f"starting groups for {players} players differ in total size or production "
                    f"({shown}): rule sets that need equal groups assign their own figures",
                )
            )
    return findings


def _duplicate_findings(game_map: GameMap) -> list[Finding]:
    """Names given twice. The readers report these at the line that repeats them and keep the first; a map made
    in code (or in the editor, by a bug) is checked here, so that nothing relies on the readers alone."""
    findings: list[Finding] = []
    for kind, code, listed in (
        ("territory", FindingCode.DUPLICATE_TERRITORY, game_map.names),
        ("continent", FindingCode.DUPLICATE_CONTINENT, tuple(c.name for c in game_map.continents)),
    ):
        counts = Counter(listed)
        for name in (n for n in dict.fromkeys(listed) if counts[n] > 1):
            findings.append(
                error(
                    code,
                    f'{kind} "{name}" is defined {counts[name]} times',
                    territories=[name] if kind == "territory" else [],
                    continents=[name] if kind == "continent" else [],
                )
            )
    return findings


def _continent_findings(game_map: GameMap, graph: Mapping[str, set[str]], rules: MapRules) -> list[Finding]:
    findings: list[Finding] = []
    defined = {c.name for c in game_map.continents}
    for t in game_map.territories:
        if t.continent is not None and t.continent not in defined:
            findings.append(
                error(
                    FindingCode.UNKNOWN_CONTINENT,
                    f'"{t.name}" is in continent "{t.continent}", which is not defined',
                    territories=[t.name],
                    continents=[t.continent],
                )
            )
    homeless = [t.name for t in game_map.territories if t.continent is None]
    if homeless and rules is MapRules.COURSE:
        findings.append(
            error(
                FindingCode.NO_CONTINENT, f"territories in no continent: {quote_list(homeless)}", territories=homeless
            )
        )
    members = game_map.continent_members()
    for continent in game_map.continents:
        inside = members[continent.name]
        if not inside:
            findings.append(
                warning(
                    FindingCode.CONTINENT_EMPTY,
                    f'continent "{continent.name}" has no territory',
                    continents=[continent.name],
                )
            )
            continue
        if continent.bonus == 0:
            findings.append(
                warning(
                    FindingCode.CONTINENT_WORTHLESS,
                    f'continent "{continent.name}" is worth 0 units',
                    territories=inside,
                    continents=[continent.name],
                )
            )
        member_set = set(inside)
        sub = {n: graph[n] & member_set for n in inside}
        parts = components(sub, inside)
        if len(parts) > 1:
            findings.append(
                warning(
                    FindingCode.CONTINENT_SPLIT,
                    f'continent "{continent.name}" is in {len(parts)} pieces: '
                    + "; ".join(quote_list(p, 5) for p in parts[:5]),
                    territories=inside,
                    continents=[continent.name],
                )
            )
    return findings


def _group_findings(game_map: GameMap) -> list[Finding]:
    findings: list[Finding] = []
    known = set(game_map.names)
    for players, groups in sorted(game_map.starting_groups.items()):
        label = f"starting groups for {players} players"
        if len(groups) != players:
            findings.append(error(FindingCode.BAD_GROUPS, f"{label}: {len(groups)} groups given, {players} needed"))
        sizes = {len(g) for g in groups}
        if len(sizes) > 1:
            findings.append(
                error(
                    FindingCode.BAD_GROUPS, f"{label}: groups differ in size ({', '.join(str(len(g)) for g in groups)})"
                )
            )
        if any(len(g) == 0 for g in groups):
            findings.append(error(FindingCode.BAD_GROUPS, f"{label}: a group is empty"))
        seen: set[str] = set()
        for group in groups:
            for name in group:
                if name not in known:
                    findings.append(
                        error(FindingCode.UNKNOWN_TERRITORY, f'{label}: unknown territory "{name}"', territories=[name])
                    )
                elif name in seen:
                    findings.append(
                        error(
                            FindingCode.BAD_GROUPS, f'{label}: "{name}" is in more than one group', territories=[name]
                        )
                    )
                seen.add(name)
    return findings


def continents_wanted(game_map: GameMap, file_format: str) -> list[Finding]:
    """The error of a map some of whose territories are in no continent, for a file format that needs one for each
    (Conquest's and Domination's)."""
    homeless = [t.name for t in game_map.territories if t.continent is None]
    if not homeless:
        return []
    return [
        error(
            FindingCode.NO_CONTINENT,
            f"a {file_format} map needs a continent for every territory; in none: {quote_list(homeless)}",
            territories=homeless,
        )
    ]
