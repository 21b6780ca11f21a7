"""A seat left empty too long, on a real server: the others hand it to the server's computer player, which plays it
until its player comes back; and the end of a game whose rematch cannot be. Played with the tests' race to twenty,
one player at a time, so the seat handed over is the one the game waits for."""

from __future__ import annotations

from typing import Any

from server.clock import ManualClock
from tests.server_support import FAST, Client, Message, barrier, join, running_server, seated_game
from tests.toy_ruleset import GOAL, RaceToTwenty

RACE: dict[str, Any] = {"ruleset": "race", "map": None}


def log_kinds(client: Client, game_id: str, kind: str) -> list[Message]:
    """Every entry of `kind` the client was sent about the game."""
    return [
        e["event"]
        for f in client.frames
        if f["type"] == "update" and f["game_id"] == game_id
        for e in f["events"]
        if e["event"]["kind"] == kind
    ]


def seat(client: Client, game_id: str, name: str) -> Message:
    update = client.latest("update", game_id)
    assert update is not None
    return next(s for s in update["game"]["seats"] if s["name"] == name)


async def add(client: Client, game_id: str, amount: int) -> Message:
    turn = client.views[game_id]["total"]
    return await client.request(type="issue_order", game_id=game_id, turn=turn, order={"kind": "add", "amount": amount})


async def gone(client: Client, game_id: str, name: str) -> None:
    """Until the server has noticed that `name`'s seat lost its connection (its clock counts from then)."""
    await client.wait_for(
        lambda m: (
            m["type"] == "update"
            and m["game_id"] == game_id
            and not next(s for s in m["game"]["seats"] if s["name"] == name)["connected"]
        )
    )


async def total_reaches(client: Client, game_id: str, total: int) -> None:
    if client.views.get(game_id, {}).get("total", -1) >= total:
        return
    await client.wait_for(
        lambda m: m["type"] == "update" and m["game_id"] == game_id and client.views[game_id]["total"] >= total
    )


async def test_the_creator_s_vote_alone_hands_an_absent_seat_to_the_computer_which_plays_until_its_player_is_back(
    race: RaceToTwenty,
) -> None:
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        game_id, (ann, bob, cy), (_, bob_token, _) = await seated_game(server, ["ann", "bob", "cy"], **RACE)
        assert (await add(ann, game_id, 1))["type"] == "order_accepted"  # bob's turn now
        await bob.close()
        await gone(cy, game_id, "bob")
        clock.advance(30)

        early = await cy.request(type="hand_over", game_id=game_id, player="BOB")  # names ignore case
        assert early["type"] == "error" and early["code"] == "cannot-hand-over"
        assert "away 30 s" in early["message"] and "after 120 s" in early["message"]
        clock.advance(90)

        pending = await cy.request(type="hand_over", game_id=game_id, player="bob")
        assert pending["type"] == "hand_over_pending"
        assert (pending["votes"], pending["needed"]) == (["cy"], ["ann"]), "cy alone does not decide"
        assert log_kinds(ann, game_id, "seat_handed_over") == []
        decided = await ann.request(type="hand_over", game_id=game_id, player="Bob")
        assert decided["type"] == "hand_over_pending" and decided["needed"] == []

        await total_reaches(cy, game_id, 2)  # the computer played bob's turn at once
        (handed,) = log_kinds(cy, game_id, "seat_handed_over")
        assert handed == {"player": "bob", "strategy": "perfect", "by": ["ann", "cy"], "kind": "seat_handed_over"}
        (stand_in_move,) = [e for e in log_kinds(cy, game_id, "added") if e["player"] == "bob"]
        assert stand_in_move["total"] == 1 + stand_in_move["amount"]
        assert seat(cy, game_id, "bob")["computer"] and seat(cy, game_id, "bob")["connected"]

        total = cy.views[game_id]["total"]
        assert (await add(cy, game_id, 1))["type"] == "order_accepted"
        assert (await add(ann, game_id, 1))["type"] == "order_accepted"
        await total_reaches(ann, game_id, total + 3)  # and bob's next turn too
        assert len([e for e in log_kinds(ann, game_id, "added") if e["player"] == "bob"]) == 2

        back = await Client.connect(server)
        resumed = await back.request(type="resume", game_id=game_id, token=bob_token)
        assert resumed["type"] == "resumed" and resumed["player"] == "bob"
        await ann.wait_for(
            lambda m: m["type"] == "update" and any(e["event"]["kind"] == "seat_taken_back" for e in m["events"])
        )
        assert log_kinds(ann, game_id, "seat_taken_back") == [{"player": "bob", "kind": "seat_taken_back"}]
        assert not seat(ann, game_id, "bob")["computer"]

        await back.wait_for(lambda m: m["type"] == "update" and m["game_id"] == game_id)
        total = back.views[game_id]["total"]
        assert (await add(cy, game_id, 1))["type"] == "order_accepted"
        assert (await add(ann, game_id, 1))["type"] == "order_accepted"
        await total_reaches(back, game_id, total + 2)
        assert seat(back, game_id, "bob")["awaited"], "the game waits for bob himself"
        mine = await add(back, game_id, 1)
        assert mine["type"] == "order_accepted", "the computer no longer plays bob's turns"
        assert len([e for e in log_kinds(ann, game_id, "added") if e["player"] == "bob"]) == 3


