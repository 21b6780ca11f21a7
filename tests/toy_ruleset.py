"""A rule set made only for the tests: the worked example of the seam (docs/architecture.md).

"Race to twenty": players take turns adding 1, 2 or 3 to a running total; whoever brings it to twenty wins. It is
played one player at a time, on a board of one territory it makes itself, and knows nothing of the server or the
clients: registering it is all it takes to play it there.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import TypeAdapter

from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.grammar import ParseError, count
from shared.game.presentation import Context, Fragments, OrderCommand, Palette, Presentation, line
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


@dataclass(frozen=True)
class PileView:
    total: int
    to_play: str | None = None
    winner: str | None = None


class RaceOptions(Options):
    pass


class Perfect(Strategy):
    name = "perfect"
    description = "leaves the total a multiple of four short of twenty, when it can"

    def decide(self, view: Any, game_map: GameMap, me: str, rng: random.Random) -> list[Any]:
        return [Add((GOAL - view.total) % 4 or rng.randint(1, 3))]


class RacePresentation(Presentation):
    commands = (OrderCommand("add", (), "add N", "add 3", "add 1, 2 or 3 to the total"),)

    def parse(self, command: OrderCommand, args: list[str], context: Context) -> list[Any] | ParseError:
        amount = count(args[0], "the amount", "usage: add N") if len(args) == 1 else ParseError("usage: add N")
        return amount if isinstance(amount, ParseError) else [Add(amount)]

    def describe(self, order: Any) -> str:
        return f"add {order.amount}"

    def events(self, events: Sequence[Any], palette: Palette, you: str | None) -> Fragments:
        return [f for e in events for f in line(*palette.name(e.player), ("", f" adds {e.amount}: {e.total}."))]

    def board(self, view: Any, game_map: GameMap, palette: Palette, you: str | None, orders: Sequence[Any] = (),
              focus: str | None = None) -> Fragments:
        return line(("", f"The total is {view.total}."))

    def summary(self, view: Any, game_map: GameMap, palette: Palette, you: str | None) -> Fragments:
        return self.board(view, game_map, palette, you)


class RaceToTwenty(RuleSet[RaceOptions, Pile, Add, Added, PileView, None]):
    name = "race"
    title = "Race to twenty"
    blurb = "add 1 to 3 in turn; whoever reaches twenty wins"
    simultaneous = False
    own_map = True
    options_type = RaceOptions
    default_strategy = "perfect"
    presentation_type = RacePresentation
    strategies: Mapping[str, type[Strategy]] = {"perfect": Perfect}

    def __init__(self) -> None:
        self.order_type, self.event_type = TypeAdapter(Add), TypeAdapter(Added)
        self.view_type, self.board_type = TypeAdapter(PileView), TypeAdapter(Pile)

    def player_counts(self, options: RaceOptions) -> tuple[int, int]:
        return 2, 4

    def make_map(self, options: RaceOptions) -> GameMap:
        return build_map("The pile", [Territory("Pile")], {})

    def setup(self, game_map: GameMap, players: Sequence[str], options: RaceOptions, rng: GameRandom,
              choices: Mapping[str, int]) -> Pile:
        return Pile()

    def status(self, game: Game[Pile, Add]) -> Status:
        pile = game.board
        done = pile.winner is not None
        acting = frozenset() if done else frozenset({game.players[pile.next_player]})
        return Status("adding", pile.total, acting, finished=done, winner=pile.winner)

    def start_tally(self, game: Game[Pile, Add], player: str) -> None:
        return None

    def check_order(self, game: Game[Pile, Add], player: str, tally: None, order: Add) -> RuleError | None:
        if not 1 <= order.amount <= min(3, GOAL - game.board.total):
            return RuleError("bad-amount", f"add 1 to {min(3, GOAL - game.board.total)}, not {order.amount}")
        return None

    def account(self, game: Game[Pile, Add], player: str, tally: None, order: Add) -> None:
        return None

    def timeout_orders(self, game: Game[Pile, Add], player: str, tally: None) -> list[Add]:
        return [Add(1)]

    def resolve(self, game: Game[Pile, Add], orders: Mapping[str, Sequence[Add]],
                rng: GameRandom) -> tuple[Pile, list[Any]]:
        ((player, (order,)),) = orders.items()
        total = game.board.total + order.amount
        pile = Pile(total, (game.board.next_player + 1) % len(game.players), player if total == GOAL else None)
        return pile, [Added(player, order.amount, total)]

    def view(self, game: Game[Pile, Add], viewer: str | None) -> PileView:
        status = self.status(game)
        return PileView(game.board.total, next(iter(status.acting), None), game.board.winner)

    def legal_orders(self, game: Game[Pile, Add], player: str, tally: None) -> list[Legal[Add]]:
        return [Legal(Add(min(3, GOAL - game.board.total)), "amount")]

