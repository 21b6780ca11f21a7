"""What happened in a grid game, told to every player and spectator as it happens, every die included. Nothing in
the grid game is secret."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from shared.game import events
from shared.game.events import GameDrawn as GameDrawn
from shared.game.events import GameWon as GameWon
from shared.game.tagged import Tagged


class TroopDeployed(Tagged, kind="troop_deployed"):
    """G2: one troop in the deployment stage."""

    player: str
    cell: str
    deployed: int
    """Troops the player has deployed now, the automatic ones included."""


class TurnStarted(events.TurnStarted):
    """G3: a fighting turn begins with min(floor(t / 2), 3) new troops for t territories."""

    player: str
    new_troops: int
    territories: int


class NewTroopsDeployed(Tagged, kind="new_troops_deployed"):
    player: str
    cell: str
    troops: int


class Battle(Tagged, kind="battle"):
    """G4: one attack: every die of both sides, the losses, the troops on both sides after it."""

    player: str
    source: str
    target: str
    defender: str
    attack: tuple[int, ...]
    defence: tuple[int, ...]
    attacker_losses: int
    defender_losses: int
    source_troops: int
    target_troops: int


class CellTaken(Tagged, kind="cell_taken"):
    player: str
    source: str
    cell: str
    defender: str
    least: int
    most: int


class TroopsMovedIn(Tagged, kind="troops_moved_in"):
    player: str
    source: str
    target: str
    troops: int
    automatic: bool = False


class TroopsMoved(Tagged, kind="troops_moved"):
    """G5: the turn's one move."""

    player: str
    source: str
    target: str
    troops: int


class TurnEnded(Tagged, kind="turn_ended"):
    player: str
    automatic: bool = False
    """True when nothing was left to do: no attack and no move possible."""


class PlayerEliminated(events.PlayerEliminated):
    by: str


GridEvent = (
    TroopDeployed
    | TurnStarted
    | NewTroopsDeployed
    | Battle
    | CellTaken
    | TroopsMovedIn
    | TroopsMoved
    | TurnEnded
    | PlayerEliminated
    | GameWon
    | GameDrawn
)

Event = Annotated[GridEvent, Field(discriminator="kind")]
