"""R6-R10: starting groups, neutrals, assignment, initial units and secret placement."""

from __future__ import annotations

import pytest

from shared.game.errors import RuleError
from shared.game.turns import commit, issue, ready
from shared.maps.groups import compute_groups, neutral_territories, starting_groups
from shared.maps.validate import components
from shared.rulesets.risc.board import Phase
from shared.rulesets.risc.orders import PlaceOrder
from tests.engine_support import RISC, RuleCode, issued, line_map, options, resolve, seed_map, setup, view

PLAYERS3 = ("green", "blue", "red")


def test_R6_the_map_s_own_groups_are_used_for_its_player_count() -> None:
    groups = starting_groups(seed_map(), 3)
    assert groups == (
        ("Narnia", "Midkemia", "Oz"),
        ("Elantris", "Roshar", "Scadrial"),
        ("Gondor", "Mordor", "Hogwarts"),
    )


@pytest.mark.parametrize("players", [2, 4])
def test_R6_groups_are_computed_equal_and_contiguous_otherwise(players: int) -> None:
    game_map = seed_map()
    groups = starting_groups(game_map, players)
    assert len(groups) == players
    assert {len(g) for g in groups} == {9 // players}
    graph = game_map.undirected()
    for group in groups:
        inside = set(group)
        assert len(components({n: graph[n] & inside for n in group}, group)) == 1, group


def test_R6_computed_groups_on_a_line_are_contiguous_runs() -> None:
    game_map = line_map(*"ABCDEFGH")
    groups = compute_groups(game_map, 2)
    assert sorted(groups) == [tuple("ABCD"), tuple("EFGH")]


def test_R7_leftover_territories_start_neutral_with_the_option_s_units() -> None:
    game_map = seed_map()
    state = setup(game_map, ["a", "b"], options(neutral_units=4), seed=7)
    neutral = [t for t in game_map.names if state.board.owner[t] is None]
    assert len(neutral) == 1
    assert neutral == list(neutral_territories(game_map, starting_groups(game_map, 2)))
    assert state.board.units[neutral[0]] == 4
    assert len(state.board.territories_of("a")) == len(state.board.territories_of("b")) == 4


def test_R8_groups_are_assigned_at_random_by_default() -> None:
    assignments = set()
    for seed in range(20):
        state = setup(seed_map(), PLAYERS3, seed=seed)
        assignments.add(tuple(state.board.owner[t] for t in ("Narnia", "Elantris", "Gondor")))
    assert len(assignments) > 1


def test_R8_a_player_may_pick_their_group() -> None:
    state = setup(seed_map(), PLAYERS3, options(choose_groups=True), groups={"red": 0, "green": 2})
    assert state.board.territories_of("red") == ["Narnia", "Midkemia", "Oz"]
    assert state.board.territories_of("green") == ["Gondor", "Mordor", "Hogwarts"]
    assert state.board.territories_of("blue") == ["Elantris", "Roshar", "Scadrial"]


def test_R9_every_player_gets_the_same_initial_units() -> None:
    state = setup(seed_map(), PLAYERS3, options(initial_units=25))
    assert dict(state.board.pools) == {"green": 25, "blue": 25, "red": 25}
    default = setup(seed_map(), PLAYERS3)
    assert len(set(default.board.pools.values())) == 1 and next(iter(default.board.pools.values())) == 30


def test_R9_units_go_only_on_own_territories_and_all_must_be_placed() -> None:
    state = setup(
        seed_map(), PLAYERS3, options(initial_units=10, choose_groups=True), groups={"green": 0, "blue": 1, "red": 2}
    )
    foreign = issue(RISC, state, "green", PlaceOrder("Gondor", 5))
    assert isinstance(foreign, RuleError) and foreign.code == RuleCode.NOT_YOUR_TERRITORY
    too_many = issue(RISC, state, "green", PlaceOrder("Narnia", 11))
    assert isinstance(too_many, RuleError) and too_many.code == RuleCode.POOL_EXCEEDED
    assert too_many.message == "you have 10 units left to place, the order asks for 11"
    state = issued(state, "green", PlaceOrder("Narnia", 6))
    early = commit(RISC, state, "green")
    assert isinstance(early, RuleError) and early.code == RuleCode.UNITS_NOT_PLACED
    state = issued(state, "green", PlaceOrder("Oz", 4))  # Midkemia keeps 0: allowed
    assert not isinstance(commit(RISC, state, "green"), RuleError)


def test_R10_placement_is_secret_until_everyone_is_done() -> None:
    state = setup(
        seed_map(), PLAYERS3, options(initial_units=9, choose_groups=True), groups={"green": 0, "blue": 1, "red": 2}
    )
    state = issued(state, "green", PlaceOrder("Narnia", 9))
    committed = commit(RISC, state, "green")
    assert not isinstance(committed, RuleError)
    state = committed
    for viewer in ("blue", "red", None):
        seen = view(state, viewer)
        assert seen.territories["Narnia"].units == 0
        assert seen.your_orders == []
    assert state.committed == {"green"}
    assert not ready(RISC, state)
    for player, territory in (("blue", "Roshar"), ("red", "Gondor")):
        state = issued(state, player, PlaceOrder(territory, 9))
        result = commit(RISC, state, player)
        assert not isinstance(result, RuleError)
        state = result
    assert ready(RISC, state)
    state, _ = resolve(state)
    assert state.board.phase is Phase.ORDERS and state.board.turn == 1
    assert (state.board.units["Narnia"], state.board.units["Roshar"], state.board.units["Gondor"]) == (9, 9, 9)
