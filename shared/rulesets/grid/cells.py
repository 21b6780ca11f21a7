"""G1: the 5 x 5 board, made here rather than read from a file, as a map like any other.

A cell is named "row,col" (rows and columns from 0, as in the seed's "(#row, #column)"): one word, so it splits
cleanly in a typed command and reads the way the seed writes coordinates; the text client also takes "2 3" or
"(2, 3)" for it (presentation.py). Cells sharing a side are adjacent, both ways.
"""

from __future__ import annotations

from shared.maps.model import GameMap, Territory, build_map
from shared.rulesets.grid.options import SIZE

LETTERS = "ABCDE"
"""G1: players are A to E, by seat (the order in which they joined)."""


def cell(row: int, col: int) -> str:
    return f"{row},{col}"


def coordinates(name: str) -> tuple[int, int]:
    row, col = name.split(",")
    return int(row), int(col)


def make_grid(size: int = SIZE) -> GameMap:
    names = [cell(r, c) for r in range(size) for c in range(size)]
    borders: dict[str, list[str]] = {}
    for r in range(size):
        for c in range(size):
            borders[cell(r, c)] = [
                cell(r + dr, c + dc)
                for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
                if 0 <= r + dr < size and 0 <= c + dc < size
            ]
    territories = [Territory(name, x=coordinates(name)[1], y=coordinates(name)[0]) for name in names]
    return build_map(
        f"{size} x {size} grid",
        territories,
        borders,
        description="the VG101 grid game's board: cells named row,col from 0,0",
    )


def letter(players: tuple[str, ...] | list[str], player: str | None) -> str:
    """A player's letter: A for the first seat, B for the second, ..."""
    if player is None or player not in players:
        return "-"
    return LETTERS[list(players).index(player)]
