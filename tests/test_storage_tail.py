"""A starting server reads every unfinished game in one pass, with only the recent part of each log, read into entries
only when a client needs them; games on the same map share it. The whole log stays stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.core.entries import Entry, Logged, number
from server.lobby.lobby import Lobby
from server.match import Match
from server.match.eventlog import EventLog
from server.storage import GameProgress, MemoryStorage, SqliteStorage, Storage
from server.storage.base import RestoredGame, StoredLog
from server.storage.codec import map_to_dict
from shared.maps import load_map
from shared.protocol.log import PlayerJoined
from shared.protocol.messages import GameMap, Update, Watching
from shared.rulesets import get_ruleset
from tests.test_server_storage import joined, record

RISC = get_ruleset("risc")


class Inbox:
    """A subscriber that keeps what it is sent."""

    def __init__(self) -> None:
        self.sent: list[object] = []
        self.games: set[str] = set()
        self.reads_text = False
        self.words = False
        self.views: dict[str, dict[str, object]] = {}

    @property
    def label(self) -> str:
        return "inbox"

    def send(self, message: object, text: str | None = None) -> None:
        self.sent.append(message)


def open_store(kind: str, tmp_path: Path) -> Storage:
    return MemoryStorage() if kind == "memory" else SqliteStorage(tmp_path / "games.sqlite3")


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
async def test_load_gives_the_whole_log_or_its_last_entries_in_order(kind: str, tmp_path: Path) -> None:
    storage = open_store(kind, tmp_path)
    events = [joined(seq, f"p{seq}") for seq in range(1, 51)]
    await storage.create(record(), GameProgress(seats=[], state=None, seq=50), events)
    whole = await storage.load("g1")
    tail = await storage.load("g1", tail=5)
    assert whole is not None and tail is not None
    assert [e["seq"] for e in whole.events] == list(range(1, 51))
    assert [e["seq"] for e in tail.events] == [46, 47, 48, 49, 50]
    assert whole.record == record()
    await storage.close()


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
async def test_load_unfinished_reads_every_unfinished_game_with_its_tail_oldest_first(
    kind: str, tmp_path: Path
) -> None:
    storage = open_store(kind, tmp_path)
    other_map = map_to_dict(load_map("saltreach"))
    games = {
        "b": record("b"),
        "a": record("a"),
        "over": record("over"),
        "c": record("c").model_copy(update={"game_map": other_map}),
    }
    for when, (game_id, game) in enumerate(games.items()):
        game = game.model_copy(update={"created_at": float(when)})
        games[game_id] = game
        status = "finished" if game_id == "over" else "lobby"
        await storage.create(
            game,
            GameProgress(seats=[], state=None, seq=3, status=status),
            [joined(seq, f"{game_id}{seq}") for seq in range(1, 4)],
        )
    await storage.save("a", GameProgress(seats=[], state=None, seq=5), [joined(4, "a4"), joined(5, "a5")])

    restored = await storage.load_unfinished(tail=2)
    assert [g.record.game_id for g in restored] == ["b", "a", "c"]
    assert [g.record for g in restored] == [games["b"], games["a"], games["c"]]
    assert [g.progress.seq for g in restored] == [3, 5, 3]
    assert [(g.log.first_seq, g.log.count) for g in restored] == [(2, 2), (4, 2), (2, 2)]
    assert [[e["event"]["player"] for e in g.log.entries()] for g in restored] == [
        ["b2", "b3"],
        ["a4", "a5"],
        ["c2", "c3"],
    ]
    b, a, c = restored
    assert b.map_key == a.map_key != c.map_key
    await storage.close()


def restored_game(events_kept: StoredLog, seq: int) -> RestoredGame:
    return RestoredGame(
        record=record(), progress=GameProgress(seats=[], state=None, seq=seq), log=events_kept, map_key="seed"
    )


def updates(inbox: Inbox) -> list[Update]:
    """What a watcher was sent after the reply and the map (which comes once, before any update)."""
    assert [type(m) for m in inbox.sent[:2]] == [Watching, GameMap]
    return [m for m in inbox.sent if isinstance(m, Update)]


async def test_a_restored_match_catches_up_recent_clients_and_snapshots_the_others() -> None:
    events = [joined(seq, f"p{seq}") for seq in range(1, 101)]
    match = Match.restore(restored_game(StoredLog.of(events[-10:]), 100), MemoryStorage())
    assert match.seq == 100

    recent, behind, current = Inbox(), Inbox(), Inbox()
    await match.watch(recent, 95, None, None)
    await match.watch(behind, 40, None, None)
    await match.watch(current, 100, None, None)
    (update,) = updates(recent)
    assert [e.seq for e in update.events] == [96, 97, 98, 99, 100] and not update.snapshot
    (snapshot,) = updates(behind)
    assert snapshot.snapshot and snapshot.events == []
    (nothing_new,) = updates(current)
    assert nothing_new.events == [] and not nothing_new.snapshot


async def test_stored_entries_that_cannot_be_read_cost_a_client_a_snapshot_not_an_error() -> None:
    damaged = StoredLog(text='[{"seq": 91, "event": "not an entry"}]', first_seq=91, count=10)
    match = Match.restore(restored_game(damaged, 100), MemoryStorage())
    current, behind, again = Inbox(), Inbox(), Inbox()
    await match.watch(current, 100, None, None)  # up to date: the stored entries are not needed, so not read
    await match.watch(behind, 95, None, None)
    await match.watch(again, 95, None, None)
    assert [u.snapshot for u in (*updates(current), *updates(behind), *updates(again))] == [False, True, True]
    assert match.log.first_seq == 101 and match.seq == 100


async def test_restored_games_on_the_same_map_share_one_map_object(tmp_path: Path) -> None:
    storage = SqliteStorage(tmp_path / "games.sqlite3")
    await storage.create(record("a"), GameProgress(seats=[], state=None, seq=1), [joined(1, "x")])
    await storage.create(record("b"), GameProgress(seats=[], state=None, seq=1), [joined(1, "y")])
    other = record("c").model_copy(update={"game_map": map_to_dict(load_map("saltreach"))})
    await storage.create(other, GameProgress(seats=[], state=None, seq=1), [joined(1, "z")])
    lobby = Lobby(storage)
    assert await lobby.restore() == 3
    a, b, c = (lobby.get(g) for g in "abc")
    assert a.game_map is b.game_map and a.game_map == load_map("seed")
    assert c.game_map == load_map("saltreach")
    await lobby.close()
    await storage.close()


def test_a_restored_log_keeps_the_newest_entries_once_it_grows_past_twice_its_limit() -> None:
    log = EventLog("g1", 10, StoredLog.of([joined(seq, f"p{seq}") for seq in range(6, 11)]), limit=4)
    assert (log.first_seq, log.last_seq, len(log)) == (6, 10, 5)
    log.extend([joined(11, "p11"), joined(12, "p12")])
    assert [e.seq for e in log.after(7) or []] == [8, 9, 10, 11, 12]
    log.extend([joined(13, "p13")])  # eight entries: not more than twice four
    assert (log.first_seq, log.last_seq) == (6, 13)
    log.extend([joined(14, "p14")])  # nine: the newest four are kept
    assert (log.first_seq, log.last_seq) == (11, 14)
    assert log.after(9) is None and [e.seq for e in log.after(10) or []] == [11, 12, 13, 14]


def changes(*sizes: int) -> list[Entry]:
    """The entries of consecutive changes of these sizes, from the game's first."""
    made: list[Entry] = []
    for offset, size in enumerate(sizes):
        made += number(
            [Logged(PlayerJoined(player=f"p{len(made) + i}")) for i in range(size)], len(made), RISC, change=1 + offset
        )
    return made


