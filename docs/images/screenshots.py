"""The pictures of docs/web.md, taken from real games in headless Chromium: `python docs/images/screenshots.py`.

A server with the web page on a free port; a player creates a RISC game on Cataract against two computer players
from the lobby, places their units and gives orders by pointing, and plays on until the game ends, with its
statistics; then its replay, at a desk's size and a phone's. Then, each from the lobby against computer players:
classic Risk on Meridian to a roll of the dice, the grid game to an attack, RISC Evolution 2 to a turn of upgrades,
Evolution 3 under fog of war until part of the board is only remembered, a game on bigeurope (uploaded from the
real maps beside the project, 180 territories) zoomed in on a territory found by the search, desk and phone, and
played on a phone with the orders of a territory picked at the foot of the screen; and a game on Domination's
risk.map drawn over its picture (a picture of land and sea made here at the map's own pixels, beside a copy of the
map in a maps folder of the server's, as an operator would give it); and last, accounts: the form that signs up, the
account's home with a game waiting for its orders, one waiting for players and one finished, the account's own
screen with a second device signed in, and the home on that phone. Pictures are 1280x800 (a desk) and 390x844 (a
phone), each written beside this file.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from typing import Any

from shared.maps.loader import load_map
from tests.picture_support import beside_a_picture, land_and_sea
from tests.web_support import (
    borders,
    create_in_lobby,
    front,
    launched,
    owned,
    pick,
    sign,
    signed_in,
    territories,
    web_server,
)

HERE = Path(__file__).resolve().parent
BIGEUROPE = HERE.parents[2] / "shared" / "maps" / "domination" / "bigeurope.map"
RISK = HERE.parents[2] / "shared" / "maps" / "domination" / "risk.map"
DESK = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


async def main() -> None:
    maps = Path(tempfile.mkdtemp(prefix="risc-maps-"))
    beside_a_picture(RISK, maps, land_and_sea(load_map(str(RISK)), 677, 425))
    async with web_server(bot_turn_pause=0.0, maps=(maps,)) as server, launched() as browser:
        context = await browser.new_context(viewport=DESK)
        page = await context.new_page()
        page.set_default_timeout(20_000)
        await page.goto(f"http://127.0.0.1:{server.port}/")
        await page.wait_for_selector("#lobby:not([hidden]) #ruleset option", state="attached")
        await page.fill("#name", "Ada")
        await page.screenshot(path=str(HERE / "web-lobby.png"))
        await create_in_lobby(
            page, "Ada", map_id="cataract", players=3, bots=2, strategy="aggressive", options={"initial_units": "12"}
        )
        await page.wait_for_selector("#game[data-status=playing][data-phase=placement]")
        mine = await owned(page, "Ada")
        await page.click(f"g[data-territory='{mine[0]}']")
        await page.fill("[data-count='0']", "7")
        await page.screenshot(path=str(HERE / "web-placement.png"))
        await page.click("[data-issue='0']")
        await page.wait_for_selector("[data-order-index='0']")
        await page.click(f"g[data-territory='{mine[1]}']")
        await page.click("[data-issue='0']")
        await page.wait_for_selector("[data-order-index='1']")
        await page.click("#commit")
        await page.wait_for_selector("#game[data-phase=orders]")
        board = await territories(page)
        source = max((units, name) for name, (owner, units) in board.items() if owner == "Ada")[1]
        await page.click(f"g[data-territory='{source}']")
        target = await page.get_attribute("g[data-target]", "data-territory")
        await page.click(f"g[data-territory='{target}']")
        await page.screenshot(path=str(HERE / "web-orders.png"))
        await page.click("[data-issue='0']")
        await page.wait_for_selector("[data-order-index='0']")
        await page.click("#commit")
        await page.wait_for_selector("#game[data-turn='2']")
        await page.wait_for_timeout(300)
        await page.screenshot(path=str(HERE / "web-results.png"))
        phone = await browser.new_context(viewport=PHONE, device_scale_factor=1)
        watcher = await phone.new_page()
        game_id = await page.get_attribute("#game", "data-game-id")
        await watcher.goto(f"http://127.0.0.1:{server.port}/#game={game_id}")
        await watcher.wait_for_selector("#game[data-status=playing] g[data-owner]")
        await watcher.screenshot(path=str(HERE / "web-phone.png"))
        for _ in range(60):
            await page.wait_for_selector("#game[data-status=finished], #commit:not([hidden])")
            if await page.get_attribute("#game", "data-status") == "finished":
                break
            turn = await page.get_attribute("#game", "data-turn")
            await page.click("#commit")
            await page.wait_for_selector(f"#game[data-status=finished], #game:not([data-turn='{turn}'])")
        await page.wait_for_selector("#result:not([hidden])")
        await page.wait_for_selector("#charts svg[data-chart=battles]")
        await page.evaluate("document.getElementById('result').scrollIntoView()")
        await page.screenshot(path=str(HERE / "web-end.png"))
        await replay(page, watcher)
        for take in (classic, grid, evolution, fog, real_map, pictured, accounts):
            fresh = await browser.new_context(viewport=DESK)
            other = await fresh.new_page()
            other.set_default_timeout(20_000)
            await other.goto(f"http://127.0.0.1:{server.port}/")
            await take(other)
            await fresh.close()
        print("pictures written to", HERE)


async def replay(page: Any, phone: Any) -> None:
    """The finished game told again: a turn of its replay at a desk, then on a phone."""
    await page.click("#replay-this")
    await page.wait_for_selector("#replay[data-index='0'] #replay-charts svg")
    for index in (1, 2, 3):
        await page.click("#replay-next")
        await page.wait_for_selector(f"#replay[data-index='{index}']")
    await page.screenshot(path=str(HERE / "web-replay.png"))
    await phone.goto(page.url)
    await phone.wait_for_selector("#replay[data-index='0'] #replay-board g[data-territory]")
    await phone.click("#replay-next")
    await phone.click("#replay-next")
    await phone.wait_for_selector("#replay[data-index='2']")
    await phone.screenshot(path=str(HERE / "web-replay-phone.png"))


async def real_map(page: Any) -> None:
    """A game on bigeurope, uploaded from the lobby: the whole map, then a territory found by the search, picked with
    its neighbours; then the same on a phone, zoomed in by its buttons."""
    await page.set_input_files("#map-file", str(BIGEUROPE))
    await create_in_lobby(page, "Ada", map_id=None, players=2, bots=1, strategy="aggressive")
    await page.wait_for_selector("#game[data-phase=placement] #commit:not([hidden])")
    await page.wait_for_selector("svg.board[data-labels-hidden]")
    await page.screenshot(path=str(HERE / "web-bigeurope.png"))
    ways = await borders(page)
    found = max(await owned(page, "Ada"), key=lambda name: len(ways[name]))  # one of hers in a crowded part
    await page.fill("input.find", found)
    await page.press("input.find", "Enter")
    await page.click(f"g[data-territory='{found}']")
    await page.wait_for_selector(f"g[data-territory='{found}'][data-picked='1']")
    await page.wait_for_selector("svg.board:not([data-settling])")
    await page.screenshot(path=str(HERE / "web-bigeurope-zoomed.png"))
    game_id = await page.get_attribute("#game", "data-game-id")
    phone = await page.context.browser.new_context(viewport=PHONE, device_scale_factor=1)
    watcher = await phone.new_page()
    await watcher.goto(page.url.split("#")[0] + f"#game={game_id}")
    await watcher.wait_for_selector("svg.board[data-labels-hidden]")
    for _ in range(3):
        await watcher.click("button[data-zoom='+']")
    await watcher.wait_for_selector("svg.board:not([data-settling])")
    await watcher.screenshot(path=str(HERE / "web-bigeurope-phone.png"))
    await phone.close()
    await phone_orders(page)


async def phone_orders(desk: Any) -> None:
    """A game on bigeurope played on a phone: the board filling its tall box, a territory tapped, and the orders it
    offers at the foot of the screen with the board above them."""
    phone = await desk.context.browser.new_context(
        viewport=PHONE, device_scale_factor=1, has_touch=True, is_mobile=True
    )
    page = await phone.new_page()
    page.set_default_timeout(20_000)
    await page.goto(desk.url.split("#")[0])
    await page.set_input_files("#map-file", str(BIGEUROPE))
    await create_in_lobby(page, "Bo", map_id=None, players=2, bots=1, strategy="aggressive")
    await page.wait_for_selector("#game[data-phase=placement] #commit:not([hidden])")
    await page.wait_for_selector("svg.board:not([data-settling])")
    shown = await page.evaluate(
        """(names) => names.filter((n) => {
             const b = document.querySelector(`g[data-territory='${n}'] .body`).getBoundingClientRect();
             const s = document.querySelector("svg.board").getBoundingClientRect();
             return b.top > s.top + 20 && b.bottom < s.bottom - 20 && b.left > s.left + 20 && b.right < s.right - 20;
           })""",
        await owned(page, "Bo"),
    )
    await page.tap(f"g[data-territory='{shown[0]}']")
    await page.wait_for_selector("#order-section[data-sheet=true] [data-issue='0']")
    await page.wait_for_timeout(300)
    await page.screenshot(path=str(HERE / "web-phone-orders.png"))
    await phone.close()


async def pictured(page: Any) -> None:
    """Domination's risk.map, from the server's maps folder with its picture beside it: the board over the picture."""
    await create_in_lobby(page, "Ada", map_id="risk", players=3, bots=2, strategy="aggressive")
    await page.wait_for_selector("#game[data-phase=placement] #commit:not([hidden])")
    await page.wait_for_selector("svg.board.pictured image.picture")
    await page.wait_for_timeout(500)
    await page.screenshot(path=str(HERE / "web-picture.png"))


async def attack_and_take(page: Any, source: str, target: str, picture: str) -> None:
    """Once Ada may attack in a turn-by-turn game: one attack from `source` on `target`, then the picture."""
    await page.wait_for_selector("#game[data-phase=attack][data-active=Ada]")
    await pick(page, source)
    await page.click(f"g[data-territory='{target}']")
    step = await page.get_attribute("#game", "data-step")
    await page.click("li[data-kind=attack] [data-issue]")
    await page.wait_for_selector(f"#game:not([data-step='{step}'])")
    await page.wait_for_timeout(300)
    await page.screenshot(path=str(HERE / picture))


async def classic(page: Any) -> None:
    """Classic Risk: startup at random, the turn's armies on the front, and an attack rolled with three dice."""
    await create_in_lobby(page, "Ada", ruleset="classic", map_id="meridian", players=3, bots=2, strategy="benevolent")
    await page.wait_for_selector("#game[data-phase=startup][data-active=Ada]")
    await page.click("li[data-kind=placeall] button")
    await page.wait_for_selector("#game[data-phase=reinforcement][data-active=Ada]")
    source, target = await front(page, "Ada")
    await pick(page, source)
    await page.click("li[data-kind=reinforce] [data-issue]")
    await attack_and_take(page, source, target, "web-classic.png")


