"""An update's summary is made as JSON values without the model (core.summary_values): it must be, key for key and
type for type, what dumping the model gives, in every state a game passes through."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from server import core
from server.core import Table
from server.core.table import Vacation
from server.match import Match
from server.storage import MemoryStorage, SeatRecord
from server.storage.base import PaceState
from shared.maps import load_map
from shared.protocol.lobby import GameSettings

SEATS = tuple(SeatRecord(name=f"p{i}", token_hash="0" * 64) for i in range(3))


def same(table: Table, connected: set[str], spectators: int, computers: frozenset[str] = frozenset()) -> None:
    values = core.summary_values(table, connected, spectators, computers)
    dumped = core.summary(table, connected, spectators, computers).model_dump(mode="json")
    # The text compares what equality would not: the order of the keys, and 600 against 600.0.
    assert json.dumps(values) == json.dumps(dumped)


async def match(settings: GameSettings, seats: tuple[SeatRecord, ...] = ()) -> Match:
    return await Match.create("g1", settings, load_map("seed"), MemoryStorage(), seed=7, seats=seats)


def played(table: Table, player: str) -> Table:
    """`player`'s turn played as when their time runs out (the placement the rules make), and committed."""
    decision, _ = core.play_seat(table, player, table.status.turn, [])  # type: ignore[union-attr]
    assert player in decision.table.game.committed  # type: ignore[union-attr]
    return decision.table


@pytest.mark.asyncio
async def test_a_game_in_the_lobby() -> None:
    lobby = await match(GameSettings(map=None, players=3))
    same(lobby.table, set(), 0)
    partly = lobby.table.evolve(seats=SEATS[:2])
    same(partly, {"p0"}, 3)


@pytest.mark.asyncio
async def test_a_game_under_way_with_commitments_computers_and_hand_overs() -> None:
    started = await match(GameSettings(map=None, players=3), SEATS)
    table = started.table
    same(table, {"p0", "p1", "p2"}, 0)
    same(table, {"p0"}, 1, frozenset({"p2"}))
    committed = played(table, "p0")
    same(committed, {"p0", "p1"}, 2)
    same(committed.evolve(handed_over=("p1",)), {"p0"}, 0, frozenset({"p2"}))


@pytest.mark.asyncio
async def test_a_timed_game_with_banks_vacations_and_missed_turns() -> None:
    settings = GameSettings(map=None, players=3, turn_seconds=86_400, bank_seconds=600, boot_after=3)
    started = await match(settings, SEATS)
    table = started.table
    state = PaceState(
        clock=[table.status.turn, ["p0", "p1", "p2"]],  # type: ignore[union-attr]
        since=1_000.5,
        started_at=1_000.0,
        banks={"p0": 600.0, "p1": 12.25, "p2": 0.0},
        missed={"p2": 2},
    )
    paced = table.evolve(pace=replace(table.pace, state=state, vacations={"p1": Vacation(start=900.0, end=5_000.0)}))
    values = core.summary_values(paced, set(), 0)
    assert [(s["bank"], s["vacation_until"], s["missed"]) for s in values["seats"]] == [
        (600.0, None, 0),
        (12.25, 5_000.0, 0),
        (0.0, None, 2),
    ]
    same(paced, {"p0", "p2"}, 0)
    committed = played(paced, "p1")
    same(committed, {"p0", "p1", "p2"}, 4)


@pytest.mark.asyncio
async def test_a_finished_game_and_its_rematch() -> None:
    started = await match(GameSettings(map=None, players=3, rated=False), SEATS)
    table = core.resign(started.table, "p0").table
    same(table, {"p1", "p2"}, 0)
    over = core.resign(table, "p1").table
    assert over.finished
    same(over, {"p2"}, 5)
    same(over.evolve(rematch=("p2",), declined=("p1",), rematch_game="g9"), {"p2"}, 0)


@pytest.mark.asyncio
async def test_a_game_whose_players_choose_a_group() -> None:
    lobby = await match(GameSettings(map=None, players=3))
    grouped = lobby.table.evolve(choices=(("Ash", "Birch"), ("Cedar",)), notes=("starting groups",))
    same(grouped, set(), 0)
