"""`strategist`: the project's own classic Risk player.

It picks a continent to take (the one that pays most for the countries it can be entered from, weighed by what it
already holds there and the enemy armies inside), masses its reinforcements where they attack toward it, and holds
what it has taken: every country of a continent it owns (and its capital) keeps a guard against the enemy armies
next to it, and only armies above the guard attack, move on after a conquest or walk to the front.

Attacks are weighed by their exact odds (bots/position.py `battle`): what the country is worth if it falls (1, a
card for the turn's first conquest, more in the continent it is after, a continent's bonus when it completes one,
half an enemy's bonus when it breaks theirs, a lot for a player's last country and their cards) plus the enemy armies
destroyed, less the armies it costs. It rolls one battle at a time and asks again after each roll, so it stops when
the odds turn. Idle armies walk from the interior to the front.
"""

from __future__ import annotations

import math
import random
from functools import cached_property
from typing import ClassVar

from shared.rulesets.classic.bots.base import ClassicStrategy
from shared.rulesets.classic.bots.position import Position, battle_at, win_chance
from shared.rulesets.classic.dice import most_attack_dice
from shared.rulesets.classic.missions import MissionKind
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

ATTACK_BAR = 0.6
"""An ordinary attack goes ahead only when it wins the battle at least this often..."""
CARD_BAR = 0.45
"""...the turn's first conquest (a card) at this..."""
VALUE_EASING = 0.05
"""...and the bar drops by this much per point of the country's worth, down to FLOOR."""
FLOOR = 0.35
CARD = 1.5
"""The turn's first conquest brings a card: worth this much more."""
KILL = 0.1
"""Each enemy army destroyed is worth this much: a stack next door is a threat removed (and with 3 dice against 2
the attacker loses fewer armies than the defender, on average)."""
LOSS = 0.15
"""Each army of one's own lost costs this much."""
GUARD = 0.7
"""A held continent's country (or the capital) keeps this share of the enemy armies that could strike it."""


class Plan:
    """What one decision reads off the position: the continent aimed at and the guard each country needs."""

    def __init__(self, position: Position) -> None:
        self.position = position
        game_map = position.map
        self.members = {c: names for c, names in game_map.continent_members().items() if names}
        self.bonus = {c.name: c.bonus for c in game_map.continents}

    @cached_property
    def held(self) -> set[str]:
        """Countries of continents the player holds whole, and its capital."""
        position = self.position
        held = {
            n for names in self.members.values() if all(position.owner[m] == position.me for m in names) for n in names
        }
        capital = position.view.players[position.me].capital
        if capital is not None and position.owner.get(capital) == position.me:
            held.add(capital)
        return held

    def guard(self, country: str) -> int:
        if country not in self.held:
            return 1
        return max(1, math.ceil(GUARD * self.position.threat(country)))

    def spare(self, country: str) -> int:
        """Armies above the guard: what may attack or leave."""
        return self.position.armies[country] - self.guard(country)

    @cached_property
    def aim(self) -> str | None:
        """The continent not yet held that pays most for what it costs to take and to hold; in mission mode, one of
        the mission's continents while it names some."""
        position = self.position
        mission = position.view.players[position.me].mission
        wanted = set(mission.continents) if mission is not None and mission.kind is MissionKind.CONTINENTS else set()
        best, best_score = None, 0.0
        for continent, names in self.members.items():
            if wanted and continent not in wanted:
                continue
            theirs = [n for n in names if position.owner[n] != position.me]
            if not theirs:
                continue
            inside = set(names)
            entries = sum(1 for n in names if any(m not in inside for m in position.map.neighbours(n)))
            enemy = sum(position.armies[n] for n in theirs)
            own = sum(position.armies[n] for n in names if position.owner[n] == position.me)
            share = (len(names) - len(theirs)) / len(names)
            score = (self.bonus.get(continent, 0) + 1) / max(1, entries) * (0.2 + share) * (1 + own) / (1 + enemy)
            if score > best_score:
                best, best_score = continent, score
        return best

    def worth(self, target: str) -> float:
        """What taking `target` is worth, in rough "countries"."""
        position = self.position
        value = 1.0 + (0.0 if position.view.conquered else CARD)
        continent = position.map.territory(target).continent
        holder = position.owner[target]
        if continent is not None and continent in self.members:
            names = self.members[continent]
            if continent == self.aim:
                value += 1.5
            if all(position.owner[n] == position.me for n in names if n != target):
                value += self.bonus.get(continent, 0)
            if all(position.owner[n] == holder for n in names):
                value += self.bonus.get(continent, 0) / 2
        held = sum(1 for n in position.map.names if position.owner[n] == holder)
        if held <= 2:
            value += 4 + 2 * position.view.players[holder].cards / max(held, 1)
        if position.view.players[holder].capital == target:
            value += 4
        return value

    def bar(self, worth: float) -> float:
        base = CARD_BAR if not self.position.view.conquered else ATTACK_BAR
        return max(FLOOR, base - VALUE_EASING * (worth - 1))

    def staging(self, extra: int, among: list[str] | None = None) -> str:
        """The country (of `among`, by default the whole front) from which `extra` more armies would make the most
        worthwhile attack."""
        position = self.position
        best, best_score = None, -1.0
        for source in among if among is not None else position.frontier:
            armies = self.spare(source) + 1 + extra
            for target in position.enemies(source):
                score = self.worth(target) * win_chance(armies, position.armies[target])
                if position.map.territory(source).continent == self.aim:
                    score *= 1.2
                if score > best_score:
                    best, best_score = source, score
        return best or position.strongest(among or position.mine)


