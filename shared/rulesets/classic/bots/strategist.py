"""`strategist`: the project's own classic Risk player. It picks a continent to take, masses its reinforcements where
they attack toward it (or guard a continent it holds), weighs every attack by its exact odds (bots/position.py) and
what the country is worth, rolls one battle at a time and stops when the odds turn, takes a card every turn it can,
finishes off weak players for their cards, and walks idle armies from the interior to the front.

What a country is worth to take: 1, more inside the continent it is after, the continent's bonus when it completes
one, half an enemy's bonus when it breaks their continent, and a lot when it is a player's last (their cards come
with it). An attack goes ahead when the chance of winning the whole battle clears a bar that is lower for valuable
countries and for the first conquest of the turn (a card is at stake).
"""

from __future__ import annotations

import random
from typing import ClassVar

from shared.rulesets.classic.bots.base import ClassicStrategy
from shared.rulesets.classic.bots.position import Position, win_chance
from shared.rulesets.classic.dice import most_attack_dice
from shared.rulesets.classic.orders import (
    Attack,
    AttackMove,
    ChooseCapital,
    ClassicOrder,
    Fortify,
    NoAttack,
    NoFortify,
    PlaceArmy,
    Reinforce,
)

ATTACK_BAR = 0.62
"""An ordinary attack goes ahead when it wins the battle at least this often..."""
CARD_BAR = 0.45
"""...the turn's first conquest (a card) at this..."""
VALUE_EASING = 0.06
"""...and the bar drops by this much per point of the country's worth, down to FLOOR."""
FLOOR = 0.35
DEFENCE_SHARE = 0.5
"""At most this share of the reinforcements goes to guard the borders of continents already held."""
GUARD = 0.8
"""A held continent's border is guarded up to this share of the enemy armies that could strike it."""


