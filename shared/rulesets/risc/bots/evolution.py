"""Computer players in RISC Evolutions 2 and 3: how each strategy plays with unit levels, food and technology, and
under fog of war.

Every Evolution 1 strategy keeps its way of choosing where units go and what to attack: its plan is made on the
Evolution 1 reading of the view (each territory's owner and units, as far as the viewer knows them: under fog, what
they last saw), then carried out with levels (`Orders`): moves take the lowest levels first, except into a territory
an attack leaves from, where the best units go; attacks send the best units first; each order is cut to what the
food left can pay, attacks keeping what they need. Before the plan, technology is spent (`spend_technology`): the
next technology level while it is cheap, then upgrades of the units facing the enemy, the cheapest bonus per
technology first (level 0 to 1 buys +1 for 3, to 2 +3 for 11). Every order goes through the rule set's own checker
on the game the view describes (evo_view.game_from_evo_view), so none is refused by the server.

`random` plays the evolutions its own way (`random_orders`): any order kind at random, spies and cloaks included.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from shared.game import turns
from shared.game.game import Game
from shared.game.ruleset import AnyRuleSet
from shared.maps.model import GameMap
from shared.rulesets.risc import evo_orders
from shared.rulesets.risc.board import RiscBoard
from shared.rulesets.risc.evo_checker import EvoTally, levels_floor, levels_left, move_cost
from shared.rulesets.risc.evo_view import EvoView, game_from_evo_view
from shared.rulesets.risc.levels import BONUS, LEVELS, TOTAL, highest_first, lowest_first, research_cost
from shared.rulesets.risc.orders import AttackOrder, MoveOrder
from shared.rulesets.risc.view import PlayerState, RiscView, TerritoryState

RESEARCH_UP_TO = 3
"""Research the next level while below this one..."""

RESEARCH_RESERVE = 20
"""...when the technology left after paying for it is at least this (the rest goes into upgrades)."""


def first_view(view: EvoView) -> RiscView:
    """The Evolution 1 reading of an evolution's view: owners and unit counts as the viewer knows them."""
    territories = {name: TerritoryState(t.owner, t.units) for name, t in view.territories.items()}
    held: dict[str | None, list[int]] = {}
    for t in territories.values():
        tally = held.setdefault(t.owner, [0, 0])
        tally[0] += 1
        tally[1] += t.units
    players = {
        p: PlayerState(held.get(p, [0, 0])[0], held.get(p, [0, 0])[1], s.eliminated) for p, s in view.players.items()
    }
    return RiscView(view.phase, view.turn, territories, players, [], view.pool_left, view.winner)


class Orders:
    """Orders being issued for one seat on the game its view describes, each checked by the rules as it comes."""

    def __init__(self, ruleset: AnyRuleSet, view: EvoView, game_map: GameMap, me: str) -> None:
        self.ruleset = ruleset
        self.me = me
        self.view = view
        self.game: Game[RiscBoard, Any] = game_from_evo_view(view, game_map, me, [])
        self.issued: list[Any] = []

    @property
    def tally(self) -> EvoTally:
        counted: EvoTally = turns.tally(self.ruleset, self.game, self.me)
        return counted

    def open(self) -> bool:
        return turns.gate(self.ruleset, self.game, self.me) is None

    def issue(self, order: Any) -> bool:
        issued = turns.issue(self.ruleset, self.game, self.me, order)
        if isinstance(issued, Game):
            self.game = issued
            self.issued.append(order)
            return True
        return False

    def left(self, territory: str) -> tuple[int, ...]:
        return levels_left(self.game.board, self.tally, territory)

    def floor(self, territory: str) -> tuple[int, ...]:
        return levels_floor(self.game.board, self.tally, territory)

    def move_cost(self, source: str, target: str) -> int | None:
        return move_cost(self.game, self.me, self.tally, source, target)


