"""C10 `random`: a random country reinforced, a random number of random attacks, a random fortification.

It picks among the very orders the rules list as legal (`legal_orders` on its own view), so it is also a fuzzer for
the rules: whatever it does, the server must accept.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from shared.game import turns
from shared.maps.model import GameMap
from shared.rulesets.classic.board import Phase
from shared.rulesets.classic.bots.base import ClassicStrategy
from shared.rulesets.classic.orders import AllOut, Attack, Cheat, KeepCards, NoAttack, NoFortify, PlaceAll
from shared.rulesets.classic.view import ClassicView, game_from_view

STOP_ATTACKING = 0.25
"""Each time it may attack, it stops with this chance: a random number of attacks, 3 on average."""
SKIP_FORTIFY = 0.5


class RandomStrategy(ClassicStrategy):
    name: ClassVar[str] = "random"
    description: ClassVar[str] = "random reinforcements, a random number of random attacks, a random fortification"

    def decide(self, view: Any, game_map: GameMap, me: str, rng: random.Random) -> list[Any]:
        if not isinstance(view, ClassicView) or view.active != me or view.phase is Phase.FINISHED:
            return []
        game = game_from_view(view, game_map, me)
        legal = [e for e in turns.legal_orders(self.ruleset, game, me) if not isinstance(e.order, Cheat | PlaceAll)]
        if view.phase is Phase.ATTACK and rng.random() < STOP_ATTACKING:
            return [NoAttack()]
        if view.phase is Phase.FORTIFICATION and rng.random() < SKIP_FORTIFY:
            return [NoFortify()]
        if view.phase is Phase.REINFORCEMENT:
            legal = [e for e in legal if not isinstance(e.order, KeepCards)]
        if view.phase is Phase.ATTACK:
            legal = [e for e in legal if isinstance(e.order, Attack | AllOut)] or legal
        return [rng.choice(legal).any_count(rng)]
