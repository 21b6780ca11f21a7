"""What every RISC computer player shares: it proposes, the rules dispose.

Every proposal goes through the rule set's own order checker (the one the server runs), anything it rejects is
dropped, and in the placement phase whatever a proposal left in the pool is placed for it (R9).
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

from shared.game.strategy import Strategy, proportional_shares
from shared.maps.model import GameMap
from shared.rulesets.risc.board import Phase
from shared.rulesets.risc.bots.evolution import Orders, carry_out, first_view, fronts_of, spend_technology
from shared.rulesets.risc.bots.viewstate import legal_only
from shared.rulesets.risc.evo_view import EvoView
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, PlaceOrder
from shared.rulesets.risc.view import RiscView

TurnOrder = MoveOrder | AttackOrder


def spread(units: int, territories: Sequence[str], weights: Sequence[float]) -> list[PlaceOrder]:
    """Split `units` over `territories` in proportion to `weights` (largest remainders), as place orders."""
    counts = proportional_shares(units, weights) if territories else []
    return [PlaceOrder(t, n) for t, n in zip(territories, counts, strict=True) if n > 0]


class RiscStrategy(Strategy):
    """One computer player's way of playing RISC. A fresh instance plays one seat of one game."""

    @abstractmethod
    def propose_placement(self, view: RiscView, game_map: GameMap, me: str, rng: random.Random) -> list[PlaceOrder]:
        """Where the starting pool goes (R9); `view.pool_left` units are to be placed."""

    @abstractmethod
    def propose_orders(self, view: RiscView, game_map: GameMap, me: str, rng: random.Random) -> list[TurnOrder]:
        """This turn's moves and attacks, in the order they are to be issued (R15)."""

    def place(self, view: RiscView, game_map: GameMap, me: str, rng: random.Random) -> list[PlaceOrder]:
        """Legal place orders that use the whole pool left."""
        if view.phase is not Phase.PLACEMENT:
            return []
        kept = [
            o
            for o in legal_only(self.ruleset, view, game_map, me, self.propose_placement(view, game_map, me, rng))
            if isinstance(o, PlaceOrder)
        ]
        left = view.pool_left - sum(o.units for o in kept)
        own = [name for name, t in view.territories.items() if t.owner == me]
        if left > 0 and own:
            placed = {o.territory: o.units for o in kept}
            where = max(own, key=lambda t: placed.get(t, 0))  # the proposal's favourite, else the first
            kept.append(PlaceOrder(where, left))
        return kept

    def orders(self, view: RiscView, game_map: GameMap, me: str, rng: random.Random) -> list[TurnOrder]:
        """Legal moves and attacks: what the proposal holds that the rules accept."""
        if view.phase is not Phase.ORDERS:
            return []
        return [
            o
            for o in legal_only(self.ruleset, view, game_map, me, self.propose_orders(view, game_map, me, rng))
            if isinstance(o, MoveOrder | AttackOrder)
        ]

    def decide(self, view: Any, game_map: GameMap, me: str, rng: random.Random) -> list[Any]:
        """Whatever the phase asks for: placements before the first turn, moves and attacks after."""
        if isinstance(view, EvoView):
            return self.decide_evolution(view, game_map, me, rng)
        if view.phase is Phase.PLACEMENT:
            return list(self.place(view, game_map, me, rng))
        return list(self.orders(view, game_map, me, rng))

    def decide_evolution(self, view: EvoView, game_map: GameMap, me: str, rng: random.Random) -> list[Any]:
        """Evolutions 2 and 3 (bots/evolution.py): technology spent first, then this strategy's plan for where units
        go, carried out with levels and within the food there is."""
        first = first_view(view)
        if view.phase is Phase.PLACEMENT:
            return list(self.place(first, game_map, me, rng))
        if view.phase is not Phase.ORDERS:
            return []
        orders = Orders(self.ruleset, view, game_map, me)
        if not orders.open():
            return []
        spend_technology(orders, fronts_of(view, game_map, me))
        carry_out(orders, self.orders(first, game_map, me, rng))
        return orders.issued
