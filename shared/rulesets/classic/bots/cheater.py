"""C10 `cheater`: doubles its armies, conquers every neighbour, doubles its border armies.

It breaks the rules through the front door: the `cheat` order, which the rules accept only in a game whose creator
allowed cheating (option `cheaters`), and refuse everywhere else like any illegal order. In a game that does not
allow it, the cheater plays as `aggressive` does.
"""

from __future__ import annotations

import random
from typing import ClassVar

from shared.rulesets.classic.bots.aggressive import AggressiveStrategy
from shared.rulesets.classic.bots.position import Position
from shared.rulesets.classic.orders import Cheat, ClassicOrder


class CheaterStrategy(AggressiveStrategy):
    name: ClassVar[str] = "cheater"
    description: ClassVar[str] = (
        "doubles its armies, conquers every neighbour, doubles its border armies (only "
        "where the game allows cheating; otherwise plays as aggressive)"
    )
    cheats: ClassVar[bool] = True

    def wants_trade(self, position: Position) -> bool:
        return not position.view.cheaters

    def reinforce(self, position: Position, rng: random.Random) -> list[ClassicOrder]:
        return [Cheat()] if position.view.cheaters else super().reinforce(position, rng)

    def attack(self, position: Position, rng: random.Random) -> ClassicOrder:
        return Cheat() if position.view.cheaters else super().attack(position, rng)

    def fortify(self, position: Position, rng: random.Random) -> ClassicOrder:
        return Cheat() if position.view.cheaters else super().fortify(position, rng)
