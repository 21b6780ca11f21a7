"""Is one grid action legal now? G5 asks that an illegal move be refused with the reason; every refusal here says
what is wrong and what would do."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any

from shared.game.errors import Refused, RuleError, count_problem
from shared.game.game import Game
from shared.maps.model import GameMap
from shared.rulesets.grid.board import GridBoard, Phase
from shared.rulesets.grid.dice import most_attacking
from shared.rulesets.grid.orders import Attack, Deploy, End, GridOrder, Move, MoveIn


class Code:
    NOT_YOURS = "not-your-territory"
    YOURS_ALREADY = "own-territory"
    NOT_ADJACENT = "not-adjacent"
    NO_PATH = "no-path"
    SAME_CELL = "same-territory"
    BAD_NUMBER = Refused.BAD_NUMBER
    TOO_FEW = Refused.TOO_FEW
    TOO_MANY = Refused.TOO_MANY
    NOT_ENOUGH_TROOPS = "not-enough-troops"


PHASE_WORDS = {
    Phase.DEPLOYMENT: "the deployment stage (deploy CELL)",
    Phase.NEW_TROOPS: "deploying your new troops (deploy CELL)",
    Phase.ATTACK: "attacking (attack FROM TO M), then move FROM TO P or end",
    Phase.MOVE_IN: "moving troops into the territory you took (movein P)",
    Phase.FINISHED: "the end of the game",
}


def reach(game_map: GameMap, owner: Mapping[str, str], source: str) -> set[str]:
    """G5: the territories joined to `source` by a path of territories of the same owner (a depth-first search in
    the seed; breadth-first here, the same set)."""
    seen = {source}
    queue = deque([source])
    while queue:
        for nxt in game_map.neighbours(queue.popleft()):
            if nxt not in seen and owner[nxt] == owner[source]:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def _own(game: Game[GridBoard, Any], player: str, cell: str, what: str) -> RuleError | None:
    if cell not in game.game_map:
        return RuleError(Refused.UNKNOWN_TERRITORY, f'there is no territory "{cell}": cells go from 0,0 to 4,4')
    if game.board.owner[cell] != player:
        return RuleError(Code.NOT_YOURS, f"{cell} is not yours: {what}")
    return None


def check(game: Game[GridBoard, Any], player: str, order: GridOrder) -> RuleError | None:
    board, phase = game.board, game.board.phase
    allowed = {
        Deploy: (Phase.DEPLOYMENT, Phase.NEW_TROOPS),
        Attack: (Phase.ATTACK,),
        MoveIn: (Phase.MOVE_IN,),
        Move: (Phase.ATTACK,),
        End: (Phase.ATTACK,),
    }[type(order)]
    if phase not in allowed:
        if phase is Phase.MOVE_IN and board.conquest is not None:
            c = board.conquest
            return RuleError(
                Refused.WRONG_PHASE, f"first move troops into {c.target}: movein P ({c.least} to {c.most})"
            )
        return RuleError(Refused.WRONG_PHASE, f"that is not for now: now it is {PHASE_WORDS[phase]}")
    if isinstance(order, Deploy):
        return _own(game, player, order.cell, "troops are deployed on your own territories")
    if isinstance(order, MoveIn):
        conquest = board.conquest
        assert conquest is not None
        return count_problem(order.troops, conquest.least, conquest.most, f"the troops moving into {conquest.target}")
    if isinstance(order, Attack):
        problem = _own(game, player, order.source, "attacks start from your own territories")
        if problem is not None:
            return problem
        if order.target not in game.game_map:
            return RuleError(Refused.UNKNOWN_TERRITORY, f'there is no territory "{order.target}"')
        if board.owner[order.target] == player:
            return RuleError(Code.YOURS_ALREADY, f"{order.target} is yours already")
        if order.target not in game.game_map.neighbours(order.source):
            return RuleError(Code.NOT_ADJACENT, f"{order.target} does not share a side with {order.source}")
        troops = board.troops[order.source]
        if troops < 2:
            return RuleError(Code.NOT_ENOUGH_TROOPS, f"{order.source} has 1 troop: an attack needs 2 or more")
        return count_problem(
            order.troops,
            1,
            most_attacking(troops),
            f"the attacking troops (fewer than the {troops} in {order.source}, 3 at most)",
        )
    if isinstance(order, Move):
        problem = _own(game, player, order.source, "troops move from your own territories") or _own(
            game, player, order.target, "troops move to your own territories"
        )
        if problem is not None:
            return problem
        if order.source == order.target:
            return RuleError(Code.SAME_CELL, "a move goes between two different territories")
        if order.target not in reach(game.game_map, board.owner, order.source):
            return RuleError(Code.NO_PATH, f"no path of your own territories joins {order.source} to {order.target}")
        return count_problem(
            order.troops,
            1,
            board.troops[order.source] - 1,
            f"the troops leaving {order.source} (at least one stays behind)",
        )
    return None
