"""What a turn-by-turn board holds beside its rule set's own: the conquest awaiting its move-in."""

from __future__ import annotations

from dataclasses import dataclass

FINISHED = "finished"
"""Every turn-by-turn rule set's last phase (each names its phases in its own enum)."""


@dataclass(frozen=True)
class Conquest:
    """A territory just taken, awaiting its move-in: from where, into where, and the least and most that may go
    (classic Risk's C6, the grid game's G4)."""

    source: str
    target: str
    least: int
    most: int
