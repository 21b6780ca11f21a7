"""The web page on a server of several nodes, in a real browser: the lobby of a page served by one node shows a game
created on another as it is created, the page joins it (it is redirected to the node that plays it, and plays on),
and follows its game when that node stops and another takes it over."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from client.webpage import web_root
from server.app import RiscServer
from tests.cluster_support import NODE_TIMING
from tests.server_support import Client, create_game, join, running_server
from tests.web_support import browser_or_skip, page_url, place_everything, watched_pages

browser_or_skip()
pytestmark = pytest.mark.asyncio(loop_scope="module")


@contextlib.asynccontextmanager
async def web_node(dsn: str, node_id: str) -> AsyncIterator[RiscServer]:
    async with running_server(store=dsn, node_id=node_id, web_root=web_root(), **NODE_TIMING) as node:
        yield node


async def test_a_page_of_one_node_joins_a_game_another_plays_and_follows_it_when_that_node_stops(
    browser: Any, tmp_path: Path, postgres_dsn: str
) -> None:
    async with web_node(postgres_dsn, "b") as b, watched_pages(browser, tmp_path) as pages:
        async with web_node(postgres_dsn, "a") as a:
            opened = await pages.open(page_url(b))  # the page comes from node b, and shows its lobby
            page = opened.page
            await page.wait_for_selector("#lobby:not([hidden]) #games")
            ann = await Client.connect(a)
            game_id = await create_game(ann, players=2, map="twin-keeps", initial_units=4)
            token = await join(ann, game_id, "Ann")
            # the game created on node a appears in the lobby of node b's page, unasked (LISTEN/NOTIFY)
            await page.wait_for_selector(f"tr[data-game-id='{game_id}'] [data-join]")
            assert "game_listed" in opened.watch.types("received")
            await page.fill("#name", "Bea")
            await page.click(f"tr[data-game-id='{game_id}'] [data-join]")
            await page.wait_for_selector("#game[data-status=playing][data-you=Bea]")
            assert "redirect" in opened.watch.types("received")
            assert game_id in a.lobby.matches and game_id not in b.lobby.matches
            await place_everything(page, "Bea")
            await page.wait_for_selector("#player-list li[data-player=Bea][data-committed=true]")
        # Node a stopped. The page comes back through its own node, which takes the game over with Bea's commit;
        # Ann comes back there too, and the turn both committed resolves on every page.
        await page.wait_for_selector("#link-state[data-link=open]")
        ann = await Client.connect(b)
        resumed = await ann.request(type="resume", game_id=game_id, token=token)
        assert resumed["type"] == "resumed", resumed
        assert game_id in b.lobby.matches
        await page.wait_for_selector("#player-list li[data-player=Bea][data-committed=true]")
        update = await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        mine = next(t["name"] for t in update["view"]["territories"] if t["owner"] == "Ann")
        placed = await ann.request(
            type="issue_order",
            game_id=game_id,
            turn=0,
            order={"kind": "place", "territory": mine, "units": update["view"]["pool_left"]},
        )
        assert placed["type"] == "order_accepted", placed
        assert (await ann.request(type="commit", game_id=game_id, turn=0))["type"] == "commit_accepted"
        await page.wait_for_selector("#game[data-phase=orders][data-turn='1']")