def test_a_client_is_caught_up_by_change_and_a_change_is_kept_whole_or_not_at_all() -> None:
    entries = changes(3, 1, 4, 2)  # changes 1 to 4, entries 1 to 10
    log = EventLog("g1", 0, limit=5)
    for change in (1, 2, 3, 4):
        log.extend([e for e in entries if e.number == change])
    assert (log.last_seq, log.last_number) == (10, 4)
    assert [e.seq for e in log.after(1) or []] == list(range(4, 11)), "every entry of the changes after the first"
    assert [e.number for e in log.after(2) or []] == [3, 3, 3, 3, 4, 4] and log.after(4) == [] and log.after(5) is None
    log.extend(number([Logged(PlayerJoined(player="p10"))], 10, RISC, change=5))  # eleven: past twice five
    assert log.first_seq == 5, "the oldest went, change by change: change 3 is kept whole from its first entry"
    assert log.after(2) is not None and log.after(1) is None


def test_a_stored_tail_that_begins_inside_a_change_catches_up_only_clients_past_it() -> None:
    entries = changes(3, 4, 2)  # change 2 is entries 4 to 7; the tail keeps 6 to 9
    log = EventLog("g1", 9, StoredLog.of(entries[5:]), number=3)
    assert log.after(1) is None, "change 2 lost its first entries to the tail"
    assert [(e.seq, e.number) for e in log.after(2) or []] == [(8, 3), (9, 3)]
    whole = EventLog("g1", 9, StoredLog.of(entries), number=3)
    assert [e.seq for e in whole.after(0) or []] == list(range(1, 10)), "a tail from the first entry is whole"
