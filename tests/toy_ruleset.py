"""A rule set made only for the tests: the worked example of the seam (docs/architecture.md).

"Race to twenty": players take turns adding 1, 2 or 3 to a running total; whoever brings it to twenty wins. It is
played one player at a time on a board of one territory it makes itself, shows its board as it is, and reads in the
text client as its orders and events say (the framework's defaults): registering it is all it takes to play it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import TypeAdapter

from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.random import GameRandom
from shared.game.ruleset import Legal, Options, RuleSet, Status
from shared.game.strategy import Strategy
from shared.maps.model import GameMap, Territory, build_map

GOAL = 20


@dataclass(frozen=True)
class Add:
    amount: int
    kind: Literal["add"] = "add"


@dataclass(frozen=True)
class Added:
    player: str
    amount: int
    total: int
    kind: Literal["added"] = "added"


@dataclass(frozen=True)
class Pile:
    total: int = 0
    next_player: int = 0
    winner: str | None = None


class Perfect(Strategy):
    name = "perfect"
    description = "leaves the total a multiple of four short of twenty, when it can"

    def decide(self, view: Pile, game_map: GameMap, me: str, rng: random.Random) -> list[Any]:
        return [Add((GOAL - view.total) % 4 or rng.randint(1, 3))]


class RaceToTwenty(RuleSet[Options, Pile, Add, Added, Pile, None]):
    name, title, blurb = "race", "Race to twenty", "add 1 to 3 in turn; whoever reaches twenty wins"
    simultaneous, own_map = False, True
    order_type, event_type, view_type = TypeAdapter(Add), TypeAdapter(Added), TypeAdapter(Pile)
    board_type = view_type
    default_strategy, strategies = "perfect", {"perfect": Perfect}

    def player_counts(self, options: Options) -> tuple[int, int]:
        return 2, 4

    def make_map(self, options: Options) -> GameMap:
        return build_map("The pile", [Territory("Pile")], {})

    def setup(
        self, game_map: GameMap, players: Sequence[str], options: Options, rng: GameRandom, choices: Mapping[str, int]
    ) -> Pile:
        return Pile()

    def status(self, game: Game[Pile, Add]) -> Status:
        pile, done = game.board, game.board.winner is not None
        acting = frozenset() if done else frozenset({game.players[pile.next_player]})
        return Status("adding", pile.total, acting, finished=done, winner=pile.winner)

    def check_order(self, game: Game[Pile, Add], player: str, tally: None, order: Add) -> RuleError | None:
        most = min(3, GOAL - game.board.total)
        return None if 1 <= order.amount <= most else RuleError("bad-amount", f"add 1 to {most}, not {order.amount}")

    def timeout_orders(self, game: Game[Pile, Add], player: str, tally: None) -> list[Add]:
        return [Add(1)]

    def resolve(
        self, game: Game[Pile, Add], orders: Mapping[str, Sequence[Add]], rng: GameRandom
    ) -> tuple[Pile, list[Any]]:
        ((player, (order,)),) = orders.items()
        total = game.board.total + order.amount
        pile = Pile(total, (game.board.next_player + 1) % len(game.players), player if total == GOAL else None)
        return pile, [Added(player, order.amount, total)]

    def resign(self, game: Game[Pile, Add], player: str, rng: GameRandom) -> tuple[Pile, list[Any]]:
        """The one who gives up loses: the other wins at once."""
        other = next(p for p in game.players if p != player)
        return Pile(game.board.total, game.board.next_player, winner=other), []

    def legal_orders(self, game: Game[Pile, Add], player: str, tally: None) -> list[Legal[Add]]:
        return [Legal(Add(min(3, GOAL - game.board.total)), "amount")]
