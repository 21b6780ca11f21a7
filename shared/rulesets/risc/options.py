"""What a RISC game's creator chooses (R1, R7-R9)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from shared.game.ruleset import Options


class RiscOptions(Options):
    initial_units: Annotated[int | None, Field(ge=1, le=100_000, description="units each player places (R9); "
                                               "null: 10 per starting territory")] = None
    neutral_units: Annotated[int, Field(ge=0, le=100_000, description="units on each neutral territory (R7)")] = 3
    choose_groups: Annotated[bool, Field(description="players pick their starting group when joining (R8); "
                                                     "otherwise groups are drawn at random")] = False
    max_players: Annotated[int, Field(ge=2, le=8, description="the most players a game may seat (R1: 5, "
                                                              "up to 8 by choice)")] = 5
