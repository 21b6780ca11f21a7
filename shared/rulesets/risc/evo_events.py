"""What happened when the orders of RISC Evolutions 2 and 3 were resolved, beside Evolution 1's events (placements,
new units, eliminations, the win and the new turn are told with those).

Under fog of war (Evolution 3) most of these are told only to the players who could see them (shared.rulesets.risc
.fog): the rule set wraps them in Private, and a combat's `sources` then lists only the territories its audience
could see, so its attacking units may outnumber what the sources account for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from shared.rulesets.risc.events import (
    Combat,
    GameDrawn,
    GameWon,
    PlayerEliminated,
    TurnStarted,
    UnitsMoved,
    UnitsPlaced,
    UnitsReceived,
)
from shared.rulesets.risc.levels import Levels


@dataclass(frozen=True)
class LevelMoved:
    player: str
    units: int
    level: int
    source: str
    target: str
    kind: Literal["level_moved"] = "level_moved"


@dataclass(frozen=True)
class Battle:
    """One attacking force against one territory's defenders (E9, R21-R24), per level on each side."""

    territory: str
    attacker: str
    defender: str | None
    attacking: Levels
    defending: Levels
    attackers_left: Levels
    defenders_left: Levels
    new_owner: str | None
    sources: tuple[tuple[str, int], ...]
    """Where the force came from, as far as the event's audience could see."""
    kind: Literal["battle"] = "battle"

    @property
    def attacker_won(self) -> bool:
        return self.new_owner == self.attacker


@dataclass(frozen=True)
class UnitsUpgraded:
    player: str
    territory: str
    units: int
    level: int
    to_level: int
    kind: Literal["units_upgraded"] = "units_upgraded"


@dataclass(frozen=True)
class TechnologyResearched:
    """E6: the player's maximum technology level is now `tech_level` (usable from the next turn)."""

    player: str
    tech_level: int
    kind: Literal["technology_researched"] = "technology_researched"


@dataclass(frozen=True)
class CloakingResearched:
    player: str
    kind: Literal["cloaking_researched"] = "cloaking_researched"


@dataclass(frozen=True)
class TerritoryCloaked:
    player: str
    territory: str
    until: int
    """The last turn the territory stays hidden."""
    kind: Literal["territory_cloaked"] = "territory_cloaked"


@dataclass(frozen=True)
class SpiesTrained:
    player: str
    territory: str
    units: int
    kind: Literal["spies_trained"] = "spies_trained"


@dataclass(frozen=True)
class SpiesMoved:
    player: str
    units: int
    source: str
    target: str
    kind: Literal["spies_moved"] = "spies_moved"


@dataclass(frozen=True)
class StocksReport:
    """What a player spent and produced this turn (E4-E6, E10, E13, E14), and what they hold now: told to them
    alone (E11: others' stocks are secret)."""

    player: str
    spent_food: int
    spent_technology: int
    produced_food: int
    produced_technology: int
    food: int
    technology: int
    kind: Literal["stocks"] = "stocks"


EvoEvent = (
    LevelMoved
    | Battle
    | UnitsUpgraded
    | TechnologyResearched
    | CloakingResearched
    | TerritoryCloaked
    | SpiesTrained
    | SpiesMoved
    | StocksReport
)
AllEvents = Annotated[
    UnitsPlaced | UnitsMoved | Combat | UnitsReceived | PlayerEliminated | GameWon | GameDrawn | TurnStarted | EvoEvent,
    Field(discriminator="kind"),
]
"""Every event of every evolution: what the rule set's event adapter reads."""
