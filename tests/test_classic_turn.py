"""C3 and C5-C9: reinforcement, attacks and their dice, the move-in after a conquest, fortification, elimination and
victory, and what a player whose time ran out does. Positions are set up by hand on a seven-country map:

    A - B - C        North: A B C (bonus 2)
    |       |        South: D E F G (bonus 3)
    D - E - F - G
"""

from __future__ import annotations

import pytest

from shared.game import turns
from shared.rulesets.classic.board import Conquest, Phase
from shared.rulesets.classic.cards import Card, Symbol
from shared.rulesets.classic.dice import compare
from shared.rulesets.classic.events import (
    ArmiesMovedIn,
    AttacksEnded,
    CardsTraded,
    CountryConquered,
    DiceRolled,
    FortificationSkipped,
    Fortified,
    GameWon,
    PlayerEliminated,
    Reinforced,
    TurnStarted,
)
from shared.rulesets.classic.orders import (
    AllOut,
    Attack,
    AttackMove,
    AttackUntil,
    ExchangeCards,
    Fortify,
    KeepCards,
    NoAttack,
    NoFortify,
    PlaceAll,
    Reinforce,
)
from shared.rulesets.classic.resolve import reinforcement
from tests.classic_support import CLASSIC, act, game_at, loaded, real_map, refused, total_armies

WORLD = real_map("world")
INF, CAV, ART = Symbol.INFANTRY, Symbol.CAVALRY, Symbol.ARTILLERY


# ---- C3 reinforcement -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("owned", "continents", "expected"),
    [
        (1, [], 3),  # never fewer than 3
        (8, [], 3),  # 8 // 3 = 2, raised to 3
        (9, [], 3),
        (12, [], 4),
        (20, [], 6),
        (4, ["Australia"], 3 + 2),  # the whole of Australia
        (12, ["Asia"], 4 + 7),
        (13, ["North-America", "South-America"], 4 + 5 + 2),
        (42, ["North-America", "South-America", "Europe", "Africa", "Asia", "Australia"], 14 + 24),
    ],
)
def test_C3_reinforcement_is_countries_over_3_at_least_3_plus_whole_continents(
    owned: int, continents: list[str], expected: int
) -> None:
    members = WORLD.continent_members()
    mine = [n for c in continents for n in members[c]]
    # Every continent not listed keeps its first country for bob.
    kept = {names[0] for c, names in members.items() if c not in continents}
    mine += [n for n in WORLD.names if n not in mine and n not in kept][: owned - len(mine)]
    assert len(mine) == owned
    owner = {n: "ann" if n in mine else "bob" for n in WORLD.names}
    total, _, bonuses = reinforcement(WORLD, owner, "ann")
    assert total == expected
    assert sorted(name for name, _ in bonuses) == sorted(continents)


def test_C3_the_turn_starts_with_its_reinforcements_and_all_must_be_placed_before_attacking() -> None:
    # ann holds North (A B C) and D: 3 for countries + 2 for North.
    game = game_at("aaaabbb", [3, 1, 1, 2, 5, 1, 1], phase=Phase.FORTIFICATION, active="bob")
    game, events = act(game, NoFortify(), player="bob")
    assert events[-1] == TurnStarted(2, "ann", 5, 3, (("North", 2),))
    assert game.board.reinforcements == 5 and game.board.phase is Phase.REINFORCEMENT
    assert refused(game, Attack("D", "E", 1)).code == "wrong-phase"
    assert refused(game, Reinforce("A", 6)).code == "too-many"
    assert refused(game, Reinforce("E", 1)).code == "not-your-country"
    game, events = act(game, Reinforce("A", 2))
    assert events == [Reinforced("ann", "A", 2, 3)]
    assert game.board.phase is Phase.REINFORCEMENT
    game, _ = act(game, Reinforce("D", 3))
    assert game.board.phase is Phase.ATTACK
    assert game.board.armies["A"] == 5 and game.board.armies["D"] == 5


# ---- C5 attacks -----------------------------------------------------------------------------------------------

