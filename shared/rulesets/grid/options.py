"""What a grid game's creator chooses (G1-G2): nothing but the troops each player deploys, 15 in the seed."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from shared.game.ruleset import Options, TurnLimit

SIZE = 5
"""G1: the board is SIZE x SIZE cells."""
FEWEST, MOST = 3, 5
"""G1: 3 to 5 players."""
DEFAULT_MAX_TURNS = 100
"""The round after which a game nobody has won is a draw, where the creator names none (docs/rules-grid.md)."""


class GridOptions(Options):
    troops: Annotated[
        int, Field(ge=9, le=1000, description="troops each player deploys in all, the automatic ones included (G2: 15)")
    ] = 15
    max_turns: TurnLimit = DEFAULT_MAX_TURNS

    def note(self, name: str, value: Any) -> str | None:
        return {"troops": f"{value} troops each", "max_turns": f"a draw after {value} turns"}.get(name)
