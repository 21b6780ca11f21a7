"""The orders a RISC player can issue. Plain frozen values: the rules check them, the protocol carries them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field


@dataclass(frozen=True)
class PlaceOrder:
    """Put `units` of the starting pool on an own territory (placement phase, R9)."""

    territory: str
    units: int
    kind: Literal["place"] = "place"


@dataclass(frozen=True)
class MoveOrder:
    """Move units between own territories joined by own territories (R13)."""

    units: int
    source: str
    target: str
    kind: Literal["move"] = "move"


@dataclass(frozen=True)
class AttackOrder:
    """Send units from an own territory against an adjacent territory someone else holds (R14)."""

    units: int
    source: str
    target: str
    kind: Literal["attack"] = "attack"


Order = Annotated[PlaceOrder | MoveOrder | AttackOrder, Field(discriminator="kind")]


def describe(order: PlaceOrder | MoveOrder | AttackOrder) -> str:
    if isinstance(order, PlaceOrder):
        return f"place {order.units} on {order.territory}"
    return f"{order.kind} {order.units} from {order.source} to {order.target}"