async def grid(page: Any) -> None:
    """The grid game: a troop deployed, the turn's new troops, and an attack with its dice."""
    await create_in_lobby(
        page, "Ada", ruleset="grid", map_id=None, players=3, bots=2, strategy="defensive", options={"troops": "12"}
    )
    for _ in range(3):
        await page.wait_for_selector("#game[data-phase=deployment][data-active=Ada], #game[data-turn='1']")
        if await page.get_attribute("#game", "data-turn") == "1":
            break
        step = await page.get_attribute("#game", "data-step")
        await pick(page, (await owned(page, "Ada"))[0])
        await page.click("li[data-kind=deploy] [data-issue]")
        await page.wait_for_selector(f"#game:not([data-step='{step}'])")
    await page.wait_for_selector("#game[data-phase='new troops'][data-active=Ada]")
    source, target = await front(page, "Ada")
    await pick(page, source)
    await page.click("li[data-kind=deploy] [data-issue]")
    await attack_and_take(page, source, target, "web-grid.png")


async def evolution_game(page: Any, evolution: str, strategy: str) -> None:
    """Ada's game of a RISC evolution on cataract with 2 computer players, 24 units each, at its placement."""
    await create_in_lobby(
        page,
        "Ada",
        ruleset="risc",
        map_id="cataract",
        players=3,
        bots=2,
        strategy=strategy,
        options={"evolution": evolution, "initial_units": "24"},
    )
    await page.wait_for_selector("#game[data-phase=placement] #commit:not([hidden])")


