"""The pictures of docs/web.md, taken from a real game in headless Chromium: `python docs/images/screenshots.py`.

A server with the web page on a free port; a player creates a RISC game on Cataract against two computer players
from the lobby, places their units and gives orders by pointing, and plays on until the game ends. Each picture is
written beside this file.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.web_support import create_in_lobby, launched, owned, territories, web_server

HERE = Path(__file__).resolve().parent


async def main() -> None:
    async with web_server(bot_turn_pause=0.0) as server, launched() as browser:
        context = await browser.new_context(viewport={"width": 1200, "height": 760})
        page = await context.new_page()
        page.set_default_timeout(20_000)
        await page.goto(f"http://127.0.0.1:{server.port}/")
        await page.wait_for_selector("#lobby:not([hidden]) #ruleset option", state="attached")
        await page.fill("#name", "Ada")
        await page.screenshot(path=str(HERE / "web-lobby.png"))
        await create_in_lobby(page, "Ada", map_id="cataract", players=3, bots=2, strategy="aggressive",
                              options={"initial_units": "12"})
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
        phone = await browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
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
        await page.evaluate("document.getElementById('result').scrollIntoView()")
        await page.screenshot(path=str(HERE / "web-end.png"))
        print("pictures written to", HERE)


if __name__ == "__main__":
    asyncio.run(main())
