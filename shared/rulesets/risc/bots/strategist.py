"""`strategist`: weighs every attack by its exact odds and what it buys, guards its borders in proportion to what
faces them, learns which opponents leave their territories empty, and finishes weak players.

Three facts of RISC shape it. Combat is a race of single d20 rounds, so losses are linear: taking d defenders costs
about d * q/p attackers (q/p = 210/190) whatever the size of the stack; a big stack buys certainty, not cheaper
wins. Every move executes before every attack (R17), so all the units of a group of connected own territories can
gather anywhere in it within one turn: the strategist plans each group as one pool. And units that move out do not
defend: a player who gathers their units to strike leaves the territories behind empty, where one unit takes them.
A one-unit probe that meets a stack still there is lost, but kills p/q (about 0.9) defenders on average first,
so it costs next to nothing; when the stack has left, it takes the territory. The strategist therefore probes the
stacks of players it has seen leave territories empty.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import ClassVar

from shared.game.ruleset import AnyRuleSet
from shared.maps.model import GameMap
from shared.rulesets.risc.board import Owner
from shared.rulesets.risc.bots.base import RiscStrategy, TurnOrder, spread
from shared.rulesets.risc.bots.board import Board
from shared.rulesets.risc.bots.odds import attackers_needed, win_probability
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, PlaceOrder
from shared.rulesets.risc.view import RiscView

CONFIDENCE = 0.8
"""An attack is sized to win at least this often."""

SURE = 0.99
"""Spare units are added to attacks until they win this often."""

GARRISON = 0.8
"""A border is held with this share of the largest enemy stack next to it (defenders win ties)."""

RESERVE_CAP = 0.5
"""Garrisons take at most this share of a group's units before attacks are planned."""

ELIMINATION_BONUS = 3.0
"""Taking a player's last territory removes them for good: worth this many ordinary captures."""

LEADER_BONUS = 0.25
"""Territories of the opponent holding the most are worth a little more."""

PROBE_MIN = 2
"""Stacks of at least this many units are worth probing..."""

PROBE_RATE = 0.4
"""...when their owner has been seen to empty at least this share of the territories they kept."""

QUIET_TURNS = 3
"""A game where nothing has changed hands for this many turns is stuck: every stack faces one as large, every
territory gains its unit a turn (R19), so the ratios never change and no attack ever pays at CONFIDENCE. The player
who holds the most territories (whose units grow fastest) then presses: ..."""

PRESSED_GARRISON, PRESSED_RESERVE = 0.5, 0.25
"""...its borders keep this share of the stacks facing them, at most this share of a group, and the rest strikes."""


@dataclass
class _Attack:
    staging: str
    target: str
    units: int


