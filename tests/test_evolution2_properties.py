"""Properties of Evolutions 2 and 3 over random maps and random legal orders, many turns (hypothesis).

Units and resources are conserved except by the rules that make or spend them: units come only from placement and
the per-turn unit (E2, E10), leave only by combat losses (E9) and by becoming spies (E13); food and technology change
only by the costs of E4-E6, E13 and E14, worked out here from the spec's own tables and paths, and by production
(E10). And a seed with its orders replays exactly (shared/game/turns.replay_orders).
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Mapping
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.game import turns
from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.random import dice_of
from shared.game.ruleset import Private
from shared.maps import GameMap, Territory, build_map, load_map
from shared.rulesets.risc.board import Phase, RiscBoard
from shared.rulesets.risc.evo_events import Battle
from shared.rulesets.risc.evo_orders import (
    CloakingResearchOrder,
    CloakOrder,
    LevelAttackOrder,
    LevelMoveOrder,
    ResearchOrder,
    SpyMoveOrder,
    SpyOrder,
    UpgradeOrder,
)
from tests.evolution_support import RISC, new_game, place_all, random_legal_orders, rules

TOTAL = (0, 3, 11, 30, 55, 90, 140)  # E5
RESEARCH = {1: 50, 2: 75, 3: 125, 4: 200, 5: 300}  # E6


def random_map(rng: random.Random, size: int) -> GameMap:
    """A random connected map (a spanning tree and a few more borders), sizes 1 to 3, no production given."""
    names = [f"T{i}" for i in range(size)]
    borders: dict[str, set[str]] = {n: set() for n in names}
    for i in range(1, size):
        other = names[rng.randrange(i)]
        borders[names[i]].add(other)
        borders[other].add(names[i])
    for _ in range(size // 2):
        a, b = rng.sample(names, 2)
        borders[a].add(b)
        borders[b].add(a)
    return build_map("random", [Territory(n, size=rng.randint(1, 3)) for n in names], borders)


def cheapest(game_map: GameMap, sizes: Mapping[str, int], mine: set[str], source: str) -> dict[str, int]:
    """E4 from the rules' words: the least total size of a path of own territories from `source`, ends included."""
    best = {source: sizes[source]}
    queue = [(sizes[source], source)]
    while queue:
        cost, here = heapq.heappop(queue)
        if cost > best[here]:
            continue
        for nxt in game_map.neighbours(here):
            if nxt in mine and cost + sizes[nxt] < best.get(nxt, 10**9):
                best[nxt] = cost + sizes[nxt]
                heapq.heappush(queue, (best[nxt], nxt))
    return best


def spy_cost(game_map: GameMap, sizes: Mapping[str, int], mine: set[str], source: str, target: str) -> int:
    """E13: through own territories, then at most one step beyond them."""
    reach = cheapest(game_map, sizes, mine, source)
    if target in mine:
        return reach[target]
    return min(cost for here, cost in reach.items() if target in game_map.neighbours(here)) + sizes[target]


def expected_spending(
    game: Game[RiscBoard, Any], orders: Mapping[str, tuple[Any, ...]], owner_after: Mapping[str, str | None]
) -> dict[str, tuple[int, int]]:
    board = game.board
    evo = board.evo
    assert evo is not None
    sizes = {n: land.size for n, land in evo.land.items()}
    spent: dict[str, tuple[int, int]] = {}
    for player, batch in orders.items():
        mine = {n for n in game.game_map.names if board.owner[n] == player}
        food = technology = 0
        level = evo.tech_level[player]
        for order in batch:
            if isinstance(order, LevelMoveOrder):
                food += cheapest(game.game_map, sizes, mine, order.source)[order.target] * order.units
            elif isinstance(order, LevelAttackOrder):
                food += order.units
            elif isinstance(order, SpyMoveOrder):
                food += spy_cost(game.game_map, sizes, mine, order.source, order.target) * order.units
            elif isinstance(order, UpgradeOrder):
                technology += order.units * (TOTAL[order.to_level] - TOTAL[order.level])
            elif isinstance(order, ResearchOrder):
                technology += RESEARCH[level]
            elif isinstance(order, SpyOrder):
                technology += 20 * order.units
            elif isinstance(order, CloakingResearchOrder):
                technology += 100
            elif isinstance(order, CloakOrder) and owner_after[order.territory] == player:
                technology += 20
        spent[player] = (food, technology)
    return spent


