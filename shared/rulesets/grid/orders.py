"""The actions of the grid game, one at a time, in words a VG101 player expects (presentation.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field


@dataclass(frozen=True)
class Deploy:
    """G2 one troop on an own territory (deployment stage); G3 the turn's new troops, all on one."""

    cell: str
    kind: Literal["deploy"] = "deploy"


@dataclass(frozen=True)
class Attack:
    """G4: attack an adjacent enemy territory with m troops (1 to 3, fewer than the source holds)."""

    source: str
    target: str
    troops: int
    kind: Literal["attack"] = "attack"


@dataclass(frozen=True)
class MoveIn:
    """G4: p troops into the territory just taken, m <= p < s."""

    troops: int
    kind: Literal["movein"] = "movein"


@dataclass(frozen=True)
class Move:
    """G5: the turn's one move, between own territories joined by own territories; it ends the turn."""

    source: str
    target: str
    troops: int
    kind: Literal["move"] = "move"


@dataclass(frozen=True)
class End:
    """End the turn without a move."""

    kind: Literal["end"] = "end"


GridOrder = Deploy | Attack | MoveIn | Move | End

Order = Annotated[GridOrder, Field(discriminator="kind")]


def describe(order: GridOrder) -> str:
    if isinstance(order, Deploy):
        return f"deploy {order.cell}"
    if isinstance(order, Attack):
        return f"attack {order.source} {order.target} {order.troops}"
    if isinstance(order, MoveIn):
        return f"movein {order.troops}"
    if isinstance(order, Move):
        return f"move {order.source} {order.target} {order.troops}"
    return "end"


def words(order: GridOrder) -> str:
    """The order in a person's words, for a page that offers it or says it was done (`describe` is the console's)."""
    if isinstance(order, Deploy):
        return f"deploy on ({order.cell})"
    if isinstance(order, Attack):
        return f"attack ({order.target}) from ({order.source}) with {order.troops} troops"
    if isinstance(order, MoveIn):
        return f"move {order.troops} troops in"
    if isinstance(order, Move):
        return f"move {order.troops} troops from ({order.source}) to ({order.target}), ending your turn"
    return "end your turn without a move"