# Dice as rolled (any order) and the (attacker, defender) losses, worked out by hand: highest against highest, second
# against second when both rolled two or more, the defender wins ties.
COMPARISONS = [
    ((6,), (5,), (0, 1)),
    ((5,), (5,), (1, 0)),  # a tie: the defender wins
    ((1,), (6,), (1, 0)),
    ((6, 2), (5, 2), (1, 1)),  # 6 beats 5; 2 ties 2
    ((3, 3), (3,), (1, 0)),  # one comparison only: 3 ties 3
    ((4, 3, 2), (3,), (0, 1)),
    ((4, 3, 2), (3, 2), (0, 2)),
    ((2, 4, 3), (2, 3), (0, 2)),  # dice are sorted before comparing
    ((6, 6, 6), (6, 6), (2, 0)),
    ((6, 1, 1), (5, 5), (1, 1)),
    ((1,), (6, 1), (1, 0)),  # one attacking die: one comparison, with the defender's highest
    ((2,), (1, 1), (0, 1)),
    ((5, 4), (6, 4), (2, 0)),
]


@pytest.mark.parametrize(("attack", "defence", "losses"), COMPARISONS)
def test_C5_highest_against_highest_then_second_defender_wins_ties(
    attack: tuple[int, ...], defence: tuple[int, ...], losses: tuple[int, int]
) -> None:
    assert compare(attack, defence) == losses


def test_C5_an_attack_rolls_the_chosen_dice_against_the_defenders_automatic_two_and_shows_them() -> None:
    game = game_at("aaaabbb", [3, 1, 1, 4, 3, 1, 1])
    # ann rolls 3 from D (4 armies) into E (3 armies): the defender rolls 2.
    game, events = act(game, Attack("D", "E", 3), loaded(2, 6, 5, 5, 4))
    assert events == [DiceRolled("ann", "D", "E", "bob", (6, 5, 2), (5, 4), 0, 2, 4, 1)]
    # E has one army left: the defender rolls 1 die.
    game, events = act(game, Attack("D", "E", 2), loaded(3, 1, 3))
    assert events[0] == DiceRolled("ann", "D", "E", "bob", (3, 1), (3,), 1, 0, 3, 1)


@pytest.mark.parametrize(
    ("order", "code"),
    [
        (Attack("E", "D", 1), "not-your-country"),
        (Attack("A", "B", 1), "own-country"),
        (Attack("A", "E", 1), "not-adjacent"),
        (Attack("C", "F", 1), "not-enough-armies"),  # C has 1 army
        (Attack("D", "E", 3), "bad-dice"),  # D has 3 armies: at most 2 dice
        (Attack("D", "E", 0), "bad-dice"),
        (Attack("A", "X", 1), "unknown-territory"),
        (AllOut("C", "F"), "not-enough-armies"),
    ],
)
def test_C5_attacks_go_from_an_own_country_of_2_armies_or_more_to_an_enemy_neighbour_with_1_to_3_dice(
    order: Attack | AllOut, code: str
) -> None:
    game = game_at("aaaabbb", [3, 1, 1, 3, 3, 1, 1])
    assert refused(game, order).code == code


def test_C5_four_dice_are_never_allowed() -> None:
    game = game_at("aaaabbb", [3, 1, 1, 9, 3, 1, 1])
    assert refused(game, Attack("D", "E", 4)).code == "bad-dice"


def test_C5_all_out_rolls_the_most_dice_until_the_attacker_is_down_to_one() -> None:
    game = game_at("aaaabbb", [3, 1, 1, 4, 5, 1, 1])
    # 3 dice against 2: the attacker loses 2 (D 4 -> 2); then 1 die against 2: loses 1 (D 2 -> 1); stop.
    game, events = act(game, AllOut("D", "E"), loaded(1, 1, 1, 6, 6, 2, 6, 6))
    rolls = [e for e in events if isinstance(e, DiceRolled)]
    assert [(len(r.attack), len(r.defence)) for r in rolls] == [(3, 2), (1, 2)]
    assert game.board.armies["D"] == 1 and game.board.armies["E"] == 5
    assert game.board.owner["E"] == "bob"


