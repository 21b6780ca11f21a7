"""The orders a RISC player can issue. Plain frozen values: the rules check them, the protocol carries them."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from shared.game import tagged


class PlaceOrder(tagged.Order, kind="place"):
    """Put `units` of the starting pool on an own territory (placement phase, R9)."""

    territory: str
    units: int
    said = "place {units} on {territory}"


class MoveOrder(tagged.Order, kind="move"):
    """Move units between own territories joined by own territories (R13)."""

    units: int
    source: str
    target: str
    said = "move {units} from {source} to {target}"


class AttackOrder(tagged.Order, kind="attack"):
    """Send units from an own territory against an adjacent territory someone else holds (R14)."""

    units: int
    source: str
    target: str
    said = "attack {units} from {source} to {target}"


Order = Annotated[PlaceOrder | MoveOrder | AttackOrder, Field(discriminator="kind")]