def check_turn(before: Game[RiscBoard, Any], after: Game[RiscBoard, Any], resolved: turns.Resolved) -> None:
    b, a = before.board.evo, after.board.evo
    assert b is not None and a is not None
    assert all(n >= 0 for counts in a.levels.values() for n in counts)
    assert {n: sum(c) for n, c in a.levels.items()} == dict(after.board.units)
    battles = {
        (e.territory, e.attacker): e
        for e in (x.event if isinstance(x, Private) else x for x in resolved.events)
        if isinstance(e, Battle)
    }
    losses = sum(
        sum(e.attacking) - sum(e.attackers_left) + sum(e.defending) - sum(e.defenders_left) for e in battles.values()
    )
    trained = sum(o.units for batch in resolved.orders.values() for o in batch if isinstance(o, SpyOrder))
    received = sum(1 for n in after.game_map.names if after.board.owner[n] is not None)
    assert sum(after.board.units.values()) == sum(before.board.units.values()) + received - losses - trained
    spies_before = sum(n for s in b.spies.values() for n in s.values())
    assert sum(n for s in a.spies.values() for n in s.values()) == spies_before + trained
    spent = expected_spending(before, resolved.orders, after.board.owner)
    for player in before.players:
        food, technology = spent.get(player, (0, 0))
        produced_food = sum(a.land[n].food for n in after.game_map.names if after.board.owner[n] == player)
        produced_tech = sum(a.land[n].technology for n in after.game_map.names if after.board.owner[n] == player)
        assert a.stocks[player].food == b.stocks[player].food - food + produced_food
        assert a.stocks[player].technology == b.stocks[player].technology - technology + produced_tech
        researched = sum(isinstance(o, ResearchOrder) for o in resolved.orders.get(player, ()))
        assert a.tech_level[player] == b.tech_level[player] + researched


def play(
    game: Game[RiscBoard, Any], seed: int, turns_played: int, check: bool = True
) -> tuple[Game[RiscBoard, Any], list[turns.Resolved]]:
    rng = random.Random(seed)
    dice = dice_of(seed)
    game = place_all(game, rng)
    game, placed = turns.advance(rules(game), game, dice)
    log = [placed]
    for _ in range(turns_played):
        if rules(game).status(game).finished:
            break
        for player in game.players:
            if player in turns.awaiting(rules(game), game):
                game = random_legal_orders(game, player, rng)
                committed = turns.commit(rules(game), game, player)
                assert not isinstance(committed, RuleError)
                game = committed
        before = game
        game, resolved = turns.advance(rules(game), game, dice)
        if check:
            check_turn(before, game, resolved)
        log.append(resolved)
    return game, log


maps = st.one_of(st.just("seed"), st.integers(min_value=4, max_value=12))


def board_for(choice: str | int, seed: int) -> GameMap:
    return load_map(choice) if isinstance(choice, str) else random_map(random.Random(seed), choice)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=10**6),
    choice=maps,
    players=st.integers(min_value=2, max_value=3),
    evolution=st.sampled_from([2, 3]),
    technology=st.sampled_from([100, 600]),
)
def test_E2_E4_E5_E6_E10_E13_E14_units_and_resources_are_conserved_but_for_what_the_rules_make_and_spend(
    seed: int, choice: str | int, players: int, evolution: int, technology: int
) -> None:
    game_map = board_for(choice, seed)
    game = new_game(
        game_map, [f"p{i}" for i in range(players)], seed, evolution=evolution, technology=technology, neutral_units=2
    )
    play(game, seed, 12)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**6), choice=maps, evolution=st.sampled_from([2, 3]))
def test_E8_a_seed_and_its_orders_replay_exactly(seed: int, choice: str | int, evolution: int) -> None:
    game_map = board_for(choice, seed)
    start = new_game(game_map, ["p0", "p1", "p2"], seed, evolution=evolution, technology=400)
    played, log = play(start, seed, 10, check=False)
    again = new_game(game_map, ["p0", "p1", "p2"], seed, evolution=evolution, technology=400)
    assert RISC.dump_board(again.board) == RISC.dump_board(start.board)
    dice = dice_of(seed)
    for resolved in log:
        replayed = turns.replay_orders(rules(again), again, {p: list(b) for p, b in resolved.orders.items()}, dice)
        assert not isinstance(replayed, RuleError), replayed
        again, told = replayed
        assert [RISC.dump_event(e.event) if isinstance(e, Private) else RISC.dump_event(e) for e in told.events] == [
            RISC.dump_event(e.event) if isinstance(e, Private) else RISC.dump_event(e) for e in resolved.events
        ]
    assert RISC.dump_board(again.board) == RISC.dump_board(played.board)
    assert RISC.load_board(RISC.dump_board(played.board)) == played.board
    assert again.board.phase is played.board.phase or played.board.phase is Phase.FINISHED
