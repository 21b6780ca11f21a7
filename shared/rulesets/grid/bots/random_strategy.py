"""`random`: random legal actions, taken from the rules' own list of what is legal now; a fuzzer for the rules."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from shared.game import turns
from shared.maps.model import GameMap
from shared.rulesets.grid.board import Phase
from shared.rulesets.grid.bots.base import GridStrategy
from shared.rulesets.grid.orders import Attack, End
from shared.rulesets.grid.view import GridView, game_from_view

STOP = 0.25
"""Each time it may attack, it ends its attacks with this chance (then moves at random or ends, half and half)."""


class RandomStrategy(GridStrategy):
    name: ClassVar[str] = "random"
    description: ClassVar[str] = "random deployments, a random number of random attacks, a random move"

    def decide(self, view: Any, game_map: GameMap, me: str, rng: random.Random) -> list[Any]:
        if not isinstance(view, GridView) or view.active != me or view.phase is Phase.FINISHED:
            return []
        legal = turns.legal_orders(self.ruleset, game_from_view(view, game_map), me)
        if view.phase is Phase.ATTACK:
            attacks = [e for e in legal if isinstance(e.order, Attack)]
            if attacks and rng.random() >= STOP:
                legal = attacks
            elif rng.random() < 0.5:
                return [End()]
            else:
                legal = [e for e in legal if not isinstance(e.order, Attack)]
        return [rng.choice(legal).any_count(rng)]
