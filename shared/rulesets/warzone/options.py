"""What a Warzone game's creator chooses (W2, W9, W14, W15), with the spec's defaults."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from shared.game.ruleset import Options, TurnLimit

MIN_PLAYERS = 2
MAX_PLAYERS = 6
"""W2: a Warzone game seats 2 to 6 players."""
DEFAULT_MAX_TURNS = 100
"""W14's `max_turns` where the creator names none (docs/rules-warzone.md: why 100)."""


class WarzoneOptions(Options):
    initial_units: Annotated[int, Field(ge=0, le=100_000, description="each player's pool for turn 1 (W2)")] = 50
    initial_cards: Annotated[int, Field(ge=0, le=10, description="cards each player draws before turn 1 (W2)")] = 2
    blockade_multiplier: Annotated[
        int,
        Field(ge=1, le=10, description="a blockade multiplies the territory's units by this (W9; Fall 2022 used 2)"),
    ] = 3
    neutral_remainder: Annotated[
        bool,
        Field(
            description="territories left over after an even deal go to the "
            "neutral owner instead of the first players (W2)"
        ),
    ] = False
    max_turns: TurnLimit = DEFAULT_MAX_TURNS
    """W14: a draw after it."""
    allow_cheaters: Annotated[
        bool, Field(description="accept the cheater's conquest order, a rule break by design (W15); off: it is refused")
    ] = False

    def note(self, name: str, value: Any) -> str | None:
        return {
            "initial_units": f"{value} units to deploy on turn 1",
            "initial_cards": f"{value} card{'s' if value != 1 else ''} to start",
            "blockade_multiplier": f"blockades multiply by {value}",
            "neutral_remainder": "territories left over stay neutral",
            "max_turns": f"a draw after {value} turns",
            "allow_cheaters": "cheating allowed",
        }.get(name)
