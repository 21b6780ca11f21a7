"""R16-R26 and D1-D2: simultaneous execution, combat, reinforcement, elimination, victory, randomness, views."""

from __future__ import annotations

from shared.game.errors import RuleError
from shared.game.random import GameRandom
from shared.game.turns import awaiting, commit, issue, ready
from shared.rulesets.risc.board import Phase
from shared.rulesets.risc.combat import fight, roll_round_by_round
from shared.rulesets.risc.events import Combat, GameWon, PlayerEliminated, UnitsReceived
from shared.rulesets.risc.orders import AttackOrder, MoveOrder
from tests.engine_support import (
    RISC,
    LoadedDice,
    RuleCode,
    issued,
    line_map,
    make_state,
    play_turn,
    resolve,
    seed_state,
    view,
)


def combats(events: list[object]) -> list[Combat]:
    return [e for e in events if isinstance(e, Combat)]


def test_R16_nobody_sees_another_player_s_orders_only_that_they_committed() -> None:
    state = issued(seed_state(), "green", MoveOrder(3, "Narnia", "Oz"))
    committed = commit(RISC, state, "green")
    assert not isinstance(committed, RuleError)
    for viewer in ("blue", "red", None):
        seen = view(committed, viewer)
        assert seen.your_orders == []
    assert committed.committed == {"green"} and awaiting(RISC, committed) == {"blue", "red"}
    assert view(committed, "green").your_orders == [MoveOrder(3, "Narnia", "Oz")]
    assert not ready(RISC, committed)


def test_R17_moves_execute_before_attacks_and_moved_units_defend() -> None:
    # Blue attacks Hogwarts (3) with 4 while red moves 6 in from Mordor: 4 against 9.
    _, events = play_turn(
        seed_state(),
        {
            "blue": [AttackOrder(4, "Scadrial", "Hogwarts")],
            "red": [MoveOrder(6, "Mordor", "Hogwarts")],
        },
    )
    (battle,) = combats(events)
    assert (battle.attacking_units, battle.defending_units) == (4, 9)


def test_R17_units_that_move_out_do_not_defend() -> None:
    state, events = play_turn(
        seed_state(),
        {
            "blue": [MoveOrder(5, "Scadrial", "Roshar")],
            "green": [AttackOrder(1, "Midkemia", "Scadrial")],
        },
    )
    (battle,) = combats(events)
    assert (battle.defending_units, battle.new_owner) == (0, "green")
    assert state.board.units["Scadrial"] == 1 + 1


def test_R18_attacks_that_cross_pass_each_other() -> None:
    # All of Oz attacks Mordor and all of Mordor attacks Oz: both succeed with no losses.
    state, events = play_turn(
        seed_state(),
        {
            "green": [AttackOrder(8, "Oz", "Mordor")],
            "red": [AttackOrder(14, "Mordor", "Oz")],
        },
    )
    assert {(c.territory, c.attacker_losses, c.defender_losses, c.defending_units) for c in combats(events)} == {
        ("Mordor", 0, 0, 0),
        ("Oz", 0, 0, 0),
    }
    assert (state.board.owner["Mordor"], state.board.units["Mordor"]) == ("green", 9)
    assert (state.board.owner["Oz"], state.board.units["Oz"]) == ("red", 15)


def test_R19_every_owned_territory_gains_one_unit_but_neutrals_do_not() -> None:
    game_map = line_map("A", "B", "C")
    state = make_state(game_map, {"A": "p", "B": "q", "C": None}, {"A": 0, "B": 5, "C": 2})
    state, events = play_turn(state, {})
    assert dict(state.board.units) == {"A": 1, "B": 6, "C": 2}
    assert UnitsReceived("p", 1) in events and UnitsReceived("q", 1) in events


def test_R20_the_lower_roll_loses_and_the_defender_wins_ties() -> None:
    # Rolls (attacker, defender): defender loses, tie -> attacker loses, attacker loses, defender loses twice.
    dice = LoadedDice([(15, 3), (7, 7), (2, 19), (20, 1), (11, 10)])
    assert roll_round_by_round(3, 3, dice) == (1, 0)


def test_R20_fight_ends_when_one_side_has_no_units() -> None:
    for seed in range(50):
        attackers, defenders = fight(30, 25, GameRandom(seed))
        assert (attackers == 0) != (defenders == 0)
        assert 0 <= attackers <= 30 and 0 <= defenders <= 25


def test_R21_one_player_s_attacks_on_one_target_fight_as_one_force() -> None:
    _, events = play_turn(
        seed_state(),
        {
            "green": [AttackOrder(5, "Midkemia", "Scadrial"), AttackOrder(4, "Oz", "Scadrial")],
        },
    )
    (battle,) = combats(events)
    assert battle.attacking_units == 9
    assert dict(battle.sources) == {"Midkemia": 5, "Oz": 4}


def test_R22_several_attackers_fight_in_turn_and_the_winner_defends_next() -> None:
    orders = {"green": [AttackOrder(3, "Oz", "Mordor")], "blue": [AttackOrder(5, "Scadrial", "Mordor")]}
    first_attackers = set()
    for seed in range(30):
        _, events = play_turn(seed_state(), orders, seed=seed)
        first, second = combats(events)
        assert first.territory == second.territory == "Mordor"
        assert second.defender == first.new_owner
        expected = (
            first.defending_units - first.defender_losses
            if first.new_owner == "red"
            else first.attacking_units - first.attacker_losses
        )
        assert second.defending_units == expected
        first_attackers.add(first.attacker)
    assert first_attackers == {"green", "blue"}


