"""What a RISC game's creator chooses (R1, R7-R9; E2 and the evolution)."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import Field

from shared.game.ruleset import Options, TurnLimit

DEFAULT_MAX_TURNS = 100
"""The turn after which a game nobody has won is a draw, where the creator names none (docs/rules.md: why 100)."""


class RiscOptions(Options):
    initial_units: Annotated[
        int | None,
        Field(ge=1, le=100_000, description="units each player places (R9); null: 10 per starting territory"),
    ] = None
    neutral_units: Annotated[int, Field(ge=0, le=100_000, description="units on each neutral territory (R7)")] = 3
    choose_groups: Annotated[
        bool,
        Field(description="players pick their starting group when joining (R8); otherwise groups are drawn at random"),
    ] = False
    max_players: Annotated[
        int, Field(ge=2, le=8, description="the most players a game may seat (R1: 5, up to 8 by choice)")
    ] = 5
    evolution: Annotated[
        int,
        Field(
            ge=1,
            le=3,
            description="1: the first rules; 2: unit levels, food and "
            "technology (E1-E11); 3: 2 with fog of war, spies and "
            "cloaking (E12-E15)",
        ),
    ] = 1
    food: Annotated[
        int, Field(ge=0, le=1_000_000, description="food each player starts with (E2; evolutions 2 and 3)")
    ] = 100
    technology: Annotated[
        int, Field(ge=0, le=1_000_000, description="technology each player starts with (E2; evolutions 2 and 3)")
    ] = 100
    max_turns: TurnLimit = DEFAULT_MAX_TURNS

    UNNOTED: ClassVar[frozenset[str]] = frozenset({"max_players"})

    def notes(self) -> list[str]:
        return sorted(super().notes(), key=lambda note: not note.startswith("Evolution"))  # what matters most first

    def note(self, name: str, value: Any) -> str | None:
        return {
            "evolution": {
                2: "Evolution 2: unit levels, food and technology",
                3: "Evolution 3: fog of war, spies and cloaking",
            }.get(value),
            "initial_units": f"{value} units each",
            "neutral_units": f"{value} units on each neutral territory",
            "choose_groups": "players choose their starting groups",
            "food": f"{value} food to start",
            "technology": f"{value} technology to start",
            "max_turns": f"a draw after {value} turns",
        }.get(name)
