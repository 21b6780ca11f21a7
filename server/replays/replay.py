"""A stored game played again from its seed and its logged orders, checked against what the log says happened.

Each resolution is logged as the orders it carried out (OrdersRevealed) followed by the rule set's events; a
resignation (PlayerResigned) is carried out again where the log has it, followed by what the rule set made of it.
Replaying sets the game up from the seed as the server did, carries each logged resolution out again with the same
dice, and compares the events the rules give with the logged ones; at the end the replayed game is compared with the
stored one. The first resolution where they part is reported: a damaged or altered log, or rules that no longer play
the same game. It reads no rule set's orders or events itself: it compares them as JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from server import core
from server.core.entries import logged
from server.storage.base import StoredGame
from server.storage.codec import game_from_dict, game_to_dict, map_from_dict
from shared.game import turns
from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.random import dice_of
from shared.protocol.log import FRAMEWORK_KINDS
from shared.rulesets import game_ruleset


@dataclass(frozen=True)
class ReplayedStep:
    step: int
    turn: int
    events: list[Any]
    """The rule set's events, as its objects."""
    game: Game[Any, Any]
    private: list[bool] = field(default_factory=list)
    """Which of the events were told only to some players (kept from everyone else until the game is over)."""
    audiences: list[frozenset[str] | None] = field(default_factory=list)
    """Who was told each event while the game went on (None: everyone): what a replay from one player's sight
    shows of the turn."""
    resigned: str | None = None
    """The player whose resignation this step carried out (None: a step of orders)."""


@dataclass
class Replay:
    steps: list[ReplayedStep] = field(default_factory=list)
    start: Game[Any, Any] | None = None
    """The game as set up, before anyone acted."""
    difference: str | None = None
    """What first differs, naming the turn; None when the replay matches the stored game."""
    differing_turn: int | None = None

    @property
    def ok(self) -> bool:
        return self.difference is None


def _resolutions(log: list[dict[str, Any]]) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Each resolution's revealed orders with the rule set's events logged after them (with their audiences)."""
    found: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    current: list[dict[str, Any]] | None = None
    for entry in log:
        kind = entry["event"].get("kind")
        if kind in ("orders_revealed", "player_resigned"):  # a resignation is replayed where it happened
            current = []
            found.append((entry["event"], current))
        elif kind not in FRAMEWORK_KINDS and current is not None:
            current.append({"event": entry["event"], "audience": entry.get("audience")})
        elif kind != "time_ran_out":
            current = None
    return found


def _comparable(data: dict[str, Any]) -> dict[str, Any]:
    """A stored game without the orders of a turn under way, which the log reveals only once it resolves, and
    without its step count (games saved before steps were counted have their turn there: one short once won)."""
    return {k: v for k, v in data.items() if k not in ("orders", "committed", "step")}


def replay(stored: StoredGame) -> Replay:
    record, progress = stored.record, stored.progress
    result = Replay()
    if not any(e["event"].get("kind") == "game_started" for e in stored.events) or progress.state is None:
        result.difference = "the game has not started: there is nothing to replay"
        return result
    ruleset, options = game_ruleset(record.settings.ruleset, record.settings.options)
    table = core.new_table(
        record.game_id, record.settings, ruleset, options, map_from_dict(record.game_map), record.seed
    )
    game = core.start(table, progress.seats).table.game
    assert game is not None
    result.start = game
    dice = dice_of(record.seed)

    def differs(turn: int, what: str) -> Replay:
        result.differing_turn, result.difference = turn, f"turn {turn}: {what}"
        return result

    for revealed, logged_events in _resolutions(stored.events):
        status = ruleset.status(game)
        if revealed["turn"] != status.turn or revealed.get("step", game.step) != game.step:
            return differs(
                revealed["turn"], f"the log has orders for turn {revealed['turn']}, the replay is at turn {status.turn}"
            )
        done: tuple[Game[Any, Any], turns.Resolved] | RuleError
        if revealed["kind"] == "player_resigned":
            done = turns.resign(ruleset, game, revealed["player"], dice)
        else:
            orders: dict[str, Sequence[Any]] = {
                p: [ruleset.load_order(o) for o in batch] for p, batch in revealed["orders"].items()
            }
            done = turns.replay_orders(ruleset, game, orders, dice)
        if isinstance(done, RuleError):
            return differs(status.turn, done.message)
        game, resolved = done
        made = []
        for told in resolved.events:
            entry = logged(told)
            made.append(
                {
                    "event": ruleset.dump_event(entry.event),
                    "audience": None if entry.audience is None else sorted(entry.audience),
                }
            )
        told = [logged(t) for t in resolved.events]
        result.steps.append(
            ReplayedStep(
                resolved.step,
                resolved.turn,
                [t.event for t in told],
                game,
                [t.audience is not None for t in told],
                [t.audience for t in told],
                revealed["player"] if revealed["kind"] == "player_resigned" else None,
            )
        )
        if made != logged_events:
            at = next(
                (i for i, (a, b) in enumerate(zip(made, logged_events, strict=False)) if a != b),
                min(len(made), len(logged_events)),
            )
            mine = made[at]["event"] if at < len(made) else "nothing"
            theirs = logged_events[at]["event"] if at < len(logged_events) else "nothing"
            return differs(status.turn, f"event {at + 1} of the turn: the rules give {mine}, the log holds {theirs}")
    stored_game = core.new_table(record.game_id, record.settings, ruleset, options, game.game_map, record.seed)
    kept = game_from_dict(ruleset, progress.state, stored_game.game_map, options)
    if _comparable(game_to_dict(ruleset, game)) != _comparable(game_to_dict(ruleset, kept)):
        return differs(ruleset.status(game).turn, "the replayed board differs from the stored one")
    return result