def test_C5_all_out_stops_when_the_country_falls() -> None:
    game = game_at("aaaabbb", [3, 1, 1, 6, 2, 1, 1])
    game, events = act(game, AllOut("D", "E"), loaded(6, 6, 6, 1, 1))
    assert sum(isinstance(e, DiceRolled) for e in events) == 1
    assert game.board.owner["E"] == "ann"


def test_an_attack_until_n_remain_stops_with_n_armies_left_in_the_attacking_country() -> None:
    game = game_at("aaaabbb", [3, 1, 1, 9, 9, 1, 1])
    # 3 dice against 2, the attacker losing 2 a roll: D 9 -> 7 -> 5, and stops there with 5 left (remain 5)
    game, events = act(game, AttackUntil("D", "E", 5), loaded(1, 1, 1, 6, 6, 1, 1, 1, 6, 6))
    rolls = [e for e in events if isinstance(e, DiceRolled)]
    assert [(len(r.attack), len(r.defence), r.attacker_losses) for r in rolls] == [(3, 2, 2), (3, 2, 2)]
    assert game.board.armies["D"] == 5 and game.board.phase is Phase.ATTACK
    # and one that takes the country first stops there, as all-out does
    game = game_at("aaaabbb", [3, 1, 1, 9, 2, 1, 1])
    game, events = act(game, AttackUntil("D", "E", 5), loaded(6, 6, 6, 1, 1))
    assert sum(isinstance(e, DiceRolled) for e in events) == 1 and game.board.owner["E"] == "ann"


@pytest.mark.parametrize(("remain", "code"), [(0, "too-few"), (9, "too-many"), (12, "too-many")])
def test_an_attack_until_n_remain_leaves_1_to_all_but_one_of_the_armies(remain: int, code: str) -> None:
    game = game_at("aaaabbb", [3, 1, 1, 9, 9, 1, 1])
    assert refused(game, AttackUntil("D", "E", remain)).code == code
    offered = [e for e in turns.legal_orders(CLASSIC, game, "ann") if isinstance(e.order, AttackUntil)]
    assert [(e.order, e.count_field, e.least) for e in offered] == [(AttackUntil("D", "E", 8), "remain", 1)]


# ---- C6 the move-in ------------------------------------------------------------------------------------------


def test_C6_after_a_conquest_the_move_in_is_the_only_legal_action() -> None:
    game = game_at("aaaabbb", [3, 1, 1, 6, 1, 1, 1])
    game, events = act(game, Attack("D", "E", 2), loaded(6, 6, 1))
    assert CountryConquered("ann", "D", "E", "bob", 2, 5) in events
    assert game.board.phase is Phase.MOVE_IN
    assert game.board.conquest == Conquest("D", "E", 2, 5)
    legal = turns.legal_orders(CLASSIC, game, "ann")
    assert [(entry.order, entry.count_field, entry.least) for entry in legal] == [(AttackMove(5), "armies", 2)]
    for other in (
        Attack("A", "B", 1),
        AllOut("D", "F"),
        NoAttack(),
        Fortify("D", "A", 1),
        NoFortify(),
        Reinforce("A", 1),
        KeepCards(),
    ):
        problem = refused(game, other)
        assert problem.code == "wrong-phase" and "attackmove" in problem.message
    assert refused(game, AttackMove(1)).code == "too-few"  # at least the dice of the last roll
    assert refused(game, AttackMove(6)).code == "too-many"  # at most D's armies - 1
    game, events = act(game, AttackMove(4))
    assert events[0] == ArmiesMovedIn("ann", "D", "E", 4)
    assert (game.board.armies["D"], game.board.armies["E"]) == (2, 4)
    assert game.board.phase is Phase.ATTACK


def test_C6_with_only_one_choice_the_move_in_is_made_at_once() -> None:
    game = game_at("aaaabbb", [3, 1, 1, 4, 1, 1, 1])
    game, events = act(game, Attack("D", "E", 3), loaded(6, 6, 6, 1))
    assert ArmiesMovedIn("ann", "D", "E", 3, automatic=True) in events
    assert (game.board.armies["D"], game.board.armies["E"]) == (1, 3)
    assert game.board.phase is Phase.ATTACK


