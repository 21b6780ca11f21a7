"""`defensive`: new troops on its weakest territory next to an enemy, never attacks, and moves troops from its
strongest territory to its weakest front."""

from __future__ import annotations

import random
from typing import ClassVar

from shared.rulesets.grid.bots.base import GridStrategy
from shared.rulesets.grid.bots.position import Position
from shared.rulesets.grid.orders import End, GridOrder, Move


class DefensiveStrategy(GridStrategy):
    name: ClassVar[str] = "defensive"
    description: ClassVar[str] = "reinforces its weakest front, never attacks, evens its troops out"

    def attack(self, position: Position, rng: random.Random) -> GridOrder:
        for target in sorted(position.frontier, key=lambda n: position.troops[n]):
            givers = [n for n in position.mine if n != target and target in position.reach(n)]
            if not givers:
                continue
            source = position.strongest(givers)
            moved = (position.troops[source] - position.troops[target]) // 2
            if moved >= 1:
                return Move(source, target, moved)
        return End()
