"""The map drawn in a terminal from its territories' coordinates (`map`), a screen at a time.

Each territory is drawn as the label a player may type for it, its holder's mark and its units (`Sib A12`), in its
holder's colour, where the map puts it; lines join territories that touch where there is room to draw them. A map
too big to draw readably on one screen is drawn by region: `map` lists the continents with what each player holds
of each, `map NAME` draws one continent (or the one territory NAME lies in), in parts of a screen each when even one
continent is too big, and each picture names what lies beyond its edge. So every territory of a map of any size is
on a screen the player reaches from `map`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from shared.game.presentation import (
    Fragments,
    Holding,
    Palette,
    by_continent,
    legend,
    plural,
    short_names,
    wrap,
)
from shared.maps.model import GameMap

DRIFT = 8
"""How far from where the map puts it a label may be drawn and still read as there (a row counts as two columns):
a map whose labels cannot all be drawn that near is drawn by region."""

LONGEST_BORDER = 14
"""The most cells a line joining two neighbours may take: longer ones would cross the picture and hide the rest."""

SMALLEST = 3
"""The fewest rows a picture is drawn in, however small the terminal (it is then taller than the screen)."""

BEYOND_LINES = 3
"""The most lines a region's picture gives to the territories beyond its edge."""

EXPLAINED = "Each territory: what you may type for it, its holder's mark, its units."

LINES_SAID = "  (lines: borders)"
"""Beside the legend: what the lines are."""


@dataclass(frozen=True)
class Label:
    name: str
    text: str
    row: int
    col: int

    @property
    def end(self) -> int:
        return self.col + len(self.text)

    def holds(self, row: int, col: int) -> bool:
        return row == self.row and self.col <= col < self.end


@dataclass(frozen=True)
class Drawing:
    """Labels placed on a grid of `rows` by `width` characters, and the lines drawn between neighbours."""

    labels: tuple[Label, ...]
    rows: int
    width: int
    lines: Mapping[tuple[int, int], str]


def label_texts(game_map: GameMap, holdings: Mapping[str, Holding], palette: Palette) -> dict[str, str]:
    codes = short_names(tuple(game_map.names))
    return {name: f"{codes[name]} {palette.mark(holdings[name][0])}{holdings[name][1]}" for name in game_map.names}


def has_places(game_map: GameMap) -> bool:
    return bool(game_map.territories) and all(t.x is not None and t.y is not None for t in game_map.territories)


def place(
    game_map: GameMap, names: Sequence[str], texts: Mapping[str, str], width: int, height: int, drift: int | None
) -> Drawing | None:
    """The labels of `names` placed where the map puts them, scaled to `width` columns and at most `height` rows;
    None when one cannot be drawn within `drift` of its place (None: anywhere there is room)."""
    where = {t.name: (float(t.x or 0.0), float(t.y or 0.0)) for t in game_map.territories}
    xs = [where[n][0] for n in names]
    ys = [where[n][1] for n in names]
    span_x, span_y = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    widest = max(len(texts[n]) for n in names)
    width = max(width, widest + 2)
    rows = max(min(4, height), min(height, round(width * span_y / span_x / 2) + 1, len(names) + 2))
    taken: list[list[bool]] = [[False] * width for _ in range(rows)]
    placed: list[Label] = []
    reach = width + rows if drift is None else drift

    def free(row: int, col: int, size: int) -> bool:
        if row < 0 or row >= rows or col < 0 or col + size > width:
            return False
        return not any(taken[row][c] for c in range(max(0, col - 1), min(width, col + size + 1)))

    for name in sorted(names, key=lambda n: (where[n][1], where[n][0])):
        text = texts[name]
        want_row = round((where[name][1] - min(ys)) / span_y * (rows - 1))
        want_col = round((where[name][0] - min(xs)) / span_x * (width - len(text)))
        spot = next(
            ((r, c) for d in range(reach + 1) for r, c in _around(want_row, want_col, d) if free(r, c, len(text))),
            None,
        )
        if spot is None:
            if drift is not None:
                return None
            continue
        row, col = spot
        for c in range(col, col + len(text)):
            taken[row][c] = True
        placed.append(Label(name, text, row, col))
    return Drawing(tuple(placed), rows, width, _borders(game_map, placed, taken, rows, width))


