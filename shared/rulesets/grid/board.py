"""A grid game board: owners and troops of the 25 cells, whose turn and which step, troops deployed in the
deployment stage, the new troops to place, the conquest awaiting its move-in, who is out and who won."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from shared.rulesets.turn_by_turn.board import Conquest as Conquest


class Phase(StrEnum):
    DEPLOYMENT = "deployment"
    """G2: one more troop at a time, in turn A, B, C, ..., until each player has deployed their troops."""
    NEW_TROOPS = "new troops"
    """G3: the turn's new troops, all on one own territory."""
    ATTACK = "attack"
    """G3-G5: any number of attacks, then at most one move (which ends the turn), or `end`."""
    MOVE_IN = "move-in"
    """G4: a territory has just been taken; the attacker says how many troops move in."""
    FINISHED = "finished"


@dataclass(frozen=True)
class GridBoard:
    phase: Phase
    turn: int
    """0 in the deployment stage; then rounds: turn N is every player's N-th turn."""
    active: str
    owner: Mapping[str, str]
    troops: Mapping[str, int]
    deployed: Mapping[str, int] = field(default_factory=dict)
    """G2: troops each player has deployed so far, the automatic ones included."""
    new_troops: int = 0
    conquest: Conquest | None = None
    """G4: the territory just taken, awaiting its move-in."""
    eliminated: tuple[str, ...] = ()
    winner: str | None = None

    def evolve(self, **changes: Any) -> GridBoard:
        return replace(self, **changes)

    def cells_of(self, player: str) -> list[str]:
        return [name for name, held in self.owner.items() if held == player]
