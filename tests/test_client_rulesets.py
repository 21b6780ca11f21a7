"""Warzone, classic Risk and the grid game in the real client against a real server, with the server's computer
players: the map picture, what is printed as the game goes on, the report, help and the game's own words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.client_support import Driver, driven
from tests.server_support import FAST, running_server, url

PICTURE_KEY = "Each territory: what you may type for it, its holder's mark, its units."


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


async def seated(alice: Driver, create: str) -> str:
    """Alice creates a game the server's computer players fill, and sits in it; it has started."""
    shown = await alice.type(create)
    assert alice.app.tracker is not None, shown
    await alice.expect("The game starts")
    return alice.app.tracker.game_id


def armies_placed(told: str) -> int:
    """The armies the computer players placed one at a time at the start, as `told`: a line each (`report`), or a
    player's run in a line ("places 27 armies: 26 on Eyrie, 1 on Heronry", "places 27 armies on Eyrie")."""
    runs = sum(int(n) for n in re.findall(r"bot-strategist-\d places (\d+) armies[: ]", told))
    return told.count(" places an army on ") + runs


async def classic_until_her_turn(alice: Driver) -> str:
    """Alice sits in classic Risk on cataract with two computer players and places all her armies at once: what
    was printed until her first turn."""
    await seated(alice, "create cataract 3 rules=classic bots=2")
    await alice.expect("Place a starting army: placearmy COUNTRY, or placeall.")
    alice.skip()
    await alice.type("placeall")
    return await alice.expect("reinforce COUNTRY NUM", timeout=10)


@pytest.mark.parametrize(
    "create", ["create twin-keeps 2 rules=warzone bots=1", "create twin-keeps 2 rules=classic bots=1"]
)
async def test_map_draws_a_warzone_or_classic_game_s_map_from_its_coordinates(create: str) -> None:
    async with running_server(seeds=lambda: 7, **FAST) as server, driven(url(server), name="Alice") as alice:
        await seated(alice, create)
        shown = await alice.type("map")
        assert "no coordinates" not in shown
        assert PICTURE_KEY in shown, shown
        assert "Alice (you)" in shown


async def test_map_shows_the_grid_game_s_grid() -> None:
    async with running_server(seeds=lambda: 7, **FAST) as server, driven(url(server), name="Alice") as alice:
        await seated(alice, "create rules=grid 3 bots=2")
        shown = await alice.type("map")
        assert "no coordinates" not in shown
        assert "| RISK |  0   |  1   |" in shown, shown


async def test_map_under_fog_of_war_says_why_it_is_not_drawn() -> None:
    async with running_server(seeds=lambda: 7, **FAST) as server, driven(url(server), name="Alice") as alice:
        await seated(alice, "create seed 2 evolution=3 bots=1")
        shown = await alice.type("map")
        assert "no coordinates" not in shown
        assert "Under fog of war the map is not drawn" in shown


async def test_classic_risk_prints_the_board_when_the_player_s_turn_comes_not_after_every_army_placed() -> None:
    async with running_server(seeds=lambda: 7, **FAST) as server, driven(url(server), name="Alice") as alice:
        until_her_turn = await classic_until_her_turn(alice)
        placed = armies_placed(until_her_turn)
        assert placed > 20, until_her_turn  # the computer players placed theirs one at a time...
        assert until_her_turn.count(" places ") <= 3, until_her_turn  # ...told a player a line
        # ...and her stage (on this map of more than 20 countries the summary, where she stands and her cards; the
        # board on request) came once: her turn
        assert until_her_turn.count(" of them next to others'") == 1 and "You hold no cards." in until_her_turn, (
            until_her_turn
        )
        assert "Alice (you) places the rest of your armies" in until_her_turn