async def evolution(page: Any) -> None:
    """RISC Evolution 2: units upgraded and research, the turn after, with a territory pointed at."""
    await evolution_game(page, "2", "strategist")
    mine = await owned(page, "Ada")
    for name in mine[:2]:
        await pick(page, name)
        await page.fill("[data-count='0']", "12")
        await page.click("[data-issue='0']")
    await page.wait_for_selector("[data-order-index='1']")
    await page.click("#commit")
    await page.wait_for_selector("#game[data-phase=orders][data-turn='1']")
    await pick(page, mine[0])
    await page.fill("li[data-kind=upgrade] [data-count]", "8")
    await page.click("li[data-kind=upgrade] [data-issue]")
    await page.wait_for_selector("[data-order-index='0']")
    await page.click("li[data-kind=research] button")
    await page.wait_for_selector("[data-order-index='1']")
    await page.click("#commit")
    await page.wait_for_selector("#game[data-turn='2']")
    await page.hover(f"g[data-territory='{mine[0]}']")
    await page.wait_for_timeout(300)
    await page.screenshot(path=str(HERE / "web-evolution.png"))


async def fog(page: Any) -> None:
    """RISC Evolution 3: turns pass until some of the board is remembered rather than seen."""
    await evolution_game(page, "3", "aggressive")
    await pick(page, (await owned(page, "Ada"))[0])
    await page.click("[data-issue='0']")
    await page.wait_for_selector("[data-order-index='0']")
    for turn in range(1, 30):
        await page.click("#commit")
        await page.wait_for_selector(f"#game[data-turn='{turn}'], #game[data-status=finished]")
        if (
            await page.locator("g[data-fog=memory]").count()
            or await page.get_attribute("#game", "data-status") == "finished"
        ):
            break
    await page.wait_for_timeout(300)
    await page.screenshot(path=str(HERE / "web-fog.png"))


