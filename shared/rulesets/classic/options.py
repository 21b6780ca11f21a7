"""What a classic Risk game's creator chooses (C1, C4, C7, C10, C11)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, ClassVar

from pydantic import Field

from shared.game.ruleset import Options, TurnLimit


class CardSchedule(StrEnum):
    """How many armies a set of cards is worth (C4)."""

    SEED = "seed"
    """5, 10, 15, ...: +5 with every trade any player makes (the SOEN 6441 rule)."""
    INCREASING = "increasing"
    """Domination's increasing sets: 4, 6, 8, 10, 12, 15, 20, 25, ..."""
    FIXED = "fixed"
    """Domination's fixed sets: three infantry 4, three cavalry 6, three artillery 8, one of each 10."""


class FortifyRule(StrEnum):
    """Where the one fortification of a turn may go (C7)."""

    PATH = "path"
    """Between any two own countries joined by a path of own countries."""
    ADJACENT = "adjacent"
    """Between two own countries that border each other (Domination's option)."""


class Mode(StrEnum):
    """What wins (C11)."""

    DOMINATION = "domination"
    CAPITAL = "capital"
    MISSION = "mission"


DEFAULT_MAX_TURNS = 100
"""The round after which a game nobody has won is a draw, where the creator names none (docs/rules-classic.md)."""

STARTING_ARMIES = {2: 40, 3: 35, 4: 30, 5: 25, 6: 20}
"""C1: each player's armies at the start, by the number of players."""


class ClassicOptions(Options):
    initial_armies: Annotated[
        int | None,
        Field(
            ge=1,
            le=10_000,
            description="armies each player starts with (C1); null: 40, 35, 30, 25 or 20 for 2 to 6 players",
        ),
    ] = None
    card_schedule: Annotated[
        CardSchedule,
        Field(
            description="what a set of cards is worth (C4): seed "
            "(5, 10, 15, ...), increasing (4, 6, 8, 10, 12, 15, 20, ...) "
            "or fixed (4/6/8 three of a kind, 10 one of each)"
        ),
    ] = CardSchedule.SEED
    fortify: Annotated[
        FortifyRule,
        Field(
            description="the turn's one fortification (C7): along a path of own countries, or only to an adjacent one"
        ),
    ] = FortifyRule.PATH
    mode: Annotated[
        Mode,
        Field(
            description="what wins (C11): domination (every country), capital (every "
            "capital) or mission (a secret mission card)"
        ),
    ] = Mode.DOMINATION
    cheaters: Annotated[
        bool,
        Field(
            description="allow the cheat order (C10's cheater computer player); "
            "otherwise it is refused like any illegal order"
        ),
    ] = False
    max_players: Annotated[int, Field(ge=2, le=6, description="the most players a game may seat (C1: 2 to 6)")] = 6
    max_turns: TurnLimit = DEFAULT_MAX_TURNS

    UNNOTED: ClassVar[frozenset[str]] = frozenset({"max_players"})

    def note(self, name: str, value: Any) -> str | None:
        return {
            "initial_armies": f"{value} armies each",
            "card_schedule": f"cards {getattr(value, 'value', value)}",
            "fortify": "fortify to a neighbour only",
            "mode": {Mode.CAPITAL: "capital Risk", Mode.MISSION: "secret missions"}.get(value),
            "cheaters": "cheating allowed",
            "max_turns": f"a draw after {value} turns",
        }.get(name)

    def starting_armies(self, players: int) -> int:
        if self.initial_armies is not None:
            return self.initial_armies
        return STARTING_ARMIES[players]
