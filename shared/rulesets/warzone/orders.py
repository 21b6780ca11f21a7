"""The orders a Warzone player can issue (W4), and the cheater's (W15). Plain frozen values, told apart by `kind`.

`cheat` is no order of the rules: it is the COMP 345 cheater's rule break, accepted only in a game whose creator set
`allow_cheaters`, and refused otherwise like any illegal order. It goes through the same checks, the same execution
order and the same report as every other order, so a game with a cheater replays like any other.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from shared.game import tagged
from shared.rulesets.warzone.cards import Card


class DeployOrder(tagged.Order, kind="deploy"):
    """Put `units` of the pool on an own territory."""

    territory: str
    units: int
    said = "deploy {units} {territory}"
    worded = "deploy {units} on {territory}"


class AdvanceOrder(tagged.Order, kind="advance"):
    """Send `units` from an own territory to an adjacent one: a transfer to an own territory, a battle otherwise."""

    units: int
    source: str
    target: str
    said = "advance {units} {source} {target}"
    worded = "advance {units} from {source} to {target}"


class BombOrder(tagged.Order, kind="bomb"):
    """Halve the units of a territory next to the player's own (a bomb card)."""

    target: str
    said = "bomb {target}"
    worded = "bomb {target}: halve its units"


class BlockadeOrder(tagged.Order, kind="blockade"):
    """Multiply an own territory's units and give it to the neutral owner (a blockade card)."""

    territory: str
    said = "blockade {territory}"
    worded = "blockade {territory}: multiply its units, and it turns neutral"


class AirliftOrder(tagged.Order, kind="airlift"):
    """Move `units` between two own territories at any distance (an airlift card)."""

    units: int
    source: str
    target: str
    said = "airlift {units} {source} {target}"
    worded = "airlift {units} from {source} to {target}"


class NegotiateOrder(tagged.Order, kind="negotiate"):
    """A truce with another player until the end of the turn (a diplomacy card)."""

    player: str
    said = "negotiate {player}"
    worded = "a truce with {player} for this turn"


class ReinforceOrder(tagged.Order, kind="reinforce"):
    """Play a reinforcement card: 5 more units in this turn's pool, for deploys issued after it."""

    said = "reinforce"
    worded = "play a reinforcement card"


class CheatOrder(tagged.Order, kind="cheat"):
    """The cheater's turn (W15): every territory next to its own becomes its own, without a battle. Only in games
    that allow cheaters."""

    said = "cheat (conquer every neighbouring territory)"


AnyOrder = (
    DeployOrder | AdvanceOrder | BombOrder | BlockadeOrder | AirliftOrder | NegotiateOrder | ReinforceOrder | CheatOrder
)
Order = Annotated[AnyOrder, Field(discriminator="kind")]

CARD_OF: dict[str, Card] = {
    "bomb": Card.BOMB,
    "blockade": Card.BLOCKADE,
    "airlift": Card.AIRLIFT,
    "negotiate": Card.DIPLOMACY,
    "reinforce": Card.REINFORCEMENT,
}
"""The card each kind of order plays."""


def card_of(order: AnyOrder) -> Card | None:
    return CARD_OF.get(order.kind)
