"""Where to draw each territory of a map that has no coordinates: a layout computed from its borders alone.

Stress majorization (SMACOF, as Graphviz's neato does it): every pair of territories is pulled towards a distance on
the page proportional to the number of borders between them, so neighbours sit close together, the map's regions
keep their shape and few borders cross. It starts from a circle in the order of a breadth-first walk and has no
randomness at all, so the same map is laid out the same way on every run and on every machine. Its cost is bounded
(`MAX_WORK` pair updates, whatever the map's size), so a server may lay out an uploaded map when it reads it.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import replace

from shared.maps.model import GameMap

WIDTH = 1000.0
"""The layout's width on the page: positions are scaled to fit a box this wide (height to scale, at most this)."""
MARGIN = 40.0
MAX_ITERATIONS = 200
MAX_WORK = 2_500_000
"""Pair updates at most, all iterations and starts together: 180 territories get 77 iterations, 1,000 get 2."""
MAX_STARTS = 8
"""A small map is laid out from several starting circles, and the layout with the fewest crossings kept."""
TOLERANCE = 1e-4


def has_positions(game_map: GameMap) -> bool:
    """Every territory has both coordinates."""
    return all(t.x is not None and t.y is not None for t in game_map.territories)


def _walk_order(names: list[str], graph: dict[str, set[str]]) -> list[str]:
    """Territories in breadth-first order, component after component, neighbours in the map's order."""
    index = {name: i for i, name in enumerate(names)}
    seen: set[str] = set()
    order: list[str] = []
    for start in names:
        if start in seen:
            continue
        seen.add(start)
        queue = deque([start])
        while queue:
            here = queue.popleft()
            order.append(here)
            for nxt in sorted(graph[here], key=index.__getitem__):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
    return order


def _distances(names: list[str], graph: dict[str, set[str]]) -> list[list[float]]:
    """Borders between every two territories (taken both ways); apart components count as one beyond the most."""
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    far = [[-1.0] * n for _ in range(n)]
    for source in range(n):
        row = far[source]
        row[source] = 0.0
        queue = deque([source])
        while queue:
            here = queue.popleft()
            for nxt_name in graph[names[here]]:
                nxt = index[nxt_name]
                if row[nxt] < 0:
                    row[nxt] = row[here] + 1
                    queue.append(nxt)
    most = max((d for row in far for d in row), default=0.0)
    return [[d if d >= 0 else most + 1 for d in row] for row in far]


