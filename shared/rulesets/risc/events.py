"""What happened when RISC orders were resolved: everything a player or spectator is told afterwards (R24). An
elimination, the win and a new turn are the framework's own events (shared/game/events.py)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from shared.game.events import GameDrawn as GameDrawn
from shared.game.events import GameWon as GameWon
from shared.game.events import PlayerEliminated as PlayerEliminated
from shared.game.events import TurnStarted as TurnStarted
from shared.game.tagged import Tagged


class UnitsPlaced(Tagged, kind="units_placed"):
    player: str
    territory: str
    units: int


class UnitsMoved(Tagged, kind="units_moved"):
    player: str
    units: int
    source: str
    target: str


class Combat(Tagged, kind="combat"):
    """One attacking force against one territory's defenders (R20-R24). Sources list where the force came from."""

    territory: str
    attacker: str
    defender: str | None
    attacking_units: int
    defending_units: int
    attacker_losses: int
    defender_losses: int
    new_owner: str | None
    sources: tuple[tuple[str, int], ...]

    @property
    def attacker_won(self) -> bool:
        return self.new_owner == self.attacker


class UnitsReceived(Tagged, kind="units_received"):
    """R19: every territory a player owns gained one unit."""

    player: str
    units: int


Event = Annotated[
    UnitsPlaced | UnitsMoved | Combat | UnitsReceived | PlayerEliminated | GameWon | GameDrawn | TurnStarted,
    Field(discriminator="kind"),
]
