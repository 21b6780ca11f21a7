"""Starting groups (R6-R7): the map's own for a player count, else equal groups grown to be as contiguous as the map
allows. Territories left over when the count does not divide start neutral.

Deterministic (no random source): a map always offers the same groups for a player count, which players can learn;
R8's random part is only which player gets which group.
"""

from __future__ import annotations

import heapq
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


def _spread_seeds(
    graph: Mapping[str, Sequence[str]],
    names: Sequence[str],
    first: str,
    count: int,
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


def _grow(
    graph: Mapping[str, Sequence[str]],
    names: Sequence[str],
    seeds: Sequence[str],
    dists: Sequence[dict[str, int]],
    size: int,
) -> list[list[str]]:
    """Each group in turn takes a territory of its frontier (the free ones beside it; when it has none, any free
    one): the one with the fewest free neighbours (so as not to wall others in), then the nearest to the group's
    seed, then the first in the map.

    Each group keeps its candidates in heaps (lazily: an entry whose key is out of date is dropped when it comes
    up), so a pick costs a logarithm, not a walk of the frontier, which on a map with a hub held nearly the whole map.
    """
    far = len(names) + 1
    rank = {n: i for i, n in enumerate(names)}
    owner: dict[str, int] = {}
    free_degree = {n: len(graph[n]) for n in names}
    groups: list[list[str]] = [[] for _ in seeds]
    frontiers: list[set[str]] = [set() for _ in seeds]
    near: list[list[tuple[int, int, int, str]]] = [[] for _ in seeds]  # each frontier's candidates
    anywhere: list[list[tuple[int, int, int, str]] | None] = [None for _ in seeds]  # built once a frontier is empty

    def key(group: int, name: str) -> tuple[int, int, int, str]:
        return free_degree[name], dists[group].get(name, far), rank[name], name

    def take(group: int, name: str) -> None:
        owner[name] = group
        groups[group].append(name)
        for frontier in frontiers:
            frontier.discard(name)
        for nxt in graph[name]:
            free_degree[nxt] -= 1
            if nxt in owner:
                continue
            frontiers[group].add(nxt)
            for other in range(len(seeds)):  # its key fell: every heap that holds it gets it anew
                if nxt in frontiers[other]:
                    heapq.heappush(near[other], key(other, nxt))
                pool = anywhere[other]
                if pool is not None:
                    heapq.heappush(pool, key(other, nxt))

    def pick(group: int) -> str:
        if frontiers[group]:
            heap = near[group]
        else:
            pool = anywhere[group]
            if pool is None:
                pool = anywhere[group] = [key(group, n) for n in names if n not in owner]
                heapq.heapify(pool)
            heap = pool
        while True:
            entry = heapq.heappop(heap)
            name = entry[3]
            if name not in owner and entry == key(group, name):
                return name

    for i, seed in enumerate(seeds):
        take(i, seed)
    while any(len(g) < size for g in groups):
        for i in range(len(seeds)):
            if len(groups[i]) >= size:
                continue
            take(i, pick(i))
    return groups


def _pieces(graph: Mapping[str, Sequence[str]], group: Sequence[str]) -> list[list[str]]:
    inside = set(group)
    return components({n: [m for m in graph[n] if m in inside] for n in group}, group)


REPAIR_WORK = 150_000
"""Territories a repair may look at (summed over every group it takes apart): nine times what the real maps need
(at most 16,740, over 58 real maps and 2 to 6 players), so they are repaired to the end; on a crafted map of
thousands of territories, where each swap tried looks at whole groups again, it stops there with the groups it
has (equal still, if less contiguous), within a fraction of a second."""


def _repair(
    graph: Mapping[str, Sequence[str]],
    groups: list[list[str]],
    names: Sequence[str],
    max_swaps: int = 200,
    max_work: int = REPAIR_WORK,
) -> list[list[str]]:
    """Swap stray territories for ones next to their group's main piece while that joins more pieces than it breaks.

    Leftover (neutral) territories take part as a group whose shape does not matter. Stops after `max_swaps` swaps,
    or once it has looked at `max_work` territories: the groups are then equal still, if less contiguous.
    """
    grouped = {n for g in groups for n in g}
    leftovers = [n for n in names if n not in grouped]
    pools = [list(g) for g in groups] + [leftovers]
    last = len(pools) - 1
    work = 0

    def pieces_of(index: int) -> list[list[str]]:
        nonlocal work
        work += len(pools[index])
        return _pieces(graph, pools[index])

    def cost(index: int) -> int:
        return 0 if index == last else len(pieces_of(index))

    for _ in range(max_swaps):
        where = {n: i for i, pool in enumerate(pools) for n in pool}
        work += len(names)
        improved = False
        for g in range(last):
            pieces = pieces_of(g)
            if len(pieces) == 1:
                continue
            main = set(pieces[0])
            for stray in (n for piece in pieces[1:] for n in piece):
                for h in sorted({where[m] for m in graph[stray]} - {g}):
                    candidates = [u for u in pools[h] if any(m in main for m in graph[u])]
                    work += len(pools[h])
                    before = cost(g) + cost(h) if candidates else 0  # a swap tried is undone: the same each time
                    for candidate in candidates:
                        if work > max_work:
                            return pools[:last]
                        work += len(pools[g]) + len(pools[h])  # the removals below walk both lists
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
        if not improved or work > max_work:
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
