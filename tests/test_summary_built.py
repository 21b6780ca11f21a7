"""The game's summary is built without validation (it goes with every update): it must still be a valid summary."""

from __future__ import annotations

import pytest

from server import core
from server.match import Match
from server.storage import MemoryStorage, SeatRecord
from shared.maps import load_map
from shared.protocol.lobby import GameSettings, GameSummary


def valid(summary: GameSummary) -> GameSummary:
    return GameSummary.model_validate_json(summary.model_dump_json())


@pytest.mark.asyncio
async def test_the_summary_is_what_validation_would_have_built() -> None:
    seats = [SeatRecord(name=f"p{i}", token_hash="0" * 64) for i in range(3)]
    lobby = await Match.create("g1", GameSettings(map=None, players=3), load_map("seed"), MemoryStorage(), seed=1)
    assert valid(lobby.summary()) == lobby.summary()
    match = await Match.create(
        "g2", GameSettings(map=None, players=3), load_map("seed"), MemoryStorage(), seed=1, seats=seats
    )
    table = match.table
    summary = core.summary(table, {"p0", "p2"}, 2, frozenset({"p1"}))
    assert valid(summary) == summary
    assert [(s.name, s.connected, s.computer) for s in summary.seats] == [
        ("p0", True, False),
        ("p1", False, True),
        ("p2", True, False),
    ]
    assert summary.spectators == 2 and summary.free == 0 and summary.turn == table.status.turn  # type: ignore[union-attr]
