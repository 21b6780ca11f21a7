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
    BAD_NUMBER = "bad-number"
    TOO_FEW = "too-few"
    TOO_MANY = "too-many"


@dataclass(frozen=True)
class RuleError:
    code: str
    message: str

    def __str__(self) -> str:
        return self.message


def count_problem(value: object, least: int, most: int, what: str) -> RuleError | None:
    """What is wrong with a count an order names (`what`: "the dice", say), if anything: the same words and codes
    in every game that reads counts this way."""
    if not isinstance(value, int) or isinstance(value, bool):
        return RuleError(Refused.BAD_NUMBER, f"{what} must be a whole number")
    if value < least:
        return RuleError(Refused.TOO_FEW, f"{what} must be at least {least}, not {value}")
    if value > most:
        return RuleError(Refused.TOO_MANY, f"{what} can be at most {most}, not {value}")
    return None


def too_few_to_send(code: str, source: str, left: int, asked: int) -> RuleError | None:
    """An order that sends more units than `source` has `left` to send, in the words of every game whose orders send
    units (RISC's, Warzone's), with the rule set's `code`."""
    if asked <= left:
        return None
    units = f"{left} unit" if left == 1 else f"{left} units"
    return RuleError(code, f"{source} has {units} left to send, the order asks for {asked}")
