"""`built` makes the very model `model_construct` makes: its fields in the same order, the same fields set, the same
JSON; and it refuses what it cannot make so."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, PrivateAttr

from server.storage.base import GameProgress, SeatRecord
from shared.protocol.built import built
from shared.protocol.lobby import GameSettings, GameStatus, GameSummary, SeatInfo
from shared.protocol.messages import AcceptedOrder, CommitRefused, OrderRefused, OrdersAccepted, Update


def _same(model: type[BaseModel], values: dict[str, Any]) -> BaseModel:
    ours, theirs = built(model, **values), model.model_construct(**values)
    assert type(ours) is model
    assert list(ours.__dict__.items()) == list(theirs.__dict__.items())
    assert ours.model_fields_set == theirs.model_fields_set == set(values)
    assert ours.model_dump_json() == theirs.model_dump_json()
    assert ours.model_dump(mode="json") == theirs.model_dump(mode="json")
    assert ours == theirs
    assert ours.__pydantic_extra__ is None and ours.__pydantic_private__ is None
    return ours


def _seat(name: str, **more: Any) -> SeatInfo:
    return built(SeatInfo, name=name, connected=True, **more)


def test_a_seat_with_every_field_given_or_only_the_required_ones() -> None:
    _same(SeatInfo, {"name": "ann", "connected": True})
    _same(
        SeatInfo,
        {
            "name": "bo",
            "connected": False,
            "group": 2,
            "eliminated": False,
            "committed": True,
            "awaited": False,
            "computer": True,
            "handed_over": True,
            "bank": 12.5,
            "vacation_until": None,
            "deadline": 1_800_000_000.25,
            "missed": 3,
        },
    )
    given_out_of_order = _same(SeatInfo, {"missed": 1, "connected": True, "name": "cy"})
    assert list(given_out_of_order.__dict__)[:3] == ["name", "connected", "group"]


def test_a_summary_with_its_seats_and_settings() -> None:
    values = {
        "game_id": "g-1",
        "settings": GameSettings(players=3),
        "ruleset_title": "RISC",
        "map_name": "seed",
        "territories": 9,
        "seats": [_seat("ann", awaited=True), _seat("bo", committed=True)],
        "free": 1,
        "status": GameStatus.PLAYING,
        "phase": "orders",
        "turn": 4,
        "step": 5,
    }
    summary = _same(GameSummary, values)
    assert isinstance(summary, GameSummary)
    assert summary.notes == [] and summary.rematch == [] and summary.spectators == 0


def test_a_list_made_by_a_default_factory_is_each_models_own() -> None:
    first = built(GameSummary, game_id="a", settings=GameSettings(), map_name="m", territories=1, seats=[], free=2,
                  status=GameStatus.LOBBY, phase="lobby")  # fmt: skip
    second = built(GameSummary, game_id="b", settings=GameSettings(), map_name="m", territories=1, seats=[], free=2,
                   status=GameStatus.LOBBY, phase="lobby")  # fmt: skip
    first.notes.append("fog of war")
    assert second.notes == []


def test_a_mutable_default_is_each_models_own_copy_as_model_construct_gives_it() -> None:
    class Tally(BaseModel):
        name: str
        counts: list[int] = [0]
        by_name: dict[str, int] = {}
        settings: GameSettings = GameSettings()

    first = _same(Tally, {"name": "a"})
    second = built(Tally, name="b")
    assert isinstance(first, Tally)
    first.counts.append(1)
    first.by_name["x"] = 1
    assert second.counts == [0] and second.by_name == {} and Tally.model_fields["counts"].default == [0]
    assert second.settings == GameSettings()


def test_the_answers_and_the_update_a_turn_makes() -> None:
    accepted = [built(AcceptedOrder, position=0, index=0, order={"kind": "place", "n": 3}, text="place 3")]
    refused = [built(OrderRefused, position=1, code="illegal-order", message="no such territory")]
    _same(
        OrdersAccepted,
        {
            "game_id": "g-1",
            "turn": 2,
            "ref": None,
            "left": {"units": 0},
            "accepted": accepted,
            "refused": refused,
            "committed": False,
            "commit_refused": built(CommitRefused, code="units-not-placed", message="place 4 more"),
        },
    )
    _same(Update, {"game_id": "g-1", "seq": 7, "events": [], "game": None, "view": None, "you": "ann", "ref": None})


def test_the_progress_the_store_keeps() -> None:
    seats = [SeatRecord(name="ann", token_hash="0" * 64)]
    _same(GameProgress, {"seats": seats, "state": {"step": 1}, "seq": 3, "number": 4, "status": "playing"})
    progress = _same(GameProgress, {"seats": seats, "state": None, "seq": 0})
    assert isinstance(progress, GameProgress) and progress.rematch == [] and progress.declined == []


def test_a_missing_required_field_or_an_unknown_one_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match=r"SeatInfo: missing \['connected'\], unknown \[\]"):
        built(SeatInfo, name="ann")
    with pytest.raises(TypeError, match=r"unknown \['comitted'\]"):
        built(SeatInfo, name="ann", connected=True, comitted=True)


def test_a_model_it_cannot_make_as_model_construct_does_is_refused() -> None:
    class Secretive(BaseModel):
        name: str
        _seen: int = PrivateAttr(default=0)

    class Open(BaseModel, extra="allow"):
        name: str

    class Busy(BaseModel):
        name: str

        def model_post_init(self, context: Any, /) -> None:
            pass

    for model in (Secretive, Open, Busy):
        with pytest.raises(TypeError, match=model.__name__):
            built(model, name="x")
