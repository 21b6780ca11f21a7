"""A turn has bounds (issue 35): the orders a player holds in a turn, and what their orders of a turn cost the server,
counted in orders checked; a withdrawal checks again only the orders after it; and finished games played again for
their replays are paced by address. Through a real server, with raw WebSocket clients."""

from __future__ import annotations

from typing import Any

import pytest

from server.clock import ManualClock
from server.core.playing import ORDER_WORK_PER_HELD, ORDERS_HELD_LEAST
from server.replays.service import MADE_BURST
from shared.rulesets.risc.rules import RiscRuleSet
from tests.server_support import FAST, Client, running_server
from tests.test_server_batch import orders_of, place
from tests.test_server_orders import ok, seed_game
from tests.test_server_replays import finished_game


async def issue_ones(client: Client, game_id: str, territory: str, count: int) -> list[dict[str, Any]]:
    """`count` orders placing 1 unit each on `territory`, in batches; the answers."""
    answers = []
    for start in range(0, count, 100):
        batch = [place(territory, 1)] * min(100, count - start)
        answers.append(await ok(client, type="issue_orders", game_id=game_id, turn=0, orders=batch))
    return answers


async def test_a_player_holds_so_many_orders_a_turn_and_the_next_is_refused_changing_nothing() -> None:
    most = ORDERS_HELD_LEAST  # the seed map has 9 territories: the least of the bound holds
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server, initial_units=10_000)
        ann = clients["ann"]
        answers = await issue_ones(ann, game_id, "Oz", most)
        assert sum(len(a["accepted"]) for a in answers) == most
        refused = await ann.request(type="issue_order", game_id=game_id, turn=0, order=place("Oz", 1))
        assert refused["type"] == "error" and refused["code"] == "too-many-orders", refused
        assert f"you hold {most} orders" in refused["message"]
        batch = await ok(ann, type="issue_orders", game_id=game_id, turn=0, orders=[place("Oz", 1)] * 3)
        assert batch["accepted"] == [] and {r["code"] for r in batch["refused"]} == {"too-many-orders"}
        listed = await orders_of(ann, game_id)
        assert len(listed) == most, "nothing changed"
        bob = clients["bob"]
        assert (await bob.request(type="issue_order", game_id=game_id, turn=0, order=place("Roshar", 1)))[
            "type"
        ] == "order_accepted", "the bound is each player's"


async def test_withdrawals_cost_the_orders_they_check_again_and_a_turns_orders_cost_so_much_at_most() -> None:
    most = ORDERS_HELD_LEAST
    budget = ORDER_WORK_PER_HELD * most
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server, initial_units=10_000)
        ann = clients["ann"]
        await issue_ones(ann, game_id, "Oz", most)
        spent, held = most, most
        withdraw = {"type": "withdraw_order", "game_id": game_id, "turn": 0}
        while spent + held <= budget:  # the first order, each time: it and every order after it are checked
            await ok(ann, **withdraw, index=0)
            spent, held = spent + held, held - 1
        refused = await ann.request(**withdraw, index=0)
        assert refused["type"] == "error" and refused["code"] == "too-many-orders", refused
        assert len(await orders_of(ann, game_id)) == held, "nothing changed"
        while spent < budget:  # the last order costs one: what is left of the turn's bound goes so
            await ok(ann, **withdraw, index=held - 1)
            spent, held = spent + 1, held - 1
        for message in ({**withdraw, "index": held - 1}, {"type": "issue_order", "order": place("Oz", 1)}):
            refused = await ann.request(**{"game_id": game_id, "turn": 0, **message})
            assert refused["type"] == "error" and refused["code"] == "too-many-orders", refused
        assert len(await orders_of(ann, game_id)) == held


async def test_withdrawing_checks_again_only_the_orders_after_the_one_withdrawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    checked: list[Any] = []
    check = RiscRuleSet.check_order

    def counting(self: RiscRuleSet, game: Any, player: str, tally: Any, order: Any) -> Any:
        checked.append(order)
        return check(self, game, player, tally, order)

    monkeypatch.setattr(RiscRuleSet, "check_order", counting)
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server, initial_units=1000)
        ann = clients["ann"]
        await issue_ones(ann, game_id, "Oz", 100)
        withdraw = {"type": "withdraw_order", "game_id": game_id, "turn": 0}
        checked.clear()
        await ok(ann, **withdraw, index=99)
        assert checked == [], "withdrawing the last order costs what one order costs: nothing is checked again"
        await ok(ann, **withdraw, index=90)
        assert len(checked) == 8, "the orders after it, and none before"


async def test_the_finished_games_an_address_has_played_again_are_paced() -> None:
    clock = ManualClock()
    games = MADE_BURST + 2
    settings = {"ruleset": "risc", "map": "seed", "players": 2}
    async with running_server(clock=clock, seeds=lambda: 7, **FAST, open_games_per_address=games) as server:
        watcher = await Client.connect(server)
        finished = [await finished_game(server, watcher, settings) for _ in range(games)]
        asker = await Client.connect(server, source="127.0.0.2")
        for game_id in finished[:MADE_BURST]:
            assert (await asker.request(type="open_replay", game_id=game_id))["type"] == "replay"
        made = server.lobby.replays.made
        refused = await asker.request(type="open_replay", game_id=finished[MADE_BURST])
        assert refused["type"] == "error" and refused["code"] == "rate-limited", refused
        other = await Client.connect(server, source="127.0.0.2")  # another connection of the same computer
        refused = await other.request(type="game_statistics", game_id=finished[MADE_BURST])
        assert refused["type"] == "error" and refused["code"] == "rate-limited", refused
        assert server.lobby.replays.made == made, "nothing was played again"
        again = await other.request(type="replay_turn", game_id=finished[0], index=1)
        assert again["type"] == "replayed_turn", "a replay kept costs nothing to look at again"
        elsewhere = await Client.connect(server, source="127.0.0.3")
        assert (await elsewhere.request(type="open_replay", game_id=finished[-1]))["type"] == "replay"
        clock.advance(15.0)
        assert (await other.request(type="game_statistics", game_id=finished[MADE_BURST]))["type"] == "statistics"
        assert server.lobby.replays.made == made + 2
