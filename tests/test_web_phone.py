"""The page on a phone (390x844, a touch screen) and where the focus goes, in a real headless Chromium: the lobby's
games fit the screen with their buttons on it; a tap (or a mouse click on a desk) on a territory leaves the focus
where it was, so a phone opens no keyboard and nothing scrolls; a large map at its first view fills the board with
its names readable; and once a territory is picked, the map and the orders it offers are on screen together."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.map_editor_support import SHARED_MAPS
from tests.server_support import Client, create_game, join
from tests.web_support import browser_or_skip, owned, page_url, placing, watched_pages, web_server

browser_or_skip()
pytestmark = pytest.mark.asyncio(loop_scope="module")

PHONE = {"width": 390, "height": 844}
BIGEUROPE = SHARED_MAPS / "domination" / "bigeurope.map"


async def phone(browser: Any, pages: Any, url: str) -> Any:
    context = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    return (await pages.open(url, context=context)).page


ON_SCREEN = """
(selector) => [...document.querySelectorAll(selector)].map((e) => {
  const b = e.getBoundingClientRect();
  const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
  return { text: e.textContent.trim(), left: b.left, right: b.right, top: b.top, bottom: b.bottom,
    seen: b.left >= 0 && b.right <= innerWidth && b.top >= 0 && b.bottom <= innerHeight && Boolean(hit)
      && (hit === e || e.contains(hit) || hit.contains(e)) };
})
"""


async def test_the_lobbys_games_fit_a_phone_with_their_buttons_on_screen(browser: Any, tmp_path: Path) -> None:
    async with web_server(open_games_per_connection=10) as server, watched_pages(browser, tmp_path) as pages:
        owner = await Client.connect(server)
        await create_game(owner, map="cataract", players=3, bots=1)  # waiting, with a long map name beside it
        finished = await create_game(owner, map="twin-keeps", players=2, bots=1)
        await join(owner, finished, "Ann")
        assert (await owner.request(type="resign", game_id=finished))["type"] == "resigned"
        page = await phone(browser, pages, page_url(server))
        await page.wait_for_selector(f"#games tr[data-game-id='{finished}'][data-status=finished]")
        assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        table = await page.locator("#games").bounding_box()
        assert table["x"] >= 0 and table["x"] + table["width"] <= PHONE["width"], table
        buttons = await page.evaluate(ON_SCREEN, "#games button")
        assert {b["text"] for b in buttons} >= {"Join", "Watch", "Replay"}
        for button in buttons:
            assert button["left"] >= 0 and button["right"] <= PHONE["width"], button  # no sideways scrolling
        await owner.ws.close()


async def test_a_click_on_a_territory_leaves_the_focus_and_the_keyboard_still_moves_it(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        page = (await pages.open(page_url(server))).page
        await placing(page, "Alice")
        first, second = (await owned(page, "Alice"))[:2]
        before = await page.evaluate("scrollY")
        await page.click(f"g[data-territory='{first}']")
        await page.wait_for_selector("[data-count='0']")
        # the count box is offered, not focused: no focus ring follows a mouse, no keyboard opens on a phone
        assert await page.evaluate("document.activeElement.tagName") != "INPUT"
        assert await page.evaluate("scrollY") == before
        # with the keyboard, Enter on a territory still goes on to its count
        await page.keyboard.press("Escape")
        await page.focus(f"g[data-territory='{second}']")
        await page.keyboard.press("Enter")
        await page.wait_for_selector(f"g[data-territory='{second}'][data-picked='1']")
        assert await page.evaluate("document.activeElement.dataset.count") == "0"


async def test_a_large_map_fills_a_phones_board_with_its_names_readable(browser: Any, tmp_path: Path) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        owner = await Client.connect(server)
        game_id = await create_game(owner, upload=(BIGEUROPE.name, BIGEUROPE.read_text(encoding="utf-8")), players=2)
        page = await phone(browser, pages, page_url(server, f"game={game_id}"))
        await page.wait_for_selector("svg.board[data-labels-hidden]")
        shown = await page.evaluate(
            """() => {
                 const board = document.querySelector("svg.board").getBoundingClientRect();
                 const inside = [...document.querySelectorAll("g[data-territory] .ring")].filter((ring) => {
                   const b = ring.getBoundingClientRect();
                   const [x, y] = [b.left + b.width / 2, b.top + b.height / 2];
                   return x >= board.left && x <= board.right && y >= board.top && y <= board.bottom;
                 }).map((ring) => ring.closest("g[data-territory]").dataset.territory);
                 const named = inside.filter((name) =>
                   document.querySelector(`[data-label-for='${name}']`).dataset.label !== "hidden");
                 return { height: board.height, width: board.width, inside: inside.length, named: named.length };
               }"""
        )
        assert shown["height"] >= 0.5 * PHONE["height"], shown  # the board takes most of the screen
        assert shown["named"] >= 0.75 * shown["inside"] > 0, shown  # most of what is on screen is named
        # the whole map is a few zooms out away
        zoomed = float(await page.get_attribute("svg.board", "data-zoom") or "0")
        assert zoomed > 1
        while zoomed > 1:
            await page.click("button[data-zoom='−']")
            smaller = float(await page.get_attribute("svg.board", "data-zoom") or "0")
            assert smaller < zoomed
            zoomed = smaller
        assert zoomed == 1.0
        await owner.ws.close()


async def test_on_a_phone_the_map_and_the_orders_of_the_territory_picked_are_on_screen_together(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        page = await phone(browser, pages, page_url(server))
        await placing(page, "Alice")
        for name in (await owned(page, "Alice"))[:2]:
            await page.tap(f"g[data-territory='{name}']")
            await page.wait_for_selector(f"g[data-territory='{name}'][data-picked='1']")
            await page.wait_for_selector("[data-issue='0']")
            assert await page.evaluate("document.activeElement.tagName") != "INPUT"  # no number keyboard
            # the whole board is on screen, above the orders, and so are the territory and the order it offers
            board = await page.locator("svg.board").bounding_box()
            sheet = await page.locator("#order-section").bounding_box()
            assert board["y"] >= 0 and board["y"] + board["height"] <= sheet["y"] + 1, (board, sheet)
            (disc,) = await page.evaluate(ON_SCREEN, f"g[data-territory='{name}'] .body")
            (issue,) = await page.evaluate(ON_SCREEN, "[data-issue='0']")
            assert disc["seen"], disc
            assert issue["seen"], issue
            await page.fill("[data-count='0']", "3")  # a few of the pool: the next territory may have some too
            await page.tap("[data-issue='0']")
            await page.wait_for_selector(f"#order-entry li[data-order-index] >> text={name}")
        # once nothing is picked, the orders go back under the board, and the map is whole again
        await page.keyboard.press("Escape")
        (commit,) = await page.evaluate(ON_SCREEN, "#commit")
        assert commit["top"] > (await page.locator("svg.board").bounding_box())["y"]
