"""Computer players over real sockets: network bots joining a game like any client, and seats the server plays."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from client.bot import NetworkBot
from client.connection import Backoff, ConnectionLost
from tests.server_support import FAST, Client, create_game, join, running_server, until, url

GAME_SECONDS = 40.0
QUICK = Backoff(first=0.05, most=0.2)


async def test_three_network_bots_play_a_game_to_its_winner() -> None:
    async with running_server(**FAST) as server:
        lobby = await Client.connect(server)
        game_id = await create_game(lobby, players=3)
        bots = [
            NetworkBot(url(server), game_id, strategy=s, seed=i, backoff=QUICK)
            for i, s in enumerate(("aggressive", "strategist", "random"))
        ]
        statuses = await asyncio.wait_for(asyncio.gather(*(b.run() for b in bots)), GAME_SECONDS)
        assert statuses == [0, 0, 0]
        views = [b.view for b in bots]
        assert all(v is not None and v.winner is not None for v in views)
        winner = views[0].winner if views[0] is not None else None
        assert winner in {b.name for b in bots}
        assert all(v is not None and v.winner == winner for v in views)
        assert [e.message for b in bots for e in b.errors] == []
        assert all(b.turns_played >= 1 for b in bots)
        games = await lobby.request(type="list_games")
        summary = next(g for g in games["games"] if g["game_id"] == game_id)
        assert summary["phase"] == "finished" and summary["winner"] == winner


async def test_a_network_bot_takes_its_seat_back_after_the_link_drops() -> None:
    async with running_server(**FAST) as server:
        lobby = await Client.connect(server)
        game_id = await create_game(lobby, players=2, bots=1, bot_strategy="aggressive")
        await lobby.request(type="watch_game", game_id=game_id)  # told of every turn: when to look at the bot again
        bot = NetworkBot(url(server), game_id, strategy="defensive", seed=3, backoff=QUICK)
        task = asyncio.get_running_loop().create_task(bot.run())
        await until(lambda: bot.turns_played >= 2, "first turns of the bot", lobby)
        await bot.connection.drop()
        assert await asyncio.wait_for(task, GAME_SECONDS) == 0
        view = bot.view
        assert view is not None and view.winner in {bot.name, "bot-aggressive-1"}
        assert {t.owner for t in view.territories.values()} == {view.winner}, "R26: the winner holds everything"
        summary = next(g for g in (await lobby.request(type="list_games"))["games"] if g["game_id"] == game_id)
        assert summary["winner"] == view.winner
        assert bot.errors == []


async def test_server_run_bots_fill_seats_and_play_against_a_scripted_player() -> None:
    async with running_server(**FAST) as server:
        alice = await Client.connect(server)
        reply = await alice.request(
            type="create_game", settings={"map": "seed", "players": 3, "bots": 2, "bot_strategy": "strategist"}
        )
        assert reply["type"] == "game_created", reply
        game = reply["game"]
        assert [s["name"] for s in game["seats"]] == ["bot-strategist-1", "bot-strategist-2"]
        assert game["free"] == 1 and game["phase"] == "lobby"
        game_id = game["game_id"]
        await join(alice, game_id, "Alice")

        # Alice places everything on her first territory and then only commits: the bots attack and finish her.
        turns = 0
        handled: set[int] = set()
        while True:
            update = await alice.wait_for(
                lambda m: (
                    m["type"] == "update"
                    and m["view"] is not None
                    and (
                        m["view"]["phase"] == "finished"
                        or not next(p for p in m["view"]["players"] if p["name"] == "Alice")["committed"]
                    )
                ),
                timeout=GAME_SECONDS,
            )
            view = update["view"]
            if view["phase"] == "finished":
                break
            me = next(p for p in view["players"] if p["name"] == "Alice")
            if me["eliminated"] or view["turn"] in handled:
                continue
            handled.add(view["turn"])
            if view["phase"] == "placement":
                mine = [t["name"] for t in view["territories"] if t["owner"] == "Alice"]
                placed = await alice.request(
                    type="issue_order",
                    game_id=game_id,
                    turn=0,
                    order={"kind": "place", "territory": mine[0], "units": view["pool_left"]},
                )
                assert placed["type"] == "order_accepted", placed
            committed = await alice.request(type="commit", game_id=game_id, turn=view["turn"])
            assert committed["type"] == "commit_accepted", committed
            turns += 1
            assert turns < 300, "the game did not end"
        assert view["winner"] in {"bot-strategist-1", "bot-strategist-2"}
        assert [f for f in alice.frames if f["type"] == "error"] == []
        assert all(bot.refused == 0 for bot in server.lobby.bots)


async def test_a_game_of_server_run_bots_only_plays_itself_out_for_a_spectator() -> None:
    async with running_server(**FAST) as server:
        watcher = await Client.connect(server)
        game_id = await create_game(watcher, players=2, bots=2, bot_strategy="strategist")
        await watcher.request(type="watch_game", game_id=game_id)
        update = await watcher.wait_for(
            lambda m: m["type"] == "update" and m["game"]["phase"] == "finished", timeout=GAME_SECONDS
        )
        assert update["game"]["winner"] in {"bot-strategist-1", "bot-strategist-2"}


async def test_bad_bot_settings_are_refused_and_create_nothing() -> None:
    async with running_server(**FAST) as server:
        client = await Client.connect(server)
        unknown = await client.request(
            type="create_game", settings={"map": "seed", "players": 3, "bots": 1, "bot_strategy": "cunning"}
        )
        assert unknown["type"] == "error" and unknown["code"] == "bad-settings"
        assert "cunning" in unknown["message"] and "strategist" in unknown["message"]
        too_many = await client.request(type="create_game", settings={"map": "seed", "players": 2, "bots": 3})
        assert too_many["type"] == "error" and "bots" in too_many["message"]
        assert (await client.request(type="list_games"))["games"] == []


async def test_the_servers_players_ask_for_a_rematch_as_soon_as_one_player_has() -> None:
    async with running_server(**FAST) as server:
        alice = await Client.connect(server)
        game_id = await create_game(alice, players=3, bots=2, bot_strategy="aggressive")
        await join(alice, game_id, "Alice")
        turn = -1
        while True:  # Alice places everything on one territory and then only commits: the computers finish her
            update = await alice.wait_for(
                lambda m, after=turn: (
                    m["type"] == "update"
                    and m["view"] is not None
                    and (m["game"]["status"] == "finished" or m["game"]["turn"] > after)
                ),
                timeout=GAME_SECONDS,
            )
            game = update["game"]
            if game["status"] == "finished":
                break
            turn = game["turn"]
            me = next(s for s in game["seats"] if s["name"] == "Alice")
            if me["eliminated"]:
                continue
            if game["phase"] == "placement":
                mine = [t["name"] for t in update["view"]["territories"] if t["owner"] == "Alice"]
                await alice.request(
                    type="issue_order",
                    game_id=game_id,
                    turn=0,
                    order={"kind": "place", "territory": mine[0], "units": update["view"]["pool_left"]},
                )
            assert (await alice.request(type="commit", game_id=game_id, turn=turn))["type"] == "commit_accepted"
        assert not game["rematch"], "a computer asked before any player did"
        pending = await alice.request(type="rematch", game_id=game_id)
        assert pending["type"] == "rematch_pending" and pending["accepted"] == ["Alice"]
        started = await alice.wait_for(
            lambda m: m["type"] == "update" and any(e["event"]["kind"] == "rematch_started" for e in m["events"]),
            timeout=GAME_SECONDS,
        )
        assert sorted(started["game"]["rematch"]) == sorted(["Alice", "bot-aggressive-1", "bot-aggressive-2"])


@pytest.mark.parametrize("committed", [False, True], ids=["orders-taken", "turn-committed"])
async def test_a_network_bot_whose_link_drops_in_the_middle_of_a_turn_plays_that_turn_afresh(committed: bool) -> None:
    """Orders it issued before the drop are still the server's: played again on top of them, the turn's orders were
    refused (the units were spent already). The drop comes after orders taken without the commit (a turn of more
    orders than one message carries), or after the whole turn was committed (nothing is left to play)."""
    async with running_server(**FAST) as server:
        lobby = await Client.connect(server)
        game_id = await create_game(lobby, map="twin-keeps", players=2, bots=1, bot_strategy="aggressive", evolution=2)
        bot = NetworkBot(url(server), game_id, strategy="strategist", seed=3, backoff=QUICK)
        issue_batch = bot.session.issue_batch
        dropped = False

        async def issue_then_drop(followed: Any, orders: Any, commit: bool = False) -> Any:
            """The link fails right after a turn of play's orders (two or more) are accepted, before the bot hears."""
            nonlocal dropped
            dropping = not dropped and followed.turn >= 1 and len(orders) >= 2
            replies = await issue_batch(followed, orders, commit=commit and (committed or not dropping))
            if dropping:
                dropped = True
                await bot.connection.drop()
                raise ConnectionLost("the connection dropped before the server answered")
            return replies

        bot.session.issue_batch = issue_then_drop  # type: ignore[method-assign]
        assert await asyncio.wait_for(bot.run(), GAME_SECONDS) == 0
        assert dropped and [e.message for e in bot.errors] == []


