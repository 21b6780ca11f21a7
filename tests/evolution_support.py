"""Games of RISC Evolutions 2 and 3 built by hand, so that each rule test states its own board in a few lines."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise
from typing import Any

from shared.game import turns
from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.random import SETUP_STEP, GameRandom, dice_of
from shared.game.ruleset import AnyRuleSet, Private
from shared.maps import GameMap, Territory, build_map, load_map
from shared.rulesets import get_ruleset
from shared.rulesets.risc import fog
from shared.rulesets.risc.board import Phase, RiscBoard
from shared.rulesets.risc.evo_board import EvoState
from shared.rulesets.risc.levels import LEVELS, Levels, level_zero
from shared.rulesets.risc.options import RiscOptions
from shared.rulesets.risc.resources import Land, Stock

RISC = get_ruleset("risc")


def rules(game: Game[RiscBoard, Any]) -> AnyRuleSet:
    """The rule set that plays `game`: the variant of RISC its evolution chooses."""
    return RISC.variant(game.options)


SEED_OWNERS = {
    "Narnia": "green",
    "Midkemia": "green",
    "Oz": "green",
    "Elantris": "blue",
    "Roshar": "blue",
    "Scadrial": "blue",
    "Gondor": "red",
    "Mordor": "red",
    "Hogwarts": "red",
}
SEED_UNITS = {
    "Narnia": 10,
    "Midkemia": 12,
    "Oz": 8,
    "Elantris": 6,
    "Roshar": 3,
    "Scadrial": 5,
    "Gondor": 13,
    "Mordor": 14,
    "Hogwarts": 3,
}


def seed_map() -> GameMap:
    return load_map("seed")


def line_map(*names: str, sizes: Sequence[int] | None = None) -> GameMap:
    """A path A - B - C ...: the simplest board where adjacency and paths matter."""
    borders: dict[str, set[str]] = {n: set() for n in names}
    for a, b in pairwise(names):
        borders[a].add(b)
        borders[b].add(a)
    sizes = sizes or [1] * len(names)
    return build_map("line", [Territory(n, size=s) for n, s in zip(names, sizes, strict=True)], borders)


def graph_map(borders: Mapping[str, Iterable[str]], sizes: Mapping[str, int] | None = None) -> GameMap:
    """Any map from two-way borders."""
    both: dict[str, set[str]] = {n: set() for n in borders}
    for a, targets in borders.items():
        for b in targets:
            both.setdefault(a, set()).add(b)
            both.setdefault(b, set()).add(a)
    sizes = sizes or {}
    return build_map("graph", [Territory(n, size=sizes.get(n, 1)) for n in both], both)


def levels(*pairs: tuple[int, int]) -> Levels:
    """levels((0, 3), (2, 1)): 3 units of level 0 and 1 of level 2."""
    counts = [0] * LEVELS
    for level, units in pairs:
        counts[level] += units
    return tuple(counts)


def make_game(
    game_map: GameMap,
    owner: Mapping[str, str | None],
    units: Mapping[str, int | Levels],
    evolution: int = 2,
    players: Sequence[str] | None = None,
    turn: int = 1,
    land: Mapping[str, Land] | None = None,
    stocks: Mapping[str, tuple[int, int]] | None = None,
    tech: Mapping[str, int] | None = None,
    spies: Mapping[str, Mapping[str, int]] | None = None,
    cloaking: Sequence[str] = (),
    cloaked: Mapping[str, int] | None = None,
) -> Game[RiscBoard, Any]:
    """A game in its orders phase. Units: a count (all level 0) or per-level counts. Land: each territory's size
    (from the map), no production, unless given. Stocks: 100 food and technology each unless given."""
    players = tuple(players or dict.fromkeys(o for o in owner.values() if o is not None))
    per_level = {name: level_zero(n) if isinstance(n, int) else tuple(n) for name, n in units.items()}
    per_level = {name: per_level.get(name, level_zero(0)) for name in game_map.names}
    land = dict(land or {})
    for t in game_map.territories:
        land.setdefault(t.name, Land(t.size, 0, 0))
    given = stocks or {}
    evo = EvoState(
        land=land,
        levels=per_level,
        stocks={p: Stock(*given.get(p, (100, 100))) for p in players},
        tech_level={p: (tech or {}).get(p, 1) for p in players},
        cloaking=tuple(cloaking),
        cloaked=dict(cloaked or {}),
        spies={p: dict(s) for p, s in (spies or {}).items()},
    )
    board = RiscBoard(
        phase=Phase.ORDERS, turn=turn, owner=dict(owner), units={n: sum(c) for n, c in per_level.items()}, evo=evo
    )
    if evolution >= 3:
        board = board.evolve(evo=evo.evolve(memory=fog.remember(game_map, board, players)))
    options = RiscOptions(evolution=evolution, max_players=8)
    return Game("risc", game_map, players, options, board)


def seed_game(evolution: int = 2, **kwargs: Any) -> Game[RiscBoard, Any]:
    """The seed's example board (its units all level 0), every territory of size 1 and producing nothing unless
    `land` says otherwise: each test states the figures it needs."""
    game_map = seed_map()
    kwargs["land"] = {n: Land(1, 0, 0) for n in game_map.names} | dict(kwargs.get("land") or {})
    return make_game(game_map, SEED_OWNERS, SEED_UNITS, evolution, players=("green", "blue", "red"), **kwargs)


def issued(game: Game[RiscBoard, Any], player: str, *orders: Any) -> Game[RiscBoard, Any]:
    """Issue orders that must be legal; fails the test with the rules' reason otherwise."""
    for order in orders:
        result = turns.issue(rules(game), game, player, order)
        assert not isinstance(result, RuleError), f"{order} was refused: {result}"
        game = result
    return game


