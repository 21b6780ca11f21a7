"""Engine benchmark: one RISC turn of 5 players x 200 orders on a 180-territory map, and a million-unit battle.

Run by hand: `python bench/engine.py`. Prints medians; the figures go into docs/performance.md.
Measured: (1) issuing 1,000 orders one by one as the server does (each checked when issued, through the framework's
turns), (2) the commit of every batch (checked as a whole) plus the resolution of the turn, (3) both together, the
whole turn, (4) the cost of issuing the 200th order of a player against the cost of the 1st (it must not grow with
the orders before it), (5) fight(1e6, 1e6).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from typing import Any

from bench.maps import generated_map, median_ms
from shared.game import turns
from shared.game.game import Game
from shared.game.random import GameRandom
from shared.maps import GameMap, MapError, load_map
from shared.rulesets import get_ruleset
from shared.rulesets.risc.board import Phase, RiscBoard
from shared.rulesets.risc.combat import fight
from shared.rulesets.risc.orders import AttackOrder, MoveOrder

RISC = get_ruleset("risc")
GameState = Game[RiscBoard, Any]
BIGEUROPE = Path(__file__).resolve().parents[2] / "shared" / "maps" / "domination" / "bigeurope.map"


def board(game_map: GameMap, players: list[str]) -> GameState:
    names = game_map.names
    owner = {n: players[i * len(players) // len(names)] for i, n in enumerate(names)}
    risc_board = RiscBoard(phase=Phase.ORDERS, turn=1, owner=owner, units={n: 400 for n in names})
    return Game("risc", game_map, tuple(players), RISC.options({}), risc_board, step=1)


def orders_for(state: GameState, player: str, count: int, rng: random.Random) -> list[Any]:
    own = state.board.territories_of(player)
    enemy_borders = [(a, b) for a in own for b in state.game_map.neighbours(a) if state.board.owner[b] != player]
    orders: list[Any] = []
    while len(orders) < count:
        if rng.random() < 0.5 and enemy_borders:
            source, target = rng.choice(enemy_borders)
            orders.append(AttackOrder(rng.randint(1, 3), source, target))
        else:
            orders.append(MoveOrder(rng.randint(1, 3), rng.choice(own), rng.choice(own)))
            if orders[-1].source == orders[-1].target or turns.check(RISC, state, player, orders[-1]) is not None:
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
            result = turns.issue(RISC, issued, player, order)
            assert isinstance(result, Game), result
            issued = result

    def issue_all() -> None:
        current = state
        for player, orders in batches.items():
            for order in orders:
                current = turns.issue(RISC, current, player, order)  # type: ignore[assignment]

    def commit_and_resolve() -> None:
        current = issued
        for player in players:
            current = turns.commit(RISC, current, player)  # type: ignore[assignment]
        turns.advance(RISC, current, lambda step: GameRandom(1, step))

    before_last = issued.evolve(
        orders={**issued.orders, "p0": issued.orders_of("p0")[:-1]},
        tallies={k: v for k, v in issued.tallies.items() if k != "p0"},
    )
    turns.tally(RISC, before_last, "p0")
    primed = before_last.evolve(tallies={**before_last.tallies, "p0": turns.tally(RISC, before_last, "p0")})
    empty = state.evolve(tallies={"p0": turns.tally(RISC, state, "p0")})
    last_order = batches["p0"][-1]

    def whole_turn() -> None:
        current = state
        for player, orders in batches.items():
            for order in orders:
                current = turns.issue(RISC, current, player, order)  # type: ignore[assignment]
        for player in players:
            current = turns.commit(RISC, current, player)  # type: ignore[assignment]
        turns.advance(RISC, current, lambda step: GameRandom(1, step))

    print(f"map: {label} ({len(game_map.territories)} territories), 5 players x 200 orders")
    print(f"  issue 1,000 orders one by one (each checked):  {median_ms(issue_all, 31):8.2f} ms median")
    print(f"  commit every batch + resolve the turn:         {median_ms(commit_and_resolve, 51):8.2f} ms median")
    print(
        f"  the whole turn (issue, commit, resolve):       {median_ms(whole_turn, 31):8.2f} ms median "
        "(target: under 10 ms)"
    )
    first = median_ms(lambda: turns.issue(RISC, empty, "p0", batches["p0"][0]), 2001)
    last = median_ms(lambda: turns.issue(RISC, primed, "p0", last_order), 2001)
    print(
        f"  one order after 0 / after 199 of the player's:  {first * 1000:8.1f} / {last * 1000:.1f} us median "
        f"(ratio {last / first:.2f})"
    )
    seeds = iter(range(10**6))
    print(
        f"  fight(1,000,000 vs 1,000,000):                 "
        f"{median_ms(lambda: fight(10**6, 10**6, GameRandom(next(seeds))), 201):8.3f} ms median"
    )
    print(
        f"  fight(10 vs 10):                               "
        f"{median_ms(lambda: fight(10, 10, GameRandom(next(seeds))), 201):8.3f} ms median"
    )


if __name__ == "__main__":
    main()
