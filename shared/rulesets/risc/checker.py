"""R12-R15: one player's orders checked in the order issued, each against what the earlier ones left (R15).

What a player's issued orders use up (units sent from each territory, units moved into others, the placement pool)
is a `Tally`, kept by the framework beside the orders, so checking one more order costs the same however many came
before it. A tally is never changed: accounting for an order makes a new one.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field

from shared.game.errors import Refused, RuleError, too_few_to_send
from shared.game.game import Game
from shared.game.presentation import plural
from shared.maps.model import GameMap
from shared.rulesets.risc.board import Phase, RiscBoard
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, PlaceOrder


class Code:
    """RISC's own refusal codes (beside the framework's, shared.game.errors.Refused)."""

    NOT_YOUR_TERRITORY = "not-your-territory"
    NOT_ENOUGH_UNITS = "not-enough-units"
    NON_POSITIVE_UNITS = "non-positive-units"
    SAME_TERRITORY = "same-territory"
    TARGET_NOT_YOURS = "target-not-yours"
    NO_PATH = "no-path"
    NOT_ADJACENT = "not-adjacent"
    ATTACK_ON_OWN = "attack-on-own-territory"
    POOL_EXCEEDED = "pool-exceeded"
    UNITS_NOT_PLACED = "units-not-placed"


class OwnPaths:
    """Which own territories a player's units can walk to (R13), each source searched at most once per board.

    Where every border goes both ways, what one territory reaches, every territory it reaches reaches too: one
    search then serves the whole group of connected territories."""

    def __init__(self, game_map: GameMap, owner: Mapping[str, str | None], player: str) -> None:
        self._map = game_map
        self._owner = owner
        self._player = player
        self._reach: dict[str, frozenset[str]] = {}

    def reach(self, source: str) -> frozenset[str]:
        found = self._reach.get(source)
        if found is None:
            owner, game_map = self._owner, self._map
            seen = {source}
            queue = deque([source])
            while queue:
                for nxt in game_map.neighbours(queue.popleft()):
                    if nxt not in seen and owner.get(nxt) == self._player:
                        seen.add(nxt)
                        queue.append(nxt)
            found = frozenset(seen)
            if game_map.two_way and owner.get(source) == self._player:
                self._reach.update(dict.fromkeys(found, found))
            else:
                self._reach[source] = found
        return found

    def connected(self, source: str, target: str) -> bool:
        return target in self.reach(source)


@dataclass(frozen=True)
class Tally:
    pool_left: int
    left: Mapping[str, int] = field(default_factory=dict)
    """Units left in each territory an order touched (others have what the board says)."""
    paths: OwnPaths | None = field(default=None, compare=False, repr=False)


def start_tally(game: Game[RiscBoard, object], player: str) -> Tally:
    board = game.board
    return Tally(board.pools.get(player, 0), {}, OwnPaths(game.game_map, board.owner, player))


def units_left(board: RiscBoard, tally: Tally, territory: str) -> int:
    return tally.left.get(territory, board.units[territory])


def account(board: RiscBoard, tally: Tally, order: PlaceOrder | MoveOrder | AttackOrder) -> Tally:
    """The tally once `order` is issued too (it was checked already)."""
    if isinstance(order, PlaceOrder):
        return Tally(tally.pool_left - order.units, tally.left, tally.paths)
    before, units = tally.left, board.units
    left = dict(before)
    left[order.source] = before.get(order.source, units[order.source]) - order.units
    if isinstance(order, MoveOrder):
        left[order.target] = before.get(order.target, units[order.target]) + order.units
    return Tally(tally.pool_left, left, tally.paths)


def route_problem(
    game_map: GameMap, owner: Mapping[str, str | None], player: str, source: str, target: str, moving: bool
) -> RuleError | None:
    """What is wrong with a move's or an attack's two ends, in every evolution (R13, R14): both on the map, the source
    the player's own and not the target; a move's target the player's own, an attack's someone else's and adjacent.
    Whether a move's path exists is the caller's to judge (evolution 2 prices it)."""
    for name in (source, target):
        if name not in game_map:
            return RuleError(Refused.UNKNOWN_TERRITORY, f'there is no territory called "{name}"')
    if owner[source] != player:
        return RuleError(Code.NOT_YOUR_TERRITORY, f"{source} is not yours: orders start from your own territories")
    if source == target:
        return RuleError(Code.SAME_TERRITORY, f"{source} is both the source and the destination")
    if moving:
        if owner[target] != player:
            return RuleError(
                Code.TARGET_NOT_YOURS,
                f"{target} is not yours: a move goes between your own territories (attack it instead)",
            )
        return None
    if owner[target] == player:
        return RuleError(Code.ATTACK_ON_OWN, f"{target} is already yours: move units there instead")
    if target not in game_map.neighbours(source):
        return RuleError(
            Code.NOT_ADJACENT, f"{target} is not adjacent to {source}: attacks go only to a neighbouring territory"
        )
    return None


def no_path(source: str, target: str) -> RuleError:
    return RuleError(Code.NO_PATH, f"no path of your own territories leads from {source} to {target}")


def check(
    game: Game[RiscBoard, object], player: str, tally: Tally, order: PlaceOrder | MoveOrder | AttackOrder
) -> RuleError | None:
    board, game_map = game.board, game.game_map
    if type(order.units) is not int or order.units < 1:  # not a bool, which is an int too
        return RuleError(Code.NON_POSITIVE_UNITS, f"an order must name at least 1 unit, this one names {order.units}")
    if isinstance(order, PlaceOrder):
        if board.phase is not Phase.PLACEMENT:
            return RuleError(Refused.WRONG_PHASE, "units are placed only before the first turn")
        if order.territory not in game_map:
            return RuleError(Refused.UNKNOWN_TERRITORY, f'there is no territory called "{order.territory}"')
        if board.owner[order.territory] != player:
            return RuleError(
                Code.NOT_YOUR_TERRITORY, f"{order.territory} is not yours: units go only on your own territories"
            )
        if order.units > tally.pool_left:
            return RuleError(
                Code.POOL_EXCEEDED,
                f"you have {plural(tally.pool_left, 'unit')} left to place, the order asks for {order.units}",
            )
        return None
    if board.phase is not Phase.ORDERS:
        return RuleError(Refused.WRONG_PHASE, "moves and attacks start after placement")
    problem = route_problem(game_map, board.owner, player, order.source, order.target, isinstance(order, MoveOrder))
    if problem is not None:
        return problem
    if isinstance(order, MoveOrder):
        paths = tally.paths or OwnPaths(game_map, board.owner, player)
        if not paths.connected(order.source, order.target):
            return no_path(order.source, order.target)
    return too_few_to_send(Code.NOT_ENOUGH_UNITS, order.source, units_left(board, tally, order.source), order.units)
