"""What every store keeps for games of days, held to the memory store, the SQLite file and PostgreSQL alike: the
outbox written with a game's save (or not at all), claimed by one sender at a time until its claim runs out, settled;
vacations and their changes; channels and the unsubscribe key (docs/notifications.md)."""

from __future__ import annotations

import pytest

from server.storage import Storage
from server.storage.base import OwnershipLost
from server.storage.notices import Channels, Notice, VacationRecord
from server.storage.postgres import PostgresStorage
from tests.test_server_storage import record, started_progress


def notice(account: str, kind: str = "your_turn", at: float = 100.0) -> Notice:
    return Notice(account, kind, "g1", {"turn": 1, "text": "a\\r\\nb"}, at)


async def test_notices_are_kept_with_the_save_that_makes_them_and_claimed_by_one_sender_at_a_time(
    store: Storage,
) -> None:
    await store.create(record(), started_progress(), [])
    await store.save("g1", started_progress(), [], notices=[notice("a1"), notice("a2"), notice("a1", "nudged")])
    outbox = store.notices()
    assert await outbox.pending() == 3
    first = await outbox.claim("node-1", now=100.0, lease=60.0, limit=1)
    assert [(r.notice.account_id, r.notice.kind) for r in first] == [("a1", "your_turn"), ("a1", "nudged")], (
        "with the first due, every mail of the same account: a digest gathers them"
    )
    assert first[0].notice.body == {"turn": 1, "text": "a\\r\\nb"} and first[0].created_at == 100.0
    second = await outbox.claim("node-2", now=110.0, lease=60.0, limit=10)
    assert [r.notice.account_id for r in second] == ["a2"], "another sender takes none of the claimed ones"
    assert await outbox.claim("node-2", now=150.0, lease=60.0, limit=10) == []
    await outbox.settle(first[0].id, None, None, (0, 0))
    await outbox.settle(first[1].id, 200.0, None, (1, 0))
    assert await outbox.pending() == 2
    again = await outbox.claim("node-2", now=171.0, lease=60.0, limit=10)
    assert [r.notice.account_id for r in again] == ["a2"], "its claim ran out; the other row is not due yet"
    later = await outbox.claim("node-3", now=250.0, lease=60.0, limit=10)
    assert [(r.notice.account_id, r.notice.kind, r.mail_tries, r.hook_due) for r in later] == [
        ("a2", "your_turn", 0, 100.0),  # node-2's claim ran out too: it died mid-send, say
        ("a1", "nudged", 1, None),
    ]


async def test_a_save_another_node_s_epoch_refuses_keeps_none_of_its_notices(postgres_dsn: str) -> None:
    store = PostgresStorage(postgres_dsn, node_id="test-node")
    await store.open()
    try:
        await store.create(record(), started_progress(), [])
        store.epochs.hold("g1", 99)  # this node's epoch is not the game's: another node took it
        with pytest.raises(OwnershipLost):
            await store.save("g1", started_progress(), [], notices=[notice("a1")])
        assert await store.notices().pending() == 0
    finally:
        await store.close()


async def test_vacations_and_channels_are_kept(store: Storage) -> None:
    notices = store.notices()
    await notices.add_vacation(VacationRecord("a1", 0.0, 864_000.0), at=0.0)
    assert await notices.cut_vacation("a1", 3600.0, at=10.0)
    assert not await notices.cut_vacation("a2", 3600.0, at=10.0)
    assert await notices.vacations_of("a1", since=-1.0) == [VacationRecord("a1", 0.0, 3600.0)]
    assert await notices.vacations_changed(since=5.0) == [VacationRecord("a1", 0.0, 3600.0)]
    assert await notices.vacations_changed(since=11.0) == []
    assert await notices.channels("a1") is None
    kept = Channels(mail="ann@mail.test", webhook="https://x.test/", webhook_secret="s", unsubscribe_key="k1")
    await notices.set_channels("a1", kept)
    assert await notices.channels("a1") == kept
    assert await notices.unsubscribed("nope") is None and await notices.unsubscribed("") is None
    assert await notices.unsubscribed("k1") == "a1"
    found = await notices.channels("a1")
    assert found is not None and found.mail_paused == "unsubscribed" and found.mail == "ann@mail.test"
