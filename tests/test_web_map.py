"""The board as a map, in a real headless Chromium: each territory a region of land filled with its owner's colour,
the sea between continents left as sea and each continent outlined by its coast, the armies on top, one-way borders
as arrows, and the map's own picture under it where the server has one (a Domination map's picture beside it).

Regions are checked by their geometry as the browser holds it (SVG's own isPointInFill), on every bundled map and on
bigeurope (180 territories), never by a picture of the page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shared.maps.loader import load_map
from tests.map_editor_support import SHARED_MAPS
from tests.picture_support import beside_a_picture, land_and_sea
from tests.server_support import Client, create_game, join
from tests.web_support import browser_or_skip, page_url, placing, watched_pages, web_server

browser_or_skip()
pytestmark = pytest.mark.asyncio(loop_scope="module")

BIGEUROPE = SHARED_MAPS / "domination" / "bigeurope.map"
RISK = SHARED_MAPS / "domination" / "risk.map"
NOBODYS_LAND = "#ecebe4"

REGIONS = """
() => {
  const svg = document.querySelector("svg.board");
  const point = (x, y) => { const p = svg.createSVGPoint(); p.x = x; p.y = y; return p; };
  const regions = new Map([...svg.querySelectorAll("path.region")].map((r) => [r.dataset.region, r]));
  const discs = new Map([...svg.querySelectorAll("g[data-territory]")].map((g) => {
    const [, x, y] = /translate\\(([-\\d.]+) ([-\\d.]+)\\)/.exec(g.getAttribute("transform"));
    return [g.dataset.territory, { x: Number(x), y: Number(y), continent: g.dataset.continent,
      owner: g.dataset.owner, body: g.querySelector(".body").getAttribute("fill") }];
  }));
  const problems = [];
  const boxes = new Map([...regions].map(([name, r]) => [name, r.getBBox()]));
  for (const [name, disc] of discs) {
    const region = regions.get(name);
    if (!region) { problems.push(`${name} has no region`); continue; }
    if (!region.isPointInFill(point(disc.x, disc.y))) problems.push(`${name} is not inside its region`);
  }
  // no two regions overlap: points well inside each (between its territory and its corners) are in no other
  for (const [name, region] of regions) {
    const disc = discs.get(name);
    const corners = region.getAttribute("d").slice(1, -1).split("L").map((c) => c.split(" ").map(Number));
    const inside = corners.map(([x, y]) => [disc.x + (x - disc.x) * 0.9, disc.y + (y - disc.y) * 0.9]);
    for (const [other, box] of boxes) {
      if (other === name) continue;
      for (const [x, y] of inside) {
        if (x < box.x || y < box.y || x > box.x + box.width || y > box.y + box.height) continue;
        if (regions.get(other).isPointInFill(point(x, y))) {
          problems.push(`${name}'s region overlaps ${other}'s`);
          break;
        }
      }
    }
  }
  // the sea between continents: halfway between two bordering territories of different continents is in neither
  const borders = window.risc.game.map.borders;
  let straits = 0;
  for (const [from, targets] of Object.entries(borders)) {
    for (const to of targets) {
      const [a, b] = [discs.get(from), discs.get(to)];
      if (!a || !b || a.continent === b.continent) continue;
      straits += 1;
      const middle = point((a.x + b.x) / 2, (a.y + b.y) / 2);
      if (regions.get(from).isPointInFill(middle) || regions.get(to).isPointInFill(middle)) {
        problems.push(`no sea between ${from} (${a.continent}) and ${to} (${b.continent})`);
      }
    }
  }
  const fills = [...regions].map(([name, r]) => [name, r.getAttribute("fill"), discs.get(name).owner,
    discs.get(name).body]);
  const coast = svg.querySelector("path.coast").getAttribute("d");
  return { problems, regions: regions.size, discs: discs.size, straits, fills,
    coastSegments: (coast.match(/M/g) || []).length };
}
"""

LAND_OF = """
(colour) => {
  const n = parseInt(colour.slice(1), 16);
  const paler = (shift) => Math.round(((n >> shift) & 255) + (255 - ((n >> shift) & 255)) * 0.35);
  return `#${[16, 8, 0].map((shift) => paler(shift).toString(16).padStart(2, "0")).join("")}`;
}
"""


async def game_on(server: Any, *, map_id: str | None = None, upload: Path | None = None) -> str:
    """A game between Alice and a computer player, at its placement (the territories dealt)."""
    owner = await Client.connect(server)
    try:
        if upload is not None:
            game_id = await create_game(
                owner, upload=(upload.name, upload.read_text(encoding="utf-8")), players=2, bots=1
            )
        else:
            game_id = await create_game(owner, map=map_id, players=2, bots=1)
        await join(owner, game_id, "Alice")
        return game_id
    finally:
        await owner.ws.close()


async def test_every_territory_is_a_region_of_its_owners_colour_with_sea_between_continents(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server(open_games_per_connection=20) as server, watched_pages(browser, tmp_path) as pages:
        bundled = [info.id for info in server.lobby.maps() if info.source == "bundled"]
        games = {map_id: await game_on(server, map_id=map_id) for map_id in bundled}
        games["bigeurope"] = await game_on(server, upload=BIGEUROPE)
        straits = 0
        for map_id, game_id in games.items():
            page = (await pages.open(page_url(server, f"game={game_id}"), width=1280, height=800)).page
            await page.wait_for_selector("svg.board g[data-owner='Alice']")
            found = await page.evaluate(REGIONS)
            assert found["problems"] == [], map_id
            assert found["regions"] == found["discs"] == await page.locator("g[data-territory]").count(), map_id
            assert found["coastSegments"] > 0, f"{map_id}: no coast outlines the land"
            straits += found["straits"]
            for name, fill, owner, body in found["fills"]:
                # the region in its owner's colour, paler than the disc on it; a territory nobody holds, bare land
                wanted = await page.evaluate(LAND_OF, body) if owner else NOBODYS_LAND
                assert fill == wanted, (map_id, name, owner, fill, body)
            await page.close()
        assert straits > 50  # bigeurope alone has many borders between its 18 continents


async def test_the_armies_sit_on_their_land_a_click_on_the_land_picks_and_one_way_borders_are_arrows(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        page = (await pages.open(page_url(server))).page
        await placing(page, "Alice")
        cataract = load_map("cataract")
        one_way = [(a, b) for a in cataract.names for b in cataract.neighbours(a) if a not in cataract.neighbours(b)]
        arrows = await page.eval_on_selector_all(
            "svg.board line.border.one-way[marker-end]", "ls => ls.map((l) => [l.dataset.from, l.dataset.to])"
        )
        assert sorted(map(tuple, arrows)) == sorted(one_way) and one_way
        # the armies on top: what is under the middle of each disc is the disc, not the land
        on_top = await page.evaluate(
            """() => [...document.querySelectorAll("g[data-territory]")].map((g) => {
                 const b = g.querySelector(".body").getBoundingClientRect();
                 const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
                 return [g.dataset.territory, hit?.closest("g[data-territory]")?.dataset.territory ?? null];
               })"""
        )
        assert all(name == hit for name, hit in on_top), on_top
        # a click on a territory's land, away from its disc, picks it as a click on the disc does
        mine = await page.eval_on_selector_all("g[data-owner='Alice']", "gs => gs.map((g) => g.dataset.territory)")
        spot = await page.evaluate(
            """(name) => {
                 const region = document.querySelector(`path.region[data-region='${name}']`);
                 const disc = document.querySelector(`g[data-territory='${name}'] .ring`).getBoundingClientRect();
                 const box = region.getBoundingClientRect();
                 for (let i = 1; i < 40; i++) for (let j = 1; j < 40; j++) {
                   const [x, y] = [box.left + (box.width * i) / 40, box.top + (box.height * j) / 40];
                   const away = Math.hypot(x - disc.left - disc.width / 2, y - disc.top - disc.height / 2);
                   if (away > disc.width && document.elementFromPoint(x, y) === region) return [x, y];
                 }
                 return null;
               }""",
            mine[0],
        )
        assert spot is not None
        await page.mouse.click(*spot)
        await page.wait_for_selector(f"g[data-territory='{mine[0]}'][data-picked='1']")
        assert await page.locator(f".region-mark.picked[data-for='{mine[0]}']").count() == 1
        await page.wait_for_selector("#order-entry [data-count='0']")  # the order it names, offered


async def test_the_board_is_drawn_over_the_maps_own_picture(browser: Any, tmp_path: Path) -> None:
    risk = load_map(str(RISK))
    beside_a_picture(RISK, tmp_path / "maps", land_and_sea(risk, 677, 425))
    async with web_server(maps=(tmp_path / "maps",)) as server, watched_pages(browser, tmp_path) as pages:
        game_id = await game_on(server, map_id="risk")
        page = (await pages.open(page_url(server, f"game={game_id}"))).page
        await page.wait_for_selector("svg.board.pictured g[data-owner='Alice']")
        href = await page.get_attribute("svg.board image.picture", "href")
        assert href == "/maps/risk/picture"
        loaded = await page.evaluate(
            "async (url) => { const i = new Image(); i.src = url; await i.decode(); return [i.naturalWidth, "
            "i.naturalHeight]; }",
            href,
        )
        assert loaded == [677, 425]
        # each territory sits on the picture's pixel its position names (Alaska at 41, 55; Argentina at 207, 372)
        for territory in ("Alaska", "Argentina", "Eastern-Australia"):
            t = risk.territory(territory)
            where = await page.evaluate(
                """([name, x, y]) => {
                     const picture = document.querySelector("svg.board image.picture").getBoundingClientRect();
                     const disc = document.querySelector(`g[data-territory='${name}'] .body`).getBoundingClientRect();
                     return [picture.left + (x * picture.width) / 677 - (disc.left + disc.width / 2),
                       picture.top + (y * picture.height) / 425 - (disc.top + disc.height / 2)];
                   }""",
                [territory, t.x, t.y],
            )
            assert abs(where[0]) < 1 and abs(where[1]) < 1, (territory, where)
