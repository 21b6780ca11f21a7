"""The seed's example turn, played as the requirements tell it."""

from __future__ import annotations

from shared.rulesets.risc.events import Combat, UnitsMoved
from shared.rulesets.risc.orders import AttackOrder, MoveOrder
from tests.engine_support import SEED_UNITS, play_turn, seed_state

EXAMPLE_ORDERS = {
    "green": [MoveOrder(3, "Narnia", "Oz"), AttackOrder(10, "Midkemia", "Scadrial")],
    "blue": [AttackOrder(4, "Scadrial", "Hogwarts")],
    "red": [MoveOrder(6, "Mordor", "Hogwarts")],
}


def test_the_example_turn_fights_who_the_seed_says_with_how_many() -> None:
    for seed in range(25):
        state, events = play_turn(seed_state(), EXAMPLE_ORDERS, seed=seed)
        moves = [e for e in events if isinstance(e, UnitsMoved)]
        assert {(m.player, m.units, m.source, m.target) for m in moves} == {
            ("green", 3, "Narnia", "Oz"),
            ("red", 6, "Mordor", "Hogwarts"),
        }
        battles = {c.territory: c for c in events if isinstance(c, Combat)}
        hogwarts, scadrial = battles["Hogwarts"], battles["Scadrial"]
        assert (hogwarts.attacker, hogwarts.defender) == ("blue", "red")
        assert (hogwarts.attacking_units, hogwarts.defending_units) == (4, 9)
        assert (scadrial.attacker, scadrial.defender) == ("green", "blue")
        assert (scadrial.attacking_units, scadrial.defending_units) == (10, 1)

        # Untouched territories only gain their +1.
        assert state.board.units["Narnia"] == 10 - 3 + 1
        assert state.board.units["Oz"] == 8 + 3 + 1
        assert state.board.units["Midkemia"] == 12 - 10 + 1
        assert state.board.units["Mordor"] == 14 - 6 + 1
        assert state.board.units["Gondor"] == SEED_UNITS["Gondor"] + 1
        for battle in (hogwarts, scadrial):
            winner_left = (
                battle.attacking_units - battle.attacker_losses
                if battle.attacker_won
                else battle.defending_units - battle.defender_losses
            )
            assert state.board.owner[battle.territory] == battle.new_owner
            assert state.board.units[battle.territory] == winner_left + 1


def test_the_seed_s_pictured_outcome_is_one_of_the_outcomes() -> None:
    """Green takes Scadrial losing 1 (10 units there next turn); red holds Hogwarts losing 5."""
    seen = False
    for seed in range(400):
        state, events = play_turn(seed_state(), EXAMPLE_ORDERS, seed=seed)
        battles = {c.territory: c for c in events if isinstance(c, Combat)}
        if (
            battles["Scadrial"].new_owner,
            battles["Scadrial"].attacker_losses,
            battles["Hogwarts"].new_owner,
            battles["Hogwarts"].defender_losses,
        ) == ("green", 1, "red", 5):
            assert (state.board.units["Scadrial"], state.board.units["Hogwarts"]) == (10, 9 - 5 + 1)
            seen = True
            break
    assert seen
