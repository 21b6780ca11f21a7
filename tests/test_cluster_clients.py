"""The real clients on a server of several nodes: the text client and network bots come in through a node that does
not play their game, are sent to the one that does, and follow the game when that node goes."""

from __future__ import annotations

import asyncio
import contextlib

from client.bot import NetworkBot
from client.connection import Backoff
from tests.client_support import driven
from tests.cluster_support import nodes
from tests.server_support import Client, create_game, url

QUICK = Backoff(first=0.05, most=0.2)
GAME_SECONDS = 60.0


async def test_network_bots_joining_through_another_node_play_on_when_the_game_s_node_stops(postgres_dsn: str) -> None:
    async with nodes(postgres_dsn, 1, node_id="b") as (b,):
        stack = contextlib.AsyncExitStack()
        (a,) = await stack.enter_async_context(nodes(postgres_dsn, 1, node_id="a"))
        lobby = await Client.connect(a)
        game_id = await create_game(lobby, players=2)
        bots = [
            NetworkBot(url(b), game_id, strategy=s, seed=i, backoff=QUICK)
            for i, s in enumerate(("aggressive", "strategist"))
        ]
        playing = asyncio.gather(*(bot.run() for bot in bots))
        for _ in range(2000):
            if all(bot.turns_played >= 2 for bot in bots):
                break
            await asyncio.sleep(0.01)
        assert all(bot.turns_played >= 2 for bot in bots), "the bots did not play through node b's redirect"
        assert game_id in a.lobby.matches and game_id not in b.lobby.matches
        await stack.aclose()  # node a stops: its bots come back through b, which takes the game over
        assert await asyncio.wait_for(playing, GAME_SECONDS) == [0, 0]
        assert game_id in b.lobby.matches
        winners = {bot.view.winner for bot in bots if bot.view is not None}
        assert len(winners) == 1 and winners <= {bot.name for bot in bots}
        # what the stopping node refused, and what it never answered, were sent again where the game went
        assert [e.message for bot in bots for e in bot.errors] == []


async def test_the_text_client_joins_through_another_node_and_takes_its_seat_back_where_the_game_went(
    postgres_dsn: str,
) -> None:
    async with nodes(postgres_dsn, 1, node_id="b") as (b,):
        stack = contextlib.AsyncExitStack()
        (a,) = await stack.enter_async_context(nodes(postgres_dsn, 1, node_id="a"))
        ann = await Client.connect(a)
        game_id = await create_game(ann, players=2, initial_units=4)
        await ann.request(type="join_game", game_id=game_id, name="Ann")
        async with driven(url(b), name="Bea") as bea:
            shown = await bea.type(f"join {game_id}")
            assert "You sit in game" in shown and game_id in a.lobby.matches
            await bea.expect("Place your 4 units")
            shown = await bea.type("place 4 *")
            assert "Refused" not in shown
            await bea.type("done")
            await bea.expect("Waiting for Ann")
            await stack.aclose()  # node a stops, handing the game to b
            shown = await bea.expect(f"Back in game {game_id} as Bea", timeout=15)
            assert game_id in b.lobby.matches
            assert "stopping" not in shown and "shutting down" not in shown  # the game went on: no news
            shown = await bea.type("orders")
            assert "Refused" not in shown and "Not connected" not in shown


async def test_the_text_client_in_the_lobby_is_told_of_a_game_created_on_another_node(postgres_dsn: str) -> None:
    async with nodes(postgres_dsn, 2) as (a, b), driven(url(b), name="Bea") as bea:
        await bea.type("games")
        ann = await Client.connect(a)
        game_id = await create_game(ann, players=2)
        shown = await bea.expect("New game: ")
        shown = await bea.expect("seats free")
        assert game_id in shown and "RISC on Seed example" in shown
