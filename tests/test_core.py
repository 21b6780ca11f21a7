"""A game's decisions taken by server/core/ alone, without a server, a connection or a wait: who is away and since
when, the votes that hand an absent seat to the computer, an unstarted game left idle or closed, when a rematch
starts, whose eyes a watcher sees with, what the turn's timer times, a game that plays by itself, and which requests
are answered again. Played on the tests' race to twenty, whose creator's seat is the first one a person took."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from server import core
from server.core import Table, pace
from server.core.entries import from_stored, number
from server.refusal import Refusal
from shared.game import turns
from shared.game.random import dice_of
from shared.protocol import log as game_log
from shared.protocol.lobby import GameSettings
from tests.toy_ruleset import Add, RaceToTwenty

ROOT = Path(__file__).resolve().parent.parent
NONE: frozenset[str] = frozenset()


def table(players: int = 3, turn_seconds: float | None = None, **changes: object) -> Table:
    ruleset = RaceToTwenty()
    options = ruleset.options({})
    settings = GameSettings(ruleset="race", players=players, turn_seconds=turn_seconds)
    made = core.new_table("g1", settings, ruleset, options, ruleset.make_map(options), seed=7)
    return made.evolve(**changes) if changes else made


def started(*names: str, **changes: object) -> Table:
    """Every seat taken: the game under way, ann (the creator) to play first."""
    at = table(len(names))
    for name in names:
        at = core.join(at, name, None, f"hash-of-{name}").table
    return at.evolve(**changes) if changes else at


def test_a_seat_is_away_from_when_its_last_connection_went_until_it_is_taken_again() -> None:
    at = started("ann", "bob", "cy")
    at = core.seat_left(at, "bob", now=40.0)
    assert at.away_since == {"bob": 40.0}
    assert core.seat_left(at, "cy", now=41.0).away_since == {"bob": 40.0, "cy": 41.0}
    assert core.seat_taken(at, "bob").away_since == {}


def test_a_restored_game_counts_every_seat_nobody_holds_as_away_from_its_start_keeping_earlier_times() -> None:
    at = core.seat_left(started("ann", "bob", "cy"), "cy", now=5.0)
    at = core.all_away(at, held={"ann"}, now=100.0)
    assert at.away_since == {"bob": 100.0, "cy": 5.0}


def test_the_creator_s_vote_alone_hands_a_seat_over_once_its_player_has_been_away_long_enough() -> None:
    at = core.seat_left(started("ann", "bob", "cy"), "bob", now=10.0)
    with pytest.raises(Refusal) as early:
        core.hand_over_vote(at, "ann", "bob", now=40.0, least_away=120.0, present={"ann", "cy"}, computers=NONE)
    assert (
        early.value.code == "cannot-hand-over"
        and "away 30 s" in early.value.message
        and "after 120 s" in early.value.message
    )
    vote = core.hand_over_vote(at, "ann", "bob", now=130.0, least_away=120.0, present={"ann", "cy"}, computers=NONE)
    assert vote.votes == ["ann"] and vote.needed == [] and vote.decision is not None
    assert vote.decision.table.handed_over == ("bob",) and "bob" not in vote.decision.table.hand_over_votes
    (entry,) = vote.decision.entries
    assert entry.event == game_log.SeatHandedOver(player="bob", strategy="perfect", by=["ann"])


def test_without_the_creator_every_other_player_still_here_must_vote_and_each_vote_is_kept() -> None:
    at = core.seat_left(started("ann", "bob", "cy", "dee"), "bob", now=0.0)
    first = core.hand_over_vote(
        at, "cy", "bob", now=200.0, least_away=120.0, present={"ann", "cy", "dee"}, computers=NONE
    )
    assert first.decision is None and first.votes == ["cy"] and first.needed == ["ann", "dee"]
    assert first.table.hand_over_votes == {"bob": frozenset({"cy"})}
    second = core.hand_over_vote(
        first.table, "dee", "bob", now=201.0, least_away=120.0, present={"cy", "dee"}, computers=NONE
    )
    assert second.decision is not None and second.votes == ["cy", "dee"], "ann is away: only those here vote"
    assert second.decision.table.handed_over == ("bob",)
    back = core.seat_taken(first.table, "bob")
    assert back.hand_over_votes == {} and back.away_since == {}, "back in their seat: no vote stands"


@pytest.mark.parametrize(
    ("changes", "voter", "player", "words"),
    [
        ({}, "ann", "ann", "your own seat"),
        ({}, "ann", "zed", "zed does not play"),
        ({"handed_over": ("bob",)}, "ann", "bob", "played by the computer already"),
        ({"away_since": {}}, "ann", "bob", "bob is connected"),
    ],
)
def test_a_vote_that_cannot_count_is_refused_and_changes_nothing(
    changes: dict[str, object], voter: str, player: str, words: str
) -> None:
    at = core.seat_left(started("ann", "bob", "cy"), "bob", now=0.0).evolve(**changes)
    with pytest.raises(Refusal) as refused:
        core.hand_over_vote(at, voter, player, now=500.0, least_away=120.0, present={"ann", "cy"}, computers=NONE)
    assert words in refused.value.message


def test_a_game_with_a_time_limit_hands_no_seat_over() -> None:
    at = table(2, turn_seconds=60.0)
    for name in ("ann", "bob"):
        at = core.join(at, name, None, name).table
    with pytest.raises(Refusal) as refused:
        core.hand_over_vote(
            core.seat_left(at, "bob", 0.0), "ann", "bob", now=900.0, least_away=1.0, present={"ann"}, computers=NONE
        )
    assert "time limit" in refused.value.message


def test_an_unstarted_game_is_idle_from_when_no_person_is_connected_until_one_is_or_it_starts() -> None:
    at = core.presence_noted(table(), person_connected=False, now=10.0)
    assert at.idle_since == 10.0
    assert core.presence_noted(at, person_connected=False, now=50.0).idle_since == 10.0, "idle since the first"
    assert core.idle_left(at, expiry=600.0, now=70.0) == 540.0
    assert core.idle_left(at, expiry=600.0, now=700.0) == -90.0, "due: the lobby may close it"
    assert core.presence_noted(at, person_connected=True, now=80.0).idle_since is None
    playing = started("ann", "bob", "cy", idle_since=10.0)
    assert core.presence_noted(playing, person_connected=False, now=90.0).idle_since is None
    assert core.idle_left(playing, expiry=600.0, now=10_000.0) is None, "a game under way is never idle"


def won(at: Table) -> Table:
    """The race to twenty played out, each player adding 1 in turn."""
    assert at.game is not None
    game, ruleset = at.game, at.ruleset
    while not turns.status_of(ruleset, game).finished:
        (player,) = turns.awaiting(ruleset, game)
        game = turns.play_seat(ruleset, game, player, [Add(1)], dice_of(7)).game
    return at.evolve(game=game)


def test_a_rematch_starts_once_everyone_still_at_the_table_has_asked() -> None:
    over = won(started("ann", "bob", "cy"))
    asked, waiting = core.rematch_request(over, "ann")
    assert waiting == ["bob", "cy"] and core.rematch_outlook(asked.table) == core.RematchOutlook()
    asked, _ = core.rematch_request(asked.table, "bob")
    left = core.leave(asked.table, "cy")
    assert left is not None
    outlook = core.rematch_outlook(left.table)
    assert [s.name for s in outlook.seats] == ["ann", "bob"] and outlook.impossible is None
    begun = core.rematch_started(left.table, "g2")
    assert begun.table.rematch_game == "g2"
    assert [e.event for e in begun.entries] == [game_log.RematchStarted(game_id="g2", players=["ann", "bob"])]
    assert core.rematch_outlook(begun.table) == core.RematchOutlook(), "started once"


def test_a_rematch_too_few_are_left_for_is_said_to_be_impossible_once() -> None:
    over = won(started("ann", "bob"))
    asked, _ = core.rematch_request(over, "ann")
    left = core.leave(asked.table, "bob")
    assert left is not None
    outlook = core.rematch_outlook(left.table)
    assert outlook.seats == () and outlook.impossible is not None
    (entry,) = outlook.impossible.entries
    assert isinstance(entry.event, game_log.RematchImpossible) and "at least 2 players" in entry.event.reason
    assert core.rematch_outlook(outlook.impossible.table) == core.RematchOutlook(), "said once"


def test_a_join_sent_again_gives_the_seat_it_took_a_new_token_and_changes_nothing_else() -> None:
    at = started("ann", "bob")
    again = core.token_renewed(at, "bob", "new-hash")
    assert [(s.name, s.token_hash) for s in again.table.seats] == [("ann", "hash-of-ann"), ("bob", "new-hash")]
    assert again.entries == [] and again.table.game is at.game


class Followed(RaceToTwenty):
    """The race as a rule set that lets spectators, and only them, see with a player's eyes."""

    def may_follow(self, game: object, seat: str | None, followed: str) -> bool:
        return seat is None

    def follow_refusal(self, game: object, seat: str | None, followed: str) -> str:
        return "players see with their own"


