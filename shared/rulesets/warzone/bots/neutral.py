"""`neutral` (COMP 345): issues nothing until it is attacked, then plays as `aggressive` for the rest of the game.

The rules ask every turn's pool to be deployed (W4), so until then it deploys its pool evenly over its territories
and issues nothing else. It knows it was attacked when one of its territories was lost or holds fewer units than
its own deploys left there (a bomb counts)."""

from __future__ import annotations

import random
from typing import ClassVar

from shared.game.ruleset import AnyRuleSet
from shared.rulesets.warzone.bots.aggressive import aggressive_orders
from shared.rulesets.warzone.bots.base import WarzoneStrategy, spread
from shared.rulesets.warzone.bots.reading import Reading
from shared.rulesets.warzone.orders import AnyOrder


class NeutralStrategy(WarzoneStrategy):
    name: ClassVar[str] = "neutral"
    description: ClassVar[str] = "deploys and waits; once attacked it plays as aggressive"

    def __init__(self, ruleset: AnyRuleSet) -> None:
        super().__init__(ruleset)
        self.attacked = False
        self._expected: dict[str, int] = {}

    def propose(self, reading: Reading, rng: random.Random) -> list[AnyOrder]:
        if not self.attacked:
            self.attacked = any(
                reading.owner[t] != reading.me or reading.units[t] < units for t, units in self._expected.items()
            )
        if self.attacked:
            return aggressive_orders(reading)
        deploys = spread(reading.pool, reading.mine, [1.0] * len(reading.mine))
        self._expected = dict.fromkeys(reading.mine, 0)
        for name in reading.mine:
            self._expected[name] = reading.units[name]
        for order in deploys:
            self._expected[order.territory] += order.units
        return list(deploys)
