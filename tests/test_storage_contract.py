"""What every store promises (server/storage/base.py), held to the memory store, the SQLite file and PostgreSQL alike:
a change is kept whole or not at all, orders and commits kept apart come back on the progress they belong to, a
request kept with its change is refused a second time (the same player's: another's of the same id is its own), and
a game reads back as it was saved."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

import pytest

from server.storage import GameProgress, Storage, StorageError
from server.storage.base import CommitChange, GameRecord, OrderChange, OwnershipLost, RequestRecord, SeatRecord
from server.storage.codec import map_to_dict
from server.storage.notices import Notice
from server.storage.postgres import PostgresStorage
from shared.maps import load_map
from shared.protocol.lobby import GameSettings
from tests.test_server_storage import joined, record, started_progress


def order(index: int, units: int) -> OrderChange:
    return OrderChange("ann", 2, index, f'{{"kind": "place", "units": {units}, "territory": "Narnia"}}')


def bob_order(index: int, units: int) -> OrderChange:
    return OrderChange("bob", 2, index, f'{{"kind": "place", "units": {units}, "territory": "Oz"}}')


async def test_a_game_is_kept_once_and_reads_back_as_it_was_saved(store: Storage) -> None:
    await store.create(record(), GameProgress(seats=[], state=None, seq=0), [])
    with pytest.raises(StorageError):
        await store.create(record(), GameProgress(seats=[], state=None, seq=0), [])
    with pytest.raises(StorageError):
        await store.save("nope", GameProgress(seats=[], state=None, seq=0), [])
    await store.save("g1", GameProgress(seats=[], state=None, seq=1), [joined(1, "ann")])
    await store.save("g1", GameProgress(seats=[], state=None, seq=2), [joined(2, "bob")])
    stored = await store.load("g1")
    assert stored is not None and stored.progress.seq == 2 and stored.record == record()
    assert [e["seq"] for e in stored.events] == [1, 2]
    assert [e["event"]["player"] for e in stored.events] == ["ann", "bob"]
    assert await store.list_games() == ["g1"]
    assert await store.load("nope") is None
    assert await store.restore("nope", 10) is None


async def test_a_save_whose_entry_exists_already_keeps_nothing_of_itself(store: Storage) -> None:
    await store.create(record(), GameProgress(seats=[], state=None, seq=1), [joined(1, "ann")])
    with pytest.raises(StorageError):
        await store.save("g1", GameProgress(seats=[], state=None, seq=9), [joined(2, "bob"), joined(1, "cyd")])
    stored = await store.load("g1")
    assert stored is not None and stored.progress.seq == 1
    assert [e["event"]["player"] for e in stored.events] == ["ann"]


ODD_TEXT = 'say "hi", {NULL}, a\\b\\"c\\", ,;\'{}\' é 世界 \U0001f3b2 \t end'
"""Words a player may write (a chat line, a name in an order) with every character an array's or a row's text form
quotes or escapes: quotes, backslashes, braces, commas, the word NULL, tabs, characters beyond ASCII."""


@dataclass(frozen=True)
class Line:
    """A log entry as a store is given it: its number and its JSON text."""

    seq: int
    stored: str


def seed_game(game_id: str) -> GameRecord:
    """A game of three on the seed map, its map held whole in its record."""
    return GameRecord(
        game_id=game_id,
        settings=GameSettings(map=None, players=3),
        seed=1,
        created_at=0.0,
        game_map=map_to_dict(load_map("seed")),
    )


def odd_entry(seq: int) -> Line:
    return Line(seq, json.dumps({"seq": seq, "event": {"kind": "chat", "text": ODD_TEXT}}, ensure_ascii=False))


async def test_text_of_any_characters_comes_back_as_it_was_kept(store: Storage) -> None:
    """Orders, log entries and kept replies go to the database as they are written and come back unchanged."""
    game_record = seed_game("g")
    await store.create(game_record, started_progress(seq=1), [odd_entry(1)])
    odd_order = json.dumps({"kind": "place", "units": 1, "territory": ODD_TEXT}, ensure_ascii=False)
    reply = json.dumps({"type": "orders_accepted", "said": ODD_TEXT}, ensure_ascii=False)
    await store.save_orders(
        "g",
        [OrderChange("ann", 2, 0, odd_order), OrderChange("ann", 2, 1, "{}"), OrderChange("ann", 2, 1, None)],
        RequestRecord("ann", ODD_TEXT, 2, reply),
    )
    await store.save_commit("g", CommitChange("bob", 2, 2), [odd_entry(2)])
    restored = await store.restore("g", 5)
    assert restored is not None and restored.progress.state is not None
    assert restored.progress.state["orders"]["ann"] == [{"kind": "place", "units": 1, "territory": ODD_TEXT}]
    assert restored.requests == {("ann", ODD_TEXT): reply}
    await store.save("g", started_progress(seq=3), [odd_entry(3)])
    stored = await store.load("g")
    assert stored is not None
    assert [(e["seq"], e["event"]["text"]) for e in stored.events] == [(1, ODD_TEXT), (2, ODD_TEXT), (3, ODD_TEXT)]


async def test_orders_and_commits_kept_apart_come_back_on_their_progress_and_a_save_holds_them(store: Storage) -> None:
    game_record = seed_game("g")
    await store.create(game_record, started_progress(), [])
    await store.save_order("g", order(0, 3))
    await store.save_order("g", order(1, 4))
    await store.save_order("g", OrderChange("ann", 2, 0, None))  # the first withdrawn
    await store.save_commit("g", CommitChange("bob", 2, 11), [joined(11, "bob")])
    for read in (await store.load("g"), await store.restore("g", 5)):
        assert read is not None and read.progress.state is not None
        assert [o["units"] for o in read.progress.state["orders"]["ann"]] == [4]
        assert read.progress.state["committed"] == ["bob"] and read.progress.seq == 11
    with pytest.raises(StorageError):
        await store.save_order("nope", order(0, 1))
    await store.save("g", started_progress(seq=11), [])
    stored = await store.load("g")
    assert stored is not None and stored.progress.state is not None
    assert stored.progress.state["orders"] == {} and stored.progress.state["committed"] == []


async def test_a_batch_of_orders_is_kept_whole_in_its_order_with_its_request(store: Storage) -> None:
    game_record = seed_game("g")
    await store.create(game_record, started_progress(), [])
    await store.save_order("g", order(0, 1))
    batch = '{"ref":null,"type":"orders_accepted","game_id":"g","turn":2,"accepted":[],"refused":[]}'
    await store.save_orders("g", [order(1, 2), order(2, 3), order(3, 4)], RequestRecord("ann", "batch-one", 2, batch))
    with pytest.raises(StorageError):  # the same request again keeps none of its orders
        await store.save_orders("g", [order(4, 5), order(5, 6)], RequestRecord("ann", "batch-one", 2, batch))
    with pytest.raises(StorageError):
        await store.save_orders("nope", [order(0, 1)])
    restored = await store.restore("g", 5)
    assert restored is not None and restored.requests == {("ann", "batch-one"): batch}
    assert restored.progress.state is not None
    assert [o["units"] for o in restored.progress.state["orders"]["ann"]] == [1, 2, 3, 4]


async def test_a_turn_sent_whole_keeps_its_orders_and_its_commit_together_or_neither(store: Storage) -> None:
    """`issue_orders` with `commit`: the orders and the commit in one write, all or nothing."""
    game_record = seed_game("g")
    await store.create(game_record, started_progress(), [])
    await store.save_order("g", bob_order(0, 2))
    turn = '{"ref":null,"type":"orders_accepted","game_id":"g","turn":2,"accepted":[],"refused":[],"committed":true}'
    request = RequestRecord("ann", "turn-one", 2, turn)
    await store.save_commit("g", CommitChange("ann", 2, 11), [joined(11, "ann")], request, [order(0, 3), order(1, 4)])
    with pytest.raises(StorageError):  # the same request again keeps neither its orders nor its entries
        await store.save_commit("g", CommitChange("ann", 2, 12), [joined(12, "ann")], request, [order(2, 5)])
    with pytest.raises(StorageError):
        await store.save_commit("nope", CommitChange("ann", 2, 1), [joined(1, "ann")], None, [order(0, 1)])
    for read in (await store.load("g"), await store.restore("g", 5)):
        assert read is not None and read.progress.state is not None
        assert [o["units"] for o in read.progress.state["orders"]["ann"]] == [3, 4]
        assert [o["units"] for o in read.progress.state["orders"]["bob"]] == [2]
        assert read.progress.state["committed"] == ["ann"] and read.progress.seq == 11
    restored = await store.restore("g", 5)
    assert restored is not None and restored.requests == {("ann", "turn-one"): turn}


async def test_a_request_kept_with_its_change_is_refused_again_and_forgotten_two_steps_on(store: Storage) -> None:
    game_record = seed_game("g")
    await store.create(game_record, started_progress(), [])
    accepted = '{"ref":null,"type":"order_accepted","game_id":"g","turn":2,"index":0,"order":{}}'
    await store.save_order("g", order(0, 3), RequestRecord("ann", "request-one", 2, accepted))
    with pytest.raises(StorageError):
        await store.save_order("g", order(1, 3), RequestRecord("ann", "request-one", 2, accepted))
    bobs = accepted.replace('"index":0', '"index":5')
    await store.save_order("g", bob_order(0, 3), RequestRecord("bob", "request-one", 2, bobs))  # his own id
    restored = await store.restore("g", 5)
    assert restored is not None
    assert restored.requests == {("ann", "request-one"): accepted, ("bob", "request-one"): bobs}
    assert restored.progress.state is not None and len(restored.progress.state["orders"]["ann"]) == 1
    assert len(restored.progress.state["orders"]["bob"]) == 1
    committed = '{"ref":null,"type":"commit_accepted","game_id":"g","turn":2}'
    await store.save_commit(
        "g", CommitChange("ann", 2, 11), [joined(11, "ann")], RequestRecord("ann", "request-two", 2, committed)
    )
    restored = await store.restore("g", 5)
    assert restored is not None and restored.requests == {
        ("ann", "request-one"): accepted,
        ("bob", "request-one"): bobs,
        ("ann", "request-two"): committed,
    }
    state = {**(started_progress().state or {}), "step": 3}
    await store.save("g", GameProgress(seats=[], state=state, seq=11, status="playing"), [])
    restored = await store.restore("g", 5)
    assert restored is not None and len(restored.requests) == 3  # the step after  # the step after
    state = {**state, "step": 4}
    await store.save(
        "g",
        GameProgress(seats=[], state=state, seq=11, status="playing"),
        [],
        request=RequestRecord("ann", "request-three", 4, committed),
    )
    restored = await store.restore("g", 5)
    assert restored is not None and restored.requests == {("ann", "request-three"): committed}


async def test_every_unfinished_game_is_restored_with_the_tail_of_its_log(store: Storage) -> None:
    await store.create(
        record("old"), GameProgress(seats=[], state=None, seq=3), [joined(1, "a"), joined(2, "b"), joined(3, "c")]
    )
    await store.create(record("over"), GameProgress(seats=[], state=None, seq=0, status="finished"), [])
    games = await store.load_unfinished(tail=2)
    assert [g.record.game_id for g in games] == ["old"]
    assert [e["seq"] for e in games[0].log.entries()] == [2, 3]
    assert await store.list_games(include_finished=False) == ["old"]
    assert sorted(await store.list_games()) == ["old", "over"]


async def test_changes_of_many_games_at_once_are_all_kept_and_one_that_breaks_a_rule_fails_alone(
    store: Storage,
) -> None:
    await asyncio.gather(
        *(
            store.create(record(f"g{i}"), GameProgress(seats=[], state=None, seq=1), [joined(1, "ann")])
            for i in range(20)
        )
    )
    saves = [
        store.save(f"g{i}", GameProgress(seats=[], state=None, seq=2), [joined(1 if i == 7 else 2, "bob")])
        for i in range(20)
    ]
    results = await asyncio.gather(*saves, return_exceptions=True)
    assert [i for i, r in enumerate(results) if isinstance(r, StorageError)] == [7]  # its entry 1 exists
    for i in range(20):
        stored = await store.load(f"g{i}")
        assert stored is not None
        assert [e["seq"] for e in stored.events] == ([1] if i == 7 else [1, 2])
        assert stored.progress.seq == (1 if i == 7 else 2)


async def test_postgres_shares_one_transaction_among_the_changes_that_come_together(postgres_dsn: str) -> None:
    store = PostgresStorage(postgres_dsn, node_id="test-node")
    await store.open()
    try:
        await asyncio.gather(
            *(store.create(record(f"g{i}"), GameProgress(seats=[], state=None, seq=0), []) for i in range(30))
        )
        before = store.transactions
        await asyncio.gather(
            *(store.save(f"g{i}", GameProgress(seats=[], state=None, seq=1), [joined(1, "ann")]) for i in range(30))
        )
        assert store.transactions - before < 30
        for i in range(30):
            stored = await store.load(f"g{i}")
            assert stored is not None and [e["seq"] for e in stored.events] == [1]
    finally:
        await store.close()


async def test_postgres_writes_a_transaction_s_changes_in_order_and_fails_a_refused_one_alone(
    postgres_dsn: str,
) -> None:
    """One transaction carries several games' changes in as few statements as can carry them
    (server/storage/postgres_changes.py): a game's whole save after its own orders and commit in the same transaction
    still drops them, as it holds them; a withdrawal is kept as one, after the order it withdraws; a change of a game
    another node holds fails alone, leaving none of its rows (its notifications among them)."""
    store = PostgresStorage(postgres_dsn, node_id="test-node")
    await store.open()
    try:
        for game_id in ("a", "b", "taken"):
            await store.create(record(game_id), started_progress(seq=0), [])
        store.epochs.hold("taken", 99)  # another node claimed it since
        reply = '{"type": "orders_accepted"}'
        before = store.transactions
        results = await asyncio.gather(
            store.save_orders("a", [order(0, 1), order(1, 2)], RequestRecord("ann", "r1", 2, reply)),
            store.save_orders("b", [bob_order(0, 3)]),
            store.save_order("b", OrderChange("bob", 2, 0, None)),
            store.save("taken", started_progress(seq=1), [joined(1, "ann")], notices=[turn_notice("acct-1", "taken")]),
            store.save_commit("a", CommitChange("ann", 2, 1), [joined(1, "ann")]),
            store.save("a", started_progress(seq=2), [joined(2, "bob")], notices=[turn_notice("acct-2", "a")]),
            return_exceptions=True,
        )
        assert [type(r).__name__ for r in results] == ["NoneType"] * 3 + ["OwnershipLost"] + ["NoneType"] * 2
        assert store.transactions - before == 1

        async def kept(query: str) -> list[tuple[object, ...]]:
            return [tuple(row) for row in await store.rows(query)]

        assert await kept("SELECT game_id, player, position, body FROM pending_orders ORDER BY id") == [
            ("b", "bob", 0, bob_order(0, 3).order),
            ("b", "bob", 0, None),
        ]
        assert await kept("SELECT game_id FROM pending_commits") == []
        assert await kept("SELECT game_id, seq FROM events ORDER BY game_id, seq") == [("a", 1), ("a", 2)]
        assert await kept("SELECT game_id, request_id, step FROM requests") == [("a", "r1", 2)]
        assert await kept("SELECT account_id, game_id FROM outbox") == [("acct-2", "a")]
        stored = await store.load("b")
        assert stored is not None and stored.progress.state is not None
        assert stored.progress.state["orders"].get("bob", []) == []
    finally:
        await store.close()


async def test_postgres_a_stale_change_refused_leaves_the_node_its_newer_claim(postgres_dsn: str) -> None:
    """A change written at the epoch this node held before it claimed the game again fails (OwnershipLost), but the
    node keeps the newer claim: its next changes are written."""
    store = PostgresStorage(postgres_dsn, node_id="test-node")
    await store.open()
    try:
        await store.create(record("a"), started_progress(seq=0), [])
        await store.rows("UPDATE games SET epoch = 3 WHERE game_id = 'a'")  # claimed again since
        stale = asyncio.ensure_future(store.save_orders("a", [order(0, 1)]))  # its change names epoch 1
        await asyncio.sleep(0)
        store.epochs.hold("a", 3)
        with pytest.raises(OwnershipLost):
            await stale
        assert store.epochs.get("a") == 3
        await store.save_orders("a", [order(0, 2)])
        assert [tuple(r) for r in await store.rows("SELECT position, body FROM pending_orders")] == [
            (0, order(0, 2).order)
        ]
    finally:
        await store.close()


def turn_notice(account_id: str, game_id: str) -> Notice:
    return Notice(account_id, "your_turn", game_id, {"turn": 2}, 5.0)


async def test_postgres_keeps_no_row_of_a_change_its_game_refused(postgres_dsn: str) -> None:
    """A change's rows (log entries, orders, commits, kept requests, accounts' seats) are written only beside its game's
    row at this node's epoch: a game another node took over, or none at all, leaves none behind."""
    store = PostgresStorage(postgres_dsn, node_id="test-node")
    await store.open()
    try:
        await store.create(record("taken"), started_progress(seq=0), [])
        store.epochs.hold("taken", 99)  # another node claimed it since
        store.epochs.hold("none", 1)  # no such game
        seated = started_progress(seq=1).model_copy(
            update={"seats": [SeatRecord(name="ann", token_hash="", account="a1")]}
        )
        reply = '{"type": "orders_accepted"}'
        for game_id in ("taken", "none"):
            with pytest.raises(StorageError) as refused:
                await store.save_orders(game_id, [order(0, 1)], RequestRecord("ann", "r1", 2, reply))
            assert isinstance(refused.value, OwnershipLost) == (game_id == "taken")
            with pytest.raises(StorageError):
                await store.save_commit(game_id, CommitChange("ann", 2, 1), [joined(1, "ann")])
            with pytest.raises(StorageError):
                await store.save(game_id, seated, [joined(1, "ann")], request=RequestRecord("ann", "r2", 2, reply))
        counted = " UNION ALL ".join(
            f"SELECT count(*) FROM {table}"
            for table in ("events", "pending_orders", "pending_commits", "requests", "account_games")
        )
        assert [count for (count,) in await store.rows(counted)] == [0, 0, 0, 0, 0]
    finally:
        await store.close()


