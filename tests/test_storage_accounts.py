"""What every store promises of accounts (server/storage/accounts.py), held to the memory store, the SQLite file and
PostgreSQL alike: a name is registered once and stays taken, sessions end and are heard of, failed sign-ins are
counted per name, and an account's games are found from its seats."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.storage import GameProgress, SqliteStorage, Storage
from server.storage.accounts import AccountRecord, NameTaken, SessionRecord
from server.storage.base import SeatRecord
from tests.test_server_storage import record

DAY = 86_400.0


def account(account_id: str = "a1", name: str = "Ann", key: str = "ann") -> AccountRecord:
    return AccountRecord(account_id, name, key, "$argon2id$hash-of-" + account_id, 1000.0)


def session(token_hash: str, account_id: str = "a1", at: float = 1000.0) -> SessionRecord:
    return SessionRecord(token_hash, account_id, at, at, at + 30 * DAY, "risc client")


async def test_a_name_is_registered_once_and_stays_taken_once_its_account_is_deleted(store: Storage) -> None:
    accounts = store.accounts()
    await accounts.create_account(account())
    with pytest.raises(NameTaken):
        await accounts.create_account(account("a2", "ANN", "ann"))
    assert await accounts.account_named("ann") == account()
    assert await accounts.account("a1") == account()
    assert await accounts.account_named("bob") is None
    await accounts.delete_account("a1", 2000.0)
    gone = await accounts.account_named("ann")
    assert gone is not None and gone.deleted and gone.disabled and gone.password_hash == ""
    with pytest.raises(NameTaken):
        await accounts.create_account(account("a3", "ann", "ann"))
    assert await accounts.accounts() == []


async def test_sessions_end_one_or_all_and_every_node_can_hear_which(store: Storage) -> None:
    accounts = store.accounts()
    await accounts.create_account(account())
    for token_hash in ("h1", "h2", "h3"):
        await accounts.add_session(session(token_hash))
    found = await accounts.session("h2")
    assert found is not None and found[0] == session("h2") and found[1] == account()
    assert await accounts.session("nope") is None
    await accounts.touch_session("h2", 5000.0, 5000.0 + 30 * DAY)
    touched = await accounts.session("h2")
    assert touched is not None and touched[0].last_used_at == 5000.0 and touched[0].expires_at == 5000.0 + 30 * DAY
    assert await accounts.end_sessions("a1", 6000.0, only="h1") == 1
    assert [s.token_hash for s in await accounts.sessions_of("a1", 6000.0)] == ["h2", "h3"]
    assert await accounts.set_password("a1", "$argon2id$new", 7000.0, keep="h2") == 1
    assert [s.token_hash for s in await accounts.sessions_of("a1", 7000.0)] == ["h2"]
    changed = await accounts.account("a1")
    assert changed is not None and changed.password_hash == "$argon2id$new"
    assert {s.token_hash for s in await accounts.ended_since(6500.0)} == {"h3"}
    assert {s.token_hash for s in await accounts.ended_since(6000.0)} == {"h1", "h3"}
    await accounts.set_disabled("a1", True, 8000.0)
    assert await accounts.sessions_of("a1", 8000.0) == []
    disabled = await accounts.account("a1")
    assert disabled is not None and disabled.disabled
    await accounts.set_disabled("a1", False, 9000.0)
    enabled = await accounts.account("a1")
    assert enabled is not None and not enabled.disabled
    assert await accounts.sessions_of("a1", 31 * DAY) == []  # expired, though never ended
    assert await accounts.forget_sessions(7500.0) == 2  # ended before then: h1 and h3
    assert await accounts.session("h1") is None and await accounts.session("h2") is not None


async def test_failed_sign_ins_are_counted_per_name_until_cleared(store: Storage) -> None:
    accounts = store.accounts()
    assert await accounts.failures("nobody") is None
    assert (await accounts.note_failure("nobody", 10.0)).count == 1
    second = await accounts.note_failure("nobody", 20.0)
    assert second.count == 2 and second.locked_until == 20.0
    found = await accounts.failures("nobody")
    assert found is not None and found.count == 2 and found.locked_until == 20.0
    await accounts.clear_failures("nobody")
    assert await accounts.failures("nobody") is None


async def test_the_games_an_account_sits_in_are_found_with_their_summaries(store: Storage) -> None:
    accounts = store.accounts()
    await accounts.create_account(account())
    seats = [SeatRecord(name="Ann", token_hash="", account="a1"), SeatRecord(name="bob", token_hash="x")]
    for game_id, when in (("g1", 10.0), ("g2", 20.0)):
        created = record(game_id).model_copy(update={"created_at": when})
        await store.create(created, GameProgress(seats=seats[1:], state=None, seq=0), [], summary='{"v": 0}')
        await store.save(game_id, GameProgress(seats=seats, state=None, seq=0), [], summary=f'{{"v": "{game_id}"}}')
    await store.create(record("g3"), GameProgress(seats=seats[1:], state=None, seq=0), [])
    found = await accounts.games_of("a1", 10)
    assert [(g.game_id, g.player, g.summary) for g in found] == [
        ("g2", "Ann", '{"v": "g2"}'),
        ("g1", "Ann", '{"v": "g1"}'),
    ]
    assert [g.game_id for g in await accounts.games_of("a1", 1)] == ["g2"]
    await store.save("g1", GameProgress(seats=seats, state=None, seq=0), [])  # no summary: the last one stays
    assert [g.summary for g in await accounts.games_of("a1", 10)] == ['{"v": "g2"}', '{"v": "g1"}']
    await accounts.delete_account("a1", 30.0)
    assert await accounts.games_of("a1", 10) == []


async def test_accounts_outlive_the_sqlite_store_that_kept_them(tmp_path: Path) -> None:
    first = SqliteStorage(tmp_path / "games.sqlite3")
    await first.accounts().create_account(account())
    await first.accounts().add_session(session("h1"))
    await first.close()
    again = SqliteStorage(tmp_path / "games.sqlite3")
    try:
        found = await again.accounts().session("h1")
        assert found is not None and found[1] == account()
    finally:
        await again.close()
