"""`strategist`: the project's own Warzone player. Sizes every attack by the battle's exact odds against what the
defender will have once its deploys land, gathers its units where they are needed through chains of advances,
bombs the stacks it faces, and guards its borders in proportion to what faces them.

What shapes it. Deploys execute before anything else (W5), so a territory is defended by what it holds plus what
its owner deploys there this turn: the strategist learns, per opponent, how much of their pool lands on one
territory (from the growth it sees between turns) and attacks with enough to win against that. A battle is one
volley (W7): taking d defenders needs about d / 0.6 attackers, and costs about 0.7 d of them, so a sure attack is
bought with numbers, and a bomb (halving a stack after its deploys) is worth many units. A player's orders execute
in the order issued, so units can walk any distance through own territories in one turn (A to B, then B to C):
each connected group of own territories is planned as one pool.
"""

from __future__ import annotations

import math
import random
from collections import deque
from dataclasses import dataclass
from itertools import pairwise
from typing import ClassVar

from shared.game.ruleset import AnyRuleSet
from shared.rulesets.warzone.battle import attackers_needed, win_probability
from shared.rulesets.warzone.bots.base import WarzoneStrategy, reinforcement_cards, spread
from shared.rulesets.warzone.bots.reading import Reading
from shared.rulesets.warzone.cards import Card
from shared.rulesets.warzone.orders import (
    AdvanceOrder,
    AirliftOrder,
    AnyOrder,
    BombOrder,
    DeployOrder,
    NegotiateOrder,
)

CONFIDENCE = 0.85
"""An attack is sized to win at least this often against the defenders expected."""

SURE = 0.97
"""Spare units go to the attacks least sure of winning until they win this often."""

GARRISON = 0.5
"""A border keeps this share of the largest stack one opponent can throw at it."""

RESERVE_CAP = 0.4
"""Garrisons take at most this share of the units before attacks are planned."""

ELIMINATION_BONUS = 3.0
CONTINENT_WEIGHT = 1.0
"""Completing a continent, or breaking an opponent's, is worth its bonus times this, in territories."""

BOMB_AT = 4
"""A bomb goes on an attacked territory holding at least this many units (twice as many for one only facing us)."""

NEUTRAL_VALUE = 0.7
"""A neutral territory hurts nobody when taken: worth a little less than an opponent's."""


@dataclass
class _Attack:
    staging: str
    target: str
    units: int
    expected: float
    """Defenders expected when it lands."""


