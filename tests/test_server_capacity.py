"""A server that runs for weeks: finished games stop counting against the limit and are let go from memory (the store
keeps them); games left to the server's own players run at a pace people can watch, never flat out."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any
from unittest.mock import patch

from server.match import Match
from server.storage import MemoryStorage
from tests.server_support import FAST, Client, create_game, join, running_server

GAME_SECONDS = 40.0


async def finished(watcher: Client, game_id: str) -> None:
    await watcher.request(type="watch_game", game_id=game_id)
    await watcher.wait_for(
        lambda m: m["type"] == "update" and m.get("game_id") == game_id and m["game"]["phase"] == "finished",
        timeout=GAME_SECONDS,
    )


async def test_only_games_in_play_count_against_the_limit_and_old_finished_ones_are_let_go() -> None:
    storage = MemoryStorage()
    async with running_server(storage, max_games=2, finished_games_kept=1, **FAST) as server:
        client = await Client.connect(server)
        first = await create_game(client, players=2, bots=2)
        await finished(client, first)
        waiting = await create_game(client, players=2)
        second = await create_game(client, players=2, bots=2)  # the finished first game does not count
        refused = await client.request(type="create_game", settings={"map": "seed", "players": 2})
        assert refused["type"] == "error" and refused["code"] == "too-many-games"
        assert "2 games in play" in refused["message"]
        await finished(client, second)

        third = await create_game(client, players=2)  # two finished games, one kept: the older one is let go
        assert set(server.lobby.matches) == {second, waiting, third}
        gone = await client.request(type="join_game", game_id=first, name="ann")
        assert gone["type"] == "error" and gone["code"] == "no-such-game"
        stored = await storage.load(first)
        assert stored is not None and stored.progress.state is not None
        assert stored.progress.finished  # the store still has it, for replay
        assert all(first not in bot.games for bot in server.lobby.bots)
        assert len(server.lobby.bots) == 2  # the let-go game's two players are closed and dropped


async def test_a_game_left_to_the_server_s_players_waits_between_turns() -> None:
    pause = 0.3
    async with running_server(bot_turn_pause=pause, **FAST) as server:
        watcher = await Client.connect(server)
        game_id = await create_game(watcher, players=2, bots=2)
        await watcher.request(type="watch_game", game_id=game_id)
        loop = asyncio.get_running_loop()
        arrivals: list[float] = []
        while len(arrivals) < 4:
            update = await watcher.wait_for(
                lambda m: (
                    m["type"] == "update"
                    and m.get("game_id") == game_id
                    and any(e["event"]["kind"] == "turn_started" for e in m["events"])
                )
            )
            arrivals.append(loop.time())
            if update["game"]["phase"] == "finished":
                break
        gaps = [b - a for a, b in itertools.pairwise(arrivals)]
        assert len(gaps) >= 2 and min(gaps) >= pause * 0.95, gaps


async def test_the_server_s_players_do_not_wait_while_a_person_is_still_playing() -> None:
    async with running_server(bot_turn_pause=60.0, **FAST) as server:  # a pause would outlast every wait below
        alice = await Client.connect(server)
        game_id = await create_game(alice, players=2, bots=1)
        await join(alice, game_id, "Alice")
        for turn in (0, 1, 2):
            update = await alice.wait_for(
                lambda m, t=turn: m["type"] == "update" and m["view"] is not None and m["view"]["turn"] == t
            )
            view = update["view"]
            assert view["phase"] != "finished"
            if view["phase"] == "placement":
                mine = next(t["name"] for t in view["territories"] if t["owner"] == "Alice")
                placed = await alice.request(
                    type="issue_order",
                    game_id=game_id,
                    turn=0,
                    order={"kind": "place", "territory": mine, "units": view["pool_left"]},
                )
                assert placed["type"] == "order_accepted", placed
            reply = await alice.request(type="commit", game_id=game_id, turn=turn)
            assert reply["type"] == "commit_accepted", reply
        await alice.wait_for(lambda m: m["type"] == "update" and m["view"] is not None and m["view"]["turn"] == 3)


async def test_creating_a_game_asks_no_other_game_held_for_its_summary_or_whether_it_is_over() -> None:
    """A game's creation reads the games its creator holds and counts the games over as they end: at 6,250 games
    held, asking each of them took 120 ms of the core for every game created (bench/capacity.py)."""
    asked = {"summary": 0, "finished": 0}
    summary, over = Match.summary, Match.finished

    def counted_summary(match: Match) -> Any:
        asked["summary"] += 1
        return summary(match)

    def counted_over(match: Match) -> bool:
        asked["finished"] += 1
        return bool(over.fget(match))  # type: ignore[attr-defined]

    async def asked_by_one_create(client: Client) -> dict[str, int]:
        asked.update(summary=0, finished=0)
        await create_game(client, players=2)
        return dict(asked)

    with (
        patch.object(Match, "summary", counted_summary),
        patch.object(Match, "finished", property(counted_over)),
    ):
        async with running_server(MemoryStorage(), max_games=100, open_games_per_address=100, **FAST) as server:
            players = [await Client.connect(server) for _ in range(2)]
            for _ in range(3):  # games in play, each created by a connection of its own
                creator = await Client.connect(server)
                game_id = await create_game(creator, players=2)
                await join(players[0], game_id, "ann")
                await join(players[1], game_id, "bob")
            client = await Client.connect(server)
            few = await asked_by_one_create(client)
            for _ in range(12):
                creator = await Client.connect(server)
                game_id = await create_game(creator, players=2)
                await join(players[0], game_id, "ann")
                await join(players[1], game_id, "bob")
            many = await asked_by_one_create(client)
    assert many == few, (few, many)