async def test_the_grid_game_prints_the_board_once_a_round_of_deployment() -> None:
    async with running_server(seeds=lambda: 7, **FAST) as server, driven(url(server), name="Alice") as alice:
        await seated(alice, "create rules=grid 3 bots=2")
        await alice.expect("Deploy one troop: deploy ROW,COL")
        for _ in range(3):
            alice.skip()
            tracker = alice.app.tracker
            assert tracker is not None
            mine = next(name for name, t in tracker.view.territories.items() if t.owner == "Alice")
            await alice.type(f"deploy {mine}")
            round_ = await alice.expect("Deploy one troop: deploy ROW,COL")
            assert round_.count("| RISK |") == 1, round_
            assert round_.count(" deploys a troop on ") == 3, round_


async def test_report_in_classic_risk_tells_everything_since_the_player_s_previous_turn_began() -> None:
    async with running_server(seeds=lambda: 7, **FAST) as server, driven(url(server), name="Alice") as alice:
        until_her_turn = await classic_until_her_turn(alice)
        report = await alice.type("report")
        assert report.startswith("Since your previous turn began:\n"), report
        assert "Alice (you) places the rest of your armies" in report
        assert armies_placed(report) == armies_placed(until_her_turn), "every army as it was told (a line each)"
        assert report.count(" reinforces with ") == until_her_turn.count(" reinforces with ")

        tracker = alice.app.tracker
        assert tracker is not None
        view = tracker.view
        mine = next(name for name, t in view.territories.items() if t.owner == "Alice")
        for line in (f"reinforce {mine} {view.reinforcements}", "attack -noattack", "fortify -none"):
            await alice.type(line)
        shown = await alice.type("report")  # the computer players' news may come before it
        heading = "Since your previous turn began:\n" if tracker.followed.awaited else "Since your last turn began:\n"
        assert heading in shown, shown
        report = shown.split(heading, 1)[1]
        assert f"Alice (you) reinforces {mine} with {view.reinforcements}" in report
        assert "Alice (you) ends the attacks." in report and "Alice (you) does not fortify" in report
        assert "places an army" not in report


async def test_help_create_lists_each_game_s_options_as_the_server_describes_them() -> None:
    async with running_server(**FAST) as server, driven(url(server), name="Alice") as alice:
        await alice.expect("No games yet")
        shown = await alice.type("help create")
        assert "options: help create)" not in shown
        for game in ("risc", "warzone", "classic", "grid"):
            assert f"rules={game}" in shown, game
        assert "  risc " in shown and "RISC (the default)" in shown
        for option in (
            "units=N",
            "neutral=N",
            "choose",
            "evolution=N",
            "initial_cards=N",
            "card_schedule=seed|increasing|fixed",
            "troops=N",
        ):
            assert f"\n  {option} " in shown or f"\n  {option}\n" in shown, option
        risc = shown.split("Options of RISC")[1].split("Options of")[0]
        assert "initial_units" not in risc, "RISC's options are named as the client takes them"
        assert "default 10 per starting territory" in shown and "1 to 3, default 1" in shown
        one = await alice.type("help create warz")
        assert "Options of Warzone (rules=warzone)" in one and "initial_cards=N" in one
        assert "Options of RISC" not in one and "evolution=N" not in one
        unknown = await alice.type("help create chess")
        assert 'no game matches "chess"' in unknown and "this server plays classic, grid, risc, warzone" in unknown


async def test_deploy_spreads_a_warzone_pool_over_all_one_s_territories_in_one_command() -> None:
    async with running_server(seeds=lambda: 7, **FAST) as server, driven(url(server), name="Alice") as alice:
        await seated(alice, "create cataract 3 rules=warzone bots=2")
        await alice.expect("deploy your 50 units")
        tracker = alice.app.tracker
        assert tracker is not None
        mine = [name for name, t in tracker.view.territories.items() if t.owner == "Alice"]
        shown = await alice.type("deploy 50 *")
        assert f"Orders 1-{len(mine)}: deploy " in shown and "0 units to deploy" in shown, shown
        placed = {o.territory: o.units for o in tracker.followed.orders}
        assert set(placed) == set(mine) and sum(placed.values()) == 50
        assert max(placed.values()) - min(placed.values()) <= 1  # as evenly as it goes
