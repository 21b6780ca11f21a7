"""`aggressive`: everything forward. Piles units on one front and throws them at the weakest neighbours it can beat.

Holds back only what it has to spare: once every attack it can win has what it needs, a surplus garrisons the
front, and the rest joins the last attack. Strong against passive players, punished by anyone who counter-attacks
the gaps.
"""

from __future__ import annotations

import random
from typing import ClassVar

from shared.maps.model import GameMap
from shared.rulesets.risc.bots.base import RiscStrategy, TurnOrder
from shared.rulesets.risc.bots.board import Board
from shared.rulesets.risc.bots.tactics import gather
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, PlaceOrder
from shared.rulesets.risc.view import RiscView


class AggressiveStrategy(RiscStrategy):
    name: ClassVar[str] = "aggressive"
    description: ClassVar[str] = "concentrates everything and attacks the weakest neighbours it outnumbers"

    def propose_placement(self, view: RiscView, game_map: GameMap, me: str, rng: random.Random) -> list[PlaceOrder]:
        board = Board(view, game_map, me)
        fronts = [n for n in board.mine if board.targets(n)]
        if not fronts or view.pool_left <= 0:
            return []
        most = max(len(board.targets(n)) for n in fronts)
        best = rng.choice([n for n in fronts if len(board.targets(n)) == most])
        return [PlaceOrder(best, view.pool_left)]

    def propose_orders(self, view: RiscView, game_map: GameMap, me: str, rng: random.Random) -> list[TurnOrder]:
        board = Board(view, game_map, me)
        left = {n: board.units[n] for n in board.mine}
        moves: list[MoveOrder] = []
        attacks: list[AttackOrder] = []
        for group in board.groups():
            force = sum(left[n] for n in group)
            # Every (staging, target) pair the group can strike, weakest target first.
            options = sorted(
                (board.units[t], board.rank[t], board.rank[s], s, t) for s in group for t in board.targets(s)
            )
            if not options:
                continue
            struck: set[str] = set()
            last: AttackOrder | None = None
            for defenders, _, _, staging, target in options:
                if target in struck or force <= defenders:
                    continue
                want = min(force, 2 * defenders + 2)
                ready, gathered = gather(board, left, staging, want, donors=group)
                if ready <= defenders:
                    continue
                moves.extend(gathered)
                last = AttackOrder(ready, staging, target)
                attacks.append(last)
                struck.add(target)
                force -= ready
            if last is not None and force > 0:
                # A surplus first holds the front against the largest force next to each territory, so that a
                # beaten foe cannot slip past into emptied land for ever; whatever is left joins the last attack.
                for front in (n for n in group if board.attackers_of(n)):
                    garrison = board.threat(front) + 1
                    if garrison < force:
                        held, gathered = gather(board, left, front, garrison, donors=group)
                        moves.extend(gathered)
                        force -= held
                ready, gathered = gather(board, left, last.source, force, donors=group)
                if ready:
                    moves.extend(gathered)
                    attacks.append(AttackOrder(ready, last.source, last.target))
            elif last is None:
                # Nothing beatable yet: pile everything on the front facing the weakest neighbour.
                _, _, _, staging, _ = options[0]
                _, gathered = gather(board, left, staging, force, donors=group)
                moves.extend(gathered)
        return [*moves, *attacks]
