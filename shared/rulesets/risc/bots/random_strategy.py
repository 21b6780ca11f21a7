"""`random`: any legal orders at all. The floor every other strategy must clear, and a fuzzer for the rules."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from shared.maps.model import GameMap
from shared.rulesets.risc.board import Phase
from shared.rulesets.risc.bots.base import RiscStrategy, TurnOrder
from shared.rulesets.risc.bots.board import Board
from shared.rulesets.risc.bots.evolution import random_orders
from shared.rulesets.risc.evo_view import EvoView
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, PlaceOrder
from shared.rulesets.risc.view import RiscView


class RandomStrategy(RiscStrategy):
    name: ClassVar[str] = "random"
    description: ClassVar[str] = "any legal orders, at random"

    def decide_evolution(self, view: EvoView, game_map: GameMap, me: str, rng: random.Random) -> list[Any]:
        """Evolutions 2 and 3: any order kind at random (upgrades, research, spies and cloaks too)."""
        if view.phase is Phase.PLACEMENT:
            return super().decide_evolution(view, game_map, me, rng)
        return random_orders(self.ruleset, view, game_map, me, rng)

    def propose_placement(self, view: RiscView, game_map: GameMap, me: str, rng: random.Random) -> list[PlaceOrder]:
        own = [name for name, t in view.territories.items() if t.owner == me]
        if not own or view.pool_left <= 0:
            return []
        counts = dict.fromkeys(own, 0)
        for _ in range(view.pool_left):
            counts[rng.choice(own)] += 1
        return [PlaceOrder(t, n) for t, n in counts.items() if n > 0]

    def propose_orders(self, view: RiscView, game_map: GameMap, me: str, rng: random.Random) -> list[TurnOrder]:
        board = Board(view, game_map, me)
        left = {name: board.units[name] for name in board.mine}
        orders: list[TurnOrder] = []
        for _ in range(rng.randint(0, 2 * len(board.mine))):
            sources = [name for name in board.mine if left[name] > 0]
            if not sources:
                break
            source = rng.choice(sources)
            moves = [t for t in board.reach(source) if t != source]
            attacks = list(board.targets(source))
            choices = [(True, t) for t in attacks] + [(False, t) for t in moves]
            if not choices:
                continue
            attack, target = rng.choice(choices)
            units = rng.randint(1, left[source])
            left[source] -= units
            if attack:
                orders.append(AttackOrder(units, source, target))
            else:
                left[target] += units
                orders.append(MoveOrder(units, source, target))
        return orders
