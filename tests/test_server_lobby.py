"""The lobby and seats: several games, joining and leaving, tokens and reconnection (D3), spectators (D2),
the turn time limit (D3), and a server that restarts from its store."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from server.clock import ManualClock
from server.storage import MemoryStorage
from tests.server_support import (
    FAST,
    Client,
    Message,
    create_game,
    current_view,
    join,
    owned,
    running_server,
    seated_game,
)


async def ok(client: Client, **message: Any) -> Message:
    reply = await client.request(**message)
    assert reply["type"] != "error", reply
    return reply


async def error_code(client: Client, **message: Any) -> str:
    reply = await client.request(**message)
    assert reply["type"] == "error", reply
    return str(reply["code"])


async def place_all(client: Client, game_id: str, name: str) -> None:
    view = current_view(client, game_id)
    await ok(
        client,
        type="issue_order",
        game_id=game_id,
        turn=0,
        order={"kind": "place", "territory": owned(view, name)[0], "units": view["pool_left"]},
    )
    await ok(client, type="commit", game_id=game_id, turn=0)


def is_turn(n: int) -> Any:
    return lambda m: (
        m["type"] == "update" and m["view"] is not None and m["view"]["phase"] == "orders" and m["view"]["turn"] == n
    )


async def test_seats_fill_names_are_unique_and_the_game_starts_when_full() -> None:
    async with running_server() as server:
        ann, bob, cyd = await Client.connect(server), await Client.connect(server), await Client.connect(server)
        game_id = await create_game(ann, players=3)
        await join(ann, game_id, "ann")
        assert await error_code(bob, type="join_game", game_id=game_id, name="ANN") == "name-taken"
        assert await error_code(ann, type="join_game", game_id=game_id, name="ann2") == "already-seated"
        await join(bob, game_id, "bob")
        listed = (await ok(cyd, type="list_games"))["games"]
        assert [(g["game_id"], [s["name"] for s in g["seats"]], g["free"], g["phase"]) for g in listed] == [
            (game_id, ["ann", "bob"], 1, "lobby")
        ]
        assert (await ok(bob, type="leave_game", game_id=game_id))["type"] == "left"  # before the start: seat freed
        await join(cyd, game_id, "cyd")
        assert await error_code(ann, type="list_orders", game_id=game_id) == "wrong-phase"  # not started yet
        await join(bob, game_id, "bob")
        started = await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        assert started["game"]["phase"] == "placement" and started["game"]["free"] == 0
        assert [e["event"]["kind"] for e in started["events"]][-1] == "game_started"
        late = await Client.connect(server)
        assert await error_code(late, type="join_game", game_id=game_id, name="dan") == "game-started"
        assert await error_code(ann, type="leave_game", game_id=game_id) == "game-started"
        assert await error_code(late, type="join_game", game_id="nope", name="dan") == "no-such-game"


async def test_chosen_groups_and_bad_settings_are_checked() -> None:
    async with running_server() as server:
        ann, bob = await Client.connect(server), await Client.connect(server)
        assert await error_code(ann, type="create_game", settings={"map": "no-such-map"}) == "bad-map"
        assert (
            await error_code(ann, type="create_game", settings={"map": "seed", "players": 6}) == "bad-settings"
        )  # R1: the rule set seats 2 to 5 by default
        assert (
            await error_code(ann, type="create_game", settings={"map": "seed", "players": 9}) == "invalid-message"
        )  # more than any rule set seats
        game_id = await create_game(ann, players=3, choose_groups=True)
        summary = (await ok(ann, type="list_games"))["games"][0]
        assert summary["groups"][0] == ["Narnia", "Midkemia", "Oz"]
        assert await error_code(ann, type="join_game", game_id=game_id, name="ann") == "bad-group"
        assert await error_code(ann, type="join_game", game_id=game_id, name="ann", group=3) == "bad-group"
        await join(ann, game_id, "ann", 2)
        assert await error_code(bob, type="join_game", game_id=game_id, name="bob", group=2) == "bad-group"
        random_game = await create_game(bob, players=2)
        assert await error_code(bob, type="join_game", game_id=random_game, name="bob", group=0) == "bad-group"


async def test_a_dropped_player_comes_back_with_the_token_and_finds_the_orders_issued() -> None:
    async with running_server(**FAST) as server:
        game_id, (ann, bob), (ann_token, _) = await seated_game(server, ["ann", "bob"], initial_units=4)
        await place_all(ann, game_id, "ann")
        await place_all(bob, game_id, "bob")
        turn1 = await ann.wait_for(is_turn(1))
        source = next(t for t in turn1["view"]["territories"] if t["owner"] == "ann" and t["units"] > 1)
        target = next(n for n in owned(turn1["view"], "ann") if n != source["name"])
        order = {"kind": "move", "units": 1, "source": source["name"], "target": target}
        await ok(ann, type="issue_order", game_id=game_id, turn=1, order=order)
        last_seq = ann.latest("update", game_id)["seq"]  # type: ignore[index]
        await ann.close()

        gone = await bob.wait_for(lambda m: m["type"] == "update" and not m["game"]["seats"][0]["connected"])
        assert [s["connected"] for s in gone["game"]["seats"]] == [False, True]  # the others are told
        await ok(bob, type="commit", game_id=game_id, turn=1)  # ann misses this

        again = await Client.connect(server)
        assert await error_code(again, type="resume", game_id=game_id, token="not-the-token") == "bad-token"
        assert await error_code(again, type="resume", game_id=game_id, token=ann_token + "x") == "bad-token"
        assert await error_code(again, type="join_game", game_id=game_id, name="ann") == "game-started"
        reply = await ok(again, type="resume", game_id=game_id, token=ann_token, last_seq=last_seq)
        assert reply == {"type": "resumed", "game_id": game_id, "player": "ann", "ref": reply["ref"]}
        caught_up = await again.wait_type("update", game_id=game_id)
        assert caught_up["snapshot"] is False
        assert [e["event"] for e in caught_up["events"]] == [{"kind": "player_committed", "player": "bob", "turn": 1}]
        assert caught_up["view"]["your_orders"] == [order] and caught_up["you"] == "ann"
        assert (await ok(again, type="list_orders", game_id=game_id))["orders"] == [order]
        back = await bob.wait_for(lambda m: m["type"] == "update" and m["game"]["seats"][0]["connected"])
        assert [s["connected"] for s in back["game"]["seats"]] == [True, True]
        await ok(again, type="commit", game_id=game_id, turn=1)
        resolved = await again.wait_for(is_turn(2))
        assert {"kind": "units_moved", "player": "ann", "units": 1, "source": source["name"], "target": target} in [
            e["event"] for e in resolved["events"]
        ]

        # Without a last number (or one too old to replay), a fresh snapshot comes instead of the events.
        third = await Client.connect(server)
        await ok(third, type="resume", game_id=game_id, token=ann_token)
        snapshot = await third.wait_type("update", game_id=game_id)
        assert snapshot["snapshot"] is True and snapshot["events"] == [] and snapshot["view"]["turn"] == 2
        taken = await again.wait_type("error", game_id=game_id)  # the older connection no longer holds the seat
        assert taken["code"] == "not-seated"


async def test_two_games_at_once_do_not_interfere_and_a_spectator_cannot_act() -> None:
    async with running_server(**FAST) as server:
        first, (ann, bob), _ = await seated_game(server, ["ann", "bob"], initial_units=3, neutral_units=0)
        second, (cyd, dan), _ = await seated_game(server, ["cyd", "dan"], initial_units=5, neutral_units=0)
        watcher = await Client.connect(server)
        await ok(watcher, type="watch_game", game_id=first)
        await place_all(ann, first, "ann")
        await place_all(cyd, second, "cyd")
        await place_all(bob, first, "bob")
        after_first = await watcher.wait_for(is_turn(1))
        assert sum(t["units"] for t in after_first["view"]["territories"]) == 3 + 3  # the other game's are not here
        assert after_first["view"]["your_orders"] == [] and after_first["you"] is None
        assert server.lobby.get(second).summary().phase == "placement"
        assert not any(f.get("game_id") == first for f in cyd.frames + dan.frames)
        assert not any(f.get("game_id") == second for f in ann.frames + bob.frames + watcher.frames)
        assert (
            await error_code(
                watcher,
                type="issue_order",
                game_id=first,
                turn=1,
                order={"kind": "attack", "units": 1, "source": "Oz", "target": "Gondor"},
            )
            == "not-a-player"
        )
        assert await error_code(watcher, type="commit", game_id=first, turn=1) == "not-a-player"
        assert await error_code(watcher, type="rematch", game_id=first) == "not-seated"
        await place_all(dan, second, "dan")
        after_second = await cyd.wait_for(is_turn(1))
        assert sum(t["units"] for t in after_second["view"]["territories"]) == 5 + 5
        assert (await ok(watcher, type="leave_game", game_id=first))["type"] == "left"


async def test_the_turn_time_limit_commits_a_silent_player_with_the_orders_issued() -> None:
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        game_id, (ann, bob), _ = await seated_game(server, ["ann", "bob"], initial_units=4, turn_seconds=60)
        first = ann.latest("update", game_id)
        assert first is not None and first["deadline_in"] == 60
        # Placement: ann places half and falls silent; the rest goes round her territories (D3).
        view = current_view(ann, game_id)
        mine = owned(view, "ann")
        await ok(
            ann, type="issue_order", game_id=game_id, turn=0, order={"kind": "place", "territory": mine[0], "units": 2}
        )
        await place_all(bob, game_id, "bob")
        clock.advance(59)
        assert current_view(ann, game_id)["phase"] == "placement"  # not a second early
        clock.advance(1)
        turn1 = await ann.wait_for(is_turn(1), timeout=3)
        assert {"kind": "time_ran_out", "turn": 0, "players": ["ann"]} in [e["event"] for e in turn1["events"]]
        units = {t["name"]: t["units"] for t in turn1["view"]["territories"]}
        assert sum(units[n] for n in mine) == 4 and units[mine[0]] >= 2
        # Turn 1: ann issues an attack and says nothing more; bob commits; time runs out, her attack happens.
        source = max(mine, key=lambda n: units[n])
        neighbours = next(t["neighbours"] for t in turn1["view"]["territories"] if t["name"] == source)
        enemy = next((n for n in neighbours if n not in mine), None)
        target = enemy or next(n for n in neighbours if n in mine)
        kind = "attack" if enemy else "move"
        await ok(
            ann,
            type="issue_order",
            game_id=game_id,
            turn=1,
            order={"kind": kind, "units": 1, "source": source, "target": target},
        )
        await ok(bob, type="commit", game_id=game_id, turn=1)
        clock.advance(60)
        turn2 = await bob.wait_for(is_turn(2), timeout=3)
        events = [e["event"] for e in turn2["events"]]
        assert {"kind": "time_ran_out", "turn": 1, "players": ["ann"]} in events
        if enemy:
            assert any(e["kind"] == "combat" and e["attacker"] == "ann" and e["territory"] == target for e in events)
        else:
            assert {"kind": "units_moved", "player": "ann", "units": 1, "source": source, "target": target} in events
        # Nobody acts at all: the turns still go on.
        clock.advance(60)
        turn3 = await bob.wait_for(is_turn(3), timeout=3)
        assert {"kind": "time_ran_out", "turn": 2, "players": ["ann", "bob"]} in [e["event"] for e in turn3["events"]]


async def test_a_restarted_server_carries_on_from_its_store() -> None:
    storage = MemoryStorage()
    async with running_server(storage, **FAST) as server:
        game_id, (ann, bob), (ann_token, bob_token) = await seated_game(server, ["ann", "bob"], initial_units=4)
        await place_all(ann, game_id, "ann")
        view = current_view(ann, game_id)
        placed = view["your_orders"]
        seq = ann.latest("update", game_id)["seq"]  # type: ignore[index]
    async with running_server(storage, **FAST) as server:
        ann = await Client.connect(server)
        await ok(ann, type="resume", game_id=game_id, token=ann_token, last_seq=seq)
        update = await ann.wait_type("update", game_id=game_id)
        assert update["seq"] == seq and update["view"]["your_orders"] == placed
        assert update["view"]["players"][0]["committed"] is True
        bob = await Client.connect(server)
        await ok(bob, type="resume", game_id=game_id, token=bob_token, last_seq=0)
        await bob.wait_type("update", game_id=game_id)
        await place_all(bob, game_id, "bob")
        await ann.wait_for(is_turn(1))


async def test_a_seat_left_before_the_start_is_free_again() -> None:
    async with running_server(**FAST) as server:
        ann, bob = await Client.connect(server), await Client.connect(server)
        game_id = await create_game(ann, players=3)
        await join(ann, game_id, "ann")
        await join(bob, game_id, "bob")
        await ok(ann, type="leave_game", game_id=game_id)
        assert await error_code(ann, type="leave_game", game_id=game_id) == "not-seated"
        summary = (await ok(ann, type="list_games"))["games"][0]
        assert [s["name"] for s in summary["seats"]] == ["bob"] and summary["free"] == 2
        await join(ann, game_id, "ann")


async def test_an_unstarted_game_whose_last_player_leaves_closes_at_once() -> None:
    """No ghost game: the creator sat down, then left, and nobody else was there."""
    async with running_server(**FAST) as server:
        ann, cy = await Client.connect(server), await Client.connect(server)
        game_id = await create_game(ann, players=3, bots=1)  # the server's own player keeps no game alive
        await join(ann, game_id, "ann")
        await ok(cy, type="watch_game", game_id=game_id)
        await ok(ann, type="leave_game", game_id=game_id)
        notice = await cy.wait_for(lambda m: m["type"] == "error" and m.get("game_id") == game_id)
        assert notice["code"] == "no-such-game" and "its last player left" in notice["message"]
        assert (await ok(ann, type="list_games"))["games"] == []
        assert await error_code(ann, type="join_game", game_id=game_id, name="ann") == "no-such-game"
        assert server.lobby.bots == []


async def test_an_unstarted_game_nobody_sits_in_expires_and_one_with_a_player_waits() -> None:
    clock = ManualClock()
    storage = MemoryStorage()
    async with running_server(storage, clock=clock, unstarted_game_expiry=600, lonely_game_expiry=0, **FAST) as server:
        ann, bob = await Client.connect(server), await Client.connect(server)
        empty = await create_game(ann, players=2)  # created, never sat in
        kept = await create_game(bob, players=2)
        await join(bob, kept, "bob")
        away = await create_game(ann, players=3)
        await join(ann, away, "ann")
        watcher = await Client.connect(server)  # a spectator keeps no game alive, but sees Ann's seat go
        await ok(watcher, type="watch_game", game_id=away)
        clock.advance(300)
        await ann.close()  # Ann's connection drops: her game has nobody in it from now on
        await watcher.wait_for(
            lambda m: (
                m["type"] == "update"
                and m["game_id"] == away
                and m["game_patch"]
                and m["game_patch"]["seats"]["0"]["connected"] is False
            )
        )
        assert server.lobby.matches[away].table.idle_since == clock.now()
        clock.advance(301)
        await server.lobby.settled()
        assert empty not in server.lobby.matches
        assert away in server.lobby.matches and kept in server.lobby.matches, "not yet ten minutes for Ann's"
        clock.advance(300)
        await server.lobby.settled()
        assert away not in server.lobby.matches
        clock.advance(3600)
        await server.lobby.settled()
        assert kept in server.lobby.matches, "a game with a player in it waits as long as it takes"
        assert set(await storage.list_games(include_finished=False)) == {kept}, "closed games do not come back"


async def test_the_log_counts_the_seats_given_to_the_server_s_players_in_words(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "risc.server")
    async with running_server(**FAST) as server:
        client = await Client.connect(server)
        one = await create_game(client, players=2, bots=1)
        two = await create_game(client, players=3, bots=2)
        await client.close()
    assert f"game {one}: 1 seat for the server's strategist players" in caplog.text
    assert f"game {two}: 2 seats for the server's strategist players" in caplog.text


async def test_a_new_game_never_takes_the_id_of_a_game_the_store_keeps_but_the_server_let_go_of(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ids are 6 hex digits: a store of 10,000 games meets one again every 1,700 creates or so. Before, that create
    was refused (the store's "game exists already") rather than given another id."""
    from server.storage import SqliteStorage
    from server.storage.base import GameProgress
    from tests.test_server_storage import record

    async with running_server(SqliteStorage(tmp_path / "games.sqlite3")) as server:
        kept = GameProgress(seats=[], state=None, seq=0, status="finished")
        await server.storage.create(record("abcdef"), kept, [])  # as a finished game let go of is: kept, not held
        assert "abcdef" not in server.lobby.matches
        drawn = iter(["abcdef", "123456"])
        monkeypatch.setattr("server.lobby.lobby.secrets.token_hex", lambda _: next(drawn))
        client = await Client.connect(server)
        created = await client.request(type="create_game", settings={"map": "seed", "players": 2})
        assert created["type"] == "game_created", created
        assert created["game"]["game_id"] == "123456"
