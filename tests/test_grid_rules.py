"""G1-G6: the VG101 grid game. The board, the deal and the deployment stage, new troops, attacks (every example of
the seed's table), the move-in, the one move, elimination and victory, and what a player whose time ran out does."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from shared.game import turns
from shared.game.random import SETUP_STEP, GameRandom, dice_of
from shared.rulesets.grid.board import Conquest, Phase
from shared.rulesets.grid.cells import letter
from shared.rulesets.grid.dice import compare, outcomes, roll
from shared.rulesets.grid.events import (
    Battle,
    CellTaken,
    GameWon,
    NewTroopsDeployed,
    PlayerEliminated,
    TroopDeployed,
    TroopsMoved,
    TroopsMovedIn,
    TurnEnded,
    TurnStarted,
)
from shared.rulesets.grid.orders import Attack, Deploy, End, Move, MoveIn
from shared.rulesets.grid.resolve import new_troops
from shared.rulesets.grid.rules import deal_sizes
from tests.grid_support import BOARD, GRID, SEATS, act, game_at, loaded, refused

CHI2_2DOF_P_1E6 = 27.63


def new(players: tuple[str, ...], seed: str = "g"):  # type: ignore[no-untyped-def]
    return GRID.new_game(BOARD, players, GRID.options({}), GameRandom(seed, SETUP_STEP))


# ---- G1 the board and the players ------------------------------------------------------------------------------


def test_G1_three_to_five_players() -> None:
    assert GRID.player_counts(GRID.options({})) == (3, 5)
    for players in (("a", "b"), ("a", "b", "c", "d", "e", "f")):
        with pytest.raises(ValueError):
            new(players)


def test_G1_a_generated_5_by_5_board_of_cells_named_row_col_adjacent_when_they_share_a_side() -> None:
    assert GRID.own_map
    assert BOARD.names == tuple(f"{r},{c}" for r in range(5) for c in range(5))
    assert BOARD.neighbours("0,0") == {"0,1", "1,0"}
    assert BOARD.neighbours("0,2") == {"0,1", "0,3", "1,2"}
    assert BOARD.neighbours("2,2") == {"1,2", "2,1", "2,3", "3,2"}
    assert "1,1" not in BOARD.neighbours("0,0")  # corners do not touch
    assert all(a in BOARD.neighbours(b) for a in BOARD.names for b in BOARD.neighbours(a))


def test_G1_players_are_lettered_a_to_e_in_seat_order() -> None:
    players = ("zed", "amy", "kim", "bob", "eve")
    game = new(players)
    assert [letter(players, p) for p in players] == ["A", "B", "C", "D", "E"]
    assert {p: s.letter for p, s in GRID.view(game, None).players.items()} == dict(zip(players, "ABCDE", strict=True))


# ---- G2 the deal and the deployment stage -------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "sizes"), [(5, [5, 5, 5, 5, 5]), (4, [6, 6, 6, 7]), (3, [8, 8, 9])])
def test_G2_territories_are_dealt_5_each_for_5_6_6_6_7_for_4_8_8_9_for_3(players: int, sizes: list[int]) -> None:
    assert deal_sizes(players, 25) == sizes
    names = ("ann", "bob", "cat", "dan", "eve")[:players]
    board = new(names).board
    held = Counter(board.owner.values())
    assert [held[p] for p in names] == sizes


def test_G2_the_deal_is_a_fisher_yates_shuffle_from_the_games_generator() -> None:
    first = new(SEATS, "deal").board.owner
    assert new(SEATS, "deal").board.owner == first
    assert len({tuple(new(SEATS, f"deal{i}").board.owner.values()) for i in range(10)}) == 10


def test_G2_one_troop_on_each_then_one_more_at_a_time_in_turn_until_each_has_deployed_15() -> None:
    game = new(SEATS)
    assert all(t == 1 for t in game.board.troops.values())
    assert game.board.phase is Phase.DEPLOYMENT and game.board.active == "ann"
    order = []
    while game.board.phase is Phase.DEPLOYMENT:
        player = game.board.active
        order.append(player)
        mine = game.board.cells_of(player)[0]
        game, events = act(game, Deploy(mine))
        assert isinstance(events[0], TroopDeployed) and events[0].player == player
    # 8, 8 and 9 territories: ann and bob deploy 7 more, cat 6; cat is skipped once done.
    assert Counter(order) == {"ann": 7, "bob": 7, "cat": 6}
    assert order[:6] == ["ann", "bob", "cat"] * 2 and order[-2:] == ["ann", "bob"]
    for player in SEATS:
        assert sum(game.board.troops[n] for n in game.board.cells_of(player)) == 15
    assert game.board.phase in (Phase.NEW_TROOPS, Phase.ATTACK) and game.board.active == "ann"


def test_G2_troops_are_deployed_only_on_own_territories_and_only_by_the_player_in_turn() -> None:
    game = new(SEATS)
    theirs = next(n for n, p in game.board.owner.items() if p != "ann")
    assert refused(game, Deploy(theirs)).code == "not-your-territory"
    assert refused(game, Deploy(game.board.cells_of("bob")[0]), player="bob").code == "not-your-turn"
    assert refused(game, Attack("0,0", "0,1", 1)).code == "wrong-phase"


# ---- G3 turns ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("territories", "troops"), [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3), (7, 3), (24, 3)])
def test_G3_new_troops_are_min_of_half_the_territories_and_3(territories: int, troops: int) -> None:
    assert new_troops(territories) == troops


def test_G3_new_troops_all_on_one_own_territory_then_attacks_then_one_move_turns_going_a_b_c() -> None:
    rows = "AAAAB BBBBB CCCCC AABBC CCCCC"
    game = game_at(rows, [2] * 25, phase=Phase.ATTACK, active="cat")
    game, events = act(game, End())
    assert events == [TurnEnded("cat"), TurnStarted(2, "ann", 3, 6)]
    assert game.board.phase is Phase.NEW_TROOPS and refused(game, End()).code == "wrong-phase"
    game, events = act(game, Deploy("0,0"))
    assert events == [NewTroopsDeployed("ann", "0,0", 3)]
    assert game.board.troops["0,0"] == 5 and game.board.phase is Phase.ATTACK
    game, _ = act(game, Attack("0,3", "0,4", 1), loaded(6, 1, 1))
    game, _ = act(game, Move("0,0", "0,1", 2))
    assert game.board.active == "bob" and game.board.turn == 2


def test_G3_a_player_with_one_territory_gets_no_new_troops() -> None:
    rows = "ABBBB BBBBB BBBBB CCCCC CCCCC"
    game = game_at(rows, phase=Phase.ATTACK, active="cat")
    game, events = act(game, End())
    assert TurnStarted(2, "ann", 0, 1) in events
    # ann holds one territory with 1 troop: nothing to do, the turn passes by itself.
    assert TurnEnded("ann", automatic=True) in events and game.board.active == "bob"


# ---- G4 attacks --------------------------------------------------------------------------------------------------

# The seed's table, every example: (m, t, n) as given, the dice, and the losses the seed states.
SEED_EXAMPLES = [
    # m = 2, t = 3, n = 2: attacker 6 and 2, defender 5 and 2: each loses 1 (the 2s tie: the attacker loses).
    ((6, 2), (5, 2), (1, 1)),
    # m = 2, t = 1, n = 1: attacker 3 and 3, defender 3: the defender wins, the attacker loses 1.
    ((3, 3), (3,), (1, 0)),
    # m = 3, t = 2, n = 1: attacker 4, 3 and 2, defender 3: the attacker wins, the defender loses 1.
    ((4, 3, 2), (3,), (0, 1)),
    # s = 5, m = 3, t = 2, n = 2: attacker 4, 3 and 2, defender 3 and 2: the attacker wins both.
    ((4, 3, 2), (3, 2), (0, 2)),
]


@pytest.mark.parametrize(("attack", "defence", "losses"), SEED_EXAMPLES)
def test_G4_every_example_of_the_seeds_table(
    attack: tuple[int, ...], defence: tuple[int, ...], losses: tuple[int, int]
) -> None:
    assert compare(attack, defence) == losses


@pytest.mark.parametrize(
    ("attack", "defence", "losses"),
    [
        ((5,), (5,), (1, 0)),
        ((6, 6), (6, 6), (2, 0)),  # every tie costs the attacker
        ((6, 5, 1), (6, 4), (1, 1)),
        ((1, 2, 3), (2, 2), (1, 1)),  # sorted first: 3 beats 2, 2 ties 2
        ((2,), (1, 6), (1, 0)),  # one comparison, with the defender's highest
    ],
)
def test_G4_the_lower_die_loses_and_a_tie_costs_the_attacker(
    attack: tuple[int, ...], defence: tuple[int, ...], losses: tuple[int, int]
) -> None:
    assert compare(attack, defence) == losses


def test_G4_the_seeds_last_example_played_the_territory_falls_and_3_or_4_may_move_in() -> None:
    rows = "ABCCC CCCCC CCCCC CCCCC CCCCB"
    troops = [5, 2] + [1] * 23
    game = game_at(rows, troops)
    game, events = act(game, Attack("0,0", "0,1", 3), loaded(4, 3, 2, 3, 2))
    assert events[0] == Battle("ann", "0,0", "0,1", "bob", (4, 3, 2), (3, 2), 0, 2, 5, 0)
    assert events[1] == CellTaken("ann", "0,0", "0,1", "bob", 3, 4)
    assert game.board.phase is Phase.MOVE_IN and game.board.conquest == Conquest("0,0", "0,1", 3, 4)
    legal = turns.legal_orders(GRID, game, "ann")
    assert [(e.order, e.count_field, e.least) for e in legal] == [(MoveIn(4), "troops", 3)]
    for other in (Attack("0,0", "1,0", 1), Move("0,0", "0,1", 1), End(), Deploy("0,0")):
        assert refused(game, other).code == "wrong-phase"
    assert refused(game, MoveIn(2)).code == "too-few"  # p >= m
    assert refused(game, MoveIn(5)).code == "too-many"  # p < s
    game, events = act(game, MoveIn(4))
    assert events[0] == TroopsMovedIn("ann", "0,0", "0,1", 4)
    assert (game.board.troops["0,0"], game.board.troops["0,1"]) == (1, 4)


def test_G4_the_defender_uses_the_most_dice_it_may() -> None:
    rows = "ABCCC CCCCC CCCCC CCCCC CCCCB"
    game = game_at(rows, [4, 3] + [1] * 23)
    _, events = act(game, Attack("0,0", "0,1", 1), loaded(6, 1, 1))
    assert len(events[0].defence) == 2
    game = game_at(rows, [4, 1] + [1] * 23)
    _, events = act(game, Attack("0,0", "0,1", 3), loaded(1, 1, 1, 6))
    assert len(events[0].defence) == 1


@pytest.mark.parametrize(
    ("order", "code"),
    [
        (Attack("0,0", "0,1", 3), "too-many"),  # s = 3: m < s
        (Attack("0,0", "0,1", 0), "too-few"),
        (Attack("0,0", "1,1", 1), "not-adjacent"),  # diagonal
        (Attack("0,0", "1,0", 1), "own-territory"),
        (Attack("0,1", "0,0", 1), "not-your-territory"),
        (Attack("2,0", "2,1", 1), "not-enough-troops"),
        (Attack("0,0", "9,9", 1), "unknown-territory"),
    ],
)
def test_G4_attacks_need_2_troops_or_more_m_from_1_to_3_and_fewer_than_the_source_holds(
    order: Attack, code: str
) -> None:
    rows = "ABBBB ACCCC ACCCC CCCCC CCCCC"
    game = game_at(rows, [3, 5, 1, 1, 1, 9, 1] + [1] * 18)
    assert refused(game, order).code == code


def test_G4_three_troops_against_two_follow_the_exact_odds() -> None:
    assert outcomes(3, 2) == {(0, 2): Fraction(2890, 7776), (1, 1): Fraction(2611, 7776), (2, 0): Fraction(2275, 7776)}
    n = 20_000
    counts = Counter(roll(GameRandom("grid-odds", step), 3, 2)[2:] for step in range(n))
    chi2 = sum((counts[k] - n * float(p)) ** 2 / (n * float(p)) for k, p in outcomes(3, 2).items())
    assert chi2 < CHI2_2DOF_P_1E6


# ---- G5 the move --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("order", "code", "reason"),
    [
        (Move("0,0", "0,4", 1), "no-path", "no path of your own territories"),
        (Move("0,0", "2,2", 1), "not-your-territory", "not yours"),
        (Move("0,0", "1,0", 4), "too-many", "at least one stays behind"),
        (Move("0,0", "0,0", 1), "same-territory", "two different"),
        (Move("1,0", "0,0", 1), "too-many", "at most 0"),
        (Move("0,0", "1,0", 0), "too-few", "at least 1"),
    ],
)
def test_G5_an_illegal_move_is_refused_with_the_reason(order: Move, code: str, reason: str) -> None:
    rows = "ACCCA ACCCC AACCC CCCCC CCCCC"
    game = game_at(rows, [4] + [1] * 24)
    problem = refused(game, order)
    assert problem.code == code and reason in problem.message


def test_G5_one_move_along_own_territories_leaving_one_behind_ends_the_turn() -> None:
    rows = "ACCCA ACCCC AACCC CCCCC CCCBB"
    game = game_at(rows, [4] + [1] * 24)
    game, events = act(game, Move("0,0", "2,1", 3))  # 0,0 - 1,0 - 2,0 - 2,1, all ann's
    assert events[0] == TroopsMoved("ann", "0,0", "2,1", 3)
    assert (game.board.troops["0,0"], game.board.troops["2,1"]) == (1, 4)
    assert game.board.active == "bob"


# ---- G6 elimination and victory ----------------------------------------------------------------------------------


def test_G6_a_player_with_no_territory_is_out_and_the_others_keep_their_order() -> None:
    rows = "ABAAA AAAAA AAAAA AAAAA CCCCC"
    game = game_at(rows, [4, 1] + [1] * 23)
    game, events = act(game, Attack("0,0", "0,1", 3), loaded(6, 6, 6, 1))
    assert PlayerEliminated("bob", "ann") in events
    assert GRID.status(game).eliminated == ("bob",)
    assert game.board.phase is Phase.ATTACK  # 0,0 had 4: 3 moved in, the only choice
    game, _ = act(game, End())
    assert game.board.active == "cat"  # bob's turn is skipped; A, C, A, C ...
    assert game.board.phase is Phase.NEW_TROOPS
    game, _ = act(game, Deploy("4,0"))
    game, _ = act(game, End())
    assert game.board.active == "ann"


def test_G6_the_player_who_owns_all_25_wins() -> None:
    rows = "AAAAA AAAAA AAAAA AAAAA AAAAB"
    game = game_at(rows, [1] * 23 + [4, 1])
    game, events = act(game, Attack("4,3", "4,4", 3), loaded(6, 6, 6, 1))
    assert events[-1] == GameWon("ann")
    status = GRID.status(game)
    assert status.finished and status.winner == "ann" and status.acting == frozenset()


# ---- time limits ------------------------------------------------------------------------------------------------


def test_a_player_whose_time_runs_out_deploys_on_a_weak_front_never_attacks_and_ends() -> None:
    game = new(SEATS, "late")
    game, late, resolutions = turns.time_out(GRID, game, dice_of("late"))
    assert late == ["ann"] and isinstance(resolutions[0].orders["ann"][0], Deploy)
    assert game.board.active == "bob"
    rows = "AAAAB BBBBB CCCCC AABBC CCCCC"
    game = game_at(rows, [2] * 25, phase=Phase.NEW_TROOPS, new_troops=3)
    game, _, resolutions = turns.time_out(GRID, game, dice_of("late"))
    kinds = [r.orders["ann"][0].kind for r in resolutions]
    assert kinds == ["deploy", "end"] and game.board.active == "bob"
    game = game_at(
        "ABCCC CCCCC CCCCC CCCCC CCCCB", [5, 0] + [1] * 23, phase=Phase.MOVE_IN, conquest=Conquest("0,0", "0,1", 2, 4)
    )
    game, _, resolutions = turns.time_out(GRID, game, dice_of("late"))
    assert resolutions[0].orders["ann"] == (MoveIn(2),)
