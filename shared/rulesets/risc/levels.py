"""Unit levels and technology (E2, E5, E6, E9, E13, E14): the tables of RISC Evolutions 2 and 3, and the small
arithmetic of per-level unit counts.

Units on a territory are kept as a tuple of seven counts, one per level 0 to 6 (`Levels`), so that a board, a view
and an event say exactly how many units of each level stand somewhere, and the sum is the territory's units.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

LEVELS = 7
"""Levels 0 to 6."""

TOP_LEVEL = LEVELS - 1

BONUS: tuple[int, ...] = (0, 1, 3, 5, 8, 11, 15)
"""E9: what a unit of each level adds to its d20 roll."""

TOTAL: tuple[int, ...] = (0, 3, 11, 30, 55, 90, 140)
"""E5: the technology a unit has cost to reach each level from level 0; an upgrade from a to b costs the
difference."""

RESEARCH: dict[int, int] = {1: 50, 2: 75, 3: 125, 4: 200, 5: 300}
"""E6: technology to raise the maximum technology level from each level to the next."""

FIRST_TECH_LEVEL = 1
"""E2: every player's maximum technology level at the start."""

SPY_COST = 20
"""E13: technology to turn one level-0 unit into a spy."""

CLOAKING_RESEARCH_COST = 100
CLOAKING_MIN_TECH_LEVEL = 3
CLOAK_COST = 20
CLOAK_TURNS = 3
"""E14: researching cloaking (once, at maximum technology level 3 or more), then each cloak order, which hides a
territory for this many turns."""

Levels = tuple[int, ...]
"""Units per level, index = level; always LEVELS long."""

NO_UNITS: Levels = (0,) * LEVELS


def level_zero(units: int) -> Levels:
    """`units` units, all of level 0 (E2: starting and per-turn units)."""
    return (units,) + (0,) * (LEVELS - 1)


def upgrade_cost(units: int, level: int, to_level: int) -> int:
    """E5: N x (total(b) - total(a))."""
    return units * (TOTAL[to_level] - TOTAL[level])


def research_cost(tech_level: int) -> int | None:
    """E6: what raising the maximum technology level from `tech_level` costs; None at the top."""
    return RESEARCH.get(tech_level)


def add(levels: Sequence[int], level: int, units: int) -> Levels:
    changed = list(levels)
    changed[level] += units
    return tuple(changed)


def combine(*many: Iterable[int]) -> Levels:
    total = [0] * LEVELS
    for levels in many:
        for level, units in enumerate(levels):
            total[level] += units
    return tuple(total)


def lowest_first(levels: Sequence[int], units: int) -> list[tuple[int, int]]:
    """E3: `units` units taken from `levels`, the lowest levels first, as (level, count) pairs; fewer when there are
    not enough."""
    taken: list[tuple[int, int]] = []
    for level, there in enumerate(levels):
        if units <= 0:
            break
        take = min(there, units)
        if take > 0:
            taken.append((level, take))
            units -= take
    return taken


def highest_first(levels: Sequence[int], units: int) -> list[tuple[int, int]]:
    """`units` units taken from the highest levels down, as (level, count) pairs (what an attacker sends first)."""
    taken: list[tuple[int, int]] = []
    for level in range(LEVELS - 1, -1, -1):
        if units <= 0:
            break
        take = min(levels[level], units)
        if take > 0:
            taken.append((level, take))
            units -= take
    return taken


def describe_levels(levels: Sequence[int]) -> str:
    """ "3 at level 0, 2 at level 3" — or "none"."""
    parts = [f"{units} at level {level}" for level, units in enumerate(levels) if units]
    return ", ".join(parts) or "none"


def short_levels(levels: Sequence[int]) -> str:
    """Compact per-level counts for a board line: "5 L0, 2 L3"."""
    return ", ".join(f"{units} L{level}" for level, units in enumerate(levels) if units)
