"""What a RISC game's creator chooses (R1, R7-R9; E2 and the evolution)."""

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
    evolution: Annotated[int, Field(ge=1, le=3, description="1: the first rules; 2: unit levels, food and "
                                                            "technology (E1-E11); 3: 2 with fog of war, spies and "
                                                            "cloaking (E12-E15)")] = 1
    food: Annotated[int, Field(ge=0, le=1_000_000, description="food each player starts with (E2; evolutions 2 "
                                                               "and 3)")] = 100
    technology: Annotated[int, Field(ge=0, le=1_000_000, description="technology each player starts with (E2; "
                                                                     "evolutions 2 and 3)")] = 100
