"""R12-R15: what orders a player may issue, checked in the order issued against what is left."""

from __future__ import annotations

from typing import Any

import pytest

from shared.game.errors import RuleError
from shared.game.turns import commit, issue, tally, withdraw
from shared.rulesets.risc.checker import units_left
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, Order, PlaceOrder
from tests.engine_support import RISC, RuleCode, issued, make_state, seed_map, seed_state


def left(state: Any, player: str, *territories: str) -> list[int]:
    """The units each territory has left to send once the player's orders so far are counted (R15)."""
    counted = tally(RISC, state, player)
    return [units_left(state.board, counted, t) for t in territories]


def refusal(state_player_order: tuple[object, str, Order]) -> RuleError:
    state, player, order = state_player_order
    result = issue(RISC, state, player, order)  # type: ignore[arg-type]
    assert isinstance(result, RuleError), f"{order} was accepted"
    return result


@pytest.mark.parametrize(
    ("order", "code"),
    [
        (MoveOrder(0, "Narnia", "Oz"), RuleCode.NON_POSITIVE_UNITS),
        (MoveOrder(-3, "Narnia", "Oz"), RuleCode.NON_POSITIVE_UNITS),
        (AttackOrder(0, "Midkemia", "Scadrial"), RuleCode.NON_POSITIVE_UNITS),
        (MoveOrder(1, "Narnia", "Narnia"), RuleCode.SAME_TERRITORY),
        (MoveOrder(1, "Atlantis", "Oz"), RuleCode.UNKNOWN_TERRITORY),
        (PlaceOrder("Oz", 3), RuleCode.WRONG_PHASE),
    ],
)
def test_R12_an_order_names_at_least_one_unit_and_two_real_territories(order: Order, code: RuleCode) -> None:
    assert refusal((seed_state(), "green", order)).code == code


def test_R12_orders_may_be_changed_until_commit_and_not_after() -> None:
    state = issued(seed_state(), "green", MoveOrder(3, "Narnia", "Oz"), AttackOrder(10, "Midkemia", "Scadrial"))
    changed = withdraw(RISC, state, "green", 0)
    assert not isinstance(changed, RuleError)
    assert changed.orders_of("green") == (AttackOrder(10, "Midkemia", "Scadrial"),)
    done = commit(RISC, changed, "green")
    assert not isinstance(done, RuleError)
    late = issue(RISC, done, "green", MoveOrder(1, "Narnia", "Oz"))
    assert isinstance(late, RuleError) and late.code == RuleCode.ALREADY_COMMITTED
    late_withdraw = withdraw(RISC, done, "green", 0)
    assert isinstance(late_withdraw, RuleError) and late_withdraw.code == RuleCode.ALREADY_COMMITTED
    again = commit(RISC, done, "green")
    assert isinstance(again, RuleError) and again.code == RuleCode.ALREADY_COMMITTED


def test_R12_withdrawing_a_missing_order_is_refused() -> None:
    result = withdraw(RISC, seed_state(), "green", 0)
    assert isinstance(result, RuleError) and result.code == RuleCode.NO_SUCH_ORDER


def test_R13_a_move_may_cross_own_territories_to_a_non_adjacent_one() -> None:
    assert "Oz" not in seed_map().neighbours("Narnia")
    state = issued(seed_state(), "green", MoveOrder(3, "Narnia", "Oz"))
    assert state.orders_of("green") == (MoveOrder(3, "Narnia", "Oz"),)


def test_R13_a_move_may_not_cross_enemy_land() -> None:
    owner = {**seed_state().board.owner, "Midkemia": "blue"}
    state = make_state(seed_map(), owner, seed_state().board.units, players=("green", "blue", "red"))
    result = refusal((state, "green", MoveOrder(3, "Narnia", "Oz")))
    assert result.code == RuleCode.NO_PATH
    assert result.message == "no path of your own territories leads from Narnia to Oz"


def test_R13_a_move_ends_on_an_own_territory() -> None:
    assert refusal((seed_state(), "green", MoveOrder(3, "Midkemia", "Scadrial"))).code == RuleCode.TARGET_NOT_YOURS


def test_R13_R14_orders_start_from_own_territories() -> None:
    assert refusal((seed_state(), "green", AttackOrder(3, "Scadrial", "Hogwarts"))).code == RuleCode.NOT_YOUR_TERRITORY
    assert refusal((seed_state(), "green", MoveOrder(3, "Gondor", "Mordor"))).code == RuleCode.NOT_YOUR_TERRITORY


