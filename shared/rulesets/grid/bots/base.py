"""What every grid computer player shares: asked for its next action whenever the game waits for it, it answers from
its own view, step by step. The defaults (a troop on the weakest front, no attack, the most troops into a taken
territory, no move) are never refused."""

from __future__ import annotations

import random
from typing import Any

from shared.game.strategy import Strategy
from shared.maps.model import GameMap
from shared.rulesets.grid.board import Phase
from shared.rulesets.grid.bots.position import Position
from shared.rulesets.grid.orders import Deploy, End, GridOrder, MoveIn
from shared.rulesets.grid.view import GridView


class GridStrategy(Strategy):
    def decide(self, view: Any, game_map: GameMap, me: str, rng: random.Random) -> list[Any]:
        if not isinstance(view, GridView) or view.active != me or view.phase is Phase.FINISHED:
            return []
        position = Position(view, game_map, me)
        if view.phase in (Phase.DEPLOYMENT, Phase.NEW_TROOPS):
            return [self.deploy(position, rng)]
        if view.phase is Phase.MOVE_IN:
            return [self.move_in(position, rng)]
        return [self.attack(position, rng)]

    def deploy(self, position: Position, rng: random.Random) -> GridOrder:
        return Deploy(position.weakest(position.frontier or position.mine))

    def attack(self, position: Position, rng: random.Random) -> GridOrder:
        """An attack, the turn's move, or End."""
        return End()

    def move_in(self, position: Position, rng: random.Random) -> GridOrder:
        conquest = position.view.conquest
        assert conquest is not None
        return MoveIn(conquest.most)