async def test_a_network_bot_whose_game_ended_while_its_link_was_down_acts_on_nothing_it_held_before() -> None:
    """Its link drops as it sends its turn and, while it is down, its only opponent resigns: the turn, sent again
    once its seat is back, is refused (the game is over). Those refusals say the game moved on, not that the bot
    played wrong: it ends as the game did, with no error."""
    async with running_server(**FAST) as server:
        ann = await Client.connect(server)
        game_id = await create_game(ann, players=2)
        await join(ann, game_id, "ann")
        bot = NetworkBot(url(server), game_id, name="bot", seed=1, backoff=QUICK)
        issue_batch = bot.session.issue_batch
        dropped = False

        async def drop_while_ann_resigns(followed: Any, orders: Any, commit: bool = False) -> Any:
            nonlocal dropped
            if dropped:
                return await issue_batch(followed, orders, commit=commit)
            dropped = True
            await bot.connection.drop()
            assert (await ann.request(type="resign", game_id=game_id))["type"] == "resigned"
            return await issue_batch(followed, orders, commit=commit)  # sent again once the seat is back

        bot.session.issue_batch = drop_while_ann_resigns  # type: ignore[method-assign]
        assert await asyncio.wait_for(bot.run(), GAME_SECONDS) == 0
        assert dropped and [e.message for e in bot.errors] == []