# ---- C7 fortification -------------------------------------------------------------------------------------------


def test_C7_any_number_of_attacks_then_one_fortification_along_own_countries_which_ends_the_turn() -> None:
    game = game_at("aaaabbb", [3, 2, 1, 9, 3, 1, 1])
    for _ in range(3):
        game, _ = act(game, Attack("D", "E", 1), loaded(1, 6, 6))
    assert game.board.armies["D"] == 6 and game.board.phase is Phase.ATTACK
    game, events = act(game, NoAttack())
    assert events == [AttacksEnded("ann")]
    assert game.board.phase is Phase.FORTIFICATION
    assert refused(game, Fortify("D", "E", 1)).code == "not-your-country"
    assert refused(game, Fortify("D", "D", 1)).code == "same-country"
    assert refused(game, Fortify("D", "C", 6)).code == "too-many"  # one stays behind
    assert refused(game, Fortify("C", "A", 1)).code == "too-many"  # C has 1 army: nothing may leave
    game, events = act(game, Fortify("D", "C", 5))  # D - A - B - C, all ann's
    assert events[0] == Fortified("ann", "D", "C", 5)
    assert game.board.active == "bob" and game.board.phase is Phase.REINFORCEMENT


def test_C7_no_fortification_through_an_enemy_country() -> None:
    game = game_at("abaabbb", [3, 1, 2, 3, 1, 1, 1], phase=Phase.FORTIFICATION)
    # C's only own neighbour is... none: B and F are bob's.
    assert refused(game, Fortify("C", "A", 1)).code == "no-path"


def test_C7_option_adjacent_fortifies_only_between_neighbours() -> None:
    game = game_at("aaaabbb", [3, 1, 1, 5, 3, 1, 1], phase=Phase.FORTIFICATION, options={"fortify": "adjacent"})
    assert refused(game, Fortify("D", "B", 2)).code == "not-adjacent"
    game, events = act(game, Fortify("D", "A", 2))
    assert events[0] == Fortified("ann", "D", "A", 2)


def test_C7_the_attack_phase_ends_by_itself_when_no_attack_is_possible() -> None:
    game = game_at("aaaabbb", [1, 1, 1, 1, 3, 1, 1], phase=Phase.REINFORCEMENT, reinforcements=1)
    game, events = act(game, Reinforce("A", 1))  # A (2 armies) next to B, D: all ann's; nothing can attack
    assert AttacksEnded("ann", automatic=True) in events
    assert game.board.phase is Phase.FORTIFICATION


# ---- C8 elimination and victory ----------------------------------------------------------------------------


def test_C8_a_player_with_no_country_is_out_and_their_turns_are_skipped() -> None:
    # bob takes cat's only country G from F.
    game = game_at("aaaabbc", [3, 1, 1, 3, 2, 4, 1], seats=("ann", "bob", "cat"), active="bob")
    game, events = act(game, Attack("F", "G", 3), loaded(6, 6, 6, 1))
    assert PlayerEliminated("cat", "bob") in events
    status = CLASSIC.status(game)
    assert status.eliminated == ("cat",) and not status.finished
    game, _ = act(game, NoAttack())
    game, _ = act(game, NoFortify())
    assert game.board.active == "ann"  # bob's turn passed to ann; then cat is skipped
    game, _ = act(game, Reinforce("A", game.board.reinforcements))
    game, _ = act(game, NoAttack())
    game, _ = act(game, NoFortify())
    assert game.board.active == "bob"
    assert refused(game, Reinforce("G", 1), player="cat").code == "eliminated"


def test_C8_the_player_who_owns_every_country_wins() -> None:
    game = game_at("aaaaaab", [3, 1, 1, 3, 1, 3, 1])
    game, events = act(game, Attack("F", "G", 2), loaded(6, 6, 1))
    assert events[-1] == GameWon("ann", "domination")
    status = CLASSIC.status(game)
    assert status.finished and status.winner == "ann" and status.acting == frozenset()
    assert game.board.armies["G"] == 2  # the least (the dice rolled) moved in at once
    assert refused(game, NoAttack()).code == "game-over"


