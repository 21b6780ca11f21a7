"""The updates of one change, made for every viewer at once: what all of them share is encoded once.

An update tells every follower of a game the same new log entries and the same game summary; only the view (and
`you`) differ from seat to seat, and every spectator shares one view. Encoding each recipient's whole Update with
pydantic repeated the shared part for every connection, so the frame text is put together here from parts instead,
each part encoded as pydantic would encode it inside the Update (a test holds the two texts equal).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import TypeAdapter

from shared.protocol.lobby import GameSummary
from shared.protocol.log import SequencedEvent
from shared.protocol.messages import Update
from shared.rules.state import GameState
from shared.rules.view import GameView, view

_EVENTS = TypeAdapter(list[SequencedEvent])
_VIEW = TypeAdapter(GameView | None)
_FLOAT = TypeAdapter(float | None)
_NAME = TypeAdapter(str | None)


class UpdateFrames:
    """Every viewer's Update for one moment of a game, with its frame text; views are made once per seat."""

    def __init__(self, game_id: str, seq: int, events: Sequence[SequencedEvent], summary: GameSummary,
                 state: GameState | None, deadline_in: float | None, snapshot: bool = False) -> None:
        self._game_id, self._seq, self._events = game_id, seq, list(events)
        self._summary, self._state = summary, state
        self._deadline_in, self._snapshot = deadline_in, snapshot
        self._head: str | None = None
        self._tail = (',"deadline_in":' + _FLOAT.dump_json(deadline_in).decode()
                      + ',"snapshot":' + ("true" if snapshot else "false") + "}")
        self._views: dict[str | None, tuple[GameView | None, str]] = {}

    def _shared(self) -> str:
        if self._head is None:
            self._head = ('{"ref":null,"type":"update","game_id":' + _NAME.dump_json(self._game_id).decode()
                          + ',"seq":' + str(self._seq) + ',"events":' + _EVENTS.dump_json(self._events).decode()
                          + ',"game":' + self._summary.model_dump_json() + ',"view":')
        return self._head

    def _view(self, seat: str | None) -> tuple[GameView | None, str]:
        made = self._views.get(seat)
        if made is None:
            seat_view = None if self._state is None else view(self._state, seat)
            made = seat_view, _VIEW.dump_json(seat_view).decode() + ',"you":' + _NAME.dump_json(seat).decode()
            self._views[seat] = made
        return made

    def for_seat(self, seat: str | None) -> tuple[Update, str]:
        """The update for the holder of `seat` (None: a spectator), and its frame text."""
        seat_view, seat_text = self._view(seat)
        update = Update.model_construct(game_id=self._game_id, seq=self._seq, events=self._events,
                                        game=self._summary, view=seat_view, you=seat,
                                        deadline_in=self._deadline_in, snapshot=self._snapshot, ref=None)
        return update, self._shared() + seat_text + self._tail