def test_R23_winners_survivors_hold_the_territory() -> None:
    for seed in range(20):
        state, events = play_turn(seed_state(), {"green": [AttackOrder(12, "Midkemia", "Scadrial")]}, seed=seed)
        (battle,) = combats(events)
        if battle.new_owner == "green":
            survivors = battle.attacking_units - battle.attacker_losses
        else:
            survivors = battle.defending_units - battle.defender_losses
        assert state.board.owner["Scadrial"] == battle.new_owner
        assert state.board.units["Scadrial"] == survivors + 1


def test_R24_every_combat_is_reported_with_sides_forces_losses_and_owner() -> None:
    _, events = play_turn(
        seed_state(),
        {
            "green": [AttackOrder(10, "Midkemia", "Scadrial")],
            "blue": [AttackOrder(4, "Scadrial", "Hogwarts")],
        },
    )
    reports = {c.territory: c for c in combats(events)}
    assert set(reports) == {"Scadrial", "Hogwarts"}
    scadrial = reports["Scadrial"]
    assert (scadrial.attacker, scadrial.defender, scadrial.attacking_units, scadrial.defending_units) == (
        "green",
        "blue",
        10,
        1,
    )
    assert scadrial.attacker_losses + scadrial.defender_losses >= 1
    assert scadrial.new_owner in ("green", "blue")


def test_R25_a_player_with_no_territory_loses_and_is_no_longer_awaited() -> None:
    game_map = line_map("A", "B", "C")
    state = make_state(game_map, {"A": "p", "B": "q", "C": "r"}, {"A": 50, "B": 0, "C": 50})
    state, events = play_turn(state, {"p": [AttackOrder(50, "A", "B")]})
    assert PlayerEliminated("q") in events
    assert state.board.eliminated == ("q",) and RISC.status(state).acting == frozenset({"p", "r"})
    assert awaiting(RISC, state) == frozenset({"p", "r"})
    refused = issue(RISC, state, "q", MoveOrder(1, "A", "B"))
    assert isinstance(refused, RuleError) and refused.code == RuleCode.ELIMINATED
    assert [p.eliminated for p in view(state, "q").players.values()] == [False, True, False]
    state, _ = play_turn(state, {})
    assert state.board.phase is Phase.ORDERS


def test_R26_one_owner_of_every_territory_wins_neutrals_included() -> None:
    game_map = line_map("A", "B", "C")
    state = make_state(game_map, {"A": "p", "B": "q", "C": None}, {"A": 50, "B": 0, "C": 0}, players=("p", "q"))
    state, events = play_turn(state, {"p": [AttackOrder(20, "A", "B")]})
    assert state.board.winner is None and state.board.phase is Phase.ORDERS  # C is still neutral
    state, events = play_turn(state, {"p": [AttackOrder(10, "B", "C")]})
    assert GameWon("p") in events
    assert state.board.winner == "p" and state.board.phase is Phase.FINISHED
    over = issue(RISC, state, "p", MoveOrder(1, "A", "B"))
    assert isinstance(over, RuleError) and over.code == RuleCode.GAME_OVER


def test_D1_the_same_seed_and_orders_give_the_same_result() -> None:
    orders = {
        "green": [AttackOrder(8, "Oz", "Mordor"), AttackOrder(10, "Midkemia", "Scadrial")],
        "blue": [AttackOrder(5, "Scadrial", "Oz")],
        "red": [AttackOrder(14, "Mordor", "Oz")],
    }
    first = play_turn(seed_state(), orders, seed=42)
    assert play_turn(seed_state(), orders, seed=42) == first
    outcomes = {tuple(sorted(play_turn(seed_state(), orders, seed=s)[0].board.units.items())) for s in range(10)}
    assert len(outcomes) > 1


def test_D1_each_turn_draws_from_the_game_seed_and_the_turn_alone() -> None:
    assert [GameRandom(5, 3).d20() for _ in range(10)] == [GameRandom(5, 3).d20() for _ in range(10)]
    assert [GameRandom(5, 3).d20() for _ in range(10)] != [GameRandom(5, 4).d20() for _ in range(10)]


def test_D2_spectators_see_the_board_but_no_orders() -> None:
    state = issued(seed_state(), "green", MoveOrder(3, "Narnia", "Oz"))
    spectator = view(state, None)
    player = view(state, "green")
    assert spectator.your_orders == [] and player.your_orders == [MoveOrder(3, "Narnia", "Oz")]
    assert spectator.territories == player.territories
    assert spectator.territories["Narnia"].units == 10
    assert view(state, "intruder").your_orders == []


def test_turn_structure_R11_issue_execute_then_receive() -> None:
    state = seed_state()
    state, _ = resolve(state)  # nobody issued anything: only R19 happens
    assert state.board.turn == 2
    assert all(state.board.units[t] == seed_state().board.units[t] + 1 for t in state.game_map.names)
