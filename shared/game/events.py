"""What every game's log tells, whatever its rules: a player is out, a player has won, the game is a draw, a new turn
begins.

The framework owns these so that no rule set defines them again, and so that what reads a log without knowing the
rule set (the text client, the web page, a finished game's ranking) can tell a turn's start, an elimination and the
end apart by their `kind`. A rule set logs them as they are, or subclasses one to say more (classic Risk's
eliminations name who took the last country); a subclass keeps the `kind`, so stored games read as before.
"""

from __future__ import annotations

from shared.game.tagged import Tagged


class PlayerEliminated(Tagged, kind="player_eliminated"):
    """The player is out of the game (nothing left to hold)."""

    player: str


class GameWon(Tagged, kind="game_won"):
    """The game is over and `player` won it."""

    player: str


class GameDrawn(Tagged, kind="game_drawn"):
    """The game is over and nobody won it: its last turn (the rule set's turn limit) was played without a winner,
    or the last players went out together. `reason` says which, in a few words."""

    turn: int
    reason: str


def turn_limit_reached(turn: int) -> str:
    """A draw's reason when the rule set's turn limit (`max_turns`) ended the game."""
    return f"{turn} turn{'' if turn == 1 else 's'} played (max_turns) without a winner"


class TurnStarted(Tagged, kind="turn_started"):
    """Turn `turn` begins: orders for it may be given."""

    turn: int
