"""The updates of one change are put together from parts encoded once; each frame must still be exactly the text
pydantic makes of that viewer's whole Update, so no client can tell the difference."""

from __future__ import annotations

import pytest

from server.match import _number
from server.updates import UpdateFrames
from shared.protocol import log as game_log
from shared.protocol.lobby import GamePhase, GameSettings, GameSummary, SeatInfo
from shared.protocol.messages import Update
from shared.rules.orders import AttackOrder, MoveOrder
from shared.rules.state import GameState
from shared.rules.view import view
from tests.engine_support import SEED_OWNERS, SEED_UNITS, make_state, play_turn, seed_map

NAMES = {"green": "Zoë", "blue": "blue \"b\"", "red": "red"}
"""Names with a non-ASCII letter and quotes, so the text's escaping is compared too."""


def resolved_turn() -> tuple[GameState, list[object]]:
    owners = {t: NAMES[o] for t, o in SEED_OWNERS.items()}
    state = make_state(seed_map(), owners, SEED_UNITS, players=list(NAMES.values()))
    orders = {NAMES["green"]: [AttackOrder(source="Midkemia", target="Elantris", units=10)],
              NAMES["red"]: [MoveOrder(source="Mordor", target="Gondor", units=4)]}
    after, events = play_turn(state, orders)
    revealed = game_log.OrdersRevealed(turn=1, orders={p: list(o) for p, o in orders.items()})
    return after, [game_log.PlayerCommitted(player=NAMES["red"], turn=1), revealed, *events]


def summary(state: GameState | None) -> GameSummary:
    return GameSummary(game_id="g1", settings=GameSettings(map="seed"), map_name="seed", territories=9,
                       seats=[SeatInfo(name=n, connected=n != "red", group=None) for n in NAMES.values()],
                       free=0, phase=GamePhase.LOBBY if state is None else GamePhase(state.phase.value),
                       turn=0 if state is None else state.turn, spectators=2)


@pytest.mark.parametrize("deadline_in", [None, 41.5, 0.0])
@pytest.mark.parametrize("snapshot", [False, True])
@pytest.mark.parametrize("in_lobby", [False, True])
def test_each_viewers_frame_is_the_text_of_its_whole_update(deadline_in: float | None, snapshot: bool,
                                                             in_lobby: bool) -> None:
    state, bodies = resolved_turn()
    events = _number(bodies, 40)
    shown = None if in_lobby else state
    frames = UpdateFrames("g1", 40 + len(events), events, summary(shown), shown, deadline_in, snapshot)
    for seat in [*NAMES.values(), None, None]:
        update, text = frames.for_seat(seat)
        expected = Update(game_id="g1", seq=40 + len(events), events=events, game=summary(shown),
                          view=None if shown is None else view(shown, seat),
                          you=seat, deadline_in=deadline_in, snapshot=snapshot)
        assert text == expected.model_dump_json()
        assert update == expected


def test_numbered_entries_equal_validated_ones() -> None:
    _, bodies = resolved_turn()
    numbered = _number(bodies, 7)
    assert [e.seq for e in numbered] == list(range(8, 8 + len(bodies)))
    assert [e.model_dump_json() for e in numbered] == [
        game_log.SequencedEvent.model_validate({"seq": 8 + i, "event": b}).model_dump_json()
        for i, b in enumerate(bodies)]


def test_numbering_refuses_what_is_no_log_entry() -> None:
    with pytest.raises(ValueError, match="event"):
        _number([{"kind": "no_such_entry"}], 0)
