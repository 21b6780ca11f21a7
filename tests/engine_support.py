"""Building engine states by hand, so that each rule test states its own board in a few lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise

from shared.maps import GameMap, Territory, build_map, load_map
from shared.rules import GameRandom, GameState, Order, Phase, RuleError, commit, get_ruleset, issue
from shared.rules.events import Event
from shared.rules.turns import advance

RISC = get_ruleset("risc")

SEED_OWNERS = {
    "Narnia": "green", "Midkemia": "green", "Oz": "green",
    "Elantris": "blue", "Roshar": "blue", "Scadrial": "blue",
    "Gondor": "red", "Mordor": "red", "Hogwarts": "red",
}
# The seed's first picture: the board before the example turn.
SEED_UNITS = {
    "Narnia": 10, "Midkemia": 12, "Oz": 8,
    "Elantris": 6, "Roshar": 3, "Scadrial": 5,
    "Gondor": 13, "Mordor": 14, "Hogwarts": 3,
}


def seed_map() -> GameMap:
    return load_map("seed")


def line_map(*names: str) -> GameMap:
    """A path A - B - C ...: the simplest board where adjacency matters."""
    borders = {n: set() for n in names}
    for a, b in pairwise(names):
        borders[a].add(b)
        borders[b].add(a)
    return build_map("line", [Territory(n) for n in names], borders)


def make_state(game_map: GameMap, owner: Mapping[str, str | None], units: Mapping[str, int],
               players: Sequence[str] | None = None, turn: int = 1) -> GameState:
    players = tuple(players or dict.fromkeys(o for o in owner.values() if o is not None))
    return GameState(game_map=game_map, ruleset="risc", players=players, phase=Phase.ORDERS, turn=turn,
                     owner=dict(owner), units=dict(units))


def seed_state() -> GameState:
    return make_state(seed_map(), SEED_OWNERS, SEED_UNITS, players=("green", "blue", "red"))


def issued(state: GameState, player: str, *orders: Order) -> GameState:
    """Issue orders that must be legal; fails the test with the engine's reason otherwise."""
    for order in orders:
        result = issue(RISC, state, player, order)
        assert not isinstance(result, RuleError), f"{order} was refused: {result}"
        state = result
    return state


def play_turn(state: GameState, orders: Mapping[str, Sequence[Order]], seed: int = 1,
              ) -> tuple[GameState, list[Event]]:
    """Issue and commit every player's orders, then resolve the turn."""
    for player in state.alive:
        state = issued(state, player, *orders.get(player, ()))
        committed = commit(RISC, state, player)
        assert not isinstance(committed, RuleError), committed
        state = committed
    return advance(RISC, state, GameRandom(seed, state.turn))


class LoadedDice(GameRandom):
    """Dice that roll a fixed script of (attacker, defender) pairs: for testing R20 round by round."""

    def __init__(self, rolls: Sequence[tuple[int, int]]) -> None:
        super().__init__(0)
        self._script = [r for pair in rolls for r in pair]

    def d20(self) -> int:
        return self._script.pop(0)