def spend_technology(orders: Orders, fronts: Sequence[str], most_level: int | None = None) -> None:
    """Research while the level is low and affordable, then upgrade the units on `fronts` (in that order of
    importance), the best bonus per technology first."""
    evo = orders.game.board.evo
    assert evo is not None
    level = evo.tech_level.get(orders.me, 1)
    cost = research_cost(level)
    if level < RESEARCH_UP_TO and cost is not None and orders.tally.technology >= cost + RESEARCH_RESERVE:
        orders.issue(evo_orders.ResearchOrder())
    top = min(level, most_level if most_level is not None else level)
    # Steps (from, to) by bonus gained per technology, best first.
    steps = sorted(
        ((a, b) for a in range(LEVELS) for b in range(a + 1, top + 1)),
        key=lambda s: (-(BONUS[s[1]] - BONUS[s[0]]) / (TOTAL[s[1]] - TOTAL[s[0]]), s[0], -s[1]),
    )
    for a, b in steps:
        for territory in fronts:
            there = orders.floor(territory)[a]
            if there <= 0:
                continue
            unit_cost = TOTAL[b] - TOTAL[a]
            affordable = min(there, orders.tally.technology // unit_cost)
            if affordable > 0:
                orders.issue(evo_orders.UpgradeOrder(affordable, territory, a, b))
            if orders.tally.technology < 3:
                return


def carry_out(orders: Orders, plan: Iterable[MoveOrder | AttackOrder]) -> None:
    """An Evolution 1 plan (moves, then attacks) issued with levels, within the food there is."""
    plan = list(plan)
    stagings = {o.source for o in plan if isinstance(o, AttackOrder)}
    attack_food = sum(o.units for o in plan if isinstance(o, AttackOrder))
    for order in plan:
        tally = orders.tally
        if isinstance(order, MoveOrder):
            per_unit = orders.move_cost(order.source, order.target)
            if per_unit is None:
                continue
            spare = max(0, tally.food - attack_food)
            units = min(order.units, spare // per_unit)
            left = orders.left(order.source)
            taken = highest_first(left, units) if order.target in stagings else lowest_first(left, units)
            for level, n in taken:
                orders.issue(evo_orders.LevelMoveOrder(n, level, order.source, order.target))
        else:
            units = min(order.units, tally.food)
            attack_food -= order.units
            for level, n in highest_first(orders.left(order.source), units):
                orders.issue(evo_orders.LevelAttackOrder(n, level, order.source, order.target))


def fronts_of(view: EvoView, game_map: GameMap, me: str) -> list[str]:
    """Own territories that border someone else's, the most enemy neighbours first."""
    own = [n for n in game_map.names if view.territories[n].owner == me]

    def enemies(name: str) -> int:
        return sum(1 for n in game_map.neighbours_in_order(name) if view.territories[n].owner != me)

    return sorted((n for n in own if enemies(n)), key=lambda n: -enemies(n))


def random_orders(ruleset: AnyRuleSet, view: EvoView, game_map: GameMap, me: str, rng: random.Random) -> list[Any]:
    """`random` in the evolutions: any order kind at random, then any instance of it, as the rules allow."""
    orders = Orders(ruleset, view, game_map, me)
    if not orders.open():
        return []
    own = [n for n in game_map.names if view.territories[n].owner == me]
    if not own:
        return []
    evolution = view.evolution
    kinds = ["move", "attack", "attack", "upgrade", "research"]
    if evolution >= 3:
        kinds += ["spy", "spy_move", "cloak", "research_cloaking"]
    for _ in range(rng.randint(0, 2 * len(own))):
        kind = rng.choice(kinds)
        source = rng.choice(own)
        left = orders.left(source)
        levels = [level for level in range(LEVELS) if left[level] > 0]
        if kind in ("move", "attack") and levels:
            level = rng.choice(levels)
            units = rng.randint(1, left[level])
            if kind == "attack":
                targets = [n for n in game_map.neighbours_in_order(source) if view.territories[n].owner != me]
                if targets:
                    orders.issue(evo_orders.LevelAttackOrder(units, level, source, rng.choice(targets)))
            else:
                targets = [n for n in own if n != source]
                if targets:
                    orders.issue(evo_orders.LevelMoveOrder(units, level, source, rng.choice(targets)))
        elif kind == "upgrade":
            floor = orders.floor(source)
            present = [level for level in range(LEVELS - 1) if floor[level] > 0]
            if present:
                level = rng.choice(present)
                orders.issue(
                    evo_orders.UpgradeOrder(
                        rng.randint(1, floor[level]), source, level, rng.randint(level + 1, LEVELS - 1)
                    )
                )
        elif kind == "research":
            orders.issue(evo_orders.ResearchOrder())
        elif kind == "research_cloaking":
            orders.issue(evo_orders.CloakingResearchOrder())
        elif kind == "cloak":
            orders.issue(evo_orders.CloakOrder(source))
        elif kind == "spy" and orders.floor(source)[0] > 0:
            orders.issue(evo_orders.SpyOrder(1, source))
        elif kind == "spy_move":
            places = [n for n, t in view.territories.items() if t.spies]
            if places:
                start = rng.choice(places)
                orders.issue(evo_orders.SpyMoveOrder(1, start, rng.choice(game_map.names)))
    return orders.issued