def test_a_watcher_follows_a_player_named_in_any_case_where_the_rules_let_it() -> None:
    at = started("Ann", "bob")
    assert core.sight(at, None, None) is None, "a spectator of everything there is to see"
    with pytest.raises(Refusal) as refused:
        core.sight(at, None, "ann")
    assert refused.value.code == "cannot-follow" and refused.value.field == "follow"
    assert refused.value.message == "in this game you cannot see with Ann's eyes: you see all there is to see"
    followed = at.evolve(ruleset=Followed())
    assert core.sight(followed, None, "ann") == "Ann"
    with pytest.raises(Refusal) as refused:
        core.sight(followed, "bob", "ann")
    assert refused.value.message == "in this game you cannot see with Ann's eyes: players see with their own"
    with pytest.raises(Refusal) as refused:
        core.sight(followed, None, "zed")
    assert refused.value.message == "zed does not play in game g1"
    with pytest.raises(Refusal) as refused:
        core.sight(followed, "bob", None)
    assert refused.value.code == "already-seated" and refused.value.message == "you sit in game g1 as bob"
    with pytest.raises(Refusal) as unstarted:
        core.sight(table(2).evolve(ruleset=Followed()), None, "ann")
    assert unstarted.value.code == "cannot-follow", "nobody plays before the start"


