"""`defensive`: holds what it has. Keeps its units on the borders, weighted by what faces them, and attacks only
with an overwhelming edge, never from a border it would leave weaker than the enemy across it.
"""

from __future__ import annotations

import random
from typing import ClassVar

from shared.maps.model import GameMap
from shared.rulesets.risc.bots.base import RiscStrategy, TurnOrder, spread
from shared.rulesets.risc.bots.board import Board
from shared.rulesets.risc.bots.odds import win_probability
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, PlaceOrder
from shared.rulesets.risc.view import RiscView

ADVANTAGE = 3
"""Attack only with at least this many times the defenders (plus two)."""

SURE = 0.95
"""...and only when the attack wins this often."""


class DefensiveStrategy(RiscStrategy):
    name: ClassVar[str] = "defensive"
    description: ClassVar[str] = "reinforces its borders and attacks only with a big advantage"

    def propose_placement(self, view: RiscView, game_map: GameMap, me: str, rng: random.Random) -> list[PlaceOrder]:
        board = Board(view, game_map, me)
        fronts = board.frontier() or board.mine
        weights = [1.0 + len(board.attackers_of(n)) + 0.5 * len(board.targets(n)) for n in fronts]
        return spread(view.pool_left, fronts, weights)

    def propose_orders(self, view: RiscView, game_map: GameMap, me: str, rng: random.Random) -> list[TurnOrder]:
        board = Board(view, game_map, me)
        left = {n: board.units[n] for n in board.mine}
        fronts = board.frontier()
        front_set = set(fronts)
        moves: list[MoveOrder] = []
        # Interior units go to the reachable border with the most enemy units per defender.
        for name in board.mine:
            if name in front_set or left[name] <= 0:
                continue
            reachable = [f for f in fronts if board.can_move(name, f)]
            if not reachable:
                continue
            worst = max(reachable, key=lambda f: (board.threat(f) / (1 + left[f]), -board.rank[f]))
            moves.append(MoveOrder(left[name], name, worst))
            left[worst] += left[name]
            left[name] = 0
        attacks: list[AttackOrder] = []
        for source in fronts:
            for target in sorted(board.targets(source), key=lambda t: (board.units[t], board.rank[t])):
                spare = left[source] - board.threat(source)
                defenders = board.units[target]
                if spare >= ADVANTAGE * defenders + 2 and win_probability(spare, defenders) >= SURE:
                    attacks.append(AttackOrder(spare, source, target))
                    left[source] -= spare
        return [*moves, *attacks]
