"""A batch of orders in a simultaneous game is taken in one pass (core.issue_batch), the table made once: what it
takes and refuses, with the same words, and the table it leaves must be what issuing the same orders one by one
(core.issue) gives, whatever the mix, up to the bounds on the orders a player holds and on what they cost."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server import core
from server.core import Table
from server.match import Match
from server.refusal import Refusal
from server.storage import MemoryStorage, SeatRecord
from shared.game import turns
from shared.maps import load_map
from shared.protocol.lobby import GameSettings
from shared.rulesets import game_ruleset

SEATS = tuple(SeatRecord(name=name, token_hash="0" * 64) for name in ("ann", "bob", "cyd"))


def one_by_one(table: Table, player: str, turn: int, orders: list[dict[str, Any]]) -> tuple[Table, list[Any]]:
    """Each order issued alone, in turn: the table left, and for each order what it was told."""
    told: list[Any] = []
    for data in orders:
        try:
            decision = core.issue(table, player, turn, data)
        except Refusal as refusal:
            told.append(("refused", refusal.code, refusal.message))
            continue
        change = decision.order_change
        assert change is not None
        told.append(("taken", change.index, decision.accepted_data, change.order))
        table = decision.table
    return table, told


def in_one_pass(table: Table, player: str, turn: int, orders: list[dict[str, Any]]) -> tuple[Table, list[Any]]:
    batch = core.issue_batch(table, player, turn, orders)
    told: dict[int, Any] = {r.position: ("refused", r.code, r.message) for r in batch.refused}
    for taken, change in zip(batch.accepted, batch.changes, strict=True):
        assert change.index == taken.index
        told[taken.position] = ("taken", taken.index, taken.data, change.order)
    assert sorted(told) == list(range(len(orders)))
    return batch.decision.table, [told[position] for position in range(len(orders))]


def same(table: Table, player: str, turn: int, orders: list[dict[str, Any]]) -> list[Any]:
    after, told = in_one_pass(table, player, turn, orders)
    expected_table, expected = one_by_one(table, player, turn, orders)
    assert told == expected
    assert after.game.orders == expected_table.game.orders  # type: ignore[union-attr]
    assert after.game.tallies == expected_table.game.tallies  # type: ignore[union-attr]
    assert (after.order_work, after.order_work_step) == (expected_table.order_work, expected_table.order_work_step)
    if not any(kind == "taken" for kind, *_ in told):
        assert after is table  # nothing taken: nothing changed
    return told


async def started(initial_units: int = 30) -> Table:
    settings = GameSettings(map=None, players=3, options={"initial_units": initial_units})
    match = await Match.create("g1", settings, load_map("seed"), MemoryStorage(), seed=3, seats=SEATS)
    return match.table


def mine(table: Table, player: str) -> list[str]:
    board = table.game.board  # type: ignore[union-attr]
    return [name for name in table.game_map.names if board.owner[name] == player]


def place(territory: str, units: int) -> dict[str, Any]:
    return {"kind": "place", "territory": territory, "units": units}


@pytest.mark.asyncio
async def test_a_mix_of_taken_and_refused_orders_is_told_as_one_by_one() -> None:
    table = await started()
    own, theirs = mine(table, "ann"), mine(table, "bob")
    told = same(
        table,
        "ann",
        0,
        [
            place(own[0], 3),
            {"kind": "teleport", "territory": own[0]},  # no such kind
            place(theirs[0], 1),  # not hers
            place(own[1], 10_000),  # more than her pool
            {"kind": "place", "territory": own[1], "units": 2, "extra": 1},  # a field no order has
            place(own[1], "2"),  # not a number
            place(own[-1], 4),
        ],
    )
    assert [kind for kind, *_ in told] == ["taken", "refused", "refused", "refused", "refused", "refused", "taken"]


@pytest.mark.asyncio
async def test_a_batch_for_another_turn_or_a_finished_game_is_refused_whole() -> None:
    table = await started()
    own = mine(table, "ann")
    told = same(table, "ann", 5, [place(own[0], 1), place(own[1], 1)])
    assert [(kind, code) for kind, code, _ in told] == [("refused", "wrong-turn")] * 2
    over = core.resign(core.resign(table, "bob").table, "cyd").table
    told = same(over, "ann", 0, [place(own[0], 1)])
    assert [(kind, code) for kind, code, _ in told] == [("refused", "game-over")]


@pytest.mark.asyncio
async def test_the_bounds_on_orders_held_and_on_their_cost_fall_where_they_fall_one_by_one() -> None:
    table = await started()
    own = mine(table, "ann")
    most = core.playing.orders_held_most(table)
    work_most = core.playing.ORDER_WORK_PER_HELD * most
    step = table.game.step  # type: ignore[union-attr]
    # Orders checked already this turn, two short of the bound on their cost: the third order of three is refused.
    costly = table.evolve(order_work={"ann": work_most - 2, "bob": 7}, order_work_step=step)
    told = same(costly, "ann", 0, [place(own[0], 1), place(own[1], 1), place(own[0], 1)])
    assert [kind for kind, *_ in told] == ["taken", "taken", "refused"] and "check" in told[2][2]
    # What another turn's orders cost counts for nothing: the bound starts afresh, and only this player's is kept.
    stale = table.evolve(order_work={"ann": work_most, "bob": 7}, order_work_step=step - 1)
    assert [kind for kind, *_ in same(stale, "ann", 0, [place(own[0], 1)])] == ["taken"]
    # A player who holds the most orders one may is refused the next.
    plenty = await started(initial_units=2 * most)
    own = mine(plenty, "ann")
    held = core.issue_batch(plenty, "ann", 0, [place(own[0], 1)] * most)
    assert not held.refused
    told = same(held.decision.table, "ann", 0, [place(own[0], 1), place(own[1], 1)])
    assert [(kind, code) for kind, code, *_ in told] == [("refused", "too-many-orders")] * 2


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("ruleset", "options"), [("risc", {}), ("risc", {"evolution": 2}), ("risc", {"evolution": 3}), ("warzone", {})]
)
async def test_every_simultaneous_rule_set_s_turns_are_taken_in_one_pass_as_one_by_one(
    ruleset: str, options: dict[str, Any]
) -> None:
    settings = GameSettings(ruleset=ruleset, map=None, players=3, options=options)
    rules, _ = game_ruleset(ruleset, options)
    game_map = rules.make_map(rules.options(options)) if rules.own_map else load_map(rules.default_map)
    table = (await Match.create("g1", settings, game_map, MemoryStorage(), seed=5, seats=SEATS)).table
    strategy = table.ruleset.strategies[table.ruleset.default_strategy](table.ruleset)
    rng = random.Random(5)
    for _ in range(5):
        game, status = core.running(table, None)
        for player in sorted(turns.awaiting(table.ruleset, game)):
            view = table.ruleset.view(table.game, player)  # type: ignore[arg-type]
            decided = [table.ruleset.dump_order(o) for o in strategy.decide(view, table.game_map, player, rng)]
            decided.insert(len(decided) // 2, {"kind": "nonsense"})
            assert len(same(table, player, status.turn, decided)) == len(decided)
            batch = core.issue_batch(table, player, status.turn, [d for d in decided if d["kind"] != "nonsense"], True)
            table = batch.decision.table
        if table.finished:
            break
