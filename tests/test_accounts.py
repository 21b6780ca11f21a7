"""Accounts through a real server and real connections (docs/protocol.md, "Accounts"; docs/security.md): signing up
and in from two devices, a seat that belongs to the account, the home, sessions that end everywhere, passwords, the
rules on guests' names, the modes, and a client of the previous protocol still playing as a guest."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from server.accounts.passwords import Passwords
from server.clock import ManualClock
from server.storage import SqliteStorage
from shared.protocol.codes import CloseCode
from tests.server_support import FAST, Client, Message, create_game, join, running_server

PASSWORD = "correct horse battery"


async def signed_up(server: object, name: str = "Ann", password: str = PASSWORD) -> tuple[Client, str]:
    client = await Client.connect(server)  # type: ignore[arg-type]
    reply = await client.request(type="sign_up", name=name, password=password)
    assert reply["type"] == "signed_in", reply
    assert reply["account"]["name"] == name and len(reply["session"]) >= 43  # 256 bits, base64
    return client, str(reply["session"])


async def test_a_player_signs_up_plays_on_one_device_and_comes_back_on_another_without_a_token(
    tmp_path: Path,
) -> None:
    async with running_server(SqliteStorage(tmp_path / "games.sqlite3"), **FAST) as server:
        ann, _ = await signed_up(server)
        laptop = await Client.connect(server)
        signed = await laptop.request(type="sign_in", name="ann", password=PASSWORD)  # any case
        assert signed["type"] == "signed_in" and signed["account"]["name"] == "Ann"
        game_id = await create_game(ann, players=2)
        joined = await ann.request(type="join_game", game_id=game_id, name="Ann")
        assert joined["type"] == "joined" and joined["player"] == "Ann" and joined["token"] == ""
        bob = await Client.connect(server)
        await join(bob, game_id, "bob")
        await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)

        resumed = await laptop.request(type="resume", game_id=game_id)  # no token: the account's seat
        assert resumed["type"] == "resumed" and resumed["player"] == "Ann"
        await laptop.wait_for(lambda m: m["type"] == "update" and m["game_id"] == game_id and m["you"] == "Ann")
        home = await laptop.request(type="my_games")
        assert [(g["game"]["game_id"], g["player"], g["stands"]) for g in home["games"]] == [
            (game_id, "Ann", "your-turn")
        ]
        stranger = await Client.connect(server)
        refused = await stranger.request(type="resume", game_id=game_id)
        assert refused["type"] == "error" and refused["code"] == "not-seated"
        assert (await bob.request(type="my_games"))["code"] == "account-needed"


async def test_the_session_signs_a_new_connection_in_and_the_seat_is_the_account_s_after_a_restart(
    tmp_path: Path,
) -> None:
    async with running_server(SqliteStorage(tmp_path / "games.sqlite3"), **FAST) as server:
        ann, session = await signed_up(server)
        game_id = await create_game(ann, players=2)
        await ann.request(type="join_game", game_id=game_id, name="Ann")
    async with running_server(SqliteStorage(tmp_path / "games.sqlite3"), **FAST) as server:
        again = await Client.connect(server, session=session)
        assert again.welcome["account"]["name"] == "Ann" and again.welcome["session_problem"] is None
        home = await again.request(type="my_games")
        assert [(g["game"]["game_id"], g["stands"]) for g in home["games"]] == [(game_id, "waiting")]
        assert (await again.request(type="resume", game_id=game_id))["type"] == "resumed"


async def test_a_guest_may_not_sit_or_speak_under_an_account_s_name_or_one_that_looks_like_it() -> None:
    async with running_server(**FAST) as server:
        await signed_up(server, "Anna")
        guest = await Client.connect(server)
        game_id = await create_game(guest, players=3)
        for name in ("anna", "ANNA", "Аnnа"):  # the last with Cyrillic a's
            refused = await guest.request(type="join_game", game_id=game_id, name=name)
            assert refused["type"] == "error" and refused["code"] == "name-registered", refused
            said = await guest.request(type="chat", text="hello", name=name)
            assert said["type"] == "error" and said["code"] == "name-registered", said
        assert (await guest.request(type="join_game", game_id=game_id, name="Annabel"))["type"] == "joined"
        taken = await (await Client.connect(server)).request(type="sign_up", name="ANNA", password=PASSWORD)
        assert taken["type"] == "error" and taken["code"] == "name-taken"
        bot = await (await Client.connect(server)).request(type="sign_up", name="bot-aggressive", password=PASSWORD)
        assert bot["type"] == "error" and bot["code"] == "name-taken"


async def test_a_signed_in_player_sits_under_the_account_s_name_only() -> None:
    async with running_server(**FAST) as server:
        ann, _ = await signed_up(server)
        game_id = await create_game(ann, players=2)
        refused = await ann.request(type="join_game", game_id=game_id, name="Someone")
        assert (
            refused["type"] == "error" and refused["code"] == "name-taken" and "signed in as Ann" in refused["message"]
        )
        assert (await ann.request(type="join_game", game_id=game_id, name="ann"))["player"] == "Ann"
        again = await ann.request(type="join_game", game_id=game_id, name="Ann")
        assert again["type"] == "error" and again["code"] == "already-seated"


async def test_an_unknown_name_and_a_wrong_password_get_the_same_answer() -> None:
    async with running_server(**FAST) as server:
        await signed_up(server)
        client = await Client.connect(server)
        unknown = await client.request(type="sign_in", name="Nobody", password=PASSWORD)
        wrong = await client.request(type="sign_in", name="Ann", password="not the password")
        short = await client.request(type="sign_in", name="Ann", password="short")
        for reply in (unknown, wrong, short):
            assert reply["type"] == "error" and reply["code"] == "bad-credentials", reply
        assert unknown["message"] == wrong["message"] == short["message"]


async def test_bad_input_is_refused_clearly_and_changes_nothing() -> None:
    async with running_server(**FAST) as server:
        client = await Client.connect(server)
        weak = await client.request(type="sign_up", name="Ann", password="seven77")
        assert weak["code"] == "weak-password" and "at least 8" in weak["message"] and weak["field"] == "password"
        long = await client.request(type="sign_up", name="Ann", password="x" * 257)
        assert long["code"] == "weak-password" and "at most 256" in long["message"]
        bad_name = await client.request(type="sign_up", name=" Ann", password=PASSWORD)
        assert bad_name["code"] == "invalid-message" and bad_name["field"] == "name"
        assert (await client.request(type="sign_in", name="Ann", password=PASSWORD))["code"] == "bad-credentials"
        # NFKC: the full-width digits of one keyboard are the plain ones of another
        assert (await client.request(type="sign_up", name="Ann", password="passw0rd１２３"))["type"] == "signed_in"
        other = await Client.connect(server)
        assert (await other.request(type="sign_in", name="Ann", password="passw0rd123"))["type"] == "signed_in"
        twice = await other.request(type="sign_in", name="Ann", password="passw0rd123")
        assert twice["code"] == "signed-in-already"
        unknown_session = await other.request(type="end_session", session="0" * 16)
        assert unknown_session["code"] == "no-such-session"


async def test_signing_out_everywhere_closes_the_account_s_other_connections_and_their_session_no_longer_signs_in() -> (
    None
):
    async with running_server(**FAST) as server:
        ann, phone_session = await signed_up(server)
        laptop = await Client.connect(server)
        laptop_session = (await laptop.request(type="sign_in", name="Ann", password=PASSWORD))["session"]
        listed = await ann.request(type="list_sessions")
        assert [s["current"] for s in listed["sessions"]] == [True, False]
        assert all(phone_session not in str(s) and laptop_session not in str(s) for s in listed["sessions"])
        out = await laptop.request(type="sign_out", everywhere=True)
        assert out["type"] == "signed_out" and out["everywhere"]
        await laptop.closed.wait()
        told = await ann.wait_type("signed_out")  # the other device hears of it within a second or two
        assert told["ref"] is None
        await ann.closed.wait()
        assert ann.ws.close_code == CloseCode.SIGNED_OUT
        for stolen in (phone_session, laptop_session):
            again = await Client.connect(server, session=stolen)
            assert again.welcome["account"] is None and "ended" in again.welcome["session_problem"]
            assert (await again.request(type="my_games"))["code"] == "account-needed"


async def test_a_new_password_ends_the_other_sessions_and_the_old_one_opens_nothing() -> None:
    async with running_server(**FAST) as server:
        ann, _ = await signed_up(server)
        laptop = await Client.connect(server)
        await laptop.request(type="sign_in", name="Ann", password=PASSWORD)
        wrong = await ann.request(type="change_password", password="not it at all", new_password="a new password")
        assert wrong["code"] == "bad-credentials"
        changed = await ann.request(type="change_password", password=PASSWORD, new_password="a new password")
        assert changed["type"] == "password_changed" and changed["sessions_ended"] == 1
        await laptop.closed.wait()
        assert (await ann.request(type="my_games"))["type"] == "my_games"  # this one stays signed in
        client = await Client.connect(server)
        assert (await client.request(type="sign_in", name="Ann", password=PASSWORD))["code"] == "bad-credentials"
        assert (await client.request(type="sign_in", name="Ann", password="a new password"))["type"] == "signed_in"


async def test_one_session_ended_from_another_device_closes_that_device_only() -> None:
    async with running_server(**FAST) as server:
        ann, _ = await signed_up(server)
        laptop = await Client.connect(server)
        await laptop.request(type="sign_in", name="Ann", password=PASSWORD)
        sessions = (await ann.request(type="list_sessions"))["sessions"]
        other = next(s for s in sessions if not s["current"])
        assert (await ann.request(type="end_session", session=other["id"]))["type"] == "session_ended"
        await laptop.closed.wait()
        assert [s["current"] for s in (await ann.request(type="list_sessions"))["sessions"]] == [True]


async def test_a_session_expires_30_days_after_its_last_use() -> None:
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        _, session = await signed_up(server)
        clock.advance(29 * 86_400)
        used = await Client.connect(server, session=session)
        assert used.welcome["account"]["name"] == "Ann"  # used on day 29: it lasts to day 59 now
        clock.advance(29 * 86_400)
        assert (await Client.connect(server, session=session)).welcome["account"]["name"] == "Ann"
        clock.advance(31 * 86_400)
        late = await Client.connect(server, session=session)
        assert late.welcome["account"] is None and "expired" in late.welcome["session_problem"]


async def test_a_deleted_account_resigns_its_games_keeps_its_name_taken_and_exports_its_games_first() -> None:
    async with running_server(**FAST) as server:
        ann, session = await signed_up(server)
        bob = await Client.connect(server)
        game_id = await create_game(ann, players=2)
        await ann.request(type="join_game", game_id=game_id, name="Ann")
        await join(bob, game_id, "bob")
        await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        exported = await ann.request(type="export_account")
        assert exported["type"] == "account_export" and [g["game_id"] for g in exported["games"]] == [game_id]
        game = exported["games"][0]
        assert game["player"] == "Ann" and game["settings"]["players"] == 2
        assert [e["event"]["kind"] for e in game["log"]][:3] == ["game_created", "player_joined", "player_joined"]
        refused = await ann.request(type="delete_account", password="not the password")
        assert refused["code"] == "bad-credentials"
        deleted = await ann.request(type="delete_account", password=PASSWORD)
        assert deleted["type"] == "account_deleted" and deleted["resigned"] == [game_id]
        await ann.closed.wait()
        over = await bob.wait_for(lambda m: m["type"] == "update" and m["game"]["status"] == "finished")
        assert over["game"]["winner"] == "bob"
        gone = await Client.connect(server, session=session)
        assert gone.welcome["account"] is None and "deleted" in gone.welcome["session_problem"]
        again = await gone.request(type="sign_up", name="Ann", password=PASSWORD)
        assert again["code"] == "name-taken"
        assert (await gone.request(type="sign_in", name="Ann", password=PASSWORD))["code"] == "bad-credentials"


async def test_a_server_without_accounts_refuses_their_messages_and_one_that_requires_them_seats_no_guest() -> None:
    async with running_server(accounts="off", **FAST) as server:
        client = await Client.connect(server)
        assert client.welcome["accounts"] == "off"
        assert (await client.request(type="sign_up", name="Ann", password=PASSWORD))["code"] == "accounts-off"
        game_id = await create_game(client, players=2)
        assert (await client.request(type="join_game", game_id=game_id, name="Ann"))["type"] == "joined"
    async with running_server(accounts="required", **FAST) as server:
        guest = await Client.connect(server)
        assert guest.welcome["accounts"] == "required"
        assert (await guest.request(type="create_game", settings={"map": "seed"}))["code"] == "account-needed"
        ann, _ = await signed_up(server)
        game_id = await create_game(ann, players=2)
        assert (await guest.request(type="join_game", game_id=game_id, name="bob"))["code"] == "account-needed"
        assert (await guest.request(type="watch_game", game_id=game_id))["type"] == "watching"


async def test_a_client_of_protocol_4_plays_a_game_to_its_end_as_a_guest() -> None:
    async with running_server(**FAST) as server:
        old = await Client.connect(server, protocol=4)
        assert old.welcome["protocol"] == 4
        game_id = await create_game(old, players=2)
        token = await join(old, game_id, "old")
        other = await Client.connect(server)
        await join(other, game_id, "new")
        assert (await old.request(type="resume", game_id=game_id, token=token))["type"] == "resumed"
        legal = await old.request(type="legal_orders", game_id=game_id)
        offered = legal["orders"][0]
        placed = await old.request(type="issue_order", game_id=game_id, turn=legal["turn"], order=offered["order"])
        assert placed["type"] == "order_accepted", placed
        assert (await old.request(type="resign", game_id=game_id))["type"] == "resigned"
        over = await other.wait_for(lambda m: m["type"] == "update" and m["game"]["status"] == "finished")
        assert over["game"]["winner"] == "new"


async def test_no_password_or_session_token_reaches_the_server_s_log(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="risc")
    async with running_server(**FAST) as server:
        ann, session = await signed_up(server)
        await (await Client.connect(server)).request(type="sign_in", name="Ann", password="tr0mbone-W1ZARD")
        await ann.request(type="change_password", password=PASSWORD, new_password="another secret")
        await Client.connect(server, session=session)
        await ann.request(type="sign_out")
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "Ann" in logged  # the log does speak of the account
    for secret in (PASSWORD, "tr0mbone-W1ZARD", "another secret", session):
        assert secret not in logged


def message_of(frames: list[Message], kind: str) -> Message:
    return next(f for f in frames if f["type"] == kind)


async def test_a_password_hashed_with_weaker_parameters_is_hashed_again_at_sign_in_and_no_session_ends() -> None:
    async with running_server(**FAST) as server:
        strong = server.accounts.passwords
        assert strong.hasher.memory_cost >= 19 * 1024 and strong.hasher.time_cost >= 2
        server.accounts.passwords = Passwords(time_cost=1, memory_kib=8 * 1024)  # an older release's, say
        ann, _ = await signed_up(server)
        account = await server.accounts.store.account_named("ann")
        assert account is not None and "m=8192,t=1" in account.password_hash
        server.accounts.passwords = strong
        laptop = await Client.connect(server)
        assert (await laptop.request(type="sign_in", name="Ann", password=PASSWORD))["type"] == "signed_in"
        account = await server.accounts.store.account_named("ann")
        assert (
            account is not None and "$argon2id$" in account.password_hash and "m=19456,t=2,p=1" in account.password_hash
        )
        assert (await ann.request(type="my_games"))["type"] == "my_games"  # the first device stays signed in
