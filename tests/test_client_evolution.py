"""RISC Evolutions 2 and 3 in the real client against a real server: what the orders leave of the stocks as the
player gives them, the board around one territory, the help of the game's own evolution, refusals in the server's
words."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from client.render import plain
from server.app import RiscServer
from shared.rulesets import get_ruleset
from shared.rulesets.risc.board import Phase
from shared.rulesets.risc.evo_view import EvoView
from tests.client_support import Driver, driven
from tests.server_support import FAST, Client, bob_commits_placement, join, running_server, url

RISC = get_ruleset("risc")
LEFT = re.compile(r"(\d+) food, (\d+) technology left")


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


def evo_view(driver: Driver) -> EvoView:
    tracker = driver.app.tracker
    assert tracker is not None and isinstance(tracker.view, EvoView)
    return tracker.view


def server_left(server: RiscServer, game_id: str, player: str) -> tuple[int, int]:
    """What the server's own tally says the player's orders leave: the view it would send them now."""
    game = server.lobby.matches[game_id].game
    assert game is not None
    view = RISC.variant(game.options).view(game, player)
    assert view.food_left is not None and view.technology_left is not None
    return view.food_left, view.technology_left


def left_in(text: str) -> tuple[int, int]:
    found = LEFT.findall(text)
    assert found, text
    food, technology = found[-1]
    return int(food), int(technology)


async def evolution_game(server: RiscServer, alice: Driver, evolution: int) -> tuple[str, Client]:
    """Alice (the client) and Bob (over the protocol) past placement, at turn 1 of an evolution's game."""
    shown = await alice.type(f"create seed 2 units=12 evolution={evolution}")
    assert alice.app.tracker is not None, shown
    game_id = alice.app.tracker.game_id
    bob = await Client.connect(server)
    await join(bob, game_id, "Bob")
    await alice.expect("Place your 12 units")
    await alice.type("place 12 *")
    await alice.type("done")
    await bob_commits_placement(bob, game_id)
    await alice.expect("Turn 1: move N[@LEVEL] FROM TO")
    assert evo_view(alice).phase is Phase.ORDERS
    return game_id, bob


def plan(view: EvoView, game_map: Any) -> tuple[str, str, str]:
    """One of Alice's territories with units, another of hers next to it, and an enemy next to it."""
    for name, t in view.territories.items():
        if t.owner != "Alice" or t.units < 3:
            continue
        friends = [n for n in game_map.neighbours_in_order(name) if view.territories[n].owner == "Alice"]
        enemies = [n for n in game_map.neighbours_in_order(name) if view.territories[n].owner != "Alice"]
        if friends and enemies:
            return name, friends[0], enemies[0]
    raise AssertionError("no territory of Alice's with a friend and an enemy next to it")


async def test_what_the_orders_leave_of_food_and_technology_goes_down_with_each_order_as_the_server_counts() -> None:
    async with running_server(**FAST) as server, driven(url(server), name="Alice") as alice:
        game_id, bob = await evolution_game(server, alice, 2)
        tracker = alice.app.tracker
        assert tracker is not None and tracker.followed.game_map is not None
        source, friend, enemy = plan(evo_view(alice), tracker.followed.game_map)
        start = server_left(server, game_id, "Alice")
        figures = [start]
        for line in (f"move 1 {source} {friend}", f"attack 1 {source} {enemy}", f"upgrade 1 {source} 0 1", "research"):
            shown = await alice.type(line)
            assert shown.startswith("Order"), shown
            told = left_in(shown)
            assert told == server_left(server, game_id, "Alice"), (line, shown)
            bar = plain(alice.app._toolbar())
            assert f"{told[0]} food, {told[1]} technology left" in bar, bar
            figures.append(told)
        assert figures[1][0] < start[0], "a move costs food"
        assert figures[2][0] == figures[1][0] - 1, "an attack costs a food a unit"
        assert figures[3][1] < figures[2][1] and figures[4][1] < figures[3][1], "upgrades and research cost technology"
        listed = await alice.type("orders")
        assert left_in(listed) == server_left(server, game_id, "Alice")
        shown = await alice.type("withdraw 4")
        assert "Withdrew order 4: research" in shown
        assert f"{figures[3][0]} food, {figures[3][1]} technology left" in plain(alice.app._toolbar())
        await bob.close()


async def test_asking_to_send_more_units_than_there_are_is_refused_by_the_server_in_its_words() -> None:
    async with running_server(**FAST) as server, driven(url(server), name="Alice") as alice:
        _, bob = await evolution_game(server, alice, 2)
        tracker = alice.app.tracker
        assert tracker is not None
        source, friend, _ = plan(evo_view(alice), tracker.followed.game_map)
        there = evo_view(alice).territories[source].units
        shown = await alice.type(f"move 200 {source} {friend}")
        assert shown == (f"Refused: {source} has {there} level-0 units left to send, the order asks for 200\n"), shown
        await bob.close()
