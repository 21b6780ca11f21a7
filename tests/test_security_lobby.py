"""What one client can do to the lobby and to other games: bounded (the server under attack, lobby side)."""

from __future__ import annotations

import asyncio

from server.clock import ManualClock
from tests.server_support import FAST, Client, create_game, join, running_server, seated_game


async def test_a_turn_limit_below_the_server_s_minimum_is_refused() -> None:
    async with running_server(min_turn_seconds=10, **FAST) as server:
        client = await Client.connect(server)
        for seconds in (1e-300, 0.5, 9.99):
            reply = await client.request(type="create_game", settings={"map": "seed", "turn_seconds": seconds})
            assert reply["type"] == "error" and reply["code"] == "bad-settings", reply
            assert "at least 10 seconds" in reply["message"]
        assert server.lobby.matches == {}


async def test_a_game_whose_players_are_all_away_does_not_play_itself() -> None:
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        game_id, (ann, bob), (ann_token, _) = await seated_game(server, ["ann", "bob"], turn_seconds=30)
        match = server.lobby.get(game_id)
        await ann.close()
        await bob.close()
        for _ in range(500):
            if not any(seat.connected for seat in match.summary().seats):
                break
            await asyncio.sleep(0.01)
        log_before = match.seq
        clock.advance(30 * 50)  # fifty turns' time
        assert match.seq == log_before and match.summary().turn == 0, "nobody there: the clock stood still"
        back = await Client.connect(server)
        reply = await back.request(type="resume", game_id=game_id, token=ann_token)
        assert reply["type"] == "resumed"
        update = await back.wait_for(lambda m: m["type"] == "update" and m["game_id"] == game_id)
        assert update["deadline_in"] == 30, "a player back: the turn's time starts again"
        clock.advance(30)
        await back.wait_for(lambda m: m["type"] == "update" and m["game"]["turn"] == 1)


async def test_a_seat_taken_back_and_forth_does_not_flood_the_spectators() -> None:
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        game_id, _, (ann_token, _) = await seated_game(server, ["ann", "bob"])
        spectators = [await Client.connect(server) for _ in range(3)]
        for spectator in spectators:
            await spectator.request(type="watch_game", game_id=game_id)
            await spectator.wait_type("update", game_id=game_id)
        first, second = await Client.connect(server), await Client.connect(server)
        for _ in range(40):
            for client in (first, second):
                assert (await client.request(type="resume", game_id=game_id, token=ann_token))["type"] == "resumed"
        await first.request(type="list_games")  # everything sent before this reply has arrived
        for spectator in spectators:
            await spectator.request(type="list_games")
            updates = [f for f in spectator.frames if f["type"] == "update"]
            assert len(updates) <= 2, f"{len(updates)} updates for 80 changes of hands"


async def test_a_seat_that_comes_and_goes_is_told_at_most_once_a_second() -> None:
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        game_id, (ann, _), (ann_token, _) = await seated_game(server, ["ann", "bob"])
        spectator = await Client.connect(server)
        await spectator.request(type="watch_game", game_id=game_id)
        await spectator.wait_type("update", game_id=game_id)
        await ann.close()
        for _ in range(30):  # away, back, away, back...
            client = await Client.connect(server)
            assert (await client.request(type="resume", game_id=game_id, token=ann_token))["type"] == "resumed"
            await client.close()
        await spectator.request(type="list_games")
        told = [f for f in spectator.frames if f["type"] == "update"][1:]
        assert len(told) == 1, f"{len(told)} updates for 60 comings and goings within one second"
        clock.advance(1.0)  # what changed since is told once, a second later
        await spectator.wait_for(lambda m: m["type"] == "update")
        await spectator.request(type="list_games")
        assert len([f for f in spectator.frames if f["type"] == "update"][1:]) == 2


async def test_one_connection_cannot_fill_the_server_with_empty_games() -> None:
    async with running_server(open_games_per_connection=3, open_games_per_address=5, **FAST) as server:
        flooder = await Client.connect(server)
        for _ in range(3):
            await create_game(flooder, players=2)
        refused = await flooder.request(type="create_game", settings={"map": "seed"})
        assert refused["type"] == "error" and refused["code"] == "too-many-games"
        other = await Client.connect(server)  # the same computer: counted by address too
        for _ in range(2):
            await create_game(other, players=2)
        refused = await other.request(type="create_game", settings={"map": "seed"})
        assert refused["type"] == "error" and refused["code"] == "too-many-games"
        assert len(server.lobby.matches) == 5


async def test_a_waiting_game_nobody_else_joins_is_closed_and_its_player_told() -> None:
    """Issue 35: 240 connections from 60 addresses held every game slot with one seat each; a game that waits for
    players with one person in it closes after a while, whoever sits in it."""
    clock = ManualClock()
    async with running_server(clock=clock, lonely_game_expiry=1800, unstarted_game_expiry=600, **FAST) as server:
        ann, bob, cyd = [await Client.connect(server) for _ in range(3)]
        alone = await create_game(ann, players=3)
        await join(ann, alone, "ann")
        pair = await create_game(bob, players=3)
        await join(bob, pair, "bob")
        await join(cyd, pair, "cyd")
        clock.advance(1799)
        await server.lobby.settled()
        assert alone in server.lobby.matches
        clock.advance(2)
        await server.lobby.settled()
        told = await ann.wait_type("error", game_id=alone)
        assert told["code"] == "no-such-game" and "nobody else joined it in 30 minutes" in told["message"]
        assert alone not in server.lobby.matches and pair in server.lobby.matches, "two people wait as long as it takes"


async def test_a_crowd_of_addresses_cannot_keep_a_newcomer_from_starting_a_game() -> None:
    """A tenth of the server's games is kept for addresses that hold no waiting game: four addresses creating all
    they may leave newcomers room to start theirs."""
    async with running_server(max_games=40, open_games_per_address=10, open_games_per_connection=10, **FAST) as server:
        crowd = [await Client.connect(server, source=f"127.0.0.{10 + n}") for n in range(4)]
        made = 0
        for client in crowd:
            for _ in range(10):
                reply = await client.request(type="create_game", settings={"map": "seed", "players": 2})
                if reply["type"] == "game_created":
                    made += 1
                else:
                    assert reply["code"] == "too-many-games", reply
                    assert "kept for players who wait for none" in reply["message"]
        assert made == 36  # 40 less the 4 kept
        for n in range(4):
            newcomer = await Client.connect(server, source=f"127.0.1.{n + 1}")
            created = await newcomer.request(type="create_game", settings={"map": "seed", "players": 2})
            assert created["type"] == "game_created"
        late = await (await Client.connect(server, source="127.0.1.99")).request(
            type="create_game", settings={"map": "seed", "players": 2}
        )
        assert late["code"] == "too-many-games" and "40 games in play" in late["message"]