async def test_a_hand_over_that_cannot_be_granted_is_refused_with_the_reason_and_changes_nothing(
    race: RaceToTwenty,
) -> None:
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        lobby_owner = await Client.connect(server)
        waiting = await lobby_owner.request(type="create_game", settings={**RACE, "players": 2})
        waiting_id = waiting["game"]["game_id"]
        await join(lobby_owner, waiting_id, "ann")
        before_start = await lobby_owner.request(type="hand_over", game_id=waiting_id, player="ann")
        assert before_start["type"] == "error" and before_start["code"] in ("wrong-phase", "cannot-hand-over")

        game_id, (ann, bob, cy), _ = await seated_game(server, ["ann", "bob", "cy"], **RACE)
        timed_id, (dee, eve), _ = await seated_game(server, ["dee", "eve"], turn_seconds=600, **RACE)
        spectator = await Client.connect(server)
        assert (await spectator.request(type="watch_game", game_id=game_id))["type"] == "watching"
        await bob.close()
        await eve.close()
        await gone(ann, game_id, "bob")
        await gone(dee, timed_id, "eve")
        clock.advance(500)
        cases: list[tuple[Client, str, str, str, str]] = [
            (ann, game_id, "ann", "cannot-hand-over", "your own seat"),
            (ann, game_id, "cy", "cannot-hand-over", "cy is connected"),
            (ann, game_id, "zed", "unknown-player", "zed does not play"),
            (spectator, game_id, "bob", "not-a-player", ""),
            (dee, timed_id, "eve", "cannot-hand-over", "time limit"),
        ]
        for client, game, player, code, words in cases:
            refused = await client.request(type="hand_over", game_id=game, player=player)
            assert refused["type"] == "error" and refused["code"] == code, (player, refused)
            assert words in refused["message"], refused
        assert all(
            log_kinds(c, g, "seat_handed_over") == [] for c, g in ((ann, game_id), (cy, game_id), (dee, timed_id))
        )
        assert not seat(ann, game_id, "bob")["computer"] and not seat(ann, game_id, "bob")["connected"]


async def test_the_server_s_own_players_have_no_vote_and_cannot_be_handed_over(race: RaceToTwenty) -> None:
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        ann, bob, cy = await Client.connect(server), await Client.connect(server), await Client.connect(server)
        created = await ann.request(type="create_game", settings={**RACE, "players": 4, "bots": 1})
        game_id = created["game"]["game_id"]
        for client, name in ((ann, "ann"), (bob, "bob"), (cy, "cy")):
            await join(client, game_id, name)
        await ann.wait_for(lambda m: m["type"] == "update" and m["game_id"] == game_id and m["view"] is not None)
        seats = ann.latest("update", game_id)["game"]["seats"]  # type: ignore[index]
        computer = [s["name"] for s in seats if s["computer"]]
        assert len(computer) == 1 and seats[0]["name"] == computer[0], "the server's player sits first"
        refused = await bob.request(type="hand_over", game_id=game_id, player=computer[0])
        assert refused["type"] == "error" and refused["code"] == "cannot-hand-over"

        await bob.close()
        await gone(ann, game_id, "bob")
        clock.advance(120)
        decided = await ann.request(type="hand_over", game_id=game_id, player="Bob")
        assert decided["type"] == "hand_over_pending" and decided["needed"] == [], (
            "ann, the first person seated, is the game's creator though the computer sits before her: cy need not vote"
        )
        await ann.wait_for(
            lambda m: m["type"] == "update" and any(e["event"]["kind"] == "seat_handed_over" for e in m["events"])
        )
        assert seat(ann, game_id, "bob")["computer"]


async def test_a_rematch_too_few_are_left_for_is_said_once_and_the_player_may_go(race: RaceToTwenty) -> None:
    async with running_server(clock=ManualClock(), **FAST) as server:
        game_id, (ann, bob), _ = await seated_game(server, ["ann", "bob"], **RACE)
        players = (ann, bob)
        for move in range(7):  # 3, 6, ... 18, then ann brings it to twenty
            mover = players[move % 2]
            await total_reaches(mover, game_id, 3 * move)
            assert (await add(mover, game_id, min(3, GOAL - 3 * move)))["type"] == "order_accepted"
        over = await bob.wait_for(lambda m: m["type"] == "update" and m["game"]["status"] == "finished")
        assert over["game"]["winner"] == "ann"

        assert (await bob.request(type="leave_game", game_id=game_id))["type"] == "left"
        asked = await ann.request(type="rematch", game_id=game_id)
        assert asked["type"] == "rematch_pending" and asked["waiting_for"] == []
        await ann.wait_for(
            lambda m: m["type"] == "update" and any(e["event"]["kind"] == "rematch_impossible" for e in m["events"])
        )
        (impossible,) = log_kinds(ann, game_id, "rematch_impossible")
        assert "bob left" in impossible["reason"] and "at least 2 players" in impossible["reason"]
        again = await ann.request(type="rematch", game_id=game_id)
        assert again["type"] in ("rematch_pending", "error")
        await barrier(ann)  # whatever asking again set off has come
        assert len(log_kinds(ann, game_id, "rematch_impossible")) == 1
        assert ann.latest("update", game_id)["game"]["rematch_game"] is None  # type: ignore[index]
        assert (await ann.request(type="leave_game", game_id=game_id))["type"] == "left"


async def test_a_spectator_coming_and_going_sends_the_players_nothing(race: RaceToTwenty) -> None:
    """On a clock that moves only when told (so no timer sends anything meanwhile), with a barrier request before and
    after: all that came to ann in between is its own reply."""
    async with running_server(clock=ManualClock(), **FAST) as server:
        game_id, (ann, _bob), _ = await seated_game(server, ["ann", "bob"], **RACE)
        await barrier(ann)
        seen = len(ann.frames)
        spectator = await Client.connect(server)
        assert (await spectator.request(type="watch_game", game_id=game_id))["type"] == "watching"
        assert (await spectator.request(type="leave_game", game_id=game_id))["type"] == "left"
        after = await barrier(ann)
        assert ann.frames[seen:] == [after]
        assert (await add(ann, game_id, 1))["type"] == "order_accepted"  # the game goes on as before
