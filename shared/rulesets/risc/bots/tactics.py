"""Building blocks strategies share: gathering units into one territory with move orders."""

from __future__ import annotations

from collections.abc import Sequence

from shared.rulesets.risc.bots.board import Board
from shared.rulesets.risc.orders import MoveOrder


def gather(
    board: Board, left: dict[str, int], staging: str, amount: int, donors: Sequence[str] | None = None
) -> tuple[int, list[MoveOrder]]:
    """Bring up to `amount` units to `staging`: its own first, then from the nearest own territories that can walk
    there (R13). Units moved in are counted out of `left` (so they are not used twice, R15) and returned as the
    number now standing ready at `staging`, along with the moves that bring them."""
    ready = min(left.get(staging, 0), amount)
    left[staging] = left.get(staging, 0) - ready
    moves: list[MoveOrder] = []
    candidates = donors if donors is not None else board.mine
    by_distance = sorted(
        (n for n in candidates if n != staging and left.get(n, 0) > 0 and board.can_move(n, staging)),
        key=lambda n: (_distance(board, staging, n), board.rank[n]),
    )
    for donor in by_distance:
        if ready >= amount:
            break
        take = min(left[donor], amount - ready)
        left[donor] -= take
        ready += take
        moves.append(MoveOrder(take, donor, staging))
    return ready, moves


def _distance(board: Board, staging: str, donor: str) -> int:
    """Position of `donor` in breadth-first order from `staging`: close enough to "nearest first"."""
    reach = board.reach(staging)
    return reach.index(donor) if donor in reach else len(reach)
