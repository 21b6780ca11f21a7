"""Starting groups (R6-R7): the map's own for a player count, else equal groups grown to be as contiguous as the map
allows. Territories left over when the count does not divide start neutral.

Deterministic (no random source): a map always offers the same groups for a player count, which players can learn;
R8's random part is only which player gets which group.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence

from shared.maps.model import GameMap
from shared.maps.validate import components

Groups = tuple[tuple[str, ...], ...]


def starting_groups(game_map: GameMap, players: int) -> Groups:
    """The groups for `players` players: the map's own if it has them, else computed."""
    own = game_map.starting_groups.get(players)
    if own:
        return tuple(tuple(g) for g in own)
    return compute_groups(game_map, players)


def neutral_territories(game_map: GameMap, groups: Groups) -> tuple[str, ...]:
    """What no group holds: these start neutral (R7)."""
    grouped = {name for group in groups for name in group}
    return tuple(n for n in game_map.names if n not in grouped)


def _distances(graph: Mapping[str, Sequence[str]], start: str) -> dict[str, int]:
    dist = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in graph[node]:
            if nxt not in dist:
                dist[nxt] = dist[node] + 1
                queue.append(nxt)
    return dist


def _spread_seeds(graph: Mapping[str, Sequence[str]], names: Sequence[str], first: str, count: int,
                  ) -> tuple[list[str], list[dict[str, int]]]:
    """Farthest-point seeds: each next seed is the territory farthest from all seeds chosen so far."""
    far = len(names) + 1
    seeds = [first]
    dists = [_distances(graph, first)]
    while len(seeds) < count:
        nearest = {n: min(d.get(n, far) for d in dists) for n in names}
        nxt = max((n for n in names if n not in seeds), key=lambda n: nearest[n])
        seeds.append(nxt)
        dists.append(_distances(graph, nxt))
    return seeds, dists


def _grow(graph: Mapping[str, Sequence[str]], names: Sequence[str], seeds: Sequence[str],
          dists: Sequence[dict[str, int]], size: int) -> list[list[str]]:
    far = len(names) + 1
    rank = {n: i for i, n in enumerate(names)}
    owner: dict[str, int] = {}
    free_degree = {n: len(graph[n]) for n in names}
    groups: list[list[str]] = [[] for _ in seeds]
    frontiers: list[set[str]] = [set() for _ in seeds]

    def take(group: int, name: str) -> None:
        owner[name] = group
        groups[group].append(name)
        for frontier in frontiers:
            frontier.discard(name)
        for nxt in graph[name]:
            free_degree[nxt] -= 1
            if nxt not in owner:
                frontiers[group].add(nxt)

    for i, seed in enumerate(seeds):
        take(i, seed)
    while any(len(g) < size for g in groups):
        for i in range(len(seeds)):
            if len(groups[i]) >= size:
                continue
            pool = frontiers[i] or {n for n in names if n not in owner}
            # Fewest free neighbours first (do not wall others in), then nearest to this group's seed.
            pick = min(pool, key=lambda n: (free_degree[n], dists[i].get(n, far), rank[n]))
            take(i, pick)
    return groups


def compute_groups(game_map: GameMap, players: int) -> Groups:
    """Equal groups of len(map) // players territories, best of a few seedings by contiguity."""
    names = list(game_map.names)
    if players < 1:
        raise ValueError("at least one player is needed")
    size = len(names) // players
    if size == 0:
        raise ValueError(f"{game_map.name} has {len(names)} territories, too few for {players} players")
    undirected = game_map.undirected()
    rank = {n: i for i, n in enumerate(names)}
    graph = {n: sorted((m for m in undirected[n] if m != n), key=rank.__getitem__) for n in names}
    attempts = 8 if len(names) <= 500 else 2
    starts = sorted({names[(i * len(names)) // attempts] for i in range(attempts)}, key=rank.__getitem__)
    best: list[list[str]] | None = None
    best_score: tuple[int, int] | None = None
    for start in starts:
        seeds, dists = _spread_seeds(graph, names, start, players)
        groups = _grow(graph, names, seeds, dists, size)
        pieces = sum(len(components({n: [m for m in graph[n] if m in g] for n in g}, g)) for g in map(set, groups))
        spread = sum(dists[i].get(n, len(names)) for i, g in enumerate(groups) for n in g)
        score = (pieces, spread)
        if best_score is None or score < best_score:
            best, best_score = groups, score
    assert best is not None
    return tuple(tuple(sorted(g, key=rank.__getitem__)) for g in best)
