"""What happened in a grid game, told to every player and spectator as it happens, every die included. Nothing in
the grid game is secret."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from shared.game import events
from shared.game.events import GameDrawn as GameDrawn
from shared.game.events import GameWon as GameWon


@dataclass(frozen=True)
class TroopDeployed:
    """G2: one troop in the deployment stage."""

    player: str
    cell: str
    deployed: int
    """Troops the player has deployed now, the automatic ones included."""
    kind: Literal["troop_deployed"] = "troop_deployed"


@dataclass(frozen=True)
class TurnStarted(events.TurnStarted):
    """G3: a fighting turn begins with min(floor(t / 2), 3) new troops for t territories."""

    player: str
    new_troops: int
    territories: int


@dataclass(frozen=True)
class NewTroopsDeployed:
    player: str
    cell: str
    troops: int
    kind: Literal["new_troops_deployed"] = "new_troops_deployed"


@dataclass(frozen=True)
class Battle:
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
    kind: Literal["battle"] = "battle"


@dataclass(frozen=True)
class CellTaken:
    player: str
    source: str
    cell: str
    defender: str
    least: int
    most: int
    kind: Literal["cell_taken"] = "cell_taken"


@dataclass(frozen=True)
class TroopsMovedIn:
    player: str
    source: str
    target: str
    troops: int
    automatic: bool = False
    kind: Literal["troops_moved_in"] = "troops_moved_in"


@dataclass(frozen=True)
class TroopsMoved:
    """G5: the turn's one move."""

    player: str
    source: str
    target: str
    troops: int
    kind: Literal["troops_moved"] = "troops_moved"


@dataclass(frozen=True)
class TurnEnded:
    player: str
    automatic: bool = False
    """True when nothing was left to do: no attack and no move possible."""
    kind: Literal["turn_ended"] = "turn_ended"


@dataclass(frozen=True)
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