def test_R14_attacks_go_only_to_adjacent_territories() -> None:
    result = refusal((seed_state(), "green", AttackOrder(3, "Narnia", "Hogwarts")))
    assert result.code == RuleCode.NOT_ADJACENT
    assert result.message == "Hogwarts is not adjacent to Narnia: attacks go only to a neighbouring territory"


def test_R14_attacks_go_only_against_someone_else() -> None:
    assert refusal((seed_state(), "green", AttackOrder(3, "Narnia", "Midkemia"))).code == RuleCode.ATTACK_ON_OWN


def test_R14_a_neutral_territory_may_be_attacked() -> None:
    owner = {**seed_state().board.owner, "Scadrial": None}
    state = make_state(seed_map(), owner, seed_state().board.units, players=("green", "blue", "red"))
    attacked = issued(state, "green", AttackOrder(3, "Midkemia", "Scadrial"))
    assert attacked.orders_of("green") == (AttackOrder(3, "Midkemia", "Scadrial"),)
    assert left(attacked, "green", "Midkemia", "Scadrial") == [9, 5], "the attackers have left; the target is as it was"


def test_R15_units_sent_are_no_longer_there_for_later_orders() -> None:
    state = issued(seed_state(), "green", AttackOrder(4, "Oz", "Scadrial"))
    result = refusal((state, "green", AttackOrder(6, "Oz", "Mordor")))
    assert result.code == RuleCode.NOT_ENOUGH_UNITS
    assert result.message == "Oz has 4 units left to send, the order asks for 6"


def test_R15_units_moved_in_are_there_for_later_orders() -> None:
    state = issued(seed_state(), "green", MoveOrder(3, "Narnia", "Oz"))
    assert left(state, "green", "Narnia", "Oz") == [7, 11], "Oz's 8 and the 3 moved in"
    state = issued(state, "green", AttackOrder(11, "Oz", "Mordor"))
    assert state.orders_of("green") == (MoveOrder(3, "Narnia", "Oz"), AttackOrder(11, "Oz", "Mordor"))
    assert left(state, "green", "Narnia", "Oz") == [7, 0]
    assert refusal((state, "green", AttackOrder(1, "Oz", "Gondor"))).code == RuleCode.NOT_ENOUGH_UNITS


def test_R15_a_territory_may_be_emptied() -> None:
    state = issued(seed_state(), "green", AttackOrder(10, "Narnia", "Elantris"), MoveOrder(12, "Midkemia", "Oz"))
    assert left(state, "green", "Narnia", "Midkemia", "Oz") == [0, 0, 20], "both emptied, Oz 8 and 12 moved in"


def test_R15_withdrawing_an_order_that_later_orders_rely_on_is_refused() -> None:
    state = issued(seed_state(), "green", MoveOrder(3, "Narnia", "Oz"), AttackOrder(11, "Oz", "Mordor"))
    result = withdraw(RISC, state, "green", 0)
    assert isinstance(result, RuleError) and result.code == RuleCode.NOT_ENOUGH_UNITS
    assert state.orders_of("green") == (MoveOrder(3, "Narnia", "Oz"), AttackOrder(11, "Oz", "Mordor"))


def test_R15_a_player_cannot_order_for_another_seat() -> None:
    assert refusal((seed_state(), "mallory", MoveOrder(1, "Narnia", "Oz"))).code == RuleCode.NOT_A_PLAYER


def test_R15_an_order_is_checked_alone_against_what_the_earlier_ones_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issuing the n-th order checks and counts that order alone, however many came before it: the framework keeps
    what the earlier ones use up (the tally) beside them, so issuing costs the same at the 1st order and the 200th."""
    calls = {"start_tally": 0, "check_order": 0, "account": 0}
    for name in calls:
        method = getattr(RISC, name)

        def counted(*args: object, _name: str = name, _method: object = method) -> object:
            calls[_name] += 1
            return _method(*args)  # type: ignore[operator]

        monkeypatch.setattr(RISC, name, counted)
    state = seed_state()
    for n in range(1, 201):
        before = dict(calls)
        result = issue(
            RISC, state, "green", MoveOrder(1, "Narnia", "Midkemia") if n % 2 else MoveOrder(1, "Midkemia", "Narnia")
        )
        assert not isinstance(result, RuleError), result
        state = result
        assert calls["check_order"] - before["check_order"] == 1, f"order {n}: the earlier orders were checked again"
        assert calls["account"] - before["account"] == 1, f"order {n}: the earlier orders were counted again"
        assert calls["start_tally"] - before["start_tally"] == (1 if n == 1 else 0)
    assert len(state.orders_of("green")) == 200