class StrategistStrategy(WarzoneStrategy):
    name: ClassVar[str] = "strategist"
    description: ClassVar[str] = (
        "sizes attacks by the exact odds against the deploys it expects, gathers units "
        "where needed, bombs the stacks it faces"
    )

    def __init__(self, ruleset: AnyRuleSet) -> None:
        super().__init__(ruleset)
        self._last: dict[str, tuple[str | None, int]] = {}
        self._pools: dict[str, int] = {}
        self._share: dict[str, float] = {}

    # ---- learning --------------------------------------------------------------------------------------------------

    def _observe(self, reading: Reading) -> None:
        """How much of each opponent's pool landed on its one most grown territory last turn: a player who piles
        everything on one stack grows one territory by about its pool, one who spreads grows many a little."""
        growth: dict[str, int] = {}
        for name, (holder, units) in self._last.items():
            if holder is None or holder == reading.me or reading.owner[name] != holder:
                continue
            grown = reading.units[name] - units
            if grown > growth.get(holder, 0):
                growth[holder] = grown
        for player, pool in self._pools.items():
            if pool > 0 and player in growth:
                observed = min(1.0, growth[player] / pool)
                before = self._share.get(player)
                self._share[player] = observed if before is None else 0.5 * before + 0.5 * observed
        self._last = {n: (reading.owner[n], reading.units[n]) for n in reading.names}
        self._pools = {p: s.pool for p, s in reading.view.players.items() if p != reading.me}

    def expected_defenders(self, reading: Reading, target: str) -> float:
        """What `target` will hold when an advance lands: its units, plus what its owner may deploy there."""
        holder = reading.owner[target]
        units = reading.units[target]
        if holder is None:
            return float(units)
        pool = reading.view.players[holder].pool
        fronts = [
            n
            for n in reading.names
            if reading.owner[n] == holder and any(reading.owner[m] != holder for m in reading.out[n])
        ]
        even = 1.0 / max(1, len(fronts))
        share = self._share.get(holder, even)
        # A player who piles on one stack piles it on its strongest territory: weak ones get the even share.
        if share > even and units < max((reading.units[f] for f in fronts), default=0):
            share = even
        return units + pool * share

    # ---- planning --------------------------------------------------------------------------------------------------

    def propose(self, reading: Reading, rng: random.Random) -> list[AnyOrder]:
        self._observe(reading)
        if not reading.mine:
            return []
        orders, pool = reinforcement_cards(reading)
        groups = _groups(reading)
        group_of = {t: i for i, g in enumerate(groups) for t in g}
        threat = {t: self._threat(reading, t) for t in reading.mine}

        # Garrisons first, the most threatened border first, within RESERVE_CAP of everything.
        total = sum(reading.units[t] for t in reading.mine) + pool
        reserve = int(total * RESERVE_CAP)
        garrison = dict.fromkeys(reading.mine, 0)
        for t in sorted(reading.mine, key=lambda n: (-threat[n], reading.rank[n])):
            garrison[t] = min(reserve, math.ceil(GARRISON * threat[t]))
            reserve -= garrison[t]
        free_in_group = [0] * len(groups)
        for t in reading.mine:
            free_in_group[group_of[t]] += reading.units[t]
        for t in reading.mine:
            free_in_group[group_of[t]] -= garrison[t]
        # Garrisons the group cannot pay for come from the pool.
        pool_free = pool
        for i in range(len(groups)):
            if free_in_group[i] < 0:
                pool_free += free_in_group[i]
                free_in_group[i] = 0
        pool_free = max(pool_free, 0)

        # Attacks, most value per unit first.
        bombs = reading.hand.get(Card.BOMB, 0)
        expected = {t: self.expected_defenders(reading, t) for t in reading.bombable()}
        plans: list[_Attack] = []
        bombed: list[str] = []
        open_targets = list(expected)
        while open_targets:
            best: tuple[float, int, str, str] | None = None
            for target in open_targets:
                defenders = expected[target]
                stagings = [s for s in reading.into[target] if reading.is_mine(s)]
                if not stagings:
                    continue
                need = attackers_needed(math.ceil(defenders), CONFIDENCE)
                staging = max(stagings, key=lambda s: (free_in_group[group_of[s]], -reading.rank[s]))
                available = free_in_group[group_of[staging]] + pool_free
                if need > available:
                    continue
                score = self._value(reading, target) / max(need, 1)
                if best is None or score > best[0]:
                    best = (score, need, target, staging)
            if best is None:
                break
            _, need, target, staging = best
            g = group_of[staging]
            from_group = min(need, free_in_group[g])
            free_in_group[g] -= from_group
            pool_free -= need - from_group
            plans.append(_Attack(staging, target, need, expected[target]))
            open_targets.remove(target)

        # A bomb on the biggest stack attacked (or, failing that, the biggest one facing us).
        if bombs:
            # Only a stack already there is sure to be worth a card: the deploys it expects may go elsewhere.
            attacked = sorted((a for a in plans if reading.units[a.target] >= BOMB_AT), key=lambda a: -a.expected)
            if attacked:
                bombed.append(attacked[0].target)
            else:
                facing = [t for t in reading.bombable() if reading.owner[t] is not None]
                if facing:
                    biggest = max(facing, key=lambda t: (reading.units[t], -reading.rank[t]))
                    if reading.units[biggest] >= 2 * BOMB_AT:
                        bombed.append(biggest)

        # Spare units: onto the attacks least sure of winning, then onto the borders.
        def odds(a: _Attack) -> float:
            defenders = a.expected / 2 if a.target in bombed else a.expected
            return win_probability(a.units, math.ceil(defenders))

        while plans:
            weakest = min(plans, key=lambda a: (odds(a), reading.rank[a.target]))
            if odds(weakest) >= SURE:
                break
            g = group_of[weakest.staging]
            if free_in_group[g] > 0:
                free_in_group[g] -= 1
            elif pool_free > 0:
                pool_free -= 1
            else:
                break
            weakest.units += 1

        # Where every unit stands before the attacks leave: demand per territory, met by the group's own units
        # (walked there through own territories) and the pool.
        demand = dict(garrison)
        for plan in plans:
            demand[plan.staging] += plan.units
        for i, group in enumerate(groups):  # what is left of a group stays on its borders
            fronts = [t for t in group if threat[t] > 0] or [t for t in group if reading.targets(t)]
            if free_in_group[i] > 0 and fronts:
                for extra in spread(free_in_group[i], fronts, [threat[t] + 1.0 for t in fronts]):
                    demand[extra.territory] += extra.units
                free_in_group[i] = 0
        if pool_free > 0:
            fronts = [t for t in reading.mine if threat[t] > 0] or list(reading.fronts() or reading.mine)
            for extra in spread(pool_free, fronts, [threat[t] + 1.0 for t in fronts]):
                demand[extra.territory] += extra.units

        deploys, moves, airlift = self._supply(reading, groups, demand, pool)
        orders += deploys
        orders += moves
        if airlift is not None and reading.hand.get(Card.AIRLIFT, 0):
            orders.append(airlift)
        orders += [BombOrder(t) for t in bombed]
        for plan in sorted(plans, key=lambda a: reading.rank[a.target]):
            orders.append(AdvanceOrder(plan.units, plan.staging, plan.target))
        orders += self._truce(reading, plans)
        return orders

    def _threat(self, reading: Reading, territory: str) -> int:
        """The largest force one opponent could throw at `territory` from one neighbour, its pool included."""
        worst = 0
        for source in reading.attackers_of(territory):
            holder = reading.owner[source]
            if holder is None:
                continue
            worst = max(worst, reading.units[source] + int(reading.view.players[holder].pool * 0.5))
        return worst

    def _value(self, reading: Reading, target: str) -> float:
        holder = reading.owner[target]
        value = NEUTRAL_VALUE if holder is None else 1.0
        continent = reading.continent_of.get(target)
        if continent is not None and continent.bonus > 0:
            others = [t for t in continent.members if t != target]
            if all(reading.owner[t] == reading.me for t in others):
                value += CONTINENT_WEIGHT * continent.bonus
            elif holder is not None and all(reading.owner[t] == holder for t in continent.members):
                value += CONTINENT_WEIGHT * continent.bonus * 0.5
            else:
                mine = sum(reading.owner[t] == reading.me for t in others)
                value += 0.5 * continent.bonus * mine / max(1, len(continent.members))
        if holder is not None:
            held = sum(1 for t in reading.names if reading.owner[t] == holder)
            if held == 1:
                value += ELIMINATION_BONUS
        return value

    def _supply(
        self, reading: Reading, groups: list[tuple[str, ...]], demand: dict[str, int], pool: int
    ) -> tuple[list[AnyOrder], list[AnyOrder], AnyOrder | None]:
        """Deploys and chains of advances that turn what stands where into `demand`: each group's surplus walks to
        its shortfalls (nearest first), the pool covers the rest."""
        deploys: dict[str, int] = {}
        moves: list[AnyOrder] = []
        airlift: AnyOrder | None = None
        surplus_left = 0
        biggest_surplus: tuple[int, str] | None = None
        for group in groups:
            members = set(group)
            surplus = {t: reading.units[t] - demand.get(t, 0) for t in group}
            for sink in sorted(group, key=lambda t: reading.rank[t]):
                short = -surplus[sink]
                if short <= 0:
                    continue
                for source, path in _by_distance(reading, sink, members):
                    if short <= 0:
                        break
                    if surplus[source] <= 0:
                        continue
                    take = min(surplus[source], short)
                    surplus[source] -= take
                    surplus[sink] += take
                    short -= take
                    moves += [AdvanceOrder(take, a, b) for a, b in pairwise(path)]
            for t in group:
                if surplus[t] > 0:
                    surplus_left += surplus[t]
                    if biggest_surplus is None or surplus[t] > biggest_surplus[0]:
                        biggest_surplus = (surplus[t], t)
                elif surplus[t] < 0:
                    deploys[t] = deploys.get(t, 0) - surplus[t]
        total = sum(deploys.values())
        if total > pool:  # cannot happen when demand was planned within the pool; trim the last ones
            over = total - pool
            for t in sorted(deploys, key=lambda n: -reading.rank[n]):
                cut = min(over, deploys[t])
                deploys[t] -= cut
                over -= cut
        orders: list[AnyOrder] = [DeployOrder(t, n) for t, n in deploys.items() if n > 0]
        if biggest_surplus is not None and biggest_surplus[0] >= 5:
            # Units stranded where no demand is: airlift them to the most demanding territory.
            target = max(demand, key=lambda t: (demand[t], -reading.rank[t]))
            if target != biggest_surplus[1]:
                airlift = AirliftOrder(biggest_surplus[0], biggest_surplus[1], target)
        return orders, moves, airlift

    def _truce(self, reading: Reading, plans: list[_Attack]) -> list[AnyOrder]:
        """With several opponents, a truce with the one who threatens most among those not attacked this turn."""
        if not reading.hand.get(Card.DIPLOMACY, 0) or len(reading.opponents) < 2:
            return []
        attacked = {reading.owner[p.target] for p in plans}
        pressure: dict[str, int] = {}
        for t in reading.mine:
            for source in reading.attackers_of(t):
                holder = reading.owner[source]
                if holder is not None and holder not in attacked:
                    pressure[holder] = pressure.get(holder, 0) + reading.units[source]
        if not pressure:
            return []
        return [NegotiateOrder(max(pressure, key=lambda p: (pressure[p], p)))]


def _groups(reading: Reading) -> list[tuple[str, ...]]:
    """Own territories in groups whose units can walk to one another through own territories (two-way)."""
    left = list(reading.mine)
    found: list[tuple[str, ...]] = []
    while left:
        first = left[0]
        seen = {first}
        queue = deque([first])
        while queue:
            here = queue.popleft()
            for nxt in reading.out[here]:
                if nxt not in seen and reading.is_mine(nxt) and here in reading.out[nxt]:
                    seen.add(nxt)
                    queue.append(nxt)
        group = tuple(n for n in left if n in seen)
        found.append(group)
        left = [n for n in left if n not in seen]
    return found


def _by_distance(reading: Reading, sink: str, members: set[str]) -> list[tuple[str, list[str]]]:
    """Every member that can walk to `sink`, nearest first, with its path (source first, sink last)."""
    paths: dict[str, list[str]] = {sink: [sink]}
    order: list[str] = []
    queue = deque([sink])
    while queue:
        here = queue.popleft()
        for before in reading.into[here]:
            if before in members and before not in paths:
                paths[before] = [before, *paths[here]]
                order.append(before)
                queue.append(before)
    return [(source, paths[source]) for source in order]
