"""Bot games played in-process on the shared engine: the runner behind `risc tournament` and the benchmarks.

A game here goes through exactly the steps a served game goes through — each order issued and checked, each batch
committed, the turn resolved once nobody is awaited — only without sockets. Everything random comes from the game's
seed: the engine's dice from GameRandom(seed, turn), each bot's choices from its own generator seeded with the game
seed and its seat, so one seed always replays the same game, in any process.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from shared.bots.registry import make_strategy
from shared.maps.model import GameMap
from shared.rules.errors import RuleError
from shared.rules.orders import Order, describe
from shared.rules.random import GameRandom
from shared.rules.risc import RiscRuleset
from shared.rules.ruleset import GameOptions
from shared.rules.state import GameState, Phase
from shared.rules.turns import advance, commit, issue
from shared.rules.view import view


class RefusedOrderError(Exception):
    """A strategy issued something the engine refused (raised only when a game is played strictly)."""

    def __init__(self, player: str, order: Order | None, problem: RuleError) -> None:
        what = describe(order) if order is not None else "commit"
        super().__init__(f"{player}: {what}: {problem.message}")
        self.player = player
        self.order = order
        self.problem = problem


@dataclass(frozen=True)
class GameResult:
    map_name: str
    seed: str
    players: tuple[str, ...]
    strategies: tuple[str, ...]
    """The strategy of each player, in seat order."""
    winner: str | None
    """The winning player's name, or None for a draw (nobody won within the turn limit)."""
    turns: int
    refused: int = 0
    """Orders and commits the engine refused and the game went on without (always 0 for sound strategies)."""
    territories: tuple[int, ...] = field(default=())
    """Territories each player held at the end, in seat order."""

    @property
    def winner_strategy(self) -> str | None:
        if self.winner is None:
            return None
        return self.strategies[self.players.index(self.winner)]


@dataclass(frozen=True)
class GameSpec:
    """One game of a tournament, complete enough to be played in another process."""

    game_map: GameMap
    strategies: tuple[str, ...]
    seed: str
    max_turns: int
    options: GameOptions = field(default_factory=GameOptions)


def player_names(strategies: Sequence[str]) -> tuple[str, ...]:
    """Players are named after their strategies; a strategy that sits twice gets numbered seats."""
    names: list[str] = []
    for i, name in enumerate(strategies):
        if strategies.count(name) == 1:
            names.append(name)
        else:
            names.append(f"{name}-{strategies[:i + 1].count(name)}")
    return tuple(names)


def game_seed(seed: int | str, map_index: int, game_index: int) -> str:
    """The seed of one tournament game: the same for the same tournament seed, map slot and game number."""
    return f"{seed}/map{map_index}/game{game_index}"


def play_game(game_map: GameMap, strategies: Sequence[str], seed: int | str, max_turns: int,
              options: GameOptions | None = None, strict: bool = False) -> GameResult:
    """Play one game to a win or to `max_turns` turns (a draw). With `strict`, a refused order raises."""
    if max_turns < 1:
        raise ValueError("a game needs at least 1 turn")
    ruleset = RiscRuleset()
    players = player_names(strategies)
    bots = {p: make_strategy(s) for p, s in zip(players, strategies, strict=True)}
    rngs = {p: random.Random(f"bot:{seed}:{p}") for p in players}
    state = ruleset.setup(game_map, players, options or GameOptions(), GameRandom(seed, 0))
    refused = 0
    while state.phase is not Phase.FINISHED and state.turn <= max_turns:
        awaiting = ruleset.awaiting(state)
        for player in players:
            if player not in awaiting:
                continue
            state, problems = _play_seat(ruleset, state, player, bots[player].decide(
                view(state, player), game_map, rngs[player]), strict)
            refused += problems
        state, _ = advance(ruleset, state, GameRandom(seed, state.turn))
    turns = state.turn if state.winner is not None else max_turns
    held = tuple(sum(1 for t in game_map.names if state.owner[t] == p) for p in players)
    return GameResult(game_map.name, str(seed), players, tuple(strategies), state.winner, turns, refused, held)


def _play_seat(ruleset: RiscRuleset, state: GameState, player: str, orders: Sequence[Order],
               strict: bool) -> tuple[GameState, int]:
    refused = 0
    for order in orders:
        issued = issue(ruleset, state, player, order)
        if isinstance(issued, RuleError):
            if strict:
                raise RefusedOrderError(player, order, issued)
            refused += 1
            continue
        state = issued
    committed = commit(ruleset, state, player)
    if isinstance(committed, RuleError):
        if strict:
            raise RefusedOrderError(player, None, committed)
        refused += 1
        # As when a turn's time runs out (D3): the pool is spread for them, or their orders are dropped.
        state = ruleset.complete_for_timeout(state.evolve(orders={**state.orders, player: ()}), player)
        committed = commit(ruleset, state, player)
        if isinstance(committed, RuleError):
            raise RuntimeError(f"{player} cannot commit even an empty batch: {committed.message}")
    return committed, refused


def play_spec(spec: GameSpec) -> GameResult:
    """`play_game` for one GameSpec: a module-level function, so a process pool can run it."""
    return play_game(spec.game_map, spec.strategies, spec.seed, spec.max_turns, spec.options)


@dataclass
class Standings:
    """Tallies over a set of games: wins per player, draws, turns."""

    players: tuple[str, ...]
    wins: dict[str, int]
    draws: int = 0
    games: int = 0
    total_turns: int = 0
    refused: int = 0

    @classmethod
    def empty(cls, players: Sequence[str]) -> Standings:
        return cls(tuple(players), dict.fromkeys(players, 0))

    def add(self, result: GameResult) -> None:
        self.games += 1
        self.total_turns += result.turns
        self.refused += result.refused
        if result.winner is None:
            self.draws += 1
        else:
            self.wins[result.winner] = self.wins.get(result.winner, 0) + 1

    @property
    def average_turns(self) -> float:
        return self.total_turns / self.games if self.games else 0.0
