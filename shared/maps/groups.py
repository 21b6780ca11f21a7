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
    # Computing takes milliseconds on a large map and never changes: keep it with the (immutable) map.
    cache: dict[int, Groups] = game_map.__dict__.setdefault("_computed_groups", {})
    if players not in cache:
        cache[players] = compute_groups(game_map, players)
    return cache[players]


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


def _pieces(graph: Mapping[str, Sequence[str]], group: Sequence[str]) -> list[list[str]]:
    inside = set(group)
    return components({n: [m for m in graph[n] if m in inside] for n in group}, group)


def _repair(graph: Mapping[str, Sequence[str]], groups: list[list[str]], names: Sequence[str],
            max_swaps: int = 200) -> list[list[str]]:
    """Swap stray territories for ones next to their group's main piece while that joins more pieces than it breaks.

    Leftover (neutral) territories take part as a group whose shape does not matter.
    """
    grouped = {n for g in groups for n in g}
    leftovers = [n for n in names if n not in grouped]
    pools = [list(g) for g in groups] + [leftovers]
    last = len(pools) - 1

    def cost(index: int) -> int:
        return 0 if index == last else len(_pieces(graph, pools[index]))

    for _ in range(max_swaps):
        where = {n: i for i, pool in enumerate(pools) for n in pool}
        improved = False
        for g in range(last):
            pieces = _pieces(graph, pools[g])
            if len(pieces) == 1:
                continue
            main = set(pieces[0])
            for stray in (n for piece in pieces[1:] for n in piece):
                for h in sorted({where[m] for m in graph[stray]} - {g}):
                    for candidate in [u for u in pools[h] if any(m in main for m in graph[u])]:
                        before = cost(g) + cost(h)
                        pools[g].remove(stray)
                        pools[g].append(candidate)
                        pools[h].remove(candidate)
                        pools[h].append(stray)
                        if cost(g) + cost(h) < before:
                            improved = True
                            break
                        pools[h].remove(stray)
                        pools[h].append(candidate)
                        pools[g].remove(candidate)
                        pools[g].append(stray)
                    if improved:
                        break
                if improved:
                    break
            if improved:
                break
        if not improved:
            break
    return pools[:last]


def compute_groups(game_map: GameMap, players: int) -> Groups:
    """Equal groups of len(map) // players territories: the best of many seedings by contiguity, then repaired."""
    names = list(game_map.names)
    if players < 1:
        raise ValueError("at least one player is needed")
    size = len(names) // players
    if size == 0:
        raise ValueError(f"{game_map.name} has {len(names)} territories, too few for {players} players")
    undirected = game_map.undirected()
    rank = {n: i for i, n in enumerate(names)}
    graph = {n: sorted((m for m in undirected[n] if m != n), key=rank.__getitem__) for n in names}
    attempts = min(len(names), 48) if len(names) <= 500 else 2
    starts = sorted({names[(i * len(names)) // attempts] for i in range(attempts)}, key=rank.__getitem__)
    scored: list[tuple[tuple[int, int], int, list[list[str]]]] = []
    for attempt, start in enumerate(starts):
        seeds, dists = _spread_seeds(graph, names, start, players)
        groups = _grow(graph, names, seeds, dists, size)
        pieces = sum(len(_pieces(graph, g)) for g in groups)
        spread = sum(dists[i].get(n, len(names)) for i, g in enumerate(groups) for n in g)
        scored.append(((pieces, spread), attempt, groups))
    scored.sort(key=lambda item: item[:2])
    best: list[list[str]] | None = None
    best_pieces = len(names) + 1
    for _, _, groups in scored[:4]:  # repairing is the costly part: only the most promising seedings
        repaired = _repair(graph, groups, names)
        pieces = sum(len(_pieces(graph, g)) for g in repaired)
        if pieces < best_pieces:
            best, best_pieces = repaired, pieces
        if best_pieces == players:
            break
    assert best is not None
    return tuple(tuple(sorted(g, key=rank.__getitem__)) for g in best)