def refusal(game: Game[RiscBoard, Any], player: str, *orders: Any) -> RuleError:
    """The refusal of the last order, the earlier ones being issued first (and legal)."""
    game = issued(game, player, *orders[:-1])
    result = turns.issue(rules(game), game, player, orders[-1])
    assert isinstance(result, RuleError), f"{orders[-1]} was accepted"
    return result


def play_turn(
    game: Game[RiscBoard, Any], orders: Mapping[str, Sequence[Any]], seed: int | str = 1, rng: GameRandom | None = None
) -> tuple[Game[RiscBoard, Any], list[Any]]:
    """Issue and commit every player's orders, then resolve the turn. Returns the events as told (Private kept)."""
    status = rules(game).status(game)
    for player in game.players:
        if player not in status.acting or player in game.committed:
            continue
        game = issued(game, player, *orders.get(player, ()))
        committed = turns.commit(rules(game), game, player)
        assert not isinstance(committed, RuleError), committed
        game = committed
    dice = (lambda step: rng) if rng is not None else dice_of(seed)
    game, resolved = turns.advance(rules(game), game, dice)
    return game, list(resolved.events)


def plain(events: Iterable[Any]) -> list[Any]:
    """Every event, Private or not, unwrapped."""
    return [e.event if isinstance(e, Private) else e for e in events]


def of_kind(events: Iterable[Any], cls: type) -> list[Any]:
    return [e for e in plain(events) if isinstance(e, cls)]


def told_to(events: Iterable[Any], player: str) -> list[Any]:
    """What `player` is told: public events and Private ones they are in the audience of."""
    return [
        e.event if isinstance(e, Private) else e for e in events if not isinstance(e, Private) or player in e.audience
    ]


class LoadedDice(GameRandom):
    """Dice that roll a fixed script of (attacker, defender) pairs; shuffles leave the order as it is."""

    def __init__(self, rolls: Sequence[tuple[int, int]]) -> None:
        super().__init__(0)
        self._script = [r for pair in rolls for r in pair]

    def d20(self) -> int:
        return self._script.pop(0)

    def shuffle(self, items: Any) -> None:
        return None


def random_legal_orders(
    game: Game[RiscBoard, Any], player: str, rng: random.Random, most: int = 8
) -> Game[RiscBoard, Any]:
    """Issue up to `most` orders picked at random among the legal ones: a kind of order first, then one of that
    kind, so that rare kinds (research, cloaks) come up as often as moves; counts at random too."""
    for _ in range(rng.randint(0, most)):
        legal = turns.legal_orders(rules(game), game, player)
        if not legal:
            break
        kinds = sorted({entry.order.kind for entry in legal})
        kind = rng.choice(kinds)
        choice = rng.choice([entry for entry in legal if entry.order.kind == kind])
        game = issued(game, player, choice.any_count(rng))
    return game


def new_game(game_map: GameMap, players: Sequence[str], seed: int | str, **options: Any) -> Game[RiscBoard, Any]:
    chosen = RISC.options(options)
    return RISC.variant(chosen).new_game(game_map, players, chosen, GameRandom(seed, SETUP_STEP))


def place_all(game: Game[RiscBoard, Any], rng: random.Random) -> Game[RiscBoard, Any]:
    """Every player places their pool at random and commits."""
    for player in game.players:
        own = [n for n in game.game_map.names if game.board.owner[n] == player]
        pool = game.board.pools[player]
        counts = dict.fromkeys(own, 0)
        for _ in range(pool):
            counts[rng.choice(own)] += 1
        game = issued(game, player, *[_place(t, n) for t, n in counts.items() if n])
        committed = turns.commit(rules(game), game, player)
        assert not isinstance(committed, RuleError), committed
        game = committed
    return game


def _place(territory: str, units: int) -> Any:
    from shared.rulesets.risc.orders import PlaceOrder

    return PlaceOrder(territory, units)
