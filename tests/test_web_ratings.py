"""The ladders and quick play in the web page, in a real headless Chromium: a rule set's leaderboard as the server
sends it (best first, provisional ratings marked), a player's profile with the rating history as a chart, and quick
play from one button (the page signed in with its cookie) showing the wait and who is queued, then the game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server.storage.accounts import AccountRecord
from server.storage.ratings import MemoryRatings, Placed, RatedEnd
from shared.protocol.names import skeleton
from tests.server_support import Client
from tests.test_accounts import PASSWORD
from tests.web_support import browser_or_skip, page_url, watched_pages, web_server

browser_or_skip()
pytestmark = pytest.mark.asyncio(loop_scope="module")

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


async def rated(server: Any) -> None:
    """Five accounts and 30 rated grid games of three among them, Ann first in most, rated by the store's own
    ratings."""
    for n, name in enumerate(NAMES):
        await server.accounts.store.create_account(AccountRecord(f"id{n}", name, skeleton(name), "", 1.0))
    ratings = server.storage.ratings()
    assert isinstance(ratings, MemoryRatings)
    now = server.clock.wall()
    for game in range(30):
        seated = [(game + k) % 5 for k in range(3)]
        order = sorted(seated, key=lambda n: (n != 0, (n + game) % 3))  # Ann wins whenever she plays
        places = tuple((Placed(f"id{n}", NAMES[n], place),) for place, n in enumerate(order, start=1))
        ratings.rate(RatedEnd(f"g{game:02}", "grid", now - 3600 + game, places, 3))


async def test_the_leaderboard_and_a_profile_with_its_rating_chart(browser: Any, tmp_path: Path) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        await rated(server)
        opened = await pages.open(page_url(server, "ladder=grid"))
        page = opened.page
        await page.wait_for_selector("table.ladder tbody tr")
        board = next(m for m in opened.watch.received if m["type"] == "leaderboard")
        rows = await page.eval_on_selector_all(
            "table.ladder tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
        )
        assert [r[1] for r in rows] == [p["name"] for p in board["players"]]
        first = board["players"][0]
        assert rows[0][1] == "Ann" and rows[0][2] == f"{first['rating']}{'?' if first['provisional'] else ''}"
        ratings = [int(r[2].rstrip("?")) for r in rows]
        assert ratings == sorted(ratings, reverse=True)
        assert [int(r[3]) for r in rows] == [p["games"] for p in board["players"]]

        await page.click("table.ladder a:text('Ann')")
        await page.wait_for_selector("#profile svg.rating-chart polyline")
        profile = next(m for m in opened.watch.received if m["type"] == "profile")
        points = await page.get_attribute("#profile svg.rating-chart polyline", "points")
        assert points is not None and len(points.split()) == len(profile["games"]) + 1 == 19  # and the start
        first = profile["games"][0]
        assert await page.get_attribute("#profile svg.rating-chart", "aria-label") == (
            f"rating from {first['rating'] - first['change']} to {profile['games'][-1]['rating']} over 18 games"
        )
        assert await page.text_content("#profile-title") == "Ann"
        assert await page.locator("#profile tr[data-ruleset=grid]").count() == 1
        await page.screenshot(path=str(tmp_path / "ladder.png"), full_page=True)


async def test_quick_play_from_one_button_shows_the_wait_then_the_game(browser: Any, tmp_path: Path) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        opened = await pages.open(page_url(server))
        page = opened.page
        signed = await page.evaluate(
            """async (password) => (await fetch("/account/sign-up", {method: "POST",
               headers: {Authorization: "Basic " + btoa("Ann:" + password)}})).status""",
            PASSWORD,
        )
        assert signed == 201  # made
        await page.reload()
        await page.wait_for_selector("#quick-form")
        await page.select_option("#quick-ruleset", "grid")
        await page.fill("#quick-players", "3")
        await page.click("#quick-go")
        await page.wait_for_selector("#quick-waiting")
        assert "your rating 800" in (await page.text_content("#quick-waiting") or "")
        others = []
        for name in ("Bob", "Cy"):
            client = await Client.connect(server)
            assert (await client.request(type="sign_up", name=name, password=PASSWORD))["type"] == "signed_in"
            others.append(client)
        assert (await others[0].request(type="quick_play", ruleset="grid", players=3))["type"] == "quick_play_waiting"
        await page.wait_for_function("() => document.querySelector('#quick-queued')?.textContent.includes('Ann, Bob')")
        await page.screenshot(path=str(tmp_path / "quick-wait.png"), full_page=True)
        await others[1].request(type="quick_play", ruleset="grid", players=3)
        await page.wait_for_function("() => document.body.dataset.screen === 'game'")
        await page.wait_for_function("() => document.querySelector('#player-list')?.textContent.includes('Cy')")
        found = next(m for m in opened.watch.received if m["type"] == "quick_play_found")
        assert found["rated"] and found["player"] == "Ann"
        assert f"game={found['game_id']}" in page.url
