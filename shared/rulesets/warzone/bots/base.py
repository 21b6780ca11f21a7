"""What every Warzone computer player shares: it proposes, the rules dispose.

Every proposal goes through the rule set's own checker (the one the server runs), anything it refuses is dropped,
and whatever the kept orders leave in the pool is deployed for it, since a turn is committed with the whole pool
deployed (W4).
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

from shared.game.strategy import Strategy, proportional_shares
from shared.maps.model import GameMap
from shared.rulesets.warzone.board import Phase
from shared.rulesets.warzone.bots.reading import Reading
from shared.rulesets.warzone.bots.viewstate import legal_only
from shared.rulesets.warzone.cards import REINFORCEMENT_UNITS, Card
from shared.rulesets.warzone.orders import AnyOrder, DeployOrder, ReinforceOrder
from shared.rulesets.warzone.view import WarzoneView


def spread(units: int, territories: Sequence[str], weights: Sequence[float]) -> list[DeployOrder]:
    """Split `units` over `territories` in proportion to `weights` (largest remainders), as deploy orders."""
    counts = proportional_shares(units, weights) if territories else []
    return [DeployOrder(t, n) for t, n in zip(territories, counts, strict=True) if n > 0]


def reinforcement_cards(reading: Reading) -> tuple[list[AnyOrder], int]:
    """Every reinforcement card in hand played first, and the pool they make: what each computer player starts its
    turn's orders with."""
    played = reading.hand.get(Card.REINFORCEMENT, 0)
    return [ReinforceOrder() for _ in range(played)], reading.pool + REINFORCEMENT_UNITS * played


class WarzoneStrategy(Strategy):
    """One computer player's way of playing Warzone. A fresh instance plays one seat of one game."""

    @abstractmethod
    def propose(self, reading: Reading, rng: random.Random) -> list[AnyOrder]:
        """The turn's orders, in the order they are to be issued (deploys before the advances that use them)."""

    def decide(self, view: Any, game_map: GameMap, me: str, rng: random.Random) -> list[Any]:
        if not isinstance(view, WarzoneView) or view.phase is not Phase.ORDERS:
            return []
        if me not in view.players or view.players[me].eliminated:
            return []
        reading = Reading(view, game_map, me)
        kept = legal_only(self.ruleset, view, game_map, me, self.propose(reading, rng))
        return kept + self.rest_of_pool(reading, kept)

    @staticmethod
    def rest_of_pool(reading: Reading, kept: Sequence[AnyOrder]) -> list[AnyOrder]:
        """The deploy that uses what the kept orders leave in the pool: on their favourite territory."""
        left = (
            reading.pool
            + REINFORCEMENT_UNITS * sum(isinstance(o, ReinforceOrder) for o in kept)
            - sum(o.units for o in kept if isinstance(o, DeployOrder))
        )
        if left <= 0 or not reading.mine:
            return []
        deployed: dict[str, int] = {}
        for order in kept:
            if isinstance(order, DeployOrder):
                deployed[order.territory] = deployed.get(order.territory, 0) + order.units
        where = max(deployed, key=lambda t: deployed[t]) if deployed else (reading.fronts() or reading.mine)[0]
        return [DeployOrder(where, left)]
