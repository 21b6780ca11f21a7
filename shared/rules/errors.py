"""Rule violations as values: a stable code for programs, a sentence for people."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class RuleCode(StrEnum):
    UNKNOWN_TERRITORY = "unknown-territory"
    NOT_YOUR_TERRITORY = "not-your-territory"
    NOT_ENOUGH_UNITS = "not-enough-units"
    NON_POSITIVE_UNITS = "non-positive-units"
    SAME_TERRITORY = "same-territory"
    TARGET_NOT_YOURS = "target-not-yours"
    NO_PATH = "no-path"
    NOT_ADJACENT = "not-adjacent"
    ATTACK_ON_OWN = "attack-on-own-territory"
    POOL_EXCEEDED = "pool-exceeded"
    UNITS_NOT_PLACED = "units-not-placed"
    WRONG_PHASE = "wrong-phase"
    WRONG_TURN = "wrong-turn"
    ALREADY_COMMITTED = "already-committed"
    ELIMINATED = "eliminated"
    NOT_A_PLAYER = "not-a-player"
    GAME_OVER = "game-over"
    NO_SUCH_ORDER = "no-such-order"
    UNKNOWN_ORDER = "unknown-order"


@dataclass(frozen=True)
class RuleError:
    code: RuleCode
    message: str

    def __str__(self) -> str:
        return self.message
