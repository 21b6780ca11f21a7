"""What the client makes of the server's updates: the choice after a defeat, the status bar, each turn's standings."""

from __future__ import annotations

from typing import Any

from client import render
from client.core.status import fit
from client.followed import Followed
from client.tracker import Tracker
from shared.game.turns import awaiting
from shared.maps.codec import map_from_dict, map_to_dict
from shared.protocol.lobby import GameSettings, GameStatus, GameSummary, SeatInfo
from shared.protocol.log import PlayerCommitted, SequencedEvent
from shared.protocol.messages import Update
from shared.rulesets.risc.board import Phase
from shared.rulesets.risc.events import Combat, PlayerEliminated, TurnStarted
from tests.engine_support import RISC, SEED_UNITS, make_state, seed_map
from tests.followed_support import OWNERS, PLAYERS, start, summary, update


def tracker_of(player: str | None) -> Tracker:
    followed = Followed("g1", player, game_map=map_from_dict(map_to_dict(seed_map())))
    return Tracker(followed)


def take(tracker: Tracker, message: Update, now: float = 0.0) -> str:
    """What the client prints of one update (the session takes it in, the tracker says it)."""
    entries = tracker.followed.apply(message, now)
    return render.plain(tracker.apply(entries, message))


def test_a_defeated_player_may_keep_watching_or_leave_while_the_game_goes_on() -> None:
    tracker = tracker_of("Ann")
    take(tracker, update(start(), "Ann", 10, []))
    owners = {t: ("Ben" if o == "Ann" else o) for t, o in OWNERS.items()}
    beaten = make_state(seed_map(), owners, SEED_UNITS, players=PLAYERS, turn=2)
    beaten = beaten.evolve(board=beaten.board.evolve(eliminated=("Ann",)))
    fall = Combat("Oz", "Ben", "Ann", 9, 2, 1, 2, "Ben", (("Scadrial", 9),))
    shown = take(tracker, update(beaten, "Ann", 13, [fall, PlayerEliminated("Ann"), TurnStarted(2)]))
    assert "You have lost: you hold no territory any more." in shown
    assert "keep watching the game to its end, or type leave" in shown
    assert tracker.lost and not tracker.active
    assert "Turn 2: move N FROM TO" not in shown  # a defeated player is not asked for orders
    assert "you lost" in tracker.status(now=0.0)


def test_the_status_bar_shows_game_turn_commits_and_time_left() -> None:
    tracker = tracker_of("Ann")
    state = start().evolve(committed=frozenset({"Cy"}))
    take(tracker, update(state, "Ann", 3, [PlayerCommitted(player="Cy", turn=1)], deadline_in=75.2), now=100.0)
    assert tracker.status(now=100.0) == "Ann in g1: turn 1, orders | 1:16 left | 1/3 committed | Cy"
    assert tracker.status(now=170.0) == "Ann in g1: turn 1, orders | 0:06 left | 1/3 committed | Cy"
    watcher = tracker_of(None)
    take(watcher, update(state, None, 3, []))
    assert watcher.status(now=0.0) == "watching g1: turn 1, orders | 1/3 committed | Cy"
    done = start().evolve(committed=frozenset({"Cy", "Ann"}))
    take(tracker, update(done, "Ann", 4, [PlayerCommitted(player="Ann", turn=1)], deadline_in=60), now=100.0)
    assert tracker.status(now=100.0) == "Ann in g1: turn 1, orders | 1:00 left | committed, waiting for Ben"


def test_placement_shows_the_pool_left_in_the_status_bar() -> None:
    state = start()
    state = state.evolve(
        board=state.board.evolve(
            phase=Phase.PLACEMENT, turn=0, pools={p: 12 for p in PLAYERS}, units=dict.fromkeys(OWNERS, 0)
        )
    )
    tracker = tracker_of("Ben")
    shown = take(tracker, update(state, "Ben", 2, []))
    assert "Place your 12 units on your territories (Elantris, Roshar, Scadrial)" in shown
    assert tracker.status(now=0.0) == "Ben in g1: turn 0, placement | 12 units left to place | 0/3 committed"


