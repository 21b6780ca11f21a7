"""The table as the game list shows it and every update describes it: its summary, as a model and as JSON values.

Every change a game's followers are told of carries its summary (the update's `game_patch`, worked out from the JSON
values of the last one), and the lobby and the server's own players read the model. So the summary's facts are
worked out in one place (`_facts`) and made into either: `summary` the model (GameSummary, built without validation:
shared/protocol/built.py), `summary_values` its JSON values as `model_dump(mode="json")` gives them, made without the
model, the game's settings dumped once (a game's settings do not change once it is made, and dumping them was the
largest part of dumping a summary).
"""

from __future__ import annotations

from typing import Any

from server.core import pace
from server.core.table import Table
from shared.game import turns
from shared.protocol.built import built
from shared.protocol.lobby import GameSummary, SeatInfo


def summary(table: Table, connected: set[str], spectators: int, computers: frozenset[str] = frozenset()) -> GameSummary:
    """The game's summary (`connected`: the seats whose player has a live connection; `computers`: the seats the
    server's own players hold)."""
    top, seats = _facts(table, connected, spectators, computers)
    top["settings"] = table.settings
    top["seats"] = [built(SeatInfo, **seat) for seat in seats]
    top["status"] = table.summary_status
    return built(GameSummary, **top)


def summary_values(
    table: Table, connected: set[str], spectators: int, computers: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """`summary(...).model_dump(mode="json")`, made without the model (tests/test_summary_values.py holds them
    equal)."""
    top, seats = _facts(table, connected, spectators, computers)
    top["settings"] = _settings_values(table)
    top["seats"] = seats
    top["status"] = table.summary_status.value
    return top


def _settings_values(table: Table) -> dict[str, Any]:
    """The table's settings as JSON values, dumped once while they are the same (Table.kept). Read only: every
    summary's values share them."""
    settings = table.settings
    return table.kept("_settings_values", settings, lambda: settings.model_dump(mode="json"))


def _facts(
    table: Table, connected: set[str], spectators: int, computers: frozenset[str]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The summary's fields in the model's order, each seat's as JSON values; `settings`, `seats` and `status` are
    left for the caller to fill in as the model or as JSON values."""
    game = table.game
    status = None if game is None else turns.status_of(table.ruleset, game)
    waited = frozenset() if game is None else turns.awaiting(table.ruleset, game, status)
    eliminated = set(status.eliminated) if status is not None else set()
    committed = game.committed if game is not None else frozenset()
    settings, state = table.settings, table.pace.state
    counting = state if waited else None
    timed = counting is not None and counting.clock is not None and settings.turn_seconds is not None
    banked = bool(settings.banked) and game is not None
    handed_over = table.handed_over
    seats = [
        {
            "name": s.name,
            "connected": s.name in connected,
            "group": s.group,
            "eliminated": s.name in eliminated,
            "committed": s.name in committed,
            "awaited": s.name in waited,
            "computer": s.name in computers or s.name in handed_over,
            "handed_over": s.name in handed_over,
            "bank": state.banks.get(s.name) if banked and state is not None else None,
            "vacation_until": pace.vacation_told(table, s.name) if timed and s.name in waited else None,
            "deadline": pace.deadline(table, s.name) if timed and s.name in waited else None,
            "missed": state.missed.get(s.name, 0) if state is not None else 0,
        }
        for s in table.seats
    ]
    top = {
        "game_id": table.game_id,
        "settings": None,
        "ruleset_title": table.ruleset.title,
        "simultaneous": table.ruleset.simultaneous,
        "map_name": table.game_map.name,
        "territories": len(table.game_map.territories),
        "notes": list(table.notes),
        "seats": None,
        "deadline": counting.since + settings.turn_seconds if timed and counting is not None else None,  # type: ignore[operator]
        "free": settings.players - len(table.seats),
        "status": None,
        "phase": "lobby" if status is None else ("finished" if status.finished else status.phase),
        "turn": 0 if status is None else status.turn,
        "step": 0 if game is None else game.step,
        "winner": None if status is None else status.winner,
        "draw": status is not None and status.finished and status.winner is None,
        "groups": None if table.choices is None else [list(c) for c in table.choices],
        "spectators": spectators,
        "rematch": list(table.rematch),
        "rematch_game": table.rematch_game,
        "rematch_declined": list(table.declined),
    }
    return top, seats
