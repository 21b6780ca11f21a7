"""A followed game's updates made from an engine's game, without a server: the summary and the view a player (or a
watcher) would be sent of a RISC game on the seed map, with the log entries that come with them."""

from __future__ import annotations

from typing import Any

from shared.game.turns import awaiting
from shared.protocol.lobby import GameSettings, GameStatus, GameSummary, SeatInfo
from shared.protocol.log import SequencedEvent
from shared.protocol.messages import Update
from tests.engine_support import RISC, SEED_UNITS, RiscGame, make_state, seed_map

PLAYERS = ("Ann", "Ben", "Cy")
OWNERS = {
    "Narnia": "Ann",
    "Midkemia": "Ann",
    "Oz": "Ann",
    "Elantris": "Ben",
    "Roshar": "Ben",
    "Scadrial": "Ben",
    "Gondor": "Cy",
    "Mordor": "Cy",
    "Hogwarts": "Cy",
}


def summary(state: RiscGame) -> GameSummary:
    status = RISC.status(state)
    waited = awaiting(RISC, state)
    return GameSummary(
        game_id="g1",
        settings=GameSettings(map="seed", players=3, turn_seconds=60),
        map_name="Seed",
        territories=9,
        seats=[
            SeatInfo(
                name=p,
                connected=True,
                committed=p in state.committed,
                eliminated=p in status.eliminated,
                awaited=p in waited,
            )
            for p in PLAYERS
        ],
        free=0,
        status=GameStatus.FINISHED if status.finished else GameStatus.PLAYING,
        phase=status.phase,
        turn=status.turn,
        step=state.step,
        winner=status.winner,
    )


def update(
    state: RiscGame,
    viewer: str | None,
    seq: int,
    events: list[Any],
    deadline_in: float | None = None,
    whole: bool = True,
) -> Update:
    data = RISC.dump_view(RISC.view(state, viewer))
    return Update(
        game_id="g1",
        seq=seq,
        game=summary(state),
        view=data,
        you=viewer,
        deadline_in=deadline_in,
        events=[
            SequencedEvent(
                seq=seq - len(events) + 1 + i,
                event=e.model_dump(mode="json") if hasattr(e, "model_dump") else RISC.dump_event(e),
            )
            for i, e in enumerate(events)
        ],
    )


def start() -> RiscGame:
    return make_state(seed_map(), OWNERS, SEED_UNITS, players=PLAYERS)
