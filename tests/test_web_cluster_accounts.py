"""The web page on a server of two nodes, in a real browser: a page signed in on one node opens, from its home, the
account's game the other node plays (the session's cookie goes with the link to that node); and a link sent to a node
that refuses connections tries it once, then comes back through the page's own node."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from tests.server_support import Client, create_game
from tests.test_web_cluster import web_node
from tests.web_support import (
    browser_or_skip,
    page_url,
    place_everything,
    session_cookie,
    sign,
    signed_in,
    watched_pages,
)

browser_or_skip()
pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_a_page_signed_in_on_one_node_opens_from_its_home_the_account_s_game_another_node_plays(
    browser: Any, tmp_path: Path, postgres_dsn: str
) -> None:
    async with (
        web_node(postgres_dsn, "a") as a,
        web_node(postgres_dsn, "b") as b,
        watched_pages(browser, tmp_path) as pages,
    ):
        opened = await pages.open(page_url(b))
        page = opened.page
        await sign(page, "Ann", "correct horse battery", up=True)  # on node b
        await signed_in(page, "Ann")
        cookie = await session_cookie(opened.context)
        assert cookie is not None
        # the same account, signed in on node a by a program, sits in a game node a plays
        on_a = await Client.connect(a, session=cookie["value"])
        assert on_a.welcome["account"]["name"] == "Ann"
        game_id = await create_game(on_a, players=2, bots=1, map="twin-keeps")
        joined = await on_a.request(type="join_game", game_id=game_id, name="Ann")
        assert joined["type"] == "joined" and joined["token"] == ""
        await on_a.wait_for(lambda m: m["type"] == "update" and m["game"]["status"] == "playing")
        assert game_id in a.lobby.matches and game_id not in b.lobby.matches

        await page.click("#home-refresh")
        await page.wait_for_selector(f"#home-games tr[data-game-id='{game_id}'][data-stands=your-turn]")
        await page.click(f"#home-games [data-open='{game_id}']")
        await page.wait_for_selector(f"#game[data-game-id='{game_id}'][data-you=Ann][data-status=playing]")
        assert "redirect" in opened.watch.types("received")
        resumed = [m for m in opened.watch.sent if m["type"] == "resume"]
        assert resumed and all("token" not in m for m in resumed), "the account's seat, with no token, on node a"
        welcomes = [m for m in opened.watch.received if m["type"] == "welcome"]
        assert welcomes[-1]["account"]["name"] == "Ann", "the link to node a is signed in too"
        assert game_id in a.lobby.matches and game_id not in b.lobby.matches
        await on_a.wait_for(lambda m: m["type"] == "error" and m["code"] == "not-seated" and m["ref"] is None)
        await place_everything(page, "Ann")
        await page.wait_for_selector("#game[data-phase=orders][data-turn='1']")
        await on_a.ws.close()


async def test_a_link_sent_to_a_node_that_does_not_answer_tries_it_once_then_comes_back_through_its_own_node(
    browser: Any, tmp_path: Path, postgres_dsn: str
) -> None:
    """A redirect to a node that refuses connections: the page tries it once, then, after a pause, its own node,
    where its link opens again (it once tried the dead node over and over at once, and never came back)."""
    with socket.socket() as held:  # a port of this computer that nobody listens on: every connection is refused
        held.bind(("127.0.0.1", 0))
        dead = f"ws://127.0.0.1:{held.getsockname()[1]}/"
        async with (
            web_node(postgres_dsn, "a"),
            web_node(postgres_dsn, "b") as b,
            watched_pages(browser, tmp_path) as pages,
        ):
            opened = await pages.open(page_url(b))
            page = opened.page
            await page.wait_for_selector("#lobby:not([hidden]) #games tbody tr")
            tried: list[str] = []
            page.on("websocket", lambda ws: tried.append(ws.url))
            await page.evaluate(
                "url => { window.before = window.risc.link.welcome; window.risc.link.moveTo(url); }", dead
            )
            await page.wait_for_function(
                "() => window.risc.link.state === 'open' && window.risc.link.welcome !== window.before"
            )
            assert tried == [dead, f"ws://127.0.0.1:{b.port}/"], tried
            assert len(opened.watch.errors) == 1 and dead in opened.watch.errors[0], opened.watch.errors
            opened.watch.errors.clear()  # the browser's line for the one refused connection: expected here
