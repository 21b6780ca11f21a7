"""What happened when the orders of RISC Evolutions 2 and 3 were resolved, beside Evolution 1's events (placements,
new units, eliminations, the win and the new turn are told with those).

Under fog of war (Evolution 3) most of these are told only to the players who could see them (shared.rulesets.risc
.fog): the rule set wraps them in Private, and a combat's `sources` then lists only the territories its audience
could see, so its attacking units may outnumber what the sources account for.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from shared.game.tagged import Tagged
from shared.rulesets.risc import events
from shared.rulesets.risc.levels import Levels


class LevelMoved(Tagged, kind="level_moved"):
    player: str
    units: int
    level: int
    source: str
    target: str


class Battle(Tagged, kind="battle"):
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

    @property
    def attacker_won(self) -> bool:
        return self.new_owner == self.attacker


class UnitsUpgraded(Tagged, kind="units_upgraded"):
    player: str
    territory: str
    units: int
    level: int
    to_level: int


class TechnologyResearched(Tagged, kind="technology_researched"):
    """E6: the player's maximum technology level is now `tech_level` (usable from the next turn)."""

    player: str
    tech_level: int


class CloakingResearched(Tagged, kind="cloaking_researched"):
    player: str


class TerritoryCloaked(Tagged, kind="territory_cloaked"):
    player: str
    territory: str
    until: int
    """The last turn the territory stays hidden."""


class SpiesTrained(Tagged, kind="spies_trained"):
    player: str
    territory: str
    units: int


class SpiesMoved(Tagged, kind="spies_moved"):
    player: str
    units: int
    source: str
    target: str


class StocksReport(Tagged, kind="stocks"):
    """What a player spent and produced this turn (E4-E6, E10, E13, E14), and what they hold now: told to them
    alone (E11: others' stocks are secret)."""

    player: str
    spent_food: int
    spent_technology: int
    produced_food: int
    produced_technology: int
    food: int
    technology: int


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
    events.UnitsPlaced
    | events.UnitsMoved
    | events.Combat
    | events.UnitsReceived
    | events.PlayerEliminated
    | events.GameWon
    | events.GameDrawn
    | events.TurnStarted
    | EvoEvent,
    Field(discriminator="kind"),
]
"""Every event of every evolution: what the rule set's event adapter reads."""
