"""The orders of RISC Evolutions 2 and 3 (E3, E5, E6, E13, E14). Plain frozen values, as Evolution 1's.

A move or an attack names how many units of which level (E3): one level per order, so that every order has one
count a player may lower (the seam's `Legal.count_field`) and reads "3 level-2 units from A to B". A command that
names several levels, or none ("move 5 Narnia Oz": the lowest levels first), stands for one order per level; the
client fills the levels in, the order always carries them. Units one player sends against one territory fight as one
force whatever orders sent them (R21).

Placement is Evolution 1's `place` order: starting units are level 0 (E2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from shared.rulesets.risc.orders import AttackOrder, MoveOrder, PlaceOrder
from shared.rulesets.risc.orders import describe as describe_first


@dataclass(frozen=True)
class LevelMoveOrder:
    """E3, E4: move `units` units of `level` between own territories, through own territories, for food."""

    units: int
    level: int
    source: str
    target: str
    kind: Literal["level_move"] = "level_move"


@dataclass(frozen=True)
class LevelAttackOrder:
    """E3, E4: attack an adjacent territory someone else holds with `units` units of `level`, 1 food each."""

    units: int
    level: int
    source: str
    target: str
    kind: Literal["level_attack"] = "level_attack"


@dataclass(frozen=True)
class UpgradeOrder:
    """E5: `units` units of `level` on an own territory become `to_level`, for technology."""

    units: int
    territory: str
    level: int
    to_level: int
    kind: Literal["upgrade"] = "upgrade"


@dataclass(frozen=True)
class ResearchOrder:
    """E6: raise the maximum technology level by one (from the next turn)."""

    kind: Literal["research"] = "research"


@dataclass(frozen=True)
class SpyOrder:
    """E13: turn `units` level-0 units on an own territory into spies, 20 technology each (Evolution 3)."""

    units: int
    territory: str
    kind: Literal["spy"] = "spy"


@dataclass(frozen=True)
class SpyMoveOrder:
    """E13: move `units` spies: through own territories, and at most one step into other players' land."""

    units: int
    source: str
    target: str
    kind: Literal["spy_move"] = "spy_move"


@dataclass(frozen=True)
class CloakingResearchOrder:
    """E14: research cloaking, once (Evolution 3)."""

    kind: Literal["research_cloaking"] = "research_cloaking"


@dataclass(frozen=True)
class CloakOrder:
    """E14: hide an own territory from other players' adjacency view for the next 3 turns (Evolution 3)."""

    territory: str
    kind: Literal["cloak"] = "cloak"


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


def describe(order: AnyOrder) -> str:
    """One order in a few words."""
    if isinstance(order, LevelMoveOrder | LevelAttackOrder):
        verb = "move" if isinstance(order, LevelMoveOrder) else "attack"
        return f"{verb} {order.units} level-{order.level} from {order.source} to {order.target}"
    if isinstance(order, UpgradeOrder):
        return f"upgrade {order.units} on {order.territory} from level {order.level} to {order.to_level}"
    if isinstance(order, ResearchOrder):
        return "research the next technology level"
    if isinstance(order, SpyOrder):
        return f"train {order.units} {'spy' if order.units == 1 else 'spies'} on {order.territory}"
    if isinstance(order, SpyMoveOrder):
        return f"move {order.units} {'spy' if order.units == 1 else 'spies'} from {order.source} to {order.target}"
    if isinstance(order, CloakingResearchOrder):
        return "research cloaking"
    if isinstance(order, CloakOrder):
        return f"cloak {order.territory}"
    return describe_first(order)
