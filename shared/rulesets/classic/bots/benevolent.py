"""C10 `benevolent`: reinforces its weakest countries, never attacks, fortifies its weakest country."""

from __future__ import annotations

import random
from collections import Counter
from typing import ClassVar

from shared.rulesets.classic.bots.aggressive import AggressiveStrategy
from shared.rulesets.classic.bots.base import ClassicStrategy
from shared.rulesets.classic.bots.position import Position
from shared.rulesets.classic.orders import ClassicOrder, Fortify, NoFortify, PlaceArmy, Reinforce


class BenevolentStrategy(ClassicStrategy):
    name: ClassVar[str] = "benevolent"
    description: ClassVar[str] = "reinforces its weakest countries, never attacks, fortifies its weakest country"

    def place(self, position: Position, rng: random.Random) -> ClassicOrder:
        return PlaceArmy(position.weakest(position.mine))

    def reinforce(self, position: Position, rng: random.Random) -> list[ClassicOrder]:
        """One army at a time on whichever country is weakest then."""
        armies = {n: position.armies[n] for n in position.mine}
        placed: Counter[str] = Counter()
        for _ in range(position.view.reinforcements):
            weakest = min(armies, key=lambda n: armies[n])
            armies[weakest] += 1
            placed[weakest] += 1
        return [Reinforce(n, placed[n]) for n in position.mine if placed[n]]

    def fortify(self, position: Position, rng: random.Random) -> ClassicOrder:
        """From the strongest country that can reach the weakest, half the difference between them."""
        for target in sorted(position.mine, key=lambda n: position.armies[n]):
            feeders = [n for n in position.mine if n != target and target in AggressiveStrategy.targets(position, n)]
            if not feeders:
                continue
            source = position.strongest(feeders)
            moved = (position.armies[source] - position.armies[target]) // 2
            if moved >= 1:
                return Fortify(source, target, moved)
        return NoFortify()
