"""The web page in a game of days (docs/web.md, "Games of days"), in a real browser: the line under the board says
the time left in days and hours and the player's bank, the lobby lists the game's pace, and the page tells the
server it looks at nothing while it is hidden."""

from __future__ import annotations

import json
from typing import Any

from tests.server_support import Client, create_game, join
from tests.web_support import launched, page_url, watch, web_server


async def test_the_page_shows_a_day_s_limit_and_the_bank_and_the_lobby_lists_the_pace() -> None:
    async with web_server(messages_per_second=100_000.0, burst=100_000) as server, launched() as browser:
        ann = await Client.connect(server)
        game_id = await create_game(
            ann, map="seed", players=2, turn_seconds=86_400, bank_seconds=7200, boot_after=3, initial_units=4
        )
        await join(ann, game_id, "Ann")
        page = await browser.new_page()
        watched = watch(page)
        sockets: list[Any] = []
        page.on("websocket", lambda ws: sockets.append(ws))
        await page.goto(page_url(server))
        listed = page.locator(f"text={game_id}").locator("xpath=ancestor::tr")
        await listed.get_by_text("1 d a turn; 2 h bank; boot after 3").wait_for()
        await page.goto(page_url(server, f"game={game_id}"))
        await page.fill("#sit-name", "Bob")
        await page.press("#sit-name", "Enter")
        timer = page.locator("#timer")
        await timer.get_by_text("your bank: 2 h").wait_for()
        text = await timer.inner_text()
        assert text.startswith("Time left this turn: 23 h 59 min") or text.startswith("Time left this turn: 1 d"), text
        match = server.lobby.get(game_id)
        bob = next(sub for sub, seat in match.followers.seats.items() if seat == "Bob")
        assert getattr(bob, "looking", None) == game_id, "the page said which game is on its screen"
        socket = sockets[-1]
        async with socket.expect_event("framesent", predicate=lambda payload: '"looking"' in payload) as said:
            await page.evaluate(
                "Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
                "document.dispatchEvent(new Event('visibilitychange'))"
            )
        assert json.loads(await said.value)["game_id"] is None, "hidden, the page looks at nothing"
        watched.check()
