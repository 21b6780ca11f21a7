"""`benevolent` (COMP 345): protects its weakest territories. It deploys on them, moves units from its strong
territories to weak neighbours, and never attacks. Its cards harm nobody: reinforce, airlift from its strongest to
its weakest territory, a truce with the player who threatens it most; never a bomb, never a blockade."""

from __future__ import annotations

import random
from typing import ClassVar

from shared.rulesets.warzone.bots.base import WarzoneStrategy, reinforcement_cards
from shared.rulesets.warzone.bots.reading import Reading
from shared.rulesets.warzone.cards import Card
from shared.rulesets.warzone.orders import (
    AdvanceOrder,
    AirliftOrder,
    AnyOrder,
    DeployOrder,
    NegotiateOrder,
)


class BenevolentStrategy(WarzoneStrategy):
    name: ClassVar[str] = "benevolent"
    description: ClassVar[str] = "reinforces its weakest territories and never attacks"

    def propose(self, reading: Reading, rng: random.Random) -> list[AnyOrder]:
        if not reading.mine:
            return []
        orders, pool = reinforcement_cards(reading)
        if reading.hand.get(Card.DIPLOMACY, 0):
            threat: dict[str, int] = {}
            for name in reading.mine:
                for source in reading.attackers_of(name):
                    holder = reading.owner[source]
                    if holder is not None:
                        threat[holder] = threat.get(holder, 0) + reading.units[source]
            if threat:
                orders.append(NegotiateOrder(max(threat, key=lambda p: (threat[p], p))))
        left = dict(reading.units)
        deploys: dict[str, int] = {}
        for _ in range(pool):  # one unit at a time on the weakest
            weakest = min(reading.mine, key=lambda n: (left[n], not reading.attackers_of(n), reading.rank[n]))
            left[weakest] += 1
            deploys[weakest] = deploys.get(weakest, 0) + 1
        orders += [DeployOrder(t, n) for t, n in deploys.items()]
        if reading.hand.get(Card.AIRLIFT, 0) and len(reading.mine) > 1:
            strong = max(reading.mine, key=lambda n: (left[n], -reading.rank[n]))
            weak = min(reading.mine, key=lambda n: (left[n], reading.rank[n]))
            move = (left[strong] - left[weak]) // 2
            if move > 0:
                orders.append(AirliftOrder(move, strong, weak))
                left[strong] -= move
                left[weak] += move
        for name in reading.mine:
            own_neighbours = [n for n in reading.out[name] if reading.is_mine(n)]
            if not own_neighbours:
                continue
            weak = min(own_neighbours, key=lambda n: (left[n], reading.rank[n]))
            move = (left[name] - left[weak]) // 2
            if move > 0:
                orders.append(AdvanceOrder(move, name, weak))
                left[name] -= move
                left[weak] += move
        return orders
