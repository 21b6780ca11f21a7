"""What every classic Risk computer player shares: it is asked for its next action (or a few) whenever the game
waits for it, and answers from its own view alone, phase by phase.

Each phase has a default a strategy may keep: trade whenever a set is held, place everything on one country, take
the most armies into a conquered country, no fortification. They are sound, never refused, and each ends its phase.
"""

from __future__ import annotations

import random
from typing import Any

from shared.game.strategy import Strategy
from shared.maps.model import GameMap
from shared.rulesets.classic.board import Phase
from shared.rulesets.classic.bots.position import Position
from shared.rulesets.classic.orders import (
    AttackMove,
    ChooseCapital,
    ClassicOrder,
    ExchangeCards,
    NoAttack,
    NoFortify,
    PlaceArmy,
    Reinforce,
)
from shared.rulesets.classic.view import ClassicView


class ClassicStrategy(Strategy):
    """One computer player's way of playing classic Risk. A fresh instance plays one seat of one game."""

    def decide(self, view: Any, game_map: GameMap, me: str, rng: random.Random) -> list[Any]:
        if not isinstance(view, ClassicView) or view.active != me or view.phase is Phase.FINISHED:
            return []
        position = Position(view, game_map, me)
        phase = view.phase
        if phase is Phase.STARTUP:
            return [self.place(position, rng)]
        if phase is Phase.CAPITAL:
            return [self.capital(position, rng)]
        if phase is Phase.REINFORCEMENT:
            chosen = position.trade() if position.must_trade or self.wants_trade(position) else None
            if chosen is not None:
                return [ExchangeCards(chosen)]
            return list(self.reinforce(position, rng))
        if phase is Phase.ATTACK:
            return [self.attack(position, rng)]
        if phase is Phase.MOVE_IN:
            return [self.move_in(position, rng)]
        if phase is Phase.FORTIFICATION:
            return [self.fortify(position, rng)]
        return []

    def place(self, position: Position, rng: random.Random) -> ClassicOrder:
        return PlaceArmy(position.weakest(position.frontier or position.mine))

    def capital(self, position: Position, rng: random.Random) -> ClassicOrder:
        return ChooseCapital(position.strongest(position.mine))

    def wants_trade(self, position: Position) -> bool:
        return True

    def reinforce(self, position: Position, rng: random.Random) -> list[ClassicOrder]:
        where = position.strongest(position.frontier or position.mine)
        return [Reinforce(where, position.view.reinforcements)]

    def attack(self, position: Position, rng: random.Random) -> ClassicOrder:
        return NoAttack()

    def move_in(self, position: Position, rng: random.Random) -> ClassicOrder:
        conquest = position.view.conquest
        assert conquest is not None
        return AttackMove(conquest.most)

    def fortify(self, position: Position, rng: random.Random) -> ClassicOrder:
        return NoFortify()