async def accounts(page: Any) -> None:
    """An account: the sign-up form, then the home with three games (one waiting for the player's orders, one for
    players, one finished), the account's screen with a phone signed in too, and the home on that phone."""
    password = "correct horse battery"
    await page.wait_for_selector("#lobby:not([hidden]) #ruleset option", state="attached")
    await page.click("#you-sign-up")
    await page.fill("#account-name-input", "Mira")
    await page.fill("#account-password", password)
    await page.fill("#account-password-again", password)
    await page.screenshot(path=str(HERE / "web-sign-in.png"))
    await page.click("#sign-in-submit")
    await signed_in(page, "Mira")
    for players, resign in ((2, True), (3, False), (2, False)):
        if await page.is_visible("#home-to-lobby"):
            await page.click("#home-to-lobby")
        await create_in_lobby(page, "Mira", map_id="cataract", players=players, bots=1, strategy="aggressive")
        await page.wait_for_selector("#game[data-you=Mira][data-status]:not([data-status=''])")
        if resign:
            await page.click("#resign")
            await page.click("#resign-yes")
            await page.wait_for_selector("#game[data-status=finished]")
        await page.click("#open-home")
        await page.wait_for_selector("#home-screen[data-state=listed]:not([hidden])")
    await page.click("#account-note-close")
    await page.screenshot(path=str(HERE / "web-home.png"))
    phone = await page.context.browser.new_context(viewport=PHONE, device_scale_factor=1)
    other = await phone.new_page()
    await other.goto(page.url.split("#")[0])
    await sign(other, "Mira", password)
    await signed_in(other, "Mira")
    await other.click("#account-note-close")
    await other.screenshot(path=str(HERE / "web-home-phone.png"))
    await page.click("#open-account")
    await page.wait_for_selector("#sessions tr[data-current=false]")
    await page.screenshot(path=str(HERE / "web-account.png"))
    await phone.close()


if __name__ == "__main__":
    asyncio.run(main())
