"""Evolution 1 stays as it was: the evolutions' option defaults to 1, and an Evolution 1 game keeps its board fields,
views, orders and events, so that games stored before the evolutions load and replay unchanged."""

from __future__ import annotations

import dataclasses
import random

from shared.bots.tournament import play_game
from shared.maps import load_map
from shared.rulesets.risc.board import RiscBoard
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, PlaceOrder
from shared.rulesets.risc.view import RiscView
from tests.evolution_support import RISC, new_game, place_all, play_turn

EVOLUTION_1_BOARD_KEYS = {"phase", "turn", "owner", "units", "pools", "eliminated", "winner"}
EVOLUTION_1_EVENT_KINDS = {
    "units_placed",
    "units_moved",
    "combat",
    "units_received",
    "player_eliminated",
    "game_won",
    "turn_started",
}


def test_a_game_is_evolution_1_unless_its_creator_says_otherwise() -> None:
    assert RISC.options({}) == RISC.options({"evolution": 1})


def test_an_evolution_1_board_has_its_fields_and_no_more_when_stored() -> None:
    game = new_game(load_map("seed"), ("a", "b", "c"), seed=4)
    assert game.board.evo is None
    stored = RISC.dump_board(game.board)
    assert set(stored) == EVOLUTION_1_BOARD_KEYS
    assert RISC.load_board(stored) == game.board
    assert {f.name for f in dataclasses.fields(RiscBoard)} == EVOLUTION_1_BOARD_KEYS | {"evo"}


def test_an_evolution_1_game_has_its_own_view_orders_and_events() -> None:
    game = place_all(new_game(load_map("seed"), ("a", "b", "c"), seed=4), random.Random(4))
    game, events = play_turn(game, {})
    assert isinstance(RISC.view(game, "a"), RiscView)
    assert RISC.dump_view(RISC.view(game, "a"))["kind"] == "risc"
    own = [n for n in game.game_map.names if game.board.owner[n] == "a"]
    game, events = play_turn(game, {"a": [MoveOrder(1, own[0], own[1])]})
    assert {RISC.dump_event(e)["kind"] for e in events} <= EVOLUTION_1_EVENT_KINDS
    kinds = {RISC.dump_order(o)["kind"] for o in (PlaceOrder("x", 1), MoveOrder(1, "x", "y"), AttackOrder(1, "x", "y"))}
    assert kinds == {"place", "move", "attack"}
    assert set(RISC.dump_order(MoveOrder(1, "x", "y"))) == {"units", "source", "target", "kind"}


def test_the_evolutions_options_change_nothing_in_evolution_1() -> None:
    for seed in range(3):
        plain = play_game(load_map("seed"), ["random", "strategist", "aggressive"], seed, 40)
        stocked = play_game(
            load_map("seed"), ["random", "strategist", "aggressive"], seed, 40, options={"food": 5, "technology": 900}
        )
        assert plain == stocked


def test_the_map_s_sizes_and_production_change_nothing_in_evolution_1() -> None:
    game_map = load_map("seed")
    bare = dataclasses.replace(
        game_map,
        territories=tuple(dataclasses.replace(t, size=1, food=None, technology=None) for t in game_map.territories),
    )
    for seed in range(3):
        with_figures = play_game(game_map, ["random", "strategist", "defensive"], seed, 40)
        without = play_game(bare, ["random", "strategist", "defensive"], seed, 40)
        assert with_figures == without
