"""What the client makes of the server's updates: the choice after a defeat, the status bar, each turn's standings."""

from __future__ import annotations

from client import render
from client.tracker import Tracker
from shared.protocol.lobby import GamePhase, GameSettings, GameSummary, SeatInfo
from shared.protocol.log import PlayerCommitted, SequencedEvent
from shared.protocol.messages import Update
from shared.rules import GameState, view
from shared.rules.events import Combat, PlayerEliminated, TurnStarted
from shared.rules.state import Phase
from tests.engine_support import SEED_UNITS, make_state, seed_map

PLAYERS = ("Ann", "Ben", "Cy")
OWNERS = {"Narnia": "Ann", "Midkemia": "Ann", "Oz": "Ann", "Elantris": "Ben", "Roshar": "Ben", "Scadrial": "Ben",
          "Gondor": "Cy", "Mordor": "Cy", "Hogwarts": "Cy"}


def summary(state: GameState) -> GameSummary:
    return GameSummary(game_id="g1", settings=GameSettings(map="seed", players=3, turn_seconds=60), map_name="Seed",
                       territories=9, seats=[SeatInfo(name=p, connected=True) for p in PLAYERS], free=0,
                       phase=GamePhase(state.phase.value), turn=state.turn)


def update(state: GameState, viewer: str | None, seq: int, events: list[object],
           deadline_in: float | None = None) -> Update:
    return Update(game_id="g1", seq=seq, game=summary(state), view=view(state, viewer), you=viewer,
                  deadline_in=deadline_in,
                  events=[SequencedEvent.model_validate({"seq": seq - len(events) + 1 + i, "event": e})
                          for i, e in enumerate(events)])


def start() -> GameState:
    return make_state(seed_map(), OWNERS, SEED_UNITS, players=PLAYERS)


def test_a_defeated_player_may_keep_watching_or_leave_while_the_game_goes_on() -> None:
    tracker = Tracker("g1", "Ann")
    tracker.apply(update(start(), "Ann", 10, []), now=0.0)
    owners = {t: ("Ben" if o == "Ann" else o) for t, o in OWNERS.items()}
    beaten = make_state(seed_map(), owners, SEED_UNITS, players=PLAYERS, turn=2).evolve(eliminated=("Ann",))
    fall = Combat("Oz", "Ben", "Ann", 9, 2, 1, 2, "Ben", (("Scadrial", 9),))
    shown = render.plain(tracker.apply(update(beaten, "Ann", 13, [fall, PlayerEliminated("Ann"), TurnStarted(2)]),
                                       now=0.0))
    assert "You have lost: you hold no territory any more." in shown
    assert "keep watching the game to its end, or type leave" in shown
    assert tracker.lost and not tracker.active
    assert "Turn 2: move N FROM TO" not in shown  # a defeated player is not asked for orders
    assert "you lost" in tracker.status(now=0.0)


def test_the_status_bar_shows_game_turn_commits_and_time_left() -> None:
    tracker = Tracker("g1", "Ann")
    state = start().evolve(committed=frozenset({"Cy"}))
    tracker.apply(update(state, "Ann", 3, [PlayerCommitted(player="Cy", turn=1)], deadline_in=75.2), now=100.0)
    assert tracker.status(now=100.0) == "game g1 | Ann | turn 1 | committed 1/3: Cy | 1:16 left"
    assert tracker.status(now=170.0) == "game g1 | Ann | turn 1 | committed 1/3: Cy | 0:06 left"
    watcher = Tracker("g1", None)
    watcher.apply(update(state, None, 3, []), now=0.0)
    assert watcher.status(now=0.0) == "game g1 | watching | turn 1 | committed 1/3: Cy"


def test_placement_shows_the_pool_left_in_the_status_bar() -> None:
    state = start().evolve(phase=Phase.PLACEMENT, turn=0, pools={p: 12 for p in PLAYERS},
                           units=dict.fromkeys(OWNERS, 0))
    tracker = Tracker("g1", "Ben")
    shown = render.plain(tracker.apply(update(state, "Ben", 2, []), now=0.0))
    assert "Place your 12 units on your territories (Elantris, Roshar, Scadrial)" in shown
    assert tracker.status(now=0.0) == "game g1 | Ben | placement | committed 0/3 | 12 units to place"


def test_each_turn_s_standings_are_recorded_once_and_old_entries_are_not_shown_twice() -> None:
    tracker = Tracker("g1", None)
    first = start()
    tracker.apply(update(first, None, 5, [TurnStarted(1)]), now=0.0)
    again = render.plain(tracker.apply(update(first, None, 5, [TurnStarted(1)]), now=0.0))
    assert "Turn 1" not in again  # an entry already shown (seq 5) is not printed again
    second = first.evolve(turn=2, units={**SEED_UNITS, "Narnia": 20})
    tracker.apply(update(second, None, 6, [TurnStarted(2)]), now=0.0)
    assert tracker.history == {"1": {"Ann": (3, 30), "Ben": (3, 14), "Cy": (3, 30)},
                               "2": {"Ann": (3, 40), "Ben": (3, 14), "Cy": (3, 30)}}
