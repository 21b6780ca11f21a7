"""`random` (COMP 345): legal orders at random. It deploys its pool in random shares, then issues a random number
of orders drawn from the rules' own list of legal orders, each with a random number of units."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, ClassVar

from shared.game import turns
from shared.game.game import Game
from shared.maps.model import GameMap
from shared.rulesets.warzone.board import Phase
from shared.rulesets.warzone.bots.base import WarzoneStrategy
from shared.rulesets.warzone.bots.reading import Reading
from shared.rulesets.warzone.bots.viewstate import game_from_view
from shared.rulesets.warzone.orders import AnyOrder, DeployOrder
from shared.rulesets.warzone.view import WarzoneView

MAX_ORDERS = 12
"""At most this many orders besides the deploys: a random player does not need more to be random."""


class RandomStrategy(WarzoneStrategy):
    name: ClassVar[str] = "random"
    description: ClassVar[str] = "issues legal orders at random"

    def propose(self, reading: Reading, rng: random.Random) -> list[AnyOrder]:
        return []  # decide() draws from the rules' legal orders instead

    def decide(self, view: Any, game_map: GameMap, me: str, rng: random.Random) -> list[Any]:
        if not isinstance(view, WarzoneView) or view.phase is not Phase.ORDERS:
            return []
        if me not in view.players or view.players[me].eliminated:
            return []
        ruleset = self.ruleset
        game: Game[Any, Any] = game_from_view(view, game_map, me)
        issued: list[Any] = []

        def issue(order: Any) -> None:
            nonlocal game
            done = turns.issue(ruleset, game, me, order)
            if isinstance(done, Game):
                game = done
                issued.append(order)

        for _ in range(rng.randint(0, MAX_ORDERS)):
            legal = [e for e in turns.legal_orders(ruleset, game, me) if not isinstance(e.order, DeployOrder)]
            if not legal:
                break
            issue(rng.choice(legal).any_count(rng))
        while True:  # the pool, in random shares on random own territories (W4: all of it)
            deploys = [e for e in turns.legal_orders(ruleset, game, me) if isinstance(e.order, DeployOrder)]
            if not deploys:
                break
            entry = rng.choice(deploys)
            issue(replace(entry.order, units=rng.randint(1, entry.order.units)))
        return issued