class StrategistStrategy(ClassicStrategy):
    name: ClassVar[str] = "strategist"
    description: ClassVar[str] = (
        "aims at one continent at a time, holds what it takes, attacks by exact odds, "
        "takes a card every turn, finishes weak players"
    )

    def place(self, position: Position, rng: random.Random) -> ClassicOrder:
        return PlaceArmy(Plan(position).staging(1))

    def capital(self, position: Position, rng: random.Random) -> ClassicOrder:
        """The country least exposed, then the strongest."""
        return ChooseCapital(
            min(position.mine, key=lambda n: (position.threat(n) - position.armies[n], -position.armies[n]))
        )

    def reinforce(self, position: Position, rng: random.Random) -> list[ClassicOrder]:
        """Guards short of their need first (at most half the armies), the rest massed on the best staging."""
        plan = Plan(position)
        total = position.view.reinforcements
        orders: list[ClassicOrder] = []
        left = total // 2
        short = sorted(
            ((plan.guard(n) - position.armies[n], n) for n in position.frontier if n in plan.held), reverse=True
        )
        for missing, country in short:
            if missing <= 0 or left <= 0:
                break
            n = min(missing, left)
            orders.append(Reinforce(country, n))
            left -= n
        rest = total - sum(o.armies for o in orders if isinstance(o, Reinforce))
        if rest > 0:
            orders.append(Reinforce(plan.staging(rest), rest))
        return orders

    def attack(self, position: Position, rng: random.Random) -> ClassicOrder:
        """The battle worth most for what it costs, from armies above the guard; none when nothing is worth its
        cost or its odds are too poor."""
        plan = Plan(position)
        best, best_score = None, 0.0
        for source, target in position.attacks():
            attacking = plan.spare(source) + 1
            if attacking < 2:
                continue
            worth = plan.worth(target)
            chance, lost, killed = battle_at(attacking, position.armies[target])
            if chance < plan.bar(worth):
                continue
            score = chance * worth + KILL * killed - LOSS * lost
            if score > best_score:
                best, best_score = (source, target), score
        if best is None:
            return NoAttack()
        source, target = best
        return Attack(source, target, most_attack_dice(position.armies[source]))

    def move_in(self, position: Position, rng: random.Random) -> ClassicOrder:
        """The stack rolls forward, leaving the guard the country behind needs (none when it faces no enemy), and
        only the least when the new country faces no enemy."""
        conquest = position.view.conquest
        assert conquest is not None
        if not position.enemies(conquest.target) and position.enemies(conquest.source):
            return AttackMove(conquest.least)
        plan = Plan(position)
        keep = plan.guard(conquest.source) if position.enemies(conquest.source) else 1
        moved = position.armies[conquest.source] - keep
        return AttackMove(max(conquest.least, min(conquest.most, moved)))

    def fortify(self, position: Position, rng: random.Random) -> ClassicOrder:
        """The biggest spare stack away from the front walks to where it attacks best; failing that, a spare stack
        on the front walks to a guard that is short."""
        plan = Plan(position)
        adjacent = position.view.fortify == "adjacent"

        def reach(source: str) -> set[str]:
            if adjacent:
                return {n for n in position.map.neighbours(source) if position.owner[n] == position.me}
            return position.reach(source) - {source}

        idle = [n for n in position.mine if position.armies[n] > 1 and not position.enemies(n)]
        for source in sorted(idle, key=lambda n: -position.armies[n]):
            reachable = reach(source)
            fronts = [n for n in position.frontier if n in reachable]
            if fronts:
                return Fortify(
                    source, plan.staging(position.armies[source] - 1, among=fronts), position.armies[source] - 1
                )
            if adjacent and reachable:
                target = min(
                    reachable, key=lambda n: (self.distance_to_front(position, n), position.map.names.index(n))
                )
                return Fortify(source, target, position.armies[source] - 1)
        short = [n for n in position.frontier if n in plan.held and plan.spare(n) < 0]
        for target in sorted(short, key=plan.spare):
            givers = [
                n
                for n in position.frontier
                if n != target and plan.spare(n) > 0 and target in reach(n) and n not in plan.held
            ]
            if givers:
                source = max(givers, key=plan.spare)
                return Fortify(source, target, min(plan.spare(source), -plan.spare(target)))
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
