"""The web page's board on real maps, in a real headless Chromium: names that never cover another name or a circle,
zoom, pan and search, the territory picked with its neighbours, and the marks of a turn told apart without colour.

Every bundled map, and bigeurope (180 territories, from the real maps beside the project), is shown to a spectator
at a desk's size (1280x800) and a phone's (390x844). Each name's box on screen is measured against every other
name's and every territory's circle: any overlap fails. What does not fit is shortened or hidden until one zooms in,
and at the largest zoom every name shows whole.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.map_editor_support import SHARED_MAPS
from tests.server_support import Client, create_game, join
from tests.web_support import borders_lit, browser_or_skip, page_url, watched_pages, web_server

browser_or_skip()
pytestmark = pytest.mark.asyncio(loop_scope="module")

BIGEUROPE = SHARED_MAPS / "domination" / "bigeurope.map"
DESK = (1280, 800)
PHONE = (390, 844)

OVERLAPS = """
() => {
  const labels = [...document.querySelectorAll("svg.board .labels text.name")];
  const shown = labels.filter((t) => t.dataset.label !== "hidden")
    .map((t) => ({ name: t.dataset.labelFor, text: t.textContent, box: t.getBoundingClientRect() }));
  const circles = [...document.querySelectorAll("svg.board g[data-territory] .ring")].map((c) => {
    const b = c.getBoundingClientRect();
    return { name: c.closest("g[data-territory]").dataset.territory, x: b.left + b.width / 2,
      y: b.top + b.height / 2, r: b.width / 2 };
  });
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const problems = [];
  shown.forEach((label, i) => {
    for (const other of shown.slice(i + 1)) {
      if (meet(label.box, other.box)) problems.push(`the name ${label.text} covers the name ${other.text}`);
    }
    for (const c of circles) {
      const b = label.box;
      const nx = Math.max(b.left, Math.min(c.x, b.right));
      const ny = Math.max(b.top, Math.min(c.y, b.bottom));
      if ((nx - c.x) ** 2 + (ny - c.y) ** 2 < c.r * c.r) problems.push(`the name ${label.text} covers ${c.name}`);
    }
  });
  return { names: labels.length, whole: shown.filter((l) => l.text === l.name).length, shown: shown.length,
    heights: shown.map((l) => l.box.height), problems };
}
"""


async def new_game(server: Any, map_id: str | None = None, upload: Path | None = None, started: bool = False) -> str:
    """A game on a map (one of the catalogue's, or a file uploaded), for a page to watch: waiting for its players,
    or `started` between Alice and a computer player (at its placement, waiting for Alice)."""
    owner = await Client.connect(server)
    settings: dict[str, Any] = {"players": 2, "bots": 1 if started else 0}
    try:
        if upload is not None:
            game_id = await create_game(owner, upload=(upload.name, upload.read_text(encoding="utf-8")), **settings)
        else:
            game_id = await create_game(owner, map=map_id, **settings)
        if started:
            await join(owner, game_id, "Alice")
        return game_id
    finally:
        await owner.ws.close()


async def watch(pages: Any, server: Any, game_id: str, size: tuple[int, int], **options: Any) -> Any:
    opened = await pages.open(page_url(server, f"game={game_id}"), width=size[0], height=size[1], **options)
    await opened.page.wait_for_selector("svg.board[data-labels-hidden]")
    return opened.page


async def zoom(page: Any) -> float:
    return float(await page.get_attribute("svg.board", "data-zoom") or "nan")


async def settled(page: Any) -> None:
    """Wait for the board to rest after a gesture: what it shows drawn afresh, the names placed for it."""
    await page.wait_for_selector("svg.board:not([data-settling])")


async def hidden(page: Any) -> int:
    return int(await page.get_attribute("svg.board", "data-labels-hidden") or "-1")


async def zoom_all_the_way(page: Any) -> None:
    """Press "+" until the zoom stops growing."""
    before = -1.0
    while (now := await zoom(page)) != before:
        before = now
        await page.click("button[data-zoom='+']")


@pytest.mark.parametrize("size", [DESK, PHONE], ids=["desk", "phone"])
async def test_no_name_covers_another_or_a_circle_on_any_bundled_map(
    browser: Any, tmp_path: Path, size: tuple[int, int]
) -> None:
    async with web_server(open_games_per_connection=20) as server, watched_pages(browser, tmp_path) as pages:
        bundled = [info.id for info in server.lobby.maps() if info.source == "bundled"]
        assert {"cataract", "meridian", "saltreach", "seed", "twin-keeps"} <= set(bundled)
        games = {map_id: await new_game(server, map_id) for map_id in bundled}
        games["bigeurope"] = await new_game(server, upload=BIGEUROPE)
        for map_id, game_id in games.items():
            page = await watch(pages, server, game_id, size)
            first = await page.evaluate(OVERLAPS)
            assert first["problems"] == [], f"{map_id} at {size}, the first zoom"
            assert first["names"] == await page.locator("g[data-territory]").count()
            assert await hidden(page) == first["names"] - first["shown"]
            if size == DESK and map_id in ("cataract", "saltreach", "seed", "twin-keeps"):
                assert first["whole"] == first["names"], f"{map_id}: every name whole at a desk"
            if map_id == "cataract" and size == DESK:
                # the names the first board covered or cut: each whole now, clear of every circle
                assert first["shown"] == 24
            await zoom_all_the_way(page)
            largest = await page.evaluate(OVERLAPS)
            assert largest["problems"] == [], f"{map_id} at {size}, zoomed in"
            assert all(13 <= height <= 16 for height in largest["heights"]), largest["heights"]  # 12 px letters
            assert largest["whole"] == largest["names"], f"{map_id} at {size}: every name whole at the largest zoom"
            assert await hidden(page) == 0
            heights = largest["heights"] + first["heights"]  # the same size on screen at any zoom
            assert max(heights) - min(heights) < 1.0, heights
            await page.close()


UNDER = """
([x, y]) => {
  const svg = document.querySelector("svg.board");
  const point = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM().inverse());
  return [point.x, point.y];
}
"""

CENTRE_OF = """
(name) => {
  const ring = document.querySelector(`g[data-territory='${name}'] .ring`).getBoundingClientRect();
  const board = document.querySelector("svg.board").getBoundingClientRect();
  return [ring.left + ring.width / 2 - (board.left + board.width / 2),
    ring.top + ring.height / 2 - (board.top + board.height / 2), ring.width];
}
"""


async def view_box(page: Any) -> list[float]:
    return [float(v) for v in (await page.get_attribute("svg.board", "viewBox") or "").split()]


async def test_zoom_pan_and_search_on_bigeurope(browser: Any, tmp_path: Path) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        page = await watch(pages, server, await new_game(server, upload=BIGEUROPE, started=True), DESK)
        assert await page.locator("g[data-territory]").count() == 180
        assert await zoom(page) == 1.0
        crowded = await hidden(page)
        assert crowded > 0  # the centre of Europe is too crowded for every name at once

        # the wheel zooms about the pointer: the point of the map under it stays under it
        board = await page.locator("svg.board").bounding_box()
        at = [board["x"] + board["width"] * 0.42, board["y"] + board["height"] * 0.45]
        before = await page.evaluate(UNDER, at)
        await page.mouse.move(*at)
        await page.mouse.wheel(0, -300)
        await settled(page)
        assert await zoom(page) > 1
        assert await page.evaluate(UNDER, at) == pytest.approx(before, abs=0.5)
        assert await hidden(page) < crowded  # more names fit once zoomed in
        first = await zoom(page)
        await page.mouse.wheel(0, -300)
        await settled(page)
        assert await zoom(page) > first

        # a drag pans the map by as much as the pointer moved, and picks nothing
        box = await view_box(page)
        scale = board["width"] / box[2]
        await page.mouse.move(at[0], at[1])
        await page.mouse.down()
        await page.mouse.move(at[0] - 120, at[1] - 60, steps=6)
        await page.mouse.up()
        await settled(page)
        moved = await view_box(page)
        assert moved[0] - box[0] == pytest.approx(120 / scale, rel=0.02)
        assert moved[1] - box[1] == pytest.approx(60 / scale, rel=0.02)
        assert await page.locator("g[data-picked]").count() == 0

        # keys: arrows pan, + and - zoom, 0 shows the whole map; the buttons do the same
        await page.focus("svg.board")
        await page.keyboard.press("ArrowRight")
        assert (await view_box(page))[0] > moved[0]
        zoomed = await zoom(page)
        await page.keyboard.press("-")
        assert await zoom(page) == pytest.approx(zoomed / 1.5, rel=0.01)
        await page.keyboard.press("+")
        assert await zoom(page) == pytest.approx(zoomed, rel=0.01)
        await page.keyboard.press("0")
        assert await zoom(page) == 1.0 and await hidden(page) == crowded
        await page.click("button[data-zoom='+']")
        assert await zoom(page) == pytest.approx(1.5)
        await page.click("button[data-zoom='−']")
        await page.click("button[data-zoom='Fit']")
        assert await zoom(page) == 1.0

        # the search brings a territory to the middle, large enough to read, its name shown whole
        await page.fill("input.find", "POL3")
        await page.press("input.find", "Enter")
        await page.wait_for_selector("g[data-territory=pol3][data-found]")
        dx, dy, width = await page.evaluate(CENTRE_OF, "pol3")
        assert abs(dx) < 2 and abs(dy) < 2 and width >= 40
        assert await page.get_attribute("[data-label-for=pol3]", "data-label") == "full"
        await page.wait_for_selector("#details[data-territory=pol3]")
        await page.fill("input.find", "Atlantis")
        await page.press("input.find", "Enter")
        assert 'No territory is called "Atlantis"' in await page.inner_text(".find-note")

        # the territory picked: its borders bold, its neighbours outlined, its name shown
        await page.click("g[data-territory=pol3]")
        await page.wait_for_selector("g[data-territory=pol3][data-picked='1']")
        ways: dict[str, list[str]] = await page.evaluate("window.risc.game.map.borders")
        neighbours = set(ways["pol3"]) | {name for name, to in ways.items() if "pol3" in to}
        assert (
            set(await page.eval_on_selector_all("g[data-neighbour]", "els => els.map(e => e.dataset.territory)"))
            == neighbours
        )
        assert await borders_lit(page) == len(neighbours)
        assert await page.get_attribute("[data-label-for=pol3]", "data-label") == "full"
        assert (await page.evaluate(OVERLAPS))["problems"] == []


async def test_a_phone_pinches_to_zoom_and_drags_to_pan(browser: Any, tmp_path: Path) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        game_id = await new_game(server, upload=BIGEUROPE)
        context = await browser.new_context(
            viewport={"width": PHONE[0], "height": PHONE[1]}, has_touch=True, is_mobile=True
        )
        page = (await pages.open(page_url(server, f"game={game_id}"), context=context)).page
        await page.wait_for_selector("svg.board[data-labels-hidden]")
        board = await page.locator("svg.board").bounding_box()
        assert board["width"] <= PHONE[0]
        middle = [board["x"] + board["width"] / 2, board["y"] + board["height"] / 2]
        cdp = await context.new_cdp_session(page)

        async def touch(kind: str, points: list[list[float]]) -> None:
            await cdp.send(
                "Input.dispatchTouchEvent",
                {"type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]},
            )

        before = await page.evaluate(UNDER, middle)
        first = await zoom(page)  # a crowded map on a phone starts zoomed in, large enough to read (test_web_phone.py)
        await touch("touchStart", [[middle[0] - 30, middle[1]], [middle[0] + 30, middle[1]]])
        for spread in (45, 60, 75, 90):
            await touch("touchMove", [[middle[0] - spread, middle[1]], [middle[0] + spread, middle[1]]])
        await touch("touchEnd", [])
        await settled(page)
        assert await zoom(page) == pytest.approx(3.0 * first, rel=0.05)  # the fingers went from 60 to 180 px apart
        assert await page.evaluate(UNDER, middle) == pytest.approx(before, abs=1.0)

        box = await view_box(page)
        await touch("touchStart", [middle])
        for step in range(1, 6):
            await touch("touchMove", [[middle[0] + 12 * step, middle[1]]])
        await touch("touchEnd", [])
        await settled(page)
        assert (await view_box(page))[0] < box[0]  # the finger moved right: the map follows it
        assert await page.locator("g[data-picked]").count() == 0


LINE_OF = """
(selector) => [...document.querySelectorAll(selector)].map((ring) => {
  const style = getComputedStyle(ring);
  return [style.strokeWidth, style.strokeDasharray, style.stroke];
})
"""


async def test_the_marks_of_a_turn_differ_by_their_line_not_only_by_colour(browser: Any, tmp_path: Path) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        page = await watch(pages, server, await new_game(server, "cataract"), DESK)
        await page.wait_for_selector("#legend [data-mark-sample=conquest]")
        lines = {
            mark: (await page.evaluate(LINE_OF, f"[data-mark-sample={mark}] .ring"))[0]
            for mark in ("conquest", "battle", "change")
        }
        dashes = {mark: dash for mark, (_, dash, _) in lines.items()}
        assert dashes["conquest"] == "none"  # solid
        assert len(set(dashes.values())) == 3, dashes  # solid, dashed, dotted: told apart in grey too
        assert all(float(width.removesuffix("px")) >= 2 for width, _, _ in lines.values())
        # a continent's tint is a fill with no line at all, so no tint reads as a mark (Wildwood's was once red)
        tints = await page.evaluate(LINE_OF, "g[data-territory]:not([data-mark]) .ring")
        assert tints and all(width == "0px" or stroke == "none" for width, _, stroke in tints)