def _around(row: int, col: int, distance: int) -> Iterable[tuple[int, int]]:
    """The cells `distance` steps from (row, col), nearest rows first (a row is worth two columns)."""
    if distance == 0:
        yield row, col
        return
    for rows_off in range(0, distance // 2 + 1):
        cols_off = distance - 2 * rows_off
        for r in {row + rows_off, row - rows_off}:
            for c in {col + cols_off, col - cols_off}:
                yield r, c


def _borders(
    game_map: GameMap, placed: Sequence[Label], taken: list[list[bool]], rows: int, width: int
) -> dict[tuple[int, int], str]:
    """A line for each pair of neighbours whose way from one label to the other is free: through no label and no
    other line, never right beside a label (where it would read as part of it), and short enough to follow (the
    shortest first)."""
    at = {label.name: label for label in placed}
    pairs = {tuple(sorted((a, b))) for a in at for b in game_map.neighbours(a) if b in at and b != a}
    paths = [path for a, b in pairs if (path := _path(at[a], at[b])) is not None]

    def clear(row: int, col: int) -> bool:
        return (
            0 <= row < rows
            and 0 <= col < width
            and not taken[row][col]
            and (col == 0 or not taken[row][col - 1])
            and (col == width - 1 or not taken[row][col + 1])
        )

    lines: dict[tuple[int, int], str] = {}
    for path in sorted(paths, key=len):
        if len(path) <= LONGEST_BORDER and all(clear(*cell) and cell not in lines for cell, _ in path):
            lines.update(path)
    return lines


def _path(a: Label, b: Label) -> list[tuple[tuple[int, int], str]] | None:
    """The cells between two labels on a straight line from one to the other, each with the character that draws
    it; None when they touch (there is nothing to draw)."""
    if a.row == b.row:  # a space either side, so that the line does not read as part of a label
        left, right = (a, b) if a.col < b.col else (b, a)
        return [((a.row, c), "-") for c in range(left.end + 1, right.col - 1)] or None
    top, bottom = (a, b) if a.row < b.row else (b, a)
    start = (top.row, (top.col + top.end - 1) // 2)
    end = (bottom.row, (bottom.col + bottom.end - 1) // 2)
    steps = max(abs(end[0] - start[0]), abs(end[1] - start[1]))
    cells: list[tuple[tuple[int, int], str]] = []
    previous = start
    for step in range(1, steps + 1):
        row = start[0] + round((end[0] - start[0]) * step / steps)
        col = start[1] + round((end[1] - start[1]) * step / steps)
        if top.holds(row, col) or bottom.holds(row, col):
            previous = (row, col)
            continue
        rising, moving = row - previous[0], col - previous[1]
        if rising and moving:
            char = "\\" if (rising > 0) == (moving > 0) else "/"
        elif rising:
            char = "|"
        else:
            char = "-"
        cells.append(((row, col), char))
        previous = (row, col)
    return cells or None


def draw(drawing: Drawing, holdings: Mapping[str, Holding], palette: Palette) -> Fragments:
    """The grid as styled text: each label in its holder's colour, the lines muted."""
    cells: dict[tuple[int, int], tuple[str, str]] = {
        cell: ("class:muted", char) for cell, char in drawing.lines.items()
    }
    for label in drawing.labels:
        style = palette.style(holdings[label.name][0])
        for offset, char in enumerate(label.text):
            cells[(label.row, label.col + offset)] = (style, char)
    out: Fragments = []
    for row in range(drawing.rows):
        last = max((c for r, c in cells if r == row), default=-1)
        col = 0
        while col <= last:
            style = cells.get((row, col), ("", " "))[0]
            start = col
            while col <= last and cells.get((row, col), ("", " "))[0] == style:
                col += 1
            out.append((style, "".join(cells.get((row, c), ("", " "))[1] for c in range(start, col))))
        out.append(("", "\n"))
    return out


def map_picture(
    game_map: GameMap, holdings: Mapping[str, Holding], palette: Palette, you: str | None, width: int, height: int
) -> Fragments | None:
    """The whole map, `width` columns by at most `height` rows, its legend under it, every label drawn where there is
    room nearest its place; None when some territory has no coordinates."""
    if not has_places(game_map):
        return None
    drawing = place(game_map, game_map.names, label_texts(game_map, holdings, palette), width, height, None)
    assert drawing is not None
    out = [*draw(drawing, holdings, palette), *_legend(holdings, palette, you)]
    left_out = [n for n in game_map.names if n not in {label.name for label in drawing.labels}]
    if left_out:
        out.append(("class:muted", f"(no room for {', '.join(left_out)}: board lists every territory)\n"))
    return out


def _legend(holdings: Mapping[str, Holding], palette: Palette, you: str | None) -> Fragments:
    return [
        *legend(palette, you, any(h[0] is None for h in holdings.values())),
        ("class:muted", LINES_SAID + "\n"),
        ("class:muted", EXPLAINED + "\n"),
    ]


def lines_of(text: Fragments, width: int) -> int:
    """How many lines `text` takes once broken to `width`."""
    return "".join(part for _, part in wrap(text, width)).rstrip("\n").count("\n") + 1


def regions(game_map: GameMap) -> list[tuple[str | None, list[str]]]:
    """What the map is drawn by when it is too big for one screen: its continents (territories of none last), or the
    whole map when it has fewer than two."""
    if len(game_map.continents) < 2:
        return [(None, list(game_map.names))]
    return by_continent(game_map, game_map.names)


def region_names(game_map: GameMap) -> list[str]:
    """The names `map NAME` takes: the map's continents, then its territories."""
    return [*(c.name for c in game_map.continents), *game_map.names]


def map_pictures(
    game_map: GameMap,
    holdings: Mapping[str, Holding],
    palette: Palette,
    you: str | None,
    width: int,
    height: int,
    focus: str | None = None,
) -> list[Fragments] | None:
    """What `map` shows, as screens of at most `width` by `height`: the whole map when it can be drawn readably on
    one; otherwise the continents with what each player holds (a map of no continents: its parts, one a screen).
    `map NAME` (`focus`): one continent, or the one territory NAME lies in, a part a screen. None when some
    territory has no coordinates."""
    if not has_places(game_map):
        return None
    texts = label_texts(game_map, holdings, palette)
    below = _legend(holdings, palette, you)
    room = max(SMALLEST, height - lines_of(below, width))
    if focus is None:
        whole = place(game_map, game_map.names, texts, width, room, DRIFT)
        if whole is not None:
            return [[*draw(whole, holdings, palette), *below]]
    chosen = regions(game_map)
    if focus is None and len(chosen) > 1:
        return [overview(game_map, chosen, holdings, palette, you)]
    for continent, members in chosen:
        if focus is None or focus == continent or focus in members or len(chosen) == 1:
            return _region(game_map, continent, members, holdings, palette, texts, below, width, height, focus)
    return []


def _region(
    game_map: GameMap,
    continent: str | None,
    members: list[str],
    holdings: Mapping[str, Holding],
    palette: Palette,
    texts: Mapping[str, str],
    below: Fragments,
    width: int,
    height: int,
    focus: str | None,
) -> list[Fragments]:
    """One region drawn in parts that each fit a screen with its heading, what lies beyond it and the legend (the
    part that holds territory `focus` alone, when it names one)."""
    room = max(SMALLEST, height - lines_of(below, width) - 1 - BEYOND_LINES)
    parts = _parts(game_map, members, texts, width, room)
    screens: list[Fragments] = []
    title = continent or game_map.name
    for number, part in enumerate(parts, start=1):
        if focus is not None and focus != continent and focus not in part:
            continue
        which = f", part {number} of {len(parts)}" if len(parts) > 1 else ""
        head: Fragments = [
            ("class:title", f"{title}{which}"),
            ("", f" ({plural(len(part), 'territory', 'territories')})\n"),
        ]
        beyond = _beyond(game_map, part, parts, width)
        drawing = place(game_map, part, texts, width, room, DRIFT) or place(game_map, part, texts, width, room, None)
        assert drawing is not None
        screens.append([*head, *draw(drawing, holdings, palette), *beyond, *below])
    return screens


def _parts(game_map: GameMap, names: list[str], texts: Mapping[str, str], width: int, height: int) -> list[list[str]]:
    """`names` as they are when they can be drawn readably in `width` by `height`, else split in two along where they
    spread the most (on screen), each half in turn, in the map's order from the top left."""
    if len(names) <= 1 or place(game_map, names, texts, width, height, DRIFT) is not None:
        return [names]
    where = {t.name: (float(t.x or 0.0), float(t.y or 0.0)) for t in game_map.territories}
    xs, ys = [where[n][0] for n in names], [where[n][1] for n in names]
    across = (max(xs) - min(xs)) / max(1, width)
    down = (max(ys) - min(ys)) * 2 / max(1, height)
    axis = 0 if across >= down else 1
    ordered = sorted(names, key=lambda n: (where[n][axis], where[n][1 - axis]))
    half = len(ordered) // 2
    first, second = set(ordered[:half]), set(ordered[half:])
    return [
        *_parts(game_map, [n for n in names if n in first], texts, width, height),
        *_parts(game_map, [n for n in names if n in second], texts, width, height),
    ]


def _beyond(game_map: GameMap, part: Sequence[str], parts: Sequence[Sequence[str]], width: int) -> Fragments:
    """The territories next to the picture's that it does not draw, by where they are drawn ("Beyond this picture:
    b1 b3 (Britain); f2 (part 2)"); where alone when that would take more than BEYOND_LINES lines."""
    codes = short_names(tuple(game_map.names))
    inside = set(part)
    outside = sorted({m for n in part for m in game_map.neighbours(n) if m not in inside}, key=game_map.names.index)
    if not outside:
        return []
    continent_of = {t.name: t.continent for t in game_map.territories}
    groups: dict[str, list[str]] = {}
    for name in outside:
        number = next((i for i, p in enumerate(parts, start=1) if name in p), None)
        where = f"part {number}" if number is not None else continent_of.get(name) or "elsewhere"
        groups.setdefault(where, []).append(codes[name])
    listed = "; ".join(f"{' '.join(found)} ({where})" for where, found in groups.items())
    said: Fragments = [("class:muted", f"Beyond this picture: {listed}.\n")]
    if lines_of(said, width) > BEYOND_LINES:
        said = [("class:muted", f"Beyond this picture: {', '.join(groups)} (board NAME lists its neighbours).\n")]
    return said


def overview(
    game_map: GameMap,
    chosen: Sequence[tuple[str | None, Sequence[str]]],
    holdings: Mapping[str, Holding],
    palette: Palette,
    you: str | None,
) -> Fragments:
    """The continents, each with its territories and what each player holds of it: where `map NAME` goes (taller
    than a screen on a map of more continents than it has lines: the client shows it a screen at a time)."""
    out: Fragments = [
        (
            "",
            f"{game_map.name} has {plural(len(game_map.names), 'territory', 'territories')} in "
            f"{plural(len(chosen), 'continent')}: too many to draw readably on one screen. ",
        ),
        ("class:hint", "map NAME draws a continent, or the one territory NAME lies in:\n"),
    ]
    widest = min(max(len(c or "Elsewhere") for c, _ in chosen), 24)
    for continent, members in chosen:
        out += [("", "  "), ("class:title", (continent or "Elsewhere").ljust(widest)), ("", f" {len(members):>4}")]
        counts: dict[str | None, int] = {}
        for name in members:
            counts[holdings[name][0]] = counts.get(holdings[name][0], 0) + 1
        for owner in [*palette.players, None]:
            if counts.get(owner):
                out += [("", "  "), (palette.style(owner), f"{palette.mark(owner)} {counts[owner]}")]
        out.append(("", "\n"))
    return [*out, *legend(palette, you, any(h[0] is None for h in holdings.values())), ("", "\n")]
