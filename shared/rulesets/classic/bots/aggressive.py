"""C10 `aggressive`: reinforces its strongest country, attacks from it until it cannot, fortifies it.

"Its strongest country" is the one with the most armies among those that can attack (next to an enemy), else
among all. Attacks are all-out against the weakest neighbour; the conquering stack moves in whole, so the strongest
country rolls forward and the attacks go on from there until it is stopped. But a neighbouring enemy stack of
STACK armies or more that it beats at least CRUSH of the time is attacked first, the largest such: left alone, two
stacks of hundreds that only ever take each other's thin countries chase each other round the map for ever.
"""

from __future__ import annotations

import random
from typing import ClassVar

from shared.rulesets.classic.bots.base import ClassicStrategy
from shared.rulesets.classic.bots.position import Position, win_chance
from shared.rulesets.classic.orders import AllOut, ClassicOrder, Fortify, NoAttack, NoFortify, PlaceArmy

STACK, CRUSH = 10, 0.9
"""An enemy stack this large, that the strongest country beats this often all-out, is destroyed before any weaker
neighbour is taken."""


class AggressiveStrategy(ClassicStrategy):
    name: ClassVar[str] = "aggressive"
    description: ClassVar[str] = "reinforces its strongest country, attacks from it until it cannot, fortifies it"

    def strongest(self, position: Position) -> str:
        return position.strongest(position.frontier or position.mine)

    def place(self, position: Position, rng: random.Random) -> ClassicOrder:
        return PlaceArmy(self.strongest(position))

    def attack(self, position: Position, rng: random.Random) -> ClassicOrder:
        source = self.strongest(position)
        enemies = position.enemies(source)
        if position.armies[source] < 2 or not enemies:
            return NoAttack()
        armies = position.armies
        crushed = [n for n in enemies if armies[n] >= STACK and win_chance(armies[source], armies[n]) >= CRUSH]
        return AllOut(source, position.strongest(crushed) if crushed else position.weakest(enemies))

    def fortify(self, position: Position, rng: random.Random) -> ClassicOrder:
        target = self.strongest(position)
        feeders = [
            n for n in position.mine if n != target and position.armies[n] > 1 and target in self.targets(position, n)
        ]
        if not feeders:
            return NoFortify()
        source = position.strongest(feeders)
        return Fortify(source, target, position.armies[source] - 1)

    @staticmethod
    def targets(position: Position, source: str) -> set[str]:
        if position.view.fortify == "adjacent":
            return {n for n in position.map.neighbours(source) if position.owner[n] == position.me}
        return position.reach(source)