class StrategistStrategy(ClassicStrategy):
    name: ClassVar[str] = "strategist"
    description: ClassVar[str] = ("aims at one continent at a time, masses its armies, attacks by exact odds, "
                                  "takes a card every turn, finishes weak players")

    # ---- what the map is worth ----------------------------------------------------------------------------------

    def members(self, position: Position) -> dict[str, list[str]]:
        return {c: names for c, names in position.map.continent_members().items() if names}

    def continent_of(self, position: Position, country: str) -> str | None:
        return position.map.territory(country).continent

    def target_continent(self, position: Position) -> str | None:
        """The continent not yet held that is cheapest to take for what it pays."""
        best, best_score = None, 0.0
        bonus = {c.name: c.bonus for c in position.map.continents}
        for continent, names in self.members(position).items():
            theirs = [n for n in names if position.owner[n] != position.me]
            if not theirs:
                continue
            mine = len(names) - len(theirs)
            enemy = sum(position.armies[n] for n in theirs)
            own = sum(position.armies[n] for n in names if position.owner[n] == position.me)
            score = (bonus.get(continent, 0) + 1) / len(names) * (1 + mine) * (1 + own) / (1 + enemy) ** 1.2
            if score > best_score:
                best, best_score = continent, score
        return best

    def worth(self, position: Position, target: str, aim: str | None) -> float:
        """What taking `target` is worth, in rough "countries"."""
        value = 1.0
        continent = self.continent_of(position, target)
        members = self.members(position)
        bonus = {c.name: c.bonus for c in position.map.continents}
        if continent is not None and continent in members:
            names = members[continent]
            if continent == aim:
                value += 1.5
            if all(position.owner[n] == position.me for n in names if n != target):
                value += bonus.get(continent, 0)
            holder = position.owner[target]
            if all(position.owner[n] == holder for n in names):
                value += bonus.get(continent, 0) / 2
        holder = position.owner[target]
        held = sum(1 for n in position.map.names if position.owner[n] == holder)
        if held <= 2:
            value += 4 + 2 * position.view.players[holder].cards / max(held, 1)
        capital = position.view.players[holder].capital
        if capital == target:
            value += 4
        return value

    def bar(self, position: Position, worth: float) -> float:
        base = CARD_BAR if not position.view.conquered else ATTACK_BAR
        return max(FLOOR, base - VALUE_EASING * (worth - 1))

    # ---- startup, capital, reinforcement ------------------------------------------------------------------------

    def place(self, position: Position, rng: random.Random) -> ClassicOrder:
        return PlaceArmy(self.staging(position, 1))

    def capital(self, position: Position, rng: random.Random) -> ClassicOrder:
        """The country least exposed, then the strongest."""
        return ChooseCapital(min(position.mine, key=lambda n: (position.threat(n) - position.armies[n],
                                                               -position.armies[n])))

    def staging(self, position: Position, extra: int) -> str:
        """The country from which `extra` more armies would make the most worthwhile attack."""
        aim = self.target_continent(position)
        best, best_score = None, -1.0
        for source in position.frontier:
            armies = position.armies[source] + extra
            for target in position.enemies(source):
                worth = self.worth(position, target, aim)
                score = worth * win_chance(armies, position.armies[target])
                if self.continent_of(position, source) == aim:
                    score *= 1.2
                if score > best_score:
                    best, best_score = source, score
        return best or position.strongest(position.mine)

    def reinforce(self, position: Position, rng: random.Random) -> list[ClassicOrder]:
        total = position.view.reinforcements
        orders: list[ClassicOrder] = []
        guard_left = int(total * DEFENCE_SHARE)
        for country, need in self.guard_needs(position):
            if guard_left <= 0:
                break
            n = min(need, guard_left)
            orders.append(Reinforce(country, n))
            guard_left -= n
        rest = total - sum(o.armies for o in orders if isinstance(o, Reinforce))
        if rest > 0:
            orders.append(Reinforce(self.staging(position, rest), rest))
        return orders

    def guard_needs(self, position: Position) -> list[tuple[str, int]]:
        """Borders of continents held (and the capital) that are short of GUARD times what could strike them."""
        needs = []
        held = [names for names in self.members(position).values()
                if all(position.owner[n] == position.me for n in names)]
        capital = position.view.players[position.me].capital
        guarded = {n for names in held for n in names}
        if capital is not None and position.owner.get(capital) == position.me:
            guarded.add(capital)
        for country in position.frontier:
            if country in guarded:
                short = int(GUARD * position.threat(country)) - position.armies[country]
                if short > 0:
                    needs.append((country, short))
        needs.sort(key=lambda item: -item[1])
        return needs

    # ---- attack ---------------------------------------------------------------------------------------------------

    def attack(self, position: Position, rng: random.Random) -> ClassicOrder:
        aim = self.target_continent(position)
        best, best_score = None, 0.0
        for source, target in position.attacks():
            worth = self.worth(position, target, aim)
            chance = win_chance(position.armies[source], position.armies[target])
            if chance < self.bar(position, worth):
                continue
            score = chance * worth
            if score > best_score:
                best, best_score = (source, target), score
        if best is None:
            return NoAttack()
        source, target = best
        return Attack(source, target, most_attack_dice(position.armies[source]))

    def move_in(self, position: Position, rng: random.Random) -> ClassicOrder:
        """Armies go where the enemies are: all of them forward when the country left behind faces none, the least
        when the new one faces none, otherwise in proportion to what each faces."""
        conquest = position.view.conquest
        assert conquest is not None
        behind = position.threat(conquest.source)
        ahead = sum(position.armies[n] for n in position.enemies(conquest.target)) + 1
        if not position.enemies(conquest.source):
            return AttackMove(conquest.most)
        if not position.enemies(conquest.target):
            return AttackMove(conquest.least)
        movable = position.armies[conquest.source] - 1
        share = round(movable * ahead / (ahead + behind + 1))
        return AttackMove(max(conquest.least, min(conquest.most, share)))

    # ---- fortification --------------------------------------------------------------------------------------------

    def fortify(self, position: Position, rng: random.Random) -> ClassicOrder:
        """The biggest idle stack (no enemy next to it) walks to the front that needs it most."""
        idle = [n for n in position.mine if position.armies[n] > 1 and not position.enemies(n)]
        adjacent = position.view.fortify == "adjacent"
        for source in sorted(idle, key=lambda n: -position.armies[n]):
            if adjacent:
                reach = {n for n in position.map.neighbours(source) if position.owner[n] == position.me}
            else:
                reach = position.reach(source) - {source}
            fronts = [n for n in position.frontier if n in reach]
            if fronts:
                target = max(fronts, key=lambda n: (position.threat(n) - position.armies[n],
                                                    -position.map.names.index(n)))
            elif adjacent and reach:
                target = min(reach, key=lambda n: (self.distance_to_front(position, n), position.map.names.index(n)))
            else:
                continue
            return Fortify(source, target, position.armies[source] - 1)
        return NoFortify()

    def distance_to_front(self, position: Position, country: str) -> int:
        """Steps through own countries from `country` to the nearest one next to an enemy."""
        seen, layer, steps = {country}, [country], 0
        while layer:
            if any(position.enemies(n) for n in layer):
                return steps
            steps += 1
            following = []
            for n in layer:
                for m in position.map.neighbours(n):
                    if m not in seen and position.owner[m] == position.me:
                        seen.add(m)
                        following.append(m)
            layer = following
        return len(position.map.names)
