"""Bot games played in-process on the shared rules: the runner behind `risc tournament` and the benchmarks.

A game here goes through exactly the steps a served game goes through — each order checked, each batch committed
and resolved once nobody is awaited (or each action resolved at once, turn by turn) — only without sockets.
Everything random comes from the game's seed: the dice from GameRandom(seed, step), each bot's choices from its
own generator seeded with the game seed and its seat, so one seed always replays the same game, in any process.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from shared.game import turns
from shared.game.errors import RuleError
from shared.game.random import SETUP_STEP, GameRandom, dice_of
from shared.game.ranking import OUT_KINDS, final_ranking
from shared.game.ruleset import AnyRuleSet, Private
from shared.game.strategy import Strategy
from shared.maps.model import GameMap
from shared.rulesets import game_ruleset


class RefusedOrderError(Exception):
    """A strategy issued something the rules refused (raised only when a game is played strictly)."""

    def __init__(self, player: str, order: Any, problem: RuleError) -> None:
        super().__init__(f"{player}: {order if order is not None else 'commit'}: {problem.message}")
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
    """Orders and commits the rules refused and the game went on without (always 0 for sound strategies)."""
    territories: tuple[int, ...] = field(default=())
    """Territories each player held at the end, in seat order (where the rule set's view tells them)."""
    finished: bool = True
    """The rules ended the game (a win, or a draw they call); False: it was still on when `max_turns` cut it off."""
    ranking: tuple[tuple[str, ...], ...] = ()
    """The final ranking of a finished game (shared/game/ranking.py), players first to last, tied ones together."""

    @property
    def winner_strategy(self) -> str | None:
        if self.winner is None:
            return None
        return self.strategies[self.players.index(self.winner)]


@dataclass(frozen=True)
class GameSpec:
    """One game of a tournament, complete enough to be played in another process."""

    game_map: GameMap | None
    """None: a rule set that makes its own board."""
    strategies: tuple[str, ...]
    seed: str
    max_turns: int
    options: Mapping[str, Any] = field(default_factory=dict)
    ruleset: str = "risc"
    resigns: Mapping[int, int] = field(default_factory=dict)
    """Seats (by index) that resign once their game reaches a turn: a person who gave up, the computers playing on."""


def player_names(strategies: Sequence[str]) -> tuple[str, ...]:
    """Players are named after their strategies; a strategy that sits twice gets numbered seats."""
    names: list[str] = []
    for i, name in enumerate(strategies):
        if strategies.count(name) == 1:
            names.append(name)
        else:
            names.append(f"{name}-{strategies[: i + 1].count(name)}")
    return tuple(names)


def game_seed(seed: int | str, map_index: int, game_index: int) -> str:
    """The seed of one tournament game: the same for the same tournament seed, map slot and game number."""
    return f"{seed}/map{map_index}/game{game_index}"


def make_strategy(ruleset: AnyRuleSet, name: str) -> Strategy:
    """A fresh player of the named strategy; ValueError naming the known ones otherwise."""
    try:
        cls = ruleset.strategies[name]
    except KeyError:
        known = ", ".join(sorted(ruleset.strategies))
        raise ValueError(f'unknown {ruleset.title} strategy "{name}" (known: {known})') from None
    return cls(ruleset)


def play_game(
    game_map: GameMap | None,
    strategies: Sequence[str],
    seed: int | str,
    max_turns: int,
    options: Mapping[str, Any] | None = None,
    strict: bool = False,
    ruleset_name: str = "risc",
    resigns: Mapping[int, int] | None = None,
) -> GameResult:
    """Play one game to a win or to `max_turns` turns (a draw). With `strict`, a refused order raises. `resigns`:
    seats (by index) that resign as soon as the game is at that turn, as a person who gives the game up."""
    if max_turns < 1:
        raise ValueError("a game needs at least 1 turn")
    ruleset, chosen = game_ruleset(ruleset_name, options or {})
    game_map = game_map if game_map is not None else ruleset.make_map(chosen)
    players = player_names(strategies)
    bots = {p: make_strategy(ruleset, s) for p, s in zip(players, strategies, strict=True)}
    rngs = {p: random.Random(f"bot:{seed}:{p}") for p in players}
    game = ruleset.new_game(game_map, players, chosen, GameRandom(seed, SETUP_STEP))
    dice = dice_of(seed)
    refused = 0
    status = ruleset.status(game)
    leaving = {players[seat]: turn for seat, turn in (resigns or {}).items()}
    out: list[dict[str, Any]] = []
    """The log's entries that put a player out, as final_ranking reads them."""
    while not status.finished and status.turn <= max_turns:
        for player, turn in list(leaving.items()):
            if status.turn >= turn and not status.finished:
                del leaving[player]
                resigned = turns.resign(ruleset, game, player, dice)
                if not isinstance(resigned, RuleError):
                    out.append(_out(len(out), resigned[1].step, {"kind": "player_resigned", "player": player}))
                    game = resigned[0]
                    status = ruleset.status(game)
        for player in players:
            if player not in turns.awaiting(ruleset, game):
                continue
            orders = bots[player].decide(ruleset.view(game, player), game_map, player, rngs[player])
            played = turns.play_seat(ruleset, game, player, orders, dice)
            if strict and played.refused:
                order, problem = played.refused[0]
                raise RefusedOrderError(player, order, problem)
            # A turn-by-turn player whose turn was played for them counts once more: the game would have stalled.
            refused += len(played.refused) + played.timed_out
            game = played.game
            out += _went_out(ruleset, played.resolved, len(out))
        if turns.ready(ruleset, game):
            game, resolved = turns.advance(ruleset, game, dice)
            out += _went_out(ruleset, [resolved], len(out))
        status = ruleset.status(game)
    final = ruleset.view(game, None)
    standings = ruleset.presentation.standings(final)
    held = tuple(standings.get(p, (0, 0))[0] for p in players)
    return GameResult(
        game_map.name,
        str(seed),
        players,
        tuple(strategies),
        status.winner,
        status.turn if status.finished else max_turns,
        refused,
        held,
        status.finished,
        final_ranking(ruleset, game, out).places if status.finished else (),
    )


def _out(seq: int, step: int, event: dict[str, Any]) -> dict[str, Any]:
    return {"seq": seq + 1, "change": step, "event": event}


def _went_out(ruleset: AnyRuleSet, resolutions: Sequence[turns.Resolved], seq: int) -> list[dict[str, Any]]:
    """The entries of `resolutions` that put a player out, numbered after `seq`, each with its resolution's step."""
    found: list[dict[str, Any]] = []
    for resolved in resolutions:
        for told in resolved.events:
            event = told.event if isinstance(told, Private) else told
            if getattr(event, "kind", None) in OUT_KINDS:
                found.append(_out(seq + len(found), resolved.step, ruleset.dump_event(event)))
    return found


def play_spec(spec: GameSpec) -> GameResult:
    """`play_game` for one GameSpec: a module-level function, so a process pool can run it."""
    return play_game(
        spec.game_map,
        spec.strategies,
        spec.seed,
        spec.max_turns,
        spec.options,
        ruleset_name=spec.ruleset,
        resigns=spec.resigns,
    )


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
