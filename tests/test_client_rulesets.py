"""Warzone, classic Risk and the grid game in the real client against a real server, with the server's computer
players: the map picture, what is printed as the game goes on, the report, help and the game's own words."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.client_support import Driver, driven
from tests.server_support import FAST, running_server, url

PICTURE_KEY = "Each territory: its first letters, its holder's mark, its units."


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


@pytest.mark.parametrize("create", ["create twin-keeps 2 rules=warzone bots=1",
                                    "create twin-keeps 2 rules=classic bots=1"])
async def test_map_draws_a_warzone_or_classic_game_s_map_from_its_coordinates(create: str) -> None:
    async with running_server(**FAST) as server, driven(url(server), name="Alice") as alice:
        await seated(alice, create)
        shown = await alice.type("map")
        assert "no coordinates" not in shown
        assert PICTURE_KEY in shown, shown
        assert "Alice (you)" in shown


async def test_map_shows_the_grid_game_s_grid() -> None:
    async with running_server(**FAST) as server, driven(url(server), name="Alice") as alice:
        await seated(alice, "create rules=grid 3 bots=2")
        shown = await alice.type("map")
        assert "no coordinates" not in shown
        assert "| RISK |  0   |  1   |" in shown, shown


async def test_map_under_fog_of_war_says_why_it_is_not_drawn() -> None:
    async with running_server(**FAST) as server, driven(url(server), name="Alice") as alice:
        await seated(alice, "create seed 2 evolution=3 bots=1")
        shown = await alice.type("map")
        assert "no coordinates" not in shown
        assert "Under fog of war the map is not drawn" in shown
