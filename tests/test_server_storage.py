"""The store: states survive JSON, saves are all or nothing, and a change the store refuses is not made."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from server.core.entries import Entry, Logged, number
from server.storage import GameProgress, GameRecord, MemoryStorage, StorageError
from server.storage.base import CommitChange, LogLine, OrderChange, RequestRecord, with_orders
from server.storage.codec import game_from_dict, game_to_dict, map_from_dict, map_to_dict
from server.storage.notices import Notice
from server.storage.ratings import RatedEnd
from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.turns import commit, issue
from shared.maps import load_map
from shared.protocol.lobby import GameSettings
from shared.protocol.log import PlayerJoined
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, PlaceOrder
from tests.engine_support import RISC, RiscGame, options, resolve, setup
from tests.server_support import FAST, current_view, owned, running_server, seated_game


def ok(result: RiscGame | RuleError) -> RiscGame:
    assert isinstance(result, Game), result
    return result


def test_a_game_mid_turn_survives_json_and_back() -> None:
    game_map = load_map("seed")
    state = setup(game_map, ["ann", "bob", "cyd"], options(initial_units=6), seed=7)
    for player in state.players:
        state = ok(issue(RISC, state, player, PlaceOrder(state.board.territories_of(player)[0], 6)))
        state = ok(commit(RISC, state, player))
    state, _ = resolve(state, seed=7)
    ann = state.board.territories_of("ann")
    state = ok(issue(RISC, state, "ann", MoveOrder(2, ann[0], ann[1])))
    target = next(n for n in game_map.neighbours(ann[1]) if state.board.owner[n] != "ann")
    state = ok(issue(RISC, state, "ann", AttackOrder(1, ann[1], target)))
    state = ok(commit(RISC, state, "ann"))

    stored_map = map_from_dict(json.loads(json.dumps(map_to_dict(game_map))))
    restored = game_from_dict(RISC, json.loads(json.dumps(game_to_dict(RISC, state))), stored_map, state.options)
    assert restored == state
    assert stored_map == game_map


def record(game_id: str = "g1") -> GameRecord:
    return GameRecord(
        game_id=game_id,
        settings=GameSettings(map="seed"),
        seed=1,
        created_at=0.0,
        game_map=map_to_dict(load_map("seed")),
    )


def joined(seq: int, player: str) -> Entry:
    (entry,) = number([Logged(PlayerJoined(player=player))], seq - 1, RISC, change=seq)
    return entry


async def test_the_memory_store_keeps_progress_and_appends_events() -> None:
    storage = MemoryStorage()
    await storage.create(record(), GameProgress(seats=[], state=None, seq=0), [])
    with pytest.raises(StorageError):
        await storage.create(record(), GameProgress(seats=[], state=None, seq=0), [])
    with pytest.raises(StorageError):
        await storage.save("nope", GameProgress(seats=[], state=None, seq=0), [])
    await storage.save("g1", GameProgress(seats=[], state=None, seq=1), [joined(1, "ann")])
    await storage.save("g1", GameProgress(seats=[], state=None, seq=2), [joined(2, "bob")])
    stored = await storage.load("g1")
    assert stored is not None and stored.progress.seq == 2
    assert [e["seq"] for e in stored.events] == [1, 2]
    assert await storage.list_games() == ["g1"]
    assert await storage.load("nope") is None


async def test_a_save_that_cannot_be_encoded_changes_nothing() -> None:
    storage = MemoryStorage()
    await storage.create(record(), GameProgress(seats=[], state=None, seq=0), [])
    broken = GameProgress(seats=[], state={"units": object()}, seq=1)  # not JSON-able
    with pytest.raises(ValueError):
        await storage.save("g1", broken, [joined(1, "ann")])
    stored = await storage.load("g1")
    assert stored is not None and stored.progress.seq == 0 and stored.events == []


class FailingStorage(MemoryStorage):
    """A store that can be made to refuse every save, as a full disk would."""

    failing = False

    async def save(
        self,
        game_id: str,
        progress: GameProgress,
        events: Sequence[LogLine],
        *,
        summary: str | None = None,
        request: RequestRecord | None = None,
        notices: Sequence[Notice] = (),
        rated: RatedEnd | None = None,
    ) -> None:
        if self.failing:
            raise StorageError("disk full")
        await super().save(game_id, progress, events, summary=summary, request=request, notices=notices, rated=rated)

    async def save_order(self, game_id: str, change: OrderChange, request: RequestRecord | None = None) -> None:
        if self.failing:
            raise StorageError("disk full")
        await super().save_order(game_id, change, request)

    async def save_commit(
        self,
        game_id: str,
        commit: CommitChange,
        events: Sequence[LogLine],
        request: RequestRecord | None = None,
        orders: Sequence[OrderChange] = (),
    ) -> None:
        if self.failing:
            raise StorageError("disk full")
        await super().save_commit(game_id, commit, events, request, orders)


async def test_an_order_the_store_cannot_keep_is_refused_and_not_made() -> None:
    storage = FailingStorage()
    async with running_server(storage, **FAST) as server:
        game_id, (ann, _bob), _ = await seated_game(server, ["ann", "bob"], initial_units=4)
        view = current_view(ann, game_id)
        order = {"kind": "place", "territory": owned(view, "ann")[0], "units": 4}
        before = server.lobby.get(game_id).game
        storage.failing = True
        reply = await ann.request(type="issue_order", game_id=game_id, turn=0, order=order)
        assert reply["type"] == "error" and reply["code"] == "storage-failed"
        reply = await ann.request(type="commit", game_id=game_id, turn=0)
        assert reply["type"] == "error" and reply["code"] == "units-not-placed"
        assert server.lobby.get(game_id).game == before
        storage.failing = False
        assert (await ann.request(type="issue_order", game_id=game_id, turn=0, order=order))["type"] == "order_accepted"
        stored = await storage.load(game_id)
        assert stored is not None and stored.progress.state is not None
        assert stored.progress.state["orders"]["ann"] == [order]


def started_progress(seq: int = 10) -> GameProgress:
    state = {"ruleset": "risc", "players": ["ann", "bob", "cyd"], "step": 2, "board": {}, "orders": {}, "committed": []}
    return GameProgress(seats=[], state=state, seq=seq, status="playing")


def test_kept_commits_are_replayed_onto_the_saved_progress() -> None:
    progress = with_orders("g", started_progress(), [], [CommitChange("bob", 2, 11), CommitChange("ann", 2, 12)])
    assert progress.state is not None and progress.state["committed"] == ["ann", "bob"] and progress.seq == 12


@pytest.mark.parametrize(
    ("commits", "why"),
    [
        ([CommitChange("bob", 1, 11)], "step 1 while the game is at step 2"),
        ([CommitChange("dan", 2, 11)], "of dan does not fit"),
        ([CommitChange("bob", 2, 11), CommitChange("bob", 2, 12)], "of bob does not fit"),
        ([CommitChange("bob", 2, 10)], "at entry 10, before 11"),
    ],
)
def test_a_kept_commit_that_does_not_fit_is_damage(commits: list[CommitChange], why: str) -> None:
    with pytest.raises(StorageError, match=why):
        with_orders("g", started_progress(), [], commits)


async def test_a_commit_kept_apart_and_its_entry_load_back_and_a_save_drops_it() -> None:
    storage = MemoryStorage()
    record = GameRecord(
        game_id="g",
        settings=GameSettings(map=None, players=3),
        seed=1,
        created_at=0.0,
        game_map=map_to_dict(load_map("seed")),
    )
    await storage.create(record, started_progress(), [])
    joined = number([Logged(PlayerJoined(player="bob"))], 10, RISC, change=11)
    await storage.save_commit("g", CommitChange("bob", 2, 11), joined)
    stored = await storage.load("g")
    assert stored is not None and stored.progress.seq == 11 and [e["seq"] for e in stored.events] == [11]
    assert stored.progress.state is not None and stored.progress.state["committed"] == ["bob"]
    await storage.save("g", started_progress(seq=11), [])
    stored = await storage.load("g")
    assert stored is not None and stored.progress.state is not None and stored.progress.state["committed"] == []