def test_the_status_bar_fits_the_terminal_leaving_out_the_least_important_first() -> None:
    parts = [
        ("Annabelle in 3fa2c1: turn 12, orders", 0),
        ("1:30 left", 0),
        ("12 units left to place", 1),
        ("2/5 committed", 2),
        ("Bartholomew, Cyprian", 4),
        ("game-night.example.org:8765", 3),
    ]
    assert fit(parts, 200) == " | ".join(text for text, _ in parts)
    assert fit(parts, 78) == "Annabelle in 3fa2c1: turn 12, orders | 1:30 left | 12 units left to place"
    assert fit(parts, 100) == (
        "Annabelle in 3fa2c1: turn 12, orders | 1:30 left | 12 units left to place | 2/5 committed"
    )
    assert fit(parts, 30) == "Annabelle in 3fa2c1: turn 12,…"


def test_the_others_are_told_who_dropped_and_who_is_back() -> None:
    tracker = tracker_of("Ann")
    state = start()
    take(tracker, update(state, "Ann", 1, []))
    gone = update(state, "Ann", 1, [])
    gone.game.seats[1].connected = False
    assert "Ben dropped: the game waits for them until the time runs out." in take(tracker, gone)
    back = update(state, "Ann", 1, [])
    assert "Ben is back." in take(tracker, back)
    assert "Ben" not in take(tracker, update(state, "Ann", 1, []))


def test_each_turn_s_standings_are_recorded_once_and_old_entries_are_not_shown_twice() -> None:
    tracker = tracker_of(None)
    first = start()
    take(tracker, update(first, None, 5, [TurnStarted(1)]))
    again = take(tracker, update(first, None, 5, [TurnStarted(1)]))
    assert "Turn 1" not in again  # an entry already shown (seq 5) is not printed again
    second = first.evolve(board=first.board.evolve(turn=2, units={**SEED_UNITS, "Narnia": 20}))
    take(tracker, update(second, None, 6, [TurnStarted(2)]))
    assert tracker.history == {
        "1": {"Ann": (3, 30), "Ben": (3, 14), "Cy": (3, 30)},
        "2": {"Ann": (3, 40), "Ben": (3, 14), "Cy": (3, 30)},
    }


def test_a_view_sent_as_a_patch_reads_as_the_whole_view() -> None:
    tracker = tracker_of("Ann")
    first = start()
    take(tracker, update(first, "Ann", 1, []))
    second = first.evolve(board=first.board.evolve(units={**SEED_UNITS, "Oz": 99}))
    whole = RISC.dump_view(RISC.view(second, "Ann"))
    patch = {"territories": {"Oz": {"units": 99}}, "players": {"Ann": {"units": whole["players"]["Ann"]["units"]}}}
    patched = Update(game_id="g1", seq=2, game=summary(second), view=None, view_patch=patch, you="Ann", events=[])
    take(tracker, patched)
    assert tracker.followed.view == RISC.view(second, "Ann")


def grid_update(game: Any, viewer: str, seq: int, events: list[Any]) -> Update:
    from tests.grid_support import GRID

    status = GRID.status(game)
    waited = awaiting(GRID, game)
    seats = [SeatInfo(name=p, connected=True, awaited=p in waited) for p in game.players]
    summary = GameSummary(
        game_id="g1",
        settings=GameSettings(ruleset="grid", map=None, players=3),
        map_name="grid",
        territories=25,
        seats=seats,
        free=0,
        status=GameStatus.PLAYING,
        simultaneous=False,
        phase=status.phase,
        turn=status.turn,
        step=game.step,
    )
    return Update(
        game_id="g1",
        seq=seq,
        game=summary,
        view=GRID.dump_view(GRID.view(game, viewer)),
        you=viewer,
        events=[SequencedEvent(seq=seq - len(events) + 1 + i, event=GRID.dump_event(e)) for i, e in enumerate(events)],
    )


