"""A stored game played again from its seed and its logged orders, checked against what the log says happened.

Each resolved turn is logged as its revealed orders (OrdersRevealed) followed by the engine's events. Replaying
issues those orders on the replayed state, resolves the turn with the game's seed, and compares the events the
engine gives with the logged ones; at the end the replayed board is compared with the stored one. The first turn
where they part is reported: a damaged or altered log, or an engine that no longer plays the same game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from server.match import _setup
from server.storage.base import StoredGame
from server.storage.snapshot import map_from_dict, state_to_dict
from shared.protocol.log import GameStarted, OrdersRevealed, SequencedEvent
from shared.rules import turns
from shared.rules.errors import RuleError
from shared.rules.events import (
    Combat,
    Event,
    GameWon,
    PlayerEliminated,
    TurnStarted,
    UnitsMoved,
    UnitsPlaced,
    UnitsReceived,
)
from shared.rules.random import GameRandom
from shared.rules.registry import get_ruleset
from shared.rules.state import GameState

ENGINE_EVENTS = (UnitsPlaced, UnitsMoved, Combat, UnitsReceived, PlayerEliminated, GameWon, TurnStarted)


@dataclass(frozen=True)
class ReplayedTurn:
    turn: int
    events: list[Event]
    state: GameState


@dataclass
class Replay:
    turns: list[ReplayedTurn] = field(default_factory=list)
    difference: str | None = None
    """What first differs, naming the turn; None when the replay matches the stored game."""
    differing_turn: int | None = None

    @property
    def ok(self) -> bool:
        return self.difference is None


def _turns(log: list[SequencedEvent]) -> list[tuple[OrdersRevealed, list[Any]]]:
    """Each resolved turn's revealed orders with the engine events logged after them."""
    found: list[tuple[OrdersRevealed, list[Any]]] = []
    current: list[Any] | None = None
    for entry in log:
        if isinstance(entry.event, OrdersRevealed):
            current = []
            found.append((entry.event, current))
        elif isinstance(entry.event, ENGINE_EVENTS) and current is not None:
            current.append(entry.event)
        else:
            current = None
    return found


def _comparable(data: dict[str, Any]) -> dict[str, Any]:
    """A stored state without the orders of a turn under way, which the log reveals only once it resolves."""
    return {k: v for k, v in data.items() if k not in ("orders", "committed")}


def replay(stored: StoredGame) -> Replay:
    record, progress = stored.record, stored.progress
    result = Replay()
    if not any(isinstance(e.event, GameStarted) for e in stored.events) or progress.state is None:
        result.difference = "the game has not started: there is nothing to replay"
        return result
    game_map = map_from_dict(record.game_map)
    ruleset = get_ruleset(record.settings.ruleset)
    state = _setup(record.settings, game_map, record.seed, list(progress.seats))

    def differs(turn: int, what: str) -> Replay:
        result.differing_turn, result.difference = turn, f"turn {turn}: {what}"
        return result

    for revealed, logged in _turns(stored.events):
        if revealed.turn != state.turn:
            return differs(revealed.turn, f"the log has orders for turn {revealed.turn}, the replay is at turn "
                                          f"{state.turn}")
        for player, orders in revealed.orders.items():
            for order in orders:
                issued = turns.issue(ruleset, state, player, order)
                if isinstance(issued, RuleError):
                    return differs(state.turn, f"{player}'s order {order} is refused: {issued.message}")
                state = issued
        played = state.turn
        state, events = turns.advance(ruleset, state, GameRandom(record.seed, played))
        result.turns.append(ReplayedTurn(played, list(events), state))
        if list(events) != logged:
            at = next((i for i, (a, b) in enumerate(zip(events, logged, strict=False)) if a != b),
                      min(len(events), len(logged)))
            mine = events[at] if at < len(events) else "nothing"
            theirs = logged[at] if at < len(logged) else "nothing"
            return differs(played, f"event {at + 1} of the turn: the engine gives {mine}, the log holds {theirs}")
    if _comparable(state_to_dict(state)) != _comparable(progress.state):
        return differs(state.turn, "the replayed board differs from the stored one")
    return result
