"""Games that fit lives, their pace (docs/protocol.md, "Time limits"): turns of days whose deadlines the store keeps, a
bank of time running out, a vacation starting and ending, a boot. All on the test's clock, never by waiting."""

from __future__ import annotations

from pathlib import Path

from server.clock import ManualClock
from server.storage import SqliteStorage
from tests.days_support import DAY, account, log_kinds, place_and_commit, seat, seated
from tests.server_support import FAST, Client, Message, running_server, until


def turn_of(client: Client, game_id: str) -> int:
    summary = client.latest_summary(game_id)
    return -1 if summary is None else int(summary["turn"])


async def spectator(server: object, game_id: str) -> Client:
    """Someone watching: the game's updates reach it, and it holds no seat (the players may all be away)."""
    watcher = await Client.connect(server)  # type: ignore[arg-type]
    assert (await watcher.request(type="watch_game", game_id=game_id))["type"] == "watching"
    await watcher.wait_for(lambda m: m["type"] == "update" and m["game_id"] == game_id)
    return watcher


async def test_a_turn_of_a_day_times_out_at_its_deadline_though_nobody_is_connected() -> None:
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        game_id, (ann, bob) = await seated(server, ["Ann", "Bob"], turn_seconds=DAY)
        summary = server.lobby.get(game_id).summary()
        assert summary.deadline == clock.wall() + DAY, "the deadline is a time of day, a day from the start"
        assert all(s.deadline == clock.wall() + DAY for s in summary.seats)
        watcher = await spectator(server, game_id)
        await ann.close()
        await bob.close()
        await watcher.wait_for(lambda m: m["type"] == "update" and m["events"] == [])  # the first went at once
        clock.advance(1)  # the news of the second, paced to one a second
        await until(
            lambda: not server.lobby.get(game_id).followers.anyone_seated(),
            "both players gone",
            watcher,
        )
        clock.advance(DAY - 2)
        await watcher.request(type="list_games")
        assert turn_of(watcher, game_id) == 0, "a second before the deadline nothing moves"
        clock.advance(1)
        await until(lambda: turn_of(watcher, game_id) == 1, "the turn played for them", watcher)
        assert "time_ran_out" in log_kinds(server, game_id)