def test_the_turn_s_timer_times_who_is_awaited_on_which_turn_and_only_while_someone_is_seated() -> None:
    at = table(2, turn_seconds=30.0)
    assert core.turn_clock(pace.current(at, 100.0), anyone_seated=True, now=100.0) is None, "not started"
    for name in ("ann", "bob"):
        at = core.join(at, name, None, name).table
    at = pace.current(at, 100.0)
    assert core.turn_clock(at, anyone_seated=True, now=110.0) == (([0, ["ann"]], 130.0), 130.0)
    assert core.turn_clock(at, anyone_seated=False, now=110.0) is None, (
        "every seat empty: the game waits for its players"
    )
    moved = pace.current(core.issue(at, "ann", 0, {"kind": "add", "amount": 2}).table, 120.0)
    assert core.turn_clock(moved, anyone_seated=True, now=120.0) == (([2, ["bob"]], 150.0), 150.0), "a new limit"
    assert core.turn_clock(won(at), anyone_seated=True, now=120.0) is None, "over"
    untimed = started("ann", "bob")
    assert core.turn_clock(pace.current(untimed, 0.0), anyone_seated=True, now=0.0) is None, "no time limit"


def test_a_game_of_an_hour_a_turn_keeps_its_deadline_whoever_is_connected() -> None:
    at = table(2, turn_seconds=3600.0)
    for name in ("ann", "bob"):
        at = core.join(at, name, None, name).table
    at = pace.current(at, 0.0)
    assert core.turn_clock(at, anyone_seated=False, now=10.0) == (([0, ["ann"]], 3600.0), 3600.0)