class StrategistStrategy(RiscStrategy):
    name: ClassVar[str] = "strategist"
    description: ClassVar[str] = (
        "sizes attacks by their exact odds, guards its borders, probes stacks that move out, finishes weak players"
    )

    def __init__(self, ruleset: AnyRuleSet) -> None:
        super().__init__(ruleset)
        self._last: dict[str, tuple[Owner, int]] = {}
        self._watched: dict[str, int] = {}
        self._emptied: dict[str, int] = {}
        self._quiet = 0
        """Turns in a row in which no territory it sees changed hands."""

    def propose_placement(self, view: RiscView, game_map: GameMap, me: str, rng: random.Random) -> list[PlaceOrder]:
        # Units can walk anywhere in a group before the first attack lands, so placement only decides where the
        # units start: spread over the borders, most where the most enemy territories touch.
        board = Board(view, game_map, me)
        fronts = board.frontier() or board.mine
        weights = [1.0 + 2 * len(board.attackers_of(n)) + len(board.targets(n)) for n in fronts]
        return spread(view.pool_left, fronts, weights)

    def propose_orders(self, view: RiscView, game_map: GameMap, me: str, rng: random.Random) -> list[TurnOrder]:
        board = Board(view, game_map, me)
        self._observe(board)
        moves: list[MoveOrder] = []
        attacks: list[AttackOrder] = []
        for group in board.groups():
            group_moves, group_attacks = self._plan_group(board, group)
            moves.extend(group_moves)
            attacks.extend(group_attacks)
        return [*moves, *attacks]

    def _observe(self, board: Board) -> None:
        """A territory an opponent kept, that had units last turn and shows only the one new unit now (R19), was
        left empty: its owner moved everything out (or lost every defender while holding it, rare enough)."""
        changed = any(board.owner.get(name) != holder for name, (holder, _) in self._last.items())
        self._quiet = 0 if changed or not self._last else self._quiet + 1
        for name, (holder, units) in self._last.items():
            if holder is None or holder == board.me or units < 2 or board.owner.get(name) != holder:
                continue
            self._watched[holder] = self._watched.get(holder, 0) + 1
            if board.units[name] == 1:
                self._emptied[holder] = self._emptied.get(holder, 0) + 1
        self._last = {n: (board.owner[n], board.units[n]) for n in board.names}

    def empty_rate(self, player: str) -> float:
        """How often `player` leaves a territory empty, starting from a guess of 1 in 3 before any evidence."""
        return (self._emptied.get(player, 0) + 1) / (self._watched.get(player, 0) + 3)

    def pressing(self, board: Board) -> bool:
        """Is the game stuck (QUIET_TURNS), with this player holding the most territories, tied or alone?"""
        held = board.territory_count.get(board.me, 0)
        return self._quiet >= QUIET_TURNS and all(held >= board.territory_count.get(p, 0) for p in board.opponents)

    def _value(self, board: Board, target: str) -> float:
        holder = board.owner[target]
        value = 1.0
        if holder is None:
            return value
        if board.territory_count.get(holder, 0) == 1:
            value += ELIMINATION_BONUS
        leader = max(board.opponents, key=lambda p: (board.territory_count.get(p, 0), p), default=None)
        if holder == leader:
            value += LEADER_BONUS
        return value

    def _plan_group(self, board: Board, group: tuple[str, ...]) -> tuple[list[MoveOrder], list[AttackOrder]]:
        supply = {n: board.units[n] for n in group}
        budget = sum(supply.values())

        # Garrisons first, the most threatened border first, up to RESERVE_CAP of the group (less when pressing).
        threat = {n: max((board.units[e] for e in board.attackers_of(n)), default=0) for n in group}
        garrison = dict.fromkeys(group, 0)
        share, cap = (PRESSED_GARRISON, PRESSED_RESERVE) if self.pressing(board) else (GARRISON, RESERVE_CAP)
        reserve = int(budget * cap)
        for n in sorted(group, key=lambda n: (-threat[n], board.rank[n])):
            garrison[n] = min(reserve, math.ceil(share * threat[n]))
            reserve -= garrison[n]
        free = budget - sum(garrison.values())

        # Captures, most value per unit first, each sized to win at CONFIDENCE.
        stagings: dict[str, list[str]] = {}
        for s in group:
            for t in board.targets(s):
                stagings.setdefault(t, []).append(s)

        def staging_for(target: str) -> str:
            return max(stagings[target], key=lambda s: (supply[s] - garrison[s], -board.rank[s]))

        plans: list[_Attack] = []
        open_targets = sorted(stagings, key=board.rank.__getitem__)
        while open_targets and free > 0:
            best: tuple[float, int, str] | None = None
            for t in open_targets:
                need = attackers_needed(board.units[t], CONFIDENCE)
                if need <= free:
                    score = self._value(board, t) / need
                    if best is None or score > best[0]:
                        best = (score, need, t)
            if best is None:
                break
            _, need, target = best
            plans.append(_Attack(staging_for(target), target, need))
            open_targets.remove(target)
            free -= need

        # Probes: one unit at each stack of an opponent who often leaves territories empty.
        for t in open_targets:
            holder = board.owner[t]
            if free <= 0:
                break
            if holder is not None and board.units[t] >= PROBE_MIN and self.empty_rate(holder) >= PROBE_RATE:
                plans.append(_Attack(staging_for(t), t, 1))
                free -= 1

        # Spare units: onto the attacks least sure of winning, then onto the borders, in proportion to how far
        # each falls short of the enemy stack facing it.
        while free > 0 and plans:
            weakest = min(plans, key=lambda a: (win_probability(a.units, board.units[a.target]), board.rank[a.target]))
            if win_probability(weakest.units, board.units[weakest.target]) >= SURE:
                break
            weakest.units += 1
            free -= 1
        if free > 0:
            fronts = (
                [n for n in group if board.attackers_of(n)] or [n for n in group if board.targets(n)] or list(group)
            )
            weights = [max(threat[n] - garrison[n], 0) + 0.5 for n in fronts]
            for extra in spread(free, fronts, weights):
                garrison[extra.territory] += extra.units

        demand = dict(garrison)
        for plan in plans:
            demand[plan.staging] += plan.units
        moves = _transport(board, supply, demand)
        attacks = [AttackOrder(p.units, p.staging, p.target) for p in plans]
        return moves, attacks


def _transport(board: Board, supply: dict[str, int], demand: dict[str, int]) -> list[MoveOrder]:
    """Moves that turn `supply` into `demand` within one group (equal totals): each shortfall, in map order, filled
    from the nearest surpluses."""
    surplus = {n: supply[n] - demand.get(n, 0) for n in supply}
    moves: list[MoveOrder] = []
    for sink in sorted(supply, key=board.rank.__getitem__):
        short = -surplus[sink]
        for source in board.reach(sink):
            if short <= 0:
                break
            if surplus.get(source, 0) > 0 and board.can_move(source, sink):
                take = min(surplus[source], short)
                surplus[source] -= take
                surplus[sink] += take
                short -= take
                moves.append(MoveOrder(take, source, sink))
    return moves
