"""`aggressive` (COMP 345): deploys everything on its strongest territory, then advances from it into enemies until
it cannot; the rest of its units gather towards that territory. Its cards harm: reinforce, bomb what its strongest
territory faces, airlift its largest stack to the front. It never blockades nor negotiates."""

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
    BombOrder,
    DeployOrder,
)


def strongest(reading: Reading) -> str:
    """The own territory with the most units among those next to an enemy (any own territory if none is)."""
    candidates = [n for n in reading.mine if reading.targets(n)] or list(reading.mine)
    return max(candidates, key=lambda n: (reading.units[n], len(reading.targets(n)), -reading.rank[n]))


def aggressive_orders(reading: Reading) -> list[AnyOrder]:
    if not reading.mine:
        return []
    orders, pool = reinforcement_cards(reading)
    base = strongest(reading)
    left = dict(reading.units)
    if pool > 0:
        orders.append(DeployOrder(base, pool))
        left[base] += pool
    if reading.hand.get(Card.AIRLIFT, 0):
        interior = [n for n in reading.mine if n != base and left[n] > 0]
        if interior:
            stack = max(interior, key=lambda n: (left[n], -reading.rank[n]))
            orders.append(AirliftOrder(left[stack], stack, base))
            left[base] += left[stack]
            left[stack] = 0
    targets = sorted(reading.targets(base), key=lambda n: (reading.units[n], reading.rank[n]))
    if targets and reading.hand.get(Card.BOMB, 0):
        orders.append(BombOrder(max(targets, key=lambda n: (reading.units[n], -reading.rank[n]))))
    for index, target in enumerate(targets):  # the weakest first, until nothing is left to send
        if left[base] <= 0:
            break
        last = index == len(targets) - 1
        send = left[base] if last else min(left[base], 2 * reading.units[target] + 1)
        orders.append(AdvanceOrder(send, base, target))
        left[base] -= send
    toward = reading.step_towards([base])
    for name in reading.mine:
        if name == base or left[name] <= 0:
            continue
        enemies = reading.targets(name)
        if enemies:
            weakest = min(enemies, key=lambda n: (reading.units[n], reading.rank[n]))
            if left[name] > reading.units[weakest]:
                orders.append(AdvanceOrder(left[name], name, weakest))
                continue
        if name in toward:
            orders.append(AdvanceOrder(left[name], name, toward[name]))
    return orders


class AggressiveStrategy(WarzoneStrategy):
    name: ClassVar[str] = "aggressive"
    description: ClassVar[str] = "deploys on its strongest territory and attacks from it until it cannot"

    def propose(self, reading: Reading, rng: random.Random) -> list[AnyOrder]:
        return aggressive_orders(reading)
