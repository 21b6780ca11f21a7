"""Game night III, through a real server and the real text client: what players hit on a third game night, each item
with the test that holds it (the terminal's own screens, a screen at a time and the biggest map at 80x24:
tests/test_terminal_game_night_iii.py and tests/test_map_pictures.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from client import render
from shared.game.presentation import Palette
from shared.protocol.statistics import GameStatistics, PlayerTotals
from shared.rulesets import RULESETS
from tests.client_support import Driver, driven
from tests.server_support import FAST, running_server, url
from tests.test_client_game_night import game_id_of


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


async def seated(alice: Driver, create: str, ready: str) -> str:
    """Alice creates a game the server's computer players fill and sits in it; the game's id, once `ready` shows."""
    shown = await alice.type(create)
    assert "Refused" not in shown, shown
    await alice.expect(ready)
    return game_id_of(alice)


# ---- classic Risk ---------------------------------------------------------------------------------------------------


async def test_classic_board_names_each_neighbour_s_holder_and_armies_and_says_countries_and_armies() -> None:
    async with running_server(seeds=lambda: 7, **FAST) as server, driven(url(server), name="Wes") as wes:
        await wes.type("create cataract 3 rules=classic bots=2")
        started = await wes.expect("Place a starting army")
        # One word for each on one screen: the summary's "8 countries, 8 armies" and where he stands.
        flat = started[started.rindex("The game starts") :].replace("\n    ", " ")
        assert re.search(r"You hold \d+ arm(y|ies) on \d+ countr(y|ies), \d+ of them next to others'", flat), flat
        assert " units on " not in flat and " territories" not in flat, flat
        front = await wes.type("board front")
        rows = [row for row in front.splitlines() if "  ->" in row]
        assert rows, front
        tracker = wes.app.tracker
        assert tracker is not None
        view = tracker.view
        palette = tracker.palette()
        for row in rows:
            name = row.split("->")[0].split()[-1].lstrip("*")
            told = re.findall(r"(\S+) (\d+) ([A-H-])", row.split("->", 1)[1])
            neighbours = tracker.followed.game_map.neighbours_in_order(name)  # type: ignore[union-attr]
            assert [n for n, _, _ in told] == list(neighbours), row
            for neighbour, armies, mark in told:
                there = view.territories[neighbour]
                assert (int(armies), mark) == (there.armies, palette.mark(there.owner)), row


# ---- Warzone --------------------------------------------------------------------------------------------------------


async def test_warzone_deploys_the_rest_of_the_pool_as_risc_places_it() -> None:
    async with running_server(seeds=lambda: 7, **FAST) as server, driven(url(server), name="Ann") as ann:
        await seated(ann, "create twin-keeps 2 rules=warzone bots=1", "Turn 1: deploy")
        shown = await ann.type("deploy rest *")
        assert "Refused" not in shown and "Orders 1-" in shown, shown
        assert "0 units left to deploy" in shown or "Your pool: 0 units" in await ann.type("board"), shown
        again = await ann.type("deploy rest *")
        assert "you have no units left to deploy" in again, again


async def test_warzone_on_a_map_without_continents_says_there_is_no_continent_bonus() -> None:
    async with running_server(seeds=lambda: 7, **FAST) as server, driven(url(server), name="Ann") as ann:
        await seated(ann, "create twin-keeps 2 rules=warzone bots=1", "Turn 1: deploy")
        board = await ann.type("board")
        assert "Continents: none on this map, so no continent bonus." in board, board
        assert "(whole map)" not in board


# ---- the end of a game ----------------------------------------------------------------------------------------------


async def test_the_figures_of_a_game_of_computers_fit_80_columns_and_risc_has_no_cards_column() -> None:
    async with (
        running_server(seeds=lambda: 4, **FAST) as server,
        driven(url(server), name="Alice", size=(80, 24)) as alice,
    ):
        shown = await alice.type("create seed 3 bots=3")
        assert "you watch it" in shown, shown
        await alice.expect(" won game ", timeout=30)
        await alice.expect("The game in figures (")
        figures = (await alice.expect("\n  C ")) + await alice.expect("\n")
        rows = figures.splitlines()[1:]
        assert len(rows) >= 4 and all(len(row) < 80 for row in rows), "\n".join(rows)
        header = next(row for row in rows if "territories" in row)
        assert header.split()[-2:] == ["battles", "out"], "RISC has no cards"
    statistics = GameStatistics(
        players=["bot-strategist-1", "bot-strategist-2"],
        turns=[],
        eliminations=[],
        totals={
            name: PlayerTotals(
                territories=24 if n else 0,
                most_territories=24,
                units=120,
                most_units=130,
                income=240,
                battles_won=12,
                battles_lost=30,
                cards_played=4,
                eliminated_by=None if n else "bot-strategist-2",
                eliminated_on=None if n else 17,
            )
            for n, name in enumerate(["bot-strategist-1", "bot-strategist-2"])
        },
    )
    palette = Palette(tuple(statistics.players))
    table = render.plain(render.statistics_table(statistics, palette, RULESETS["warzone"].presentation.cards, 79))
    assert all(len(row) <= 79 for row in table.splitlines()), table
    assert " cards " in table and "turn 17, by B" in table, "Warzone's cards; the players by their marks"


# ---- watching -------------------------------------------------------------------------------------------------------


async def test_watching_with_a_player_s_eyes_in_a_game_without_fog_says_why_not_and_the_bar_says_watching() -> None:
    async with (
        running_server(seeds=lambda: 7, **FAST) as server,
        driven(url(server), name="Ann") as ann,
        driven(url(server), name="Dee") as dee,
    ):
        game_id = await seated(ann, "create seed 2 bots=1", "Place your")
        refused = await ann.type(f"watch {game_id[:3]} bot-strategist-1")
        assert "you cannot see with bot-strategist-1's eyes: you see all there is to see" in refused, refused
        await dee.type(f"watch {game_id[:3]}")
        bar = render.plain(dee.app._toolbar())
        assert f"watching {game_id}: " in bar and "watching in" not in bar, bar


async def test_the_players_read_what_the_watchers_said_once_the_game_is_over() -> None:
    async with (
        running_server(seeds=lambda: 4, **FAST) as server,
        driven(url(server), name="Alice") as alice,
        driven(url(server), name="Bob") as bob,
        driven(url(server), name="Dee") as dee,
    ):
        await alice.type("create seed 2")
        game_id = game_id_of(alice)
        await bob.type(f"join {game_id}")
        await alice.expect("Place your")
        await bob.expect("Place your")
        await dee.type(f"watch {game_id}")
        await dee.type("say who is winning?")
        await dee.expect("[watchers] Dee (watching): who is winning?")
        await alice.type("say still here")
        await dee.expect("[chat] Alice: still here")
        assert "who is winning?" not in alice.app.text() + bob.app.text(), "those who play do not hear it yet"
        assert "Resign game" in await bob.type("resign")
        await bob.type("yes")
        end = await alice.expect("[watchers] Dee (watching): who is winning?")
        assert "You win: the whole map is yours!" in end, "told after the result"
        await bob.expect("[watchers] Dee (watching): who is winning?")
        assert dee.app.text().count("who is winning?") == 1, "the watchers are not told their words twice"