def test_an_unstarted_game_may_be_closed_once_no_person_is_connected_and_at_once_once_nobody_sits() -> None:
    at = table(3).evolve(settings=GameSettings(ruleset="race", players=3, bots=1, bot_strategy="perfect"))
    computer = "bot-perfect-1"
    assert at.server_seats == {computer}
    at = core.join(at, computer, None, "h").table
    assert not core.people_seated(at) and core.closable_unstarted(at, held={computer}, at_once=True)
    at = core.join(at, "ann", None, "h").table
    assert core.people_seated(at) and not core.people_seated(at, held={computer})
    assert core.closable_unstarted(at, held={computer}, at_once=False), "ann's connection is gone"
    assert not core.closable_unstarted(at, held={computer}, at_once=True), "ann still has her seat"
    assert not core.closable_unstarted(at, held={"ann"}, at_once=False)
    assert not core.closable_unstarted(started("ann", "bob"), held=set(), at_once=True), "started: never"


def test_a_game_plays_by_itself_while_every_player_still_in_is_the_server_s_computer() -> None:
    at = started("ann", "bob")
    assert not core.computers_alone(at)
    assert core.computers_alone(at.evolve(handed_over=("ann", "bob")))
    resigned = core.resign(at, "bob").table
    assert not core.computers_alone(resigned.evolve(handed_over=("ann",))), "over: it plays no more"
    assert not core.computers_alone(table(2)), "not started"


def test_a_request_sent_again_is_answered_again_during_its_step_and_the_next_then_forgotten() -> None:
    kept = {("ann", "a"): (3, "reply a"), ("ann", "b"): (4, "reply b"), ("bob", "b"): (5, "reply c")}
    assert core.requests_kept(kept, 5) == {("ann", "b"): (4, "reply b"), ("bob", "b"): (5, "reply c")}
    assert core.requests_kept(kept, 4) == kept
    assert core.requests_kept(kept, 7) == {}
    assert core.step(table(2)) == 0 and core.step(started("ann", "bob")) == 0
    assert core.step(core.issue(started("ann", "bob"), "ann", 0, {"kind": "add", "amount": 1}).table) == 1


def test_what_the_watchers_said_is_theirs_and_told_again_to_those_who_played_when_the_game_ends() -> None:
    at = started("ann", "bob")
    said = core.chat(at, None, "Dee", "who is winning?", None)
    [spoken] = said.entries
    assert spoken.audience is not None and "bob" not in spoken.audience and spoken.lasting, "theirs for good"
    earlier = number([*said.entries, *core.chat(at, "ann", None, "still here", None).entries], 0, at.ruleset, change=1)
    ended = core.Decision(won(at), [])
    told = core.watchers_heard(ended, earlier).entries
    assert [(t.event.text, t.audience, t.lasting) for t in told] == [
        ("who is winning?", frozenset({"ann", "bob"}), True)
    ], "the players' own words are not told again"
    assert told[0].event.watchers and told[0].event.watching and told[0].event.player == "Dee"
    stored = [from_stored(json.loads(e.stored)) for e in earlier]  # read back after a restart: the JSON values
    assert [t.event for t in core.watchers_heard(ended, stored).entries] == [t.event for t in told]


def test_importing_the_decisions_loads_no_store() -> None:
    script = (
        "import sys, server.core; "
        "print(sorted(m for m in sys.modules if m.startswith('server.storage.') or m == 'sqlite3'))"
    )
    loaded = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    # the records a store keeps (a game's, a notification's), never a store
    assert loaded.stdout.strip() == "['server.storage.base', 'server.storage.notices']"
