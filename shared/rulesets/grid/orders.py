"""The actions of the grid game, one at a time, in words a VG101 player expects (presentation.py)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from shared.game import tagged


class Deploy(tagged.Order, kind="deploy"):
    """G2 one troop on an own territory (deployment stage); G3 the turn's new troops, all on one."""

    cell: str
    said = "deploy {cell}"
    worded = "deploy on ({cell})"


class Attack(tagged.Order, kind="attack"):
    """G4: attack an adjacent enemy territory with m troops (1 to 3, fewer than the source holds)."""

    source: str
    target: str
    troops: int
    said = "attack {source} {target} {troops}"
    worded = "attack ({target}) from ({source}) with {troops} troops"


class MoveIn(tagged.Order, kind="movein"):
    """G4: p troops into the territory just taken, m <= p < s."""

    troops: int
    said = "movein {troops}"
    worded = "move {troops} troops in"


class Move(tagged.Order, kind="move"):
    """G5: the turn's one move, between own territories joined by own territories; it ends the turn."""

    source: str
    target: str
    troops: int
    said = "move {source} {target} {troops}"
    worded = "move {troops} troops from ({source}) to ({target}), ending your turn"


class End(tagged.Order, kind="end"):
    """End the turn without a move."""

    said = "end"
    worded = "end your turn without a move"


GridOrder = Deploy | Attack | MoveIn | Move | End

Order = Annotated[GridOrder, Field(discriminator="kind")]