async def test_postgres_refuses_a_database_holding_another_application_s_games_table(postgres_dsn: str) -> None:
    import psycopg

    with psycopg.connect(postgres_dsn, autocommit=True) as db:
        db.execute("CREATE TABLE games (id serial PRIMARY KEY, title text)")
    store = PostgresStorage(postgres_dsn, node_id="test-node")
    with pytest.raises(StorageError, match="not RISC's"):
        await store.open()
    with psycopg.connect(postgres_dsn, autocommit=True) as db:
        assert db.execute("SELECT count(*) FROM pg_tables WHERE tablename = 'risc_schema'").fetchone() == (0,)


async def test_postgres_nodes_starting_together_create_the_schema_once(postgres_dsn: str) -> None:
    stores = [PostgresStorage(postgres_dsn, node_id=f"n{i}") for i in range(4)]
    try:
        await asyncio.gather(*(store.open() for store in stores))
        await stores[0].create(record(), GameProgress(seats=[], state=None, seq=0), [])
        assert await stores[3].list_games() == ["g1"]
    finally:
        for store in stores:
            await store.close()


async def test_a_store_says_when_each_game_it_keeps_was_created(store: Storage) -> None:
    """What `risc games damaged` prints beside each game it lists, whatever the store."""
    for game_id, when in (("g1", 1_764_000_000.25), ("g2", 1_764_000_300.5)):
        created = record(game_id).model_copy(update={"created_at": when})
        await store.create(created, GameProgress(seats=[], state=None, seq=0), [])
    assert await store.created_at(["g2", "nope", "g1"]) == {"g1": 1_764_000_000.25, "g2": 1_764_000_300.5}
    assert await store.created_at([]) == {}