def layout(game_map: GameMap) -> dict[str, tuple[float, float]]:
    """A position for every territory, in a box WIDTH wide with MARGIN around; the same map always gets the same."""
    names = list(game_map.names)
    n = len(names)
    if n == 0:
        return {}
    if n == 1:
        return {names[0]: (WIDTH / 2, WIDTH / 4)}
    graph = game_map.undirected()
    dist = _distances(names, graph)
    weight = [[0.0 if i == j else 1.0 / (dist[i][j] * dist[i][j]) for j in range(n)] for i in range(n)]
    edges = sorted({(min(a, b), max(a, b)) for a, targets in graph.items() for b in targets})
    index = {name: i for i, name in enumerate(names)}
    pairs = [(index[a], index[b]) for a, b in edges]
    starts = max(1, min(MAX_STARTS, MAX_WORK // (n * n * MAX_ITERATIONS)))
    best: tuple[int, list[float], list[float]] | None = None
    iterations = max(1, min(MAX_ITERATIONS, MAX_WORK // (n * n * starts)))
    for attempt in range(starts):
        if attempt == 0:
            xs, ys = _classical(dist)
        else:
            shift = attempt * n // starts
            xs, ys = _circle(names, _walk_order(names[shift:] + names[:shift], graph))
        xs, ys = _stress(xs, ys, dist, weight, iterations)
        crossings = _crossings(pairs, xs, ys) if starts > 1 else 0
        if best is None or crossings < best[0]:
            best = crossings, xs, ys
    assert best is not None
    return _fit(names, best[1], best[2])


def _crossings(pairs: list[tuple[int, int]], xs: list[float], ys: list[float]) -> int:
    """Borders that cross another (drawn straight), to choose between layouts."""

    def side(a: int, b: int, c: int) -> bool:
        return (ys[c] - ys[a]) * (xs[b] - xs[a]) > (ys[b] - ys[a]) * (xs[c] - xs[a])

    count = 0
    for k, (a, b) in enumerate(pairs):
        for c, d in pairs[k + 1 :]:
            if a in (c, d) or b in (c, d):
                continue
            if side(a, c, d) != side(b, c, d) and side(a, b, c) != side(a, b, d):
                count += 1
    return count


def _circle(names: list[str], order: list[str]) -> tuple[list[float], list[float]]:
    """Every territory on a circle, in `order`."""
    n = len(names)
    at = {name: i for i, name in enumerate(order)}
    radius = max(1.0, n / (2 * math.pi))
    angles = [2 * math.pi * at[name] / n for name in names]
    return [radius * math.cos(a) for a in angles], [radius * math.sin(a) for a in angles]


def _classical(dist: list[list[float]]) -> tuple[list[float], list[float]]:
    """Classical scaling: the two leading eigenvectors of the double-centred squared distances (power iteration
    from fixed vectors), a start that already has the map's overall shape."""
    n = len(dist)
    squared = [[d * d for d in row] for row in dist]
    row_mean = [sum(row) / n for row in squared]
    total_mean = sum(row_mean) / n
    b = [[-0.5 * (squared[i][j] - row_mean[i] - row_mean[j] + total_mean) for j in range(n)] for i in range(n)]
    found: list[tuple[float, list[float]]] = []
    for k in range(2):
        v = [math.cos(1.0 + i * (k + 1) * 0.7) for i in range(n)]
        value = 0.0
        for _ in range(60):
            w = [sum(bij * vj for bij, vj in zip(row, v, strict=True)) for row in b]
            for _, vec in found:  # deflate: keep away from the eigenvector found already
                dot = sum(wi * ui for wi, ui in zip(w, vec, strict=True))
                w = [wi - dot * ui for wi, ui in zip(w, vec, strict=True)]
            norm = math.sqrt(sum(x * x for x in w)) or 1.0
            value, v = norm, [x / norm for x in w]
        found.append((value, v))
    scales = [math.sqrt(max(value, 1e-9)) for value, _ in found]
    return [scales[0] * x for x in found[0][1]], [scales[1] * y for y in found[1][1]]


def _stress(
    xs: list[float], ys: list[float], dist: list[list[float]], weight: list[list[float]], iterations: int
) -> tuple[list[float], list[float]]:
    """SMACOF: each territory in turn moves to where its weighted pulls balance, until hardly anything moves."""
    n = len(xs)
    xs, ys = list(xs), list(ys)
    totals = [sum(row) for row in weight]
    for _ in range(iterations):
        moved = 0.0
        for i in range(n):
            xi, yi, di, wi = xs[i], ys[i], dist[i], weight[i]
            sx = sy = 0.0
            for j in range(n):
                if j == i:
                    continue
                dx, dy = xi - xs[j], yi - ys[j]
                length = math.hypot(dx, dy)
                if length < 1e-9:  # two on one spot: push apart along a fixed direction, the same every run
                    dx, dy, length = 1e-3 * (1 + (i - j) % 7), 1e-3, 1e-3 * math.hypot(1 + (i - j) % 7, 1)
                pull = wi[j] * di[j] / length
                sx += wi[j] * xs[j] + pull * dx
                sy += wi[j] * ys[j] + pull * dy
            nx, ny = sx / totals[i], sy / totals[i]
            moved = max(moved, abs(nx - xi), abs(ny - yi))
            xs[i], ys[i] = nx, ny
        if moved < TOLERANCE:
            break
    return xs, ys


def _fit(names: list[str], xs: list[float], ys: list[float]) -> dict[str, tuple[float, float]]:
    """Turned so the longer side lies across, scaled into the box, rounded (stable text in a map file)."""
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - cx) ** 2 for x in xs)
    syy = sum((y - cy) ** 2 for y in ys)
    sxy = sum((x - cx) * (y - cy) for x, y in zip(xs, ys, strict=True))
    angle = 0.5 * math.atan2(2 * sxy, sxx - syy)
    cos, sin = math.cos(-angle), math.sin(-angle)
    turned = [((x - cx) * cos - (y - cy) * sin, (x - cx) * sin + (y - cy) * cos) for x, y in zip(xs, ys, strict=True)]
    low_x, high_x = min(p[0] for p in turned), max(p[0] for p in turned)
    low_y, high_y = min(p[1] for p in turned), max(p[1] for p in turned)
    span = max(high_x - low_x, high_y - low_y, 1e-9)
    scale = (WIDTH - 2 * MARGIN) / span
    return {
        name: (round(MARGIN + (x - low_x) * scale, 1), round(MARGIN + (y - low_y) * scale, 1))
        for name, (x, y) in zip(names, turned, strict=True)
    }


def with_positions(game_map: GameMap) -> GameMap:
    """The map itself when every territory has coordinates; otherwise the same map laid out (all of it: a few
    coordinates given among none would not say where the rest go)."""
    if has_positions(game_map):
        return game_map
    placed = layout(game_map)
    territories = tuple(replace(t, x=placed[t.name][0], y=placed[t.name][1]) for t in game_map.territories)
    return replace(game_map, territories=territories)