def test_a_turn_by_turn_game_s_board_comes_back_with_the_player_s_turn_even_when_the_others_played_at_once() -> None:
    """The others' actions may come in the same update as the player's own: whose turn it is looks unchanged, but
    a new turn of theirs has begun."""
    from shared.rulesets.grid.board import Phase as GridPhase
    from shared.rulesets.grid.orders import Deploy
    from tests.grid_support import BOARD, act, game_at

    game = game_at(
        "AAABB AAABB CCCBB CCCBB CCCBB",
        phase=GridPhase.DEPLOYMENT,
        turn=0,
        active="ann",
        deployed={"ann": 9, "bob": 9, "cat": 9},
    )
    tracker = Tracker(Followed("g1", "ann", game_map=BOARD))
    first = take(tracker, grid_update(game, "ann", 1, []))
    assert first.count("| RISK |") == 1 and "Deploy one troop" in first
    told: list[Any] = []
    for player, cell in (("ann", "0,0"), ("bob", "0,4"), ("cat", "4,0")):
        game, events = act(game, Deploy(cell), player=player)
        told += events
    assert game.board.active == "ann"
    again = take(tracker, grid_update(game, "ann", 1 + len(told), told))
    assert again.count("| RISK |") == 1 and "Deploy one troop" in again, again


def test_news_held_while_a_command_was_answered_tells_the_new_turn_after_the_entries_that_lead_to_it() -> None:
    """The terminal holds the game's news while a command is answered, and the session takes each update in as it
    comes: by the time the held ones are said, the game stands at the last. An earlier one says its entries only;
    the new turn is told once, after the entries that lead to it."""
    tracker = tracker_of("Ann")
    take(tracker, update(start().evolve(committed=frozenset({"Ann"})), "Ann", 10, []))
    waiting = start().evolve(committed=frozenset({"Ann", "Ben"}))
    first = update(waiting, "Ann", 11, [PlayerCommitted(player="Ben", turn=1)])
    second = update(
        make_state(seed_map(), OWNERS, SEED_UNITS, players=PLAYERS, turn=2),
        "Ann",
        13,
        [PlayerCommitted(player="Cy", turn=1), TurnStarted(2)],
    )
    held = [(message, tracker.followed.apply(message, 0.0)) for message in (first, second)]
    said = [render.plain(tracker.apply(entries, message, latest=message is second)) for message, entries in held]
    assert "Ben committed" in said[0] and "Turn 2" not in said[0], said[0]
    assert said[1].index("Cy committed") < said[1].index("Turn 2: move N FROM TO"), said[1]


def test_the_end_counts_the_turns_a_game_took_in_words_that_fit_one() -> None:
    for turns_taken, said in ((1, "Ann won game g1 in 1 turn."), (3, "Ann won game g1 in 3 turns.")):
        tracker = tracker_of("Ben")
        won = make_state(seed_map(), dict.fromkeys(OWNERS, "Ann"), SEED_UNITS, players=PLAYERS, turn=turns_taken)
        message = update(won, "Ben", 10, [])
        message = message.model_copy(update={"game": message.game.model_copy(update={"winner": "Ann"})})
        take(tracker, message)
        assert said in render.plain(tracker.game_over())


def test_a_game_of_days_shows_the_time_left_in_days_and_hours_and_the_player_s_bank() -> None:
    from shared.protocol.wording import duration

    assert [duration(s) for s in (0, 65, 3600, 5 * 3600 + 20 * 60, 86_400, 2 * 86_400 + 3 * 3600 + 59)] == [
        "0:00",
        "1:05",
        "1 h",
        "5 h 20 min",
        "1 d",
        "2 d 3 h",
    ]
