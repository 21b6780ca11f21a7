"""C1-C2: the startup of a classic Risk game (seat order, dealing, starting armies, placing one at a time,
placeall) and the round-robin of turns and phases."""

from __future__ import annotations

from collections import Counter

import pytest

from shared.game import turns
from shared.game.random import SETUP_STEP, GameRandom, dice_of
from shared.rulesets.classic.board import Phase
from shared.rulesets.classic.events import ArmiesPlaced, ArmyPlaced, TurnStarted
from shared.rulesets.classic.orders import NoAttack, NoFortify, PlaceAll, PlaceArmy, Reinforce
from tests.classic_support import CLASSIC, TINY, act, real_map, refused

WORLD = real_map("world")
PLAYERS = ("ann", "bob", "cat", "dan", "eve", "fay")


def new(players: tuple[str, ...], seed: str = "s", **options: object):  # type: ignore[no-untyped-def]
    return CLASSIC.new_game(WORLD, players, CLASSIC.options(options), GameRandom(seed, SETUP_STEP))


def test_C1_two_to_six_players() -> None:
    assert CLASSIC.player_counts(CLASSIC.options({})) == (2, 6)
    with pytest.raises(ValueError):
        new(("ann",))
    with pytest.raises(ValueError):
        new(("a", "b", "c", "d", "e", "f", "g"))


def test_C1_the_seat_order_is_drawn_at_random() -> None:
    orders = {new(PLAYERS[:4], seed=f"seats{i}").board.seats for i in range(40)}
    assert all(sorted(o) == sorted(PLAYERS[:4]) for o in orders)
    assert len(orders) > 10  # 24 possible orders: a fixed order would give one


def test_C1_countries_are_dealt_round_robin_in_seat_order() -> None:
    for n in range(2, 7):
        board = new(PLAYERS[:n]).board
        held = Counter(board.owner.values())
        assert set(held) == set(board.seats)
        # 42 countries dealt one at a time: the first 42 % n seats get one more.
        expected = [42 // n + (i < 42 % n) for i in range(n)]
        assert [held[p] for p in board.seats] == expected


def test_C1_the_deal_is_a_shuffle_not_the_map_order() -> None:
    deals = {tuple(new(("ann", "bob"), seed=f"deal{i}").board.owner.values()) for i in range(5)}
    assert len(deals) == 5


@pytest.mark.parametrize(("players", "armies"), [(2, 40), (3, 35), (4, 30), (5, 25), (6, 20)])
def test_C1_starting_armies_by_player_count_one_on_each_country_at_once(players: int, armies: int) -> None:
    board = new(PLAYERS[:players]).board
    assert all(a == 1 for a in board.armies.values())
    for p in board.seats:
        assert len(board.countries_of(p)) + board.unplaced[p] == armies


def test_C1_option_initial_armies() -> None:
    board = new(("ann", "bob", "cat"), initial_armies=50).board
    assert all(len(board.countries_of(p)) + board.unplaced[p] == 50 for p in board.seats)


def test_C1_the_rest_is_placed_one_army_at_a_time_in_seat_order() -> None:
    game = new(("ann", "bob", "cat"))
    seats = game.board.seats
    assert game.board.phase is Phase.STARTUP
    seen = []
    for _ in range(6):
        player = game.board.active
        seen.append(player)
        mine = game.board.countries_of(player)[0]
        before = game.board.armies[mine]
        game, events = act(game, PlaceArmy(mine))
        assert game.board.armies[mine] == before + 1
        assert events == [ArmyPlaced(player, mine)]
    assert seen == [*seats, *seats]
    assert CLASSIC.status(game).acting == frozenset({seats[0]})


def test_C1_starting_armies_go_only_on_own_countries_and_only_in_startup() -> None:
    game = new(("ann", "bob"))
    player = game.board.active
    theirs = next(n for n, p in game.board.owner.items() if p != player)
    assert refused(game, PlaceArmy(theirs)).code == "not-your-country"
    other = next(p for p in game.board.seats if p != player)
    assert refused(game, PlaceArmy(theirs), player=other).code == "not-your-turn"
    assert refused(game, Reinforce(game.board.countries_of(player)[0], 1)).code == "wrong-phase"


def test_C1_placeall_places_the_whole_rest_at_random_on_own_countries() -> None:
    game = new(("ann", "bob"))
    player = game.board.active
    rest = game.board.unplaced[player]
    before = {n: a for n, a in game.board.armies.items()}
    game, events = act(game, PlaceAll())
    (event,) = [e for e in events if isinstance(e, ArmiesPlaced)]
    assert sum(n for _, n in event.placed) == rest
    assert all(game.board.owner[name] == player for name, _ in event.placed)
    added = {n: game.board.armies[n] - before[n] for n in before}
    assert added == {n: dict(event.placed).get(n, 0) for n in before}
    assert len(event.placed) > 1  # 26 armies at random over 21 countries do not all land on one
    assert game.board.unplaced[player] == 0
    # Placing goes on with the others only.
    other = game.board.active
    assert other != player
    game, _ = act(game, PlaceAll())
    assert game.board.phase is Phase.REINFORCEMENT


def test_C2_turns_go_round_robin_in_seat_order_each_with_three_phases() -> None:
    game = new(("ann", "bob", "cat"))
    dice = dice_of("rr")
    for _ in range(3):
        game, _ = act(game, PlaceAll(), dice)
    seats = game.board.seats
    order = []
    for _ in range(6):
        board = game.board
        assert board.phase is Phase.REINFORCEMENT
        order.append((board.turn, board.active))
        game, events = act(game, Reinforce(board.countries_of(board.active)[0], board.reinforcements), dice)
        assert game.board.phase is Phase.ATTACK
        game, _ = act(game, NoAttack(), dice)
        assert game.board.phase is Phase.FORTIFICATION
        game, events = act(game, NoFortify(), dice)
        assert isinstance(events[-1], TurnStarted)
    assert order == [(1, seats[0]), (1, seats[1]), (1, seats[2]), (2, seats[0]), (2, seats[1]), (2, seats[2])]


def test_C2_a_map_with_more_countries_than_armies_starts_at_the_first_turn() -> None:
    game = CLASSIC.new_game(TINY, ("ann", "bob"), CLASSIC.options({"initial_armies": 2}), GameRandom("big", SETUP_STEP))
    assert game.board.phase is Phase.REINFORCEMENT
    assert game.board.turn == 1 and game.board.active == game.board.seats[0]
    assert turns.awaiting(CLASSIC, game) == frozenset({game.board.seats[0]})
