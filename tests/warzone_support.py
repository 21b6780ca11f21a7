"""Building Warzone games by hand, so that each rule test states its own board in a few lines."""

from __future__ import annotations

from collections.abc import Mapping, MutableSequence, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

from shared.game import turns
from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.random import GameRandom, dice_of
from shared.game.ruleset import Private
from shared.maps import Continent, GameMap, Territory, build_map
from shared.rulesets import get_ruleset
from shared.rulesets.warzone.board import Phase, WarzoneBoard
from shared.rulesets.warzone.cards import Card
from shared.rulesets.warzone.options import WarzoneOptions

WZ = get_ruleset("warzone")
MAPS = Path(__file__).resolve().parents[1].parent / "shared" / "maps"
EUROPE = MAPS / "domination" / "europe.map"
WORLD = MAPS / "domination" / "world.map"


def line_map(*names: str, continents: Mapping[str, tuple[int, Sequence[str]]] | None = None) -> GameMap:
    """A path A - B - C ...; `continents`: name -> (bonus, members)."""
    borders: dict[str, set[str]] = {n: set() for n in names}
    for a, b in pairwise(names):
        borders[a].add(b)
        borders[b].add(a)
    member_of = {t: c for c, (_, members) in (continents or {}).items() for t in members}
    territories = [Territory(n, member_of.get(n)) for n in names]
    return build_map(
        "line", territories, borders, [Continent(c, bonus) for c, (bonus, _) in (continents or {}).items()]
    )


def star_map(centre: str, *arms: str) -> GameMap:
    """One territory bordering every other, which border nothing else."""
    borders: dict[str, set[str]] = {centre: set(arms), **{a: {centre} for a in arms}}
    return build_map("star", [Territory(centre), *(Territory(a) for a in arms)], borders)


def make_game(
    game_map: GameMap,
    owner: Mapping[str, str | None],
    units: Mapping[str, int] | None = None,
    *,
    players: Sequence[str] | None = None,
    pools: Mapping[str, int] | None = None,
    hands: Mapping[str, Sequence[Card]] | None = None,
    deck: Sequence[Card] = (),
    turn: int = 1,
    eliminated: Sequence[str] = (),
    **options: Any,
) -> Game[WarzoneBoard, Any]:
    seats = tuple(players or dict.fromkeys(o for o in owner.values() if o is not None))
    board = WarzoneBoard(
        phase=Phase.ORDERS,
        turn=turn,
        owner=dict(owner),
        units={n: (units or {}).get(n, 0) for n in game_map.names},
        pools={p: (pools or {}).get(p, 0) for p in seats},
        hands={p: tuple((hands or {}).get(p, ())) for p in seats},
        deck=tuple(deck),
        eliminated=tuple(eliminated),
    )
    return Game("warzone", game_map, seats, WarzoneOptions(**options), board)


def issued(game: Game[WarzoneBoard, Any], player: str, *orders: Any) -> Game[WarzoneBoard, Any]:
    """Issue orders that must be legal; fails the test with the rules' reason otherwise."""
    for order in orders:
        result = turns.issue(WZ, game, player, order)
        assert not isinstance(result, RuleError), f"{order} was refused: {result}"
        game = result
    return game


def refused(game: Game[WarzoneBoard, Any], player: str, order: Any) -> RuleError:
    result = turns.issue(WZ, game, player, order)
    assert isinstance(result, RuleError), f"{order} was accepted"
    return result


def play_turn(
    game: Game[WarzoneBoard, Any], orders: Mapping[str, Sequence[Any]] | None = None, seed: int | str = 1
) -> tuple[Game[WarzoneBoard, Any], list[Any]]:
    """Issue and commit every awaited player's orders, then execute the turn; returns the game and its events
    (Private ones included, as the rule set returns them)."""
    game = commit_all(game, orders or {})
    game, resolved = turns.advance(WZ, game, dice_of(seed))
    return game, resolved.events


def commit_all(game: Game[WarzoneBoard, Any], orders: Mapping[str, Sequence[Any]]) -> Game[WarzoneBoard, Any]:
    """Every awaited player issues their orders, what they leave of the pool is deployed as when time runs out
    (the rules' own timeout_orders), and they commit."""
    for player in sorted(turns.awaiting(WZ, game)):
        game = issued(game, player, *orders.get(player, ()))
        game = issued(game, player, *WZ.timeout_orders(game, player, turns.tally(WZ, game, player)))
        committed = turns.commit(WZ, game, player)
        assert not isinstance(committed, RuleError), committed
        game = committed
    return game


def public(events: Sequence[Any]) -> list[Any]:
    """The events everyone is told (Private ones left out)."""
    return [e for e in events if not isinstance(e, Private)]


def of_type(events: Sequence[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


class Scripted(GameRandom):
    """Loaded dice: the turn's player order as given, and binomial draws from a script (defenders' losses first,
    then attackers', battle after battle). Whatever the script leaves out is drawn as usual."""

    def __init__(self, order: Sequence[str] | None = None, binomials: Sequence[int] = ()) -> None:
        super().__init__("scripted")
        self.order = order
        self.binomials = list(binomials)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        if self.order is not None and set(items) <= set(self.order):
            items[:] = [p for p in self.order if p in items]
        else:
            super().shuffle(items)

    def binomial(self, n: int, p: float) -> int:
        return self.binomials.pop(0) if self.binomials else super().binomial(n, p)


def play_scripted(
    game: Game[WarzoneBoard, Any],
    orders: Mapping[str, Sequence[Any]],
    order: Sequence[str],
    binomials: Sequence[int] = (),
) -> tuple[Game[WarzoneBoard, Any], list[Any]]:
    """Like play_turn, with the player order and the battles' draws given."""
    dice = Scripted(order, binomials)
    game = commit_all(game, orders)
    game, resolved = turns.advance(WZ, game, lambda step: dice)
    return game, resolved.events
