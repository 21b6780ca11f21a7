"""`cheater` (COMP 345): each turn, every territory next to its own becomes its own, without a battle.

Its rule break goes through the rules like any order: the `cheat` order, which only a game whose creator set
`allow_cheaters` accepts (elsewhere it is refused, and the cheater only deploys). It deploys its pool on its
borders and plays its reinforcement cards; its cards do nothing else."""

from __future__ import annotations

import random
from typing import ClassVar

from shared.rulesets.warzone.bots.base import WarzoneStrategy, spread
from shared.rulesets.warzone.bots.reading import Reading
from shared.rulesets.warzone.cards import REINFORCEMENT_UNITS, Card
from shared.rulesets.warzone.orders import AnyOrder, CheatOrder, ReinforceOrder


class CheaterStrategy(WarzoneStrategy):
    name: ClassVar[str] = "cheater"
    description: ClassVar[str] = "conquers every neighbouring territory each turn without a battle (only where allowed)"
    cheats: ClassVar[bool] = True

    def propose(self, reading: Reading, rng: random.Random) -> list[AnyOrder]:
        orders: list[AnyOrder] = []
        pool = reading.pool
        for _ in range(reading.hand.get(Card.REINFORCEMENT, 0)):
            orders.append(ReinforceOrder())
            pool += REINFORCEMENT_UNITS
        fronts = list(reading.fronts() or reading.mine)
        orders += spread(pool, fronts, [1.0] * len(fronts))
        if reading.view.allow_cheaters:
            orders.append(CheatOrder())
        return orders
