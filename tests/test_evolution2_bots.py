"""Computer players in Evolutions 2 and 3: every strategy plays within the rules, a seed replays the same game, and
the strategist beats random in a clear majority of fixed-seed games."""

from __future__ import annotations

import random

import pytest

from shared.bots.tournament import play_game
from shared.maps import load_map
from shared.rulesets.risc.bots import STRATEGIES
from shared.rulesets.risc.bots.evolution import first_view
from shared.rulesets.risc.evo_view import EvoView
from tests.evolution_support import new_game, place_all, rules


@pytest.mark.parametrize("evolution", [2, 3])
@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_every_strategy_plays_evolutions_2_and_3_within_the_rules(strategy: str, evolution: int) -> None:
    for seed in range(3):
        result = play_game(
            load_map("seed"),
            [strategy, "strategist", "random"],
            f"rules-{seed}",
            30,
            options={"evolution": evolution},
            strict=True,
        )
        assert result.refused == 0


@pytest.mark.parametrize("evolution", [2, 3])
def test_one_seed_replays_the_same_bot_game(evolution: int) -> None:
    lineup = ["random", "aggressive", "strategist"]
    first = play_game(load_map("seed"), lineup, "again", 40, options={"evolution": evolution})
    assert first == play_game(load_map("seed"), lineup, "again", 40, options={"evolution": evolution})


@pytest.mark.parametrize("evolution", [2, 3])
@pytest.mark.parametrize("map_name", ["seed", "twin-keeps"])
def test_strategist_beats_random_in_a_clear_majority_of_games(map_name: str, evolution: int) -> None:
    wins = sum(
        play_game(
            load_map(map_name), ["random", "strategist"], f"strong-{i}", 100, options={"evolution": evolution}
        ).winner
        == "strategist"
        for i in range(20)
    )
    assert wins >= 16


def test_the_evolution_1_reading_of_a_view_is_what_the_viewer_knows() -> None:
    game = place_all(new_game(load_map("seed"), ("a", "b", "c"), 5, evolution=3), random.Random(5))
    seen = rules(game).view(game, "a")
    assert isinstance(seen, EvoView)
    first = first_view(seen)
    assert {n: (t.owner, t.units) for n, t in first.territories.items()} == {
        n: (t.owner, t.units) for n, t in seen.territories.items()
    }
    assert first.players["a"].territories == 3
