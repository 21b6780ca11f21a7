"""What every game's log tells, whatever its rules: a player is out, a player has won, the game is a draw, a new turn
begins.

The framework owns these so that no rule set defines them again, and so that what reads a log without knowing the
rule set (the text client, the web page, a finished game's ranking) can tell a turn's start, an elimination and the
end apart by their `kind`. A rule set logs them as they are, or subclasses one to say more (classic Risk's
eliminations name who took the last country); a subclass keeps the `kind`, so stored games read as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True)
class PlayerEliminated:
    """The player is out of the game (nothing left to hold)."""

    player: str
    kind: Literal["player_eliminated"] = field(default="player_eliminated", kw_only=True)


@dataclass(frozen=True)
class GameWon:
    """The game is over and `player` won it."""

    player: str
    kind: Literal["game_won"] = field(default="game_won", kw_only=True)


@dataclass(frozen=True)
class GameDrawn:
    """The game is over and nobody won it: its last turn (the rule set's turn limit) was played without a winner,
    or the last players went out together. `reason` says which, in a few words."""

    turn: int
    reason: str
    kind: Literal["game_drawn"] = field(default="game_drawn", kw_only=True)


def turn_limit_reached(turn: int) -> str:
    """A draw's reason when the rule set's turn limit (`max_turns`) ended the game."""
    return f"{turn} turn{'' if turn == 1 else 's'} played (max_turns) without a winner"


@dataclass(frozen=True)
class TurnStarted:
    """Turn `turn` begins: orders for it may be given."""

    turn: int
    kind: Literal["turn_started"] = field(default="turn_started", kw_only=True)
