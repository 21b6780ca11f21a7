"""Building RISC games by hand, so that each rule test states its own board in a few lines.

The rules are reached as every other part of the product reaches them: the rule set from the registry, the
framework's turns (issue, commit, advance). These helpers only shorten what the tests write.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from itertools import pairwise
from typing import Any

from shared.game import turns
from shared.game.errors import Refused, RuleError
from shared.game.game import Game
from shared.game.random import GameRandom
from shared.game.ruleset import Private
from shared.maps import GameMap, Territory, build_map, load_map
from shared.rulesets import get_ruleset
from shared.rulesets.risc.board import Phase, RiscBoard
from shared.rulesets.risc.checker import Code
from shared.rulesets.risc.options import RiscOptions

RISC = get_ruleset("risc")

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
# The seed's first picture: the board before the example turn.
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

RiscGame = Game[RiscBoard, Any]


def options(**chosen: Any) -> RiscOptions:
    return RiscOptions(**chosen)


def seed_map() -> GameMap:
    return load_map("seed")


def line_map(*names: str) -> GameMap:
    """A path A - B - C ...: the simplest board where adjacency matters."""
    borders = {n: set() for n in names}
    for a, b in pairwise(names):
        borders[a].add(b)
        borders[b].add(a)
    return build_map("line", [Territory(n) for n in names], borders)


def setup(
    game_map: GameMap,
    players: Sequence[str],
    chosen: RiscOptions | None = None,
    seed: int = 1,
    groups: Mapping[str, int] | None = None,
) -> RiscGame:
    return RISC.new_game(game_map, list(players), chosen or RiscOptions(), GameRandom(seed, -1), groups)


def make_state(
    game_map: GameMap,
    owner: Mapping[str, str | None],
    units: Mapping[str, int],
    players: Sequence[str] | None = None,
    turn: int = 1,
) -> RiscGame:
    """A game at turn `turn` with this board (the step is the turn, as in a served game)."""
    players = tuple(players or dict.fromkeys(o for o in owner.values() if o is not None))
    board = RiscBoard(phase=Phase.ORDERS, turn=turn, owner=dict(owner), units=dict(units))
    return Game("risc", game_map, players, RiscOptions(max_players=8), board, step=turn)


def seed_state() -> RiscGame:
    return make_state(seed_map(), SEED_OWNERS, SEED_UNITS, players=("green", "blue", "red"))


def issued(state: RiscGame, player: str, *orders: Any) -> RiscGame:
    """Issue orders that must be legal; fails the test with the rules' reason otherwise."""
    for order in orders:
        result = turns.issue(RISC, state, player, order)
        assert not isinstance(result, RuleError), f"{order} was refused: {result}"
        state = result
    return state


def events_of(told: Sequence[Any]) -> list[Any]:
    """A resolution's events, public and private alike (RISC's are all public)."""
    return [t.event if isinstance(t, Private) else t for t in told]


def resolve(state: RiscGame, rng: GameRandom | None = None, seed: int = 1) -> tuple[RiscGame, list[Any]]:
    """Resolve a game every player has committed: with `rng` (loaded dice), else the seed's dice for its step."""
    game, resolved = turns.advance(
        RISC, state, (lambda step: rng) if rng is not None else (lambda step: GameRandom(seed, step))
    )
    return game, events_of(resolved.events)


def commit_all(state: RiscGame) -> RiscGame:
    for player in sorted(turns.awaiting(RISC, state)):
        committed = turns.commit(RISC, state, player)
        assert not isinstance(committed, RuleError), committed
        state = committed
    return state


def play_turn(state: RiscGame, orders: Mapping[str, Sequence[Any]], seed: int = 1) -> tuple[RiscGame, list[Any]]:
    """Issue and commit every player's orders, then resolve the turn."""
    for player in RISC.status(state).acting:
        state = issued(state, player, *orders.get(player, ()))
    return resolve(commit_all(state), seed=seed)


def view(state: RiscGame, viewer: str | None) -> Any:
    return RISC.view(state, viewer)


class LoadedDice(GameRandom):
    """Dice that roll a fixed script of (attacker, defender) pairs: for testing R20 round by round."""

    def __init__(self, rolls: Sequence[tuple[int, int]]) -> None:
        super().__init__(0)
        self._script = [r for pair in rolls for r in pair]

    def d20(self) -> int:
        return self._script.pop(0)


RuleCode = StrEnum(
    "RuleCode", {**{m.name: m.value for m in Refused}, **{k: v for k, v in vars(Code).items() if k.isupper()}}
)
"""Every code RISC's rules refuse with (the framework's and RISC's own), by name, for the tests to name them."""
