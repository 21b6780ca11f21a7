"""`strategist`: the project's own grid player.

The grid game has no cards and no continents, few new troops (min(t / 2, 3)) and the attacker loses ties, so armies
are dear and every attack is weighed: by its exact odds carried on to the end (bots/position.py), what the
territory is worth (1, more when it is an enemy's last ones, and the new troops it brings while under 6 territories),
the enemy troops it destroys, less the troops it costs. It masses its troops where they attack best, keeps a guard
against what faces the territory it leaves behind, and walks idle troops to the front.
"""

from __future__ import annotations

import math
import random
from typing import ClassVar

from shared.rulesets.grid.bots.base import GridStrategy
from shared.rulesets.grid.bots.position import Position, battle_at
from shared.rulesets.grid.dice import most_attacking
from shared.rulesets.grid.orders import Attack, Deploy, End, GridOrder, Move, MoveIn

BAR = 0.55
"""An attack goes ahead only when it wins at least this often..."""
VALUE_EASING = 0.05
FLOOR = 0.35
KILL = 0.3
"""Each enemy troop destroyed is worth this much (of a territory)."""
LOSS = 0.35
"""Each own troop lost costs this much."""
GUARD = 0.5
"""A territory left behind keeps this share of the enemy troops next to it."""
FULL_INCOME = 6
"""From 6 territories on, new troops stay at 3: more territories bring no more."""
FINISH = 1.0
"""A cell of the rival holding the fewest cells is worth this much more. New troops are capped at 3 a turn however
much a player holds, so a lead in cells buys nothing: two players trading thin cells turn after turn play on for ever.
Pressing the weakest rival towards elimination is what ends a game (docs/rules-grid.md)."""


class StrategistStrategy(GridStrategy):
    name: ClassVar[str] = "strategist"
    description: ClassVar[str] = "weighs each attack by its exact odds, masses its troops, keeps a guard behind"

    def worth(self, position: Position, target: str) -> float:
        value = 1.0
        holder = position.owner[target]
        held = position.cells_of(holder)
        if held <= 2:
            value += 3.0 / held
        if len(position.mine) < FULL_INCOME:
            value += 0.5
        if held in (2, 3):  # taking this lowers their new troops
            value += 0.3
        rivals = [p for p, state in position.view.players.items() if p != position.me and not state.eliminated]
        if holder in rivals and held == min(position.cells_of(p) for p in rivals):
            value += FINISH
        return value

    def guard(self, position: Position, cell: str) -> int:
        return max(1, math.ceil(GUARD * position.threat(cell)))

    def staging(self, position: Position, extra: int, among: list[str]) -> str:
        best, best_score = None, -1.0
        for source in among:
            troops = position.troops[source] + extra
            for target in position.enemies(source):
                chance, lost, killed = battle_at(troops, position.troops[target])
                score = chance * self.worth(position, target) + KILL * killed - LOSS * lost
                if score > best_score:
                    best, best_score = source, score
        return best or position.strongest(among)

    def deploy(self, position: Position, rng: random.Random) -> GridOrder:
        extra = position.view.new_troops or 1
        return Deploy(self.staging(position, extra, position.frontier or position.mine))

    def attack(self, position: Position, rng: random.Random) -> GridOrder:
        best, best_score = None, 0.0
        for source in position.frontier:
            attacking = position.troops[source]
            if attacking < 2:
                continue
            for target in position.enemies(source):
                worth = self.worth(position, target)
                chance, lost, killed = battle_at(attacking, position.troops[target])
                if chance < max(FLOOR, BAR - VALUE_EASING * (worth - 1)):
                    continue
                score = chance * worth + KILL * killed - LOSS * lost
                if score > best_score:
                    best, best_score = (source, target), score
        if best is not None:
            source, target = best
            return Attack(source, target, most_attacking(position.troops[source]))
        return self.final_move(position)

    def final_move(self, position: Position) -> GridOrder:
        """The biggest idle stack walks to the front where it attacks best."""
        idle = [n for n in position.mine if position.troops[n] > 1 and not position.enemies(n)]
        for stack in sorted(idle, key=lambda n: -position.troops[n]):
            fronts = [n for n in position.frontier if n in position.reach(stack)]
            if fronts:
                moved = position.troops[stack] - 1
                return Move(stack, self.staging(position, moved, fronts), moved)
        return End()

    def move_in(self, position: Position, rng: random.Random) -> GridOrder:
        conquest = position.view.conquest
        assert conquest is not None
        if not position.enemies(conquest.target) and position.enemies(conquest.source):
            return MoveIn(conquest.least)
        keep = self.guard(position, conquest.source) if position.enemies(conquest.source) else 1
        moved = position.troops[conquest.source] - keep
        return MoveIn(max(conquest.least, min(conquest.most, moved)))