async def test_a_deadline_that_passed_while_the_server_was_down_falls_due_when_it_starts_again(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    path = tmp_path / "games.sqlite3"
    async with running_server(SqliteStorage(path, clock=clock), clock=clock, **FAST) as server:
        game_id, (ann, _) = await seated(server, ["Ann", "Bob"], turn_seconds=DAY)
        await place_and_commit(ann, game_id, "Ann")
    clock.advance(3 * DAY)  # every node down for three days
    async with running_server(SqliteStorage(path, clock=clock), clock=clock, **FAST) as server:
        match = server.lobby.get(game_id)
        assert match.summary().turn == 0
        clock.advance(0)  # the timer armed at the start is due at once
        watcher = await spectator(server, game_id)
        await until(lambda: turn_of(watcher, game_id) == 1, "the turn timed out as the rules say", watcher)
        late = [e.event for e in match.log.kept() if e.kind == "time_ran_out"]
        assert [dict(e)["players"] if isinstance(e, dict) else e.players for e in late] == [["Bob"]]
        assert match.summary().deadline == clock.wall() + DAY, "the next turn's limit counts from when it began"


async def test_a_bank_is_drawn_on_by_a_turn_that_overruns_and_once_it_runs_out_time_is_up() -> None:
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        game_id, (ann, bob) = await seated(
            server, ["Ann", "Bob"], turn_seconds=3600, bank_seconds=1800, bank_refill_seconds=600
        )
        assert seat(server, game_id, "Ann")["bank"] == 1800
        assert seat(server, game_id, "Ann")["deadline"] == clock.wall() + 3600 + 1800
        await place_and_commit(bob, game_id, "Bob")
        told = await ann.wait_for(lambda m: m["type"] == "update" and any(
            e["event"]["kind"] == "player_committed" for e in m["events"]))  # fmt: skip
        assert told["deadline_in"] == 3600, "the turn's own limit, before anyone's bank"
        clock.advance(3600 + 600)  # Ann's limit is over: she is on her bank
        await ann.request(type="list_games")
        assert turn_of(ann, game_id) == 0
        await place_and_commit(ann, game_id, "Ann")  # 600 s past the limit
        await until(lambda: turn_of(ann, game_id) == 1, "the turn resolved", ann)
        assert seat(server, game_id, "Ann")["bank"] == 1200, "the overrun came out of her bank"
        assert seat(server, game_id, "Bob")["bank"] == 1800
        await bob.request(type="commit", game_id=game_id, turn=1)
        clock.advance(3600 + 1199)
        await ann.request(type="list_games")
        assert turn_of(ann, game_id) == 1, "her bank still holds a second"
        clock.advance(1)
        await until(lambda: turn_of(ann, game_id) == 2, "her time ran out", ann)
        assert seat(server, game_id, "Ann")["bank"] == 0
        assert seat(server, game_id, "Ann")["missed"] == 1


async def test_a_bank_refills_each_day_up_to_what_it_started_with() -> None:
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        game_id, (ann, bob) = await seated(
            server, ["Ann", "Bob"], turn_seconds=DAY, bank_seconds=7200, bank_refill_seconds=3600
        )
        await place_and_commit(bob, game_id, "Bob")
        clock.advance(DAY + 7000)
        await place_and_commit(ann, game_id, "Ann")  # 7000 s of her 7200 spent
        await until(lambda: turn_of(ann, game_id) == 1, "the turn resolved", ann)
        # the turn began on the game's second day: one refill
        assert seat(server, game_id, "Ann")["bank"] == 200 + 3600
        assert seat(server, game_id, "Bob")["bank"] == 7200, "never past what it started with"


async def test_a_vacation_makes_the_game_wait_for_the_player_and_a_full_turn_follows_its_end() -> None:
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        game_id, (ann, bob) = await seated(server, ["Ann", "Bob"], turn_seconds=DAY)
        reply = await ann.request(type="vacation", days=3)
        assert reply["type"] == "vacation" and reply["until"] == clock.wall() + 3 * DAY, reply
        assert reply["used_days"] == 3 and reply["allowed_days"] == 30
        await place_and_commit(bob, game_id, "Bob")
        assert seat(server, game_id, "Ann")["vacation_until"] == clock.wall() + 3 * DAY
        assert seat(server, game_id, "Ann")["deadline"] == clock.wall() + 4 * DAY
        clock.advance(3 * DAY + DAY - 1)
        await bob.request(type="list_games")
        assert turn_of(bob, game_id) == 0, "the game waited for her through her vacation, and a day after"
        clock.advance(1)
        await until(lambda: turn_of(bob, game_id) == 1, "her time ran out once her vacation and a turn were over", bob)


async def test_taking_a_turn_on_vacation_ends_it_an_hour_later() -> None:
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        game_id, (ann, _bob) = await seated(server, ["Ann", "Bob"], turn_seconds=DAY)
        assert (await ann.request(type="vacation", days=5))["until"] == clock.wall() + 5 * DAY
        clock.advance(DAY / 2)
        await place_and_commit(ann, game_id, "Ann")
        until_then = clock.wall() + 3600
        await until(
            lambda: server.notifier.vacations.until(seat_account(server, game_id, "Ann")) == until_then,
            "her vacation cut short",
            ann,
        )
        status = await ann.request(type="vacation")
        assert status["until"] == until_then
        clock.advance(3600)
        assert (await ann.request(type="vacation"))["until"] is None, "over"


def seat_account(server: object, game_id: str, name: str) -> str:
    match = server.lobby.get(game_id)  # type: ignore[attr-defined]
    found = next(s.account for s in match.table.seats if s.name == name)
    assert found is not None
    return str(found)


async def test_a_vacation_is_at_most_ten_days_within_the_yearly_allowance() -> None:
    clock = ManualClock()
    async with running_server(clock=clock, vacation_days=10, **FAST) as server:
        ann = await account(server, "Ann")
        too_long = await ann.request(type="vacation", days=10.5)
        assert too_long["type"] == "error" and too_long["code"] == "invalid-message", "the schema's bound"
        assert (await ann.request(type="vacation", days=8))["until"] == clock.wall() + 8 * DAY
        clock.advance(DAY)
        ended = await ann.request(type="vacation", days=0)
        assert ended["until"] is None and ended["used_days"] == 1, "only the day taken counts"
        over = await ann.request(type="vacation", days=10)
        assert over["type"] == "error" and over["code"] == "no-vacation-left", over
        assert "9 of this server's 10 days" in over["message"], over
        taken = await ann.request(type="vacation", days=9)
        assert taken["until"] == clock.wall() + 9 * DAY
        clock.advance(DAY)
        refused = await ann.request(type="vacation", days=9)  # a day, and a day of this one, taken: 8 left
        assert refused["type"] == "error" and refused["code"] == "no-vacation-left", refused
        assert "8 of this server's 10 days" in refused["message"], refused
        still = await ann.request(type="vacation")
        assert still["until"] == taken["until"], "a refusal changes nothing: the vacation under way goes on"
        guest = await Client.connect(server)
        assert (await guest.request(type="vacation", days=1))["code"] == "account-needed"


async def test_a_player_whose_time_runs_out_turns_running_is_booted() -> None:
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        game_id, (ann, bob, _cy) = await seated(server, ["Ann", "Bob", "Cy"], turn_seconds=60, boot_after=2)
        for name, client in (("Ann", ann), ("Bob", bob)):
            await place_and_commit(client, game_id, name)
        clock.advance(60)
        await until(lambda: turn_of(ann, game_id) == 1, "Cy's placement played for her", ann)
        assert seat(server, game_id, "Cy")["missed"] == 1
        for client in (ann, bob):
            assert (await client.request(type="commit", game_id=game_id, turn=1))["type"] == "commit_accepted"
        clock.advance(60)
        await until(lambda: seat(server, game_id, "Cy")["eliminated"], "Cy booted", ann)
        resigned = [
            e
            for e in ann.frames
            if e["type"] == "update"
            for e in e["events"]
            if e["event"]["kind"] == "player_resigned"
        ]
        assert [e["event"]["player"] for e in resigned] == ["Cy"] and resigned[0]["event"]["booted"] is True


async def test_a_player_who_plays_again_has_missed_no_turn_running() -> None:
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        game_id, (ann, bob) = await seated(server, ["Ann", "Bob"], turn_seconds=60, boot_after=2)
        await place_and_commit(bob, game_id, "Bob")
        clock.advance(60)
        await until(lambda: turn_of(ann, game_id) == 1, "Ann's placement played for her", ann)
        assert seat(server, game_id, "Ann")["missed"] == 1
        assert (await ann.request(type="commit", game_id=game_id, turn=1))["type"] == "commit_accepted"
        assert seat(server, game_id, "Ann")["missed"] == 0


async def test_pace_settings_that_cannot_be_honoured_are_refused() -> None:
    async with running_server(**FAST) as server:
        client = await Client.connect(server)
        for settings, field in (
            ({"bank_seconds": 600}, "settings"),
            ({"turn_seconds": 60, "bank_refill_seconds": 60}, "settings"),
            ({"turn_seconds": 15 * DAY}, "settings.turn_seconds"),
            ({"turn_seconds": 60, "boot_after": 0}, "settings.boot_after"),
        ):
            reply: Message = await client.request(type="create_game", settings={"map": "seed", **settings})
            assert reply["type"] == "error" and reply["code"] == "invalid-message", (settings, reply)
            assert str(reply["field"]).startswith(field), (settings, reply)
        made = await client.request(type="create_game", settings={"map": "seed", "turn_seconds": 14 * DAY})
        assert made["type"] == "game_created" and made["game"]["settings"]["turn_seconds"] == 14 * DAY
        assert "bank_seconds" not in made["game"]["settings"], "a pace setting at its default is left out"


async def test_a_vacation_taken_and_ended_at_once_buys_no_time() -> None:
    """A vacation moves a deadline by what it cost of the allowance (at most twice its length), never by a whole turn
    for nothing: one taken a minute before the deadline and ended at once, again and again, held a game of a day a
    turn for ever while the allowance counted none of it."""
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        game_id, (ann, bob) = await seated(server, ["Ann", "Bob"], turn_seconds=DAY)
        deadline = clock.wall() + DAY
        await place_and_commit(bob, game_id, "Bob")
        clock.advance(DAY - 60)
        for _ in range(3):
            assert (await ann.request(type="vacation", days=0.01))["until"] == clock.wall() + 0.01 * DAY
            ended = await ann.request(type="vacation", days=0)
            assert ended["until"] is None and ended["used_days"] == 0, ended
        assert seat(server, game_id, "Ann")["deadline"] == deadline, "nothing spent, nothing bought"
        clock.advance(60)
        await until(lambda: turn_of(bob, game_id) == 1, "her time ran out at the turn's own deadline", bob)
        # A short vacation run to its end moves her deadline by twice its length at most.
        await bob.request(type="commit", game_id=game_id, turn=1)
        clock.advance(DAY - 60)
        assert (await ann.request(type="vacation", days=0.01))["used_days"] == 0.01
        clock.advance(0.01 * DAY)
        await bob.request(type="list_games")
        assert seat(server, game_id, "Ann")["deadline"] == clock.wall() + 0.01 * DAY
        clock.advance(0.01 * DAY)
        await until(lambda: turn_of(bob, game_id) == 2, "her time ran out after as long again as her vacation", bob)
