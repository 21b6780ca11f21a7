"""Engine benchmark: one turn of 5 players x 200 orders on a 180-territory map, and a million-unit battle.

Run by hand: `python bench/engine.py`. Prints medians; the figures go into docs/performance.md.
Measured: (1) issuing 1,000 orders one by one as the server does (each checked when issued), (2) the commit-time
check of every batch plus the resolution of the turn, (3) fight(1e6, 1e6).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.rules import (
    AttackOrder,
    GameRandom,
    GameState,
    MoveOrder,
    Order,
    Phase,
    get_ruleset,
    issue,
)
from shared.rules.combat import fight
from shared.rules.risc import check_orders

from bench.maps import generated_map, median_ms
from shared.maps import GameMap, MapError, load_map

RISC = get_ruleset("risc")
BIGEUROPE = Path(__file__).resolve().parents[2] / "shared" / "maps" / "domination" / "bigeurope.map"


def board(game_map: GameMap, players: list[str]) -> GameState:
    names = game_map.names
    owner = {n: players[i * len(players) // len(names)] for i, n in enumerate(names)}
    return GameState(game_map=game_map, ruleset="risc", players=tuple(players), phase=Phase.ORDERS, turn=1,
                     owner=owner, units={n: 400 for n in names})


def orders_for(state: GameState, player: str, count: int, rng: random.Random) -> list[Order]:
    own = state.territories_of(player)
    enemy_borders = [(a, b) for a in own for b in state.game_map.neighbours(a) if state.owner[b] != player]
    orders: list[Order] = []
    while len(orders) < count:
        if rng.random() < 0.5 and enemy_borders:
            source, target = rng.choice(enemy_borders)
            orders.append(AttackOrder(rng.randint(1, 3), source, target))
        else:
            orders.append(MoveOrder(rng.randint(1, 3), rng.choice(own), rng.choice(own)))
            if orders[-1].source == orders[-1].target or RISC.check_order(state, player, orders[-1]) is not None:
                orders.pop()
    return orders


def main() -> None:
    try:
        game_map, label = load_map(BIGEUROPE), "bigeurope.map"
    except (MapError, FileNotFoundError, OSError):
        game_map, label = generated_map(180, width=12), "a generated 180-territory map"
    players = [f"p{i}" for i in range(5)]
    state = board(game_map, players)
    rng = random.Random(7)
    batches = {p: orders_for(state, p, 200, rng) for p in players}
    issued = state
    for player, orders in batches.items():
        for order in orders:
            result = issue(RISC, issued, player, order)
            assert isinstance(result, GameState), result
            issued = result

    def issue_all() -> None:
        current = state
        for player, orders in batches.items():
            for order in orders:
                current = issue(RISC, current, player, order)  # type: ignore[assignment]

    def check_and_resolve() -> None:
        for player, orders in batches.items():
            assert check_orders(issued, player, orders) is None
        RISC.resolve(issued, batches, GameRandom(1, 1))

    print(f"map: {label} ({len(game_map.territories)} territories), 5 players x 200 orders")
    print(f"  issue 1,000 orders one by one (each checked):  {median_ms(issue_all, 15):8.2f} ms median")
    print(f"  commit checks + resolve the turn:              {median_ms(check_and_resolve, 25):8.2f} ms median")
    seeds = iter(range(10**6))
    print(f"  fight(1,000,000 vs 1,000,000):                 "
          f"{median_ms(lambda: fight(10**6, 10**6, GameRandom(next(seeds))), 201):8.3f} ms median")
    print(f"  fight(10 vs 10):                               "
          f"{median_ms(lambda: fight(10, 10, GameRandom(next(seeds))), 201):8.3f} ms median")


if __name__ == "__main__":
    main()
