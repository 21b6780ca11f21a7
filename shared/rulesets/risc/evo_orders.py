"""The orders of RISC Evolutions 2 and 3 (E3, E5, E6, E13, E14). Plain frozen values, as Evolution 1's.

A move or an attack names how many units of which level (E3): one level per order, so that every order has one
count a player may lower (the seam's `Legal.count_field`) and reads "3 level-2 units from A to B". A command that
names several levels, or none ("move 5 Narnia Oz": the lowest levels first), stands for one order per level; the
client fills the levels in, the order always carries them. Units one player sends against one territory fight as one
force whatever orders sent them (R21).

Placement is Evolution 1's `place` order: starting units are level 0 (E2).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from shared.game import tagged
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, PlaceOrder


class LevelMoveOrder(tagged.Order, kind="level_move"):
    """E3, E4: move `units` units of `level` between own territories, through own territories, for food."""

    units: int
    level: int
    source: str
    target: str
    said = "move {units} level-{level} from {source} to {target}"


class LevelAttackOrder(tagged.Order, kind="level_attack"):
    """E3, E4: attack an adjacent territory someone else holds with `units` units of `level`, 1 food each."""

    units: int
    level: int
    source: str
    target: str
    said = "attack {units} level-{level} from {source} to {target}"


class UpgradeOrder(tagged.Order, kind="upgrade"):
    """E5: `units` units of `level` on an own territory become `to_level`, for technology."""

    units: int
    territory: str
    level: int
    to_level: int
    said = "upgrade {units} on {territory} from level {level} to {to_level}"


class ResearchOrder(tagged.Order, kind="research"):
    """E6: raise the maximum technology level by one (from the next turn)."""

    said = "research the next technology level"


class SpyOrder(tagged.Order, kind="spy"):
    """E13: turn `units` level-0 units on an own territory into spies, 20 technology each (Evolution 3)."""

    units: int
    territory: str
    said = "train {spies} on {territory}"

    @property
    def spies(self) -> str:
        return f"{self.units} {'spy' if self.units == 1 else 'spies'}"


class SpyMoveOrder(tagged.Order, kind="spy_move"):
    """E13: move `units` spies: through own territories, and at most one step into other players' land."""

    units: int
    source: str
    target: str
    said = "move {spies} from {source} to {target}"

    @property
    def spies(self) -> str:
        return f"{self.units} {'spy' if self.units == 1 else 'spies'}"


class CloakingResearchOrder(tagged.Order, kind="research_cloaking"):
    """E14: research cloaking, once (Evolution 3)."""

    said = "research cloaking"


class CloakOrder(tagged.Order, kind="cloak"):
    """E14: hide an own territory from other players' adjacency view for the next 3 turns (Evolution 3)."""

    territory: str
    said = "cloak {territory}"


EvoOrder = (
    LevelMoveOrder
    | LevelAttackOrder
    | UpgradeOrder
    | ResearchOrder
    | SpyOrder
    | SpyMoveOrder
    | CloakingResearchOrder
    | CloakOrder
)
AnyOrder = PlaceOrder | MoveOrder | AttackOrder | EvoOrder
AllOrders = Annotated[AnyOrder, Field(discriminator="kind")]
"""Every order of every evolution: what the rule set's order adapter reads (each game accepts its evolution's)."""

EVO_TURN_ORDERS = (
    LevelMoveOrder,
    LevelAttackOrder,
    UpgradeOrder,
    ResearchOrder,
    SpyOrder,
    SpyMoveOrder,
    CloakingResearchOrder,
    CloakOrder,
)
EVOLUTION_3_ONLY = (SpyOrder, SpyMoveOrder, CloakingResearchOrder, CloakOrder)
