"""`random`: any legal orders at all. The floor every other strategy must clear, and a fuzzer for the rules."""

from __future__ import annotations

import random
from typing import ClassVar

from shared.bots.base import Strategy, TurnOrder
from shared.bots.board import Board
from shared.maps.model import GameMap
from shared.rules.orders import AttackOrder, MoveOrder, PlaceOrder
from shared.rules.view import GameView


class RandomStrategy(Strategy):
    name: ClassVar[str] = "random"
    description: ClassVar[str] = "any legal orders, at random"

    def propose_placement(self, view: GameView, game_map: GameMap, rng: random.Random) -> list[PlaceOrder]:
        own = [t.name for t in view.territories if t.owner == view.viewer]
        if not own or view.pool_left <= 0:
            return []
        counts = dict.fromkeys(own, 0)
        for _ in range(view.pool_left):
            counts[rng.choice(own)] += 1
        return [PlaceOrder(t, n) for t, n in counts.items() if n > 0]

    def propose_orders(self, view: GameView, game_map: GameMap, rng: random.Random) -> list[TurnOrder]:
        board = Board(view, game_map)
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
