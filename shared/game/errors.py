"""Rule violations as values: a stable code for programs, a sentence for people.

Codes are plain strings so that every rule set can have its own (each keeps them in a StrEnum of its own); the ones
below belong to the framework, which refuses them the same way in every game.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Refused(StrEnum):
    """Why the framework refuses an action, whatever the game."""

    NOT_A_PLAYER = "not-a-player"
    ELIMINATED = "eliminated"
    ALREADY_COMMITTED = "already-committed"
    GAME_OVER = "game-over"
    WRONG_TURN = "wrong-turn"
    WRONG_PHASE = "wrong-phase"
    NOT_YOUR_TURN = "not-your-turn"
    NOTHING_TO_COMMIT = "nothing-to-commit"
    NO_SUCH_ORDER = "no-such-order"
    UNKNOWN_TERRITORY = "unknown-territory"
    UNKNOWN_PLAYER = "unknown-player"


@dataclass(frozen=True)
class RuleError:
    code: str
    message: str

    def __str__(self) -> str:
        return self.message
