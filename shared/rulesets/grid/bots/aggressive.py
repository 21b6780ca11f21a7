"""`aggressive`: new troops on its strongest territory, attacks from it with the most troops against its weakest
neighbour until it cannot (among neighbours as weak, the one whose owner holds the fewest cells: it finishes a player
off rather than trade thin cells with everyone, turn after turn), moves in with everything, and ends by moving its
biggest idle stack to the front."""

from __future__ import annotations

import random
from typing import ClassVar

from shared.rulesets.grid.bots.base import GridStrategy
from shared.rulesets.grid.bots.position import Position
from shared.rulesets.grid.dice import most_attacking
from shared.rulesets.grid.orders import Attack, Deploy, End, GridOrder, Move


class AggressiveStrategy(GridStrategy):
    name: ClassVar[str] = "aggressive"
    description: ClassVar[str] = "masses its troops, attacks from its strongest territory until it cannot"

    def strongest(self, position: Position) -> str:
        return position.strongest(position.frontier or position.mine)

    def deploy(self, position: Position, rng: random.Random) -> GridOrder:
        return Deploy(self.strongest(position))

    def attack(self, position: Position, rng: random.Random) -> GridOrder:
        source = self.strongest(position)
        enemies = position.enemies(source)
        if position.troops[source] >= 2 and enemies:
            target = min(enemies, key=lambda n: (position.troops[n], position.cells_of(position.owner[n])))
            return Attack(source, target, most_attacking(position.troops[source]))
        idle = [n for n in position.mine if position.troops[n] > 1 and not position.enemies(n)]
        for stack in sorted(idle, key=lambda n: -position.troops[n]):
            fronts = [n for n in position.frontier if n in position.reach(stack)]
            if fronts:
                return Move(stack, position.strongest(fronts), position.troops[stack] - 1)
        return End()
