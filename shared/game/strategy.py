"""What every computer player is: a small object that reads what one player sees and answers with orders.

A strategy sees only its seat's view and the public map, exactly what a person at the same seat would have, so the
same class plays in-process (tournaments), as a seat the server plays, or over the network as a client. Its chance
comes in as an argument: whoever runs the game seeds it, and a game replays exactly.

It is asked each time the game waits for its seat: a simultaneous game's whole turn at once, a turn-by-turn game's
next action (it is asked again after each one resolves).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from shared.game import turns
from shared.game.game import Game
from shared.maps.model import GameMap

if TYPE_CHECKING:
    from shared.game.ruleset import AnyRuleSet


class Strategy(ABC):
    name: ClassVar[str]
    description: ClassVar[str]
    cheats: ClassVar[bool] = False
    """Breaks the rules by design (the COMP 345 cheater): only where a game's creator allows it."""

    def __init__(self, ruleset: AnyRuleSet) -> None:
        self.ruleset = ruleset
        """The rule set it plays: what checks its orders and lists the legal ones (the one the server runs)."""

    @abstractmethod
    def decide(self, view: Any, game_map: GameMap, me: str, rng: random.Random) -> list[Any]:
        """The orders to issue now, in order (for a simultaneous game, then commit)."""


def proportional_shares(units: int, weights: Sequence[float]) -> list[int]:
    """`units` split in proportion to `weights` by largest remainders: whole numbers that add up to `units` (an even
    split when no weight is positive), for a computer player spreading a pool over its territories."""
    if units <= 0 or not weights:
        return [0] * len(weights)
    total = sum(max(w, 0.0) for w in weights)
    if total <= 0:
        weights = [1.0] * len(weights)
        total = float(len(weights))
    shares = [units * max(w, 0.0) / total for w in weights]
    counts = [int(s) for s in shares]
    by_remainder = sorted(range(len(shares)), key=lambda i: (-(shares[i] - counts[i]), i))
    for i in by_remainder[: units - sum(counts)]:
        counts[i] += 1
    return counts


def legal_only(ruleset: AnyRuleSet, game: Game[Any, Any], me: str, orders: Iterable[Any]) -> list[Any]:
    """The orders of a simultaneous game's turn that the rules accept, in order, each judged after those kept before
    it: a computer player proposes, and the very checker the server runs disposes."""
    if turns.gate(ruleset, game, me) is not None:
        return []
    kept = []
    for order in orders:
        issued = turns.issue(ruleset, game, me, order)
        if isinstance(issued, Game):
            game = issued
            kept.append(order)
    return kept