# ---- C9 time limits -------------------------------------------------------------------------------------------


def test_C9_an_absent_players_turn_is_played_as_the_defaults() -> None:
    # ann has 7 to place; of her countries, C (next to F) and D (next to E) face bob.
    game = game_at("aaaabbb", [1, 1, 1, 1, 2, 2, 2], phase=Phase.REINFORCEMENT, reinforcements=7)
    before = total_armies(game)
    game, late, resolutions = turns.time_out(CLASSIC, game, loaded())
    assert late == ["ann"]
    events = [e for r in resolutions for e in r.events]
    placed = {e.country: e.armies for e in events if isinstance(e, Reinforced)}
    assert placed == {"C": 4, "D": 3}  # C and D face bob; spread evenly, map order first
    assert AttacksEnded("ann") in events and FortificationSkipped("ann") in events
    assert not any(isinstance(e, DiceRolled) for e in events)
    assert total_armies(game) == before + 7
    assert game.board.active == "bob" and game.board.phase is Phase.REINFORCEMENT


def test_C9_an_absent_player_holding_five_cards_trades_first() -> None:
    hand = (Card(INF, "A"), Card(CAV, "B"), Card(ART, "C"), Card(INF, "D"), Card(INF, "E"))
    game = game_at(
        "aaaabbb", [1, 1, 1, 1, 2, 2, 2], phase=Phase.REINFORCEMENT, reinforcements=3, hands={"ann": hand, "bob": ()}
    )
    game, _, resolutions = turns.time_out(CLASSIC, game, loaded())
    events = [e for r in resolutions for e in r.events]
    assert isinstance(events[0], CardsTraded)
    assert sum(e.armies for e in events if isinstance(e, Reinforced)) == 3 + 5


def test_C9_time_out_during_a_move_in_moves_the_least() -> None:
    game = game_at("aaaaabb", [1, 1, 1, 6, 0, 2, 1], phase=Phase.MOVE_IN, conquest=Conquest("D", "E", 2, 5))
    game, _, resolutions = turns.time_out(CLASSIC, game, loaded())
    events = [e for r in resolutions for e in r.events]
    assert events[0] == ArmiesMovedIn("ann", "D", "E", 2)
    assert game.board.active == "bob"


def test_C9_time_out_in_startup_places_the_rest() -> None:
    game = game_at("aaaabbb", [1] * 7, phase=Phase.STARTUP, turn=0, unplaced={"ann": 4, "bob": 4})
    game, _, resolutions = turns.time_out(CLASSIC, game, loaded())
    assert isinstance(resolutions[0].orders["ann"][0], PlaceAll)
    assert game.board.unplaced["ann"] == 0 and game.board.active == "bob"


def test_C9_the_time_limit_follows_the_active_player() -> None:
    game = game_at("aaaabbb", [3, 1, 1, 3, 3, 1, 1])
    clock = CLASSIC.status(game).clock
    game, _ = act(game, Attack("D", "E", 1), loaded(1, 6, 6))
    assert CLASSIC.status(game).clock == clock  # the same player acts on: the clock runs on
    game, _ = act(game, NoAttack())
    game, _ = act(game, NoFortify())
    assert CLASSIC.status(game).clock != clock
    assert CLASSIC.status(game).acting == frozenset({"bob"})


def test_C9_a_trade_refused_to_an_absent_player_never_happens() -> None:
    game = game_at(
        "aaaabbb",
        [1, 1, 1, 1, 2, 2, 2],
        phase=Phase.REINFORCEMENT,
        reinforcements=3,
        hands={"ann": (Card(INF, "A"), Card(INF, "B"), Card(INF, "C")), "bob": ()},
    )
    # 3 cards: no forced trade; the defaults keep them.
    game, _, resolutions = turns.time_out(CLASSIC, game, loaded())
    assert not any(isinstance(r.orders["ann"][0], ExchangeCards) for r in resolutions)
    assert len(game.board.hand("ann")) == 3
