"""The grid game's computer players: whole games through the tournament runner without a refused action, and the
project's own strongest player winning a clear majority of fixed-seed games."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from shared.bots.tournament import GameSpec, play_game, play_spec
from shared.game import turns
from shared.rulesets.grid.bots.aggressive import AggressiveStrategy
from shared.rulesets.grid.bots.defensive import DefensiveStrategy
from shared.rulesets.grid.bots.random_strategy import RandomStrategy
from shared.rulesets.grid.orders import Attack, End, Move
from tests.grid_support import BOARD, GRID, game_at


def decide(strategy: object, game: object, player: str = "ann") -> list[object]:
    return strategy.decide(GRID.view(game, player), BOARD, player, random.Random(0))  # type: ignore[attr-defined]


def test_the_grid_computer_players() -> None:
    assert set(GRID.strategies) == {"aggressive", "defensive", "random", "strategist"}
    assert GRID.default_strategy == "strategist"


def test_aggressive_attacks_from_its_strongest_territory_with_the_most_troops() -> None:
    game = game_at("AABBB ABBBB CCCCC CCCCC CCCCC", [3, 6, 1, 4, 1] + [1] * 20)
    assert decide(AggressiveStrategy(GRID), game) == [Attack("0,1", "0,2", 3)]


def test_defensive_never_attacks_and_evens_out_its_front() -> None:
    game = game_at("AABBB ABBBB CCCCC CCCCC CCCCC", [3, 9, 1, 4, 1] + [1] * 20)
    assert decide(DefensiveStrategy(GRID), game) == [Move("0,1", "1,0", 4)]
    game = game_at("AABBB ABBBB CCCCC CCCCC CCCCC", [1] * 25)
    assert decide(DefensiveStrategy(GRID), game) == [End()]


def test_random_takes_legal_actions() -> None:
    game = game_at("AABBB ABBBB CCCCC CCCCC CCCCC", [3, 6, 1, 4, 1] + [1] * 20)
    kinds: Counter[str] = Counter()
    for seed in range(40):
        (order,) = RandomStrategy(GRID).decide(GRID.view(game, "ann"), BOARD, "ann", random.Random(seed))
        assert turns.check(GRID, game, "ann", order) is None
        kinds[order.kind] += 1
    assert kinds["attack"] and kinds["end"]


@pytest.mark.parametrize(
    "lineup",
    [
        ["strategist", "aggressive", "defensive"],
        ["strategist", "aggressive", "defensive", "random"],
        ["random", "random", "aggressive", "strategist", "defensive"],
    ],
)
def test_every_strategy_plays_whole_games_without_a_refused_action(lineup: list[str]) -> None:
    for seed in range(4):
        result = play_game(None, lineup, f"grid/{seed}", 300, ruleset_name="grid", strict=True)
        assert result.refused == 0 and result.map_name == BOARD.name
        if result.winner is not None:
            assert result.territories[result.players.index(result.winner)] == 25


def test_a_grid_tournament_game_replays_from_its_seed() -> None:
    spec = GameSpec(None, ("strategist", "random", "aggressive"), "replay", 100, ruleset="grid")
    assert play_spec(spec) == play_spec(spec)


def test_the_strongest_player_wins_a_clear_majority_of_fixed_seed_games() -> None:
    """The figures in docs/rules-grid.md come from bench/grid_strength.py; this is a smaller sample."""
    wins: Counter[str | None] = Counter()
    for seed in range(20):
        wins[
            play_game(
                None, ["strategist", "aggressive", "defensive", "random"], f"fig/{seed}", 200, ruleset_name="grid"
            ).winner_strategy
        ] += 1
    assert wins["strategist"] >= 12, wins
