"""The orders a Warzone player can issue (W4), and the cheater's (W15). Plain frozen values, told apart by `kind`.

`cheat` is no order of the rules: it is the COMP 345 cheater's rule break, accepted only in a game whose creator set
`allow_cheaters`, and refused otherwise like any illegal order. It goes through the same checks, the same execution
order and the same report as every other order, so a game with a cheater replays like any other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from shared.rulesets.warzone.cards import Card


@dataclass(frozen=True)
class DeployOrder:
    """Put `units` of the pool on an own territory."""

    territory: str
    units: int
    kind: Literal["deploy"] = "deploy"


@dataclass(frozen=True)
class AdvanceOrder:
    """Send `units` from an own territory to an adjacent one: a transfer to an own territory, a battle otherwise."""

    units: int
    source: str
    target: str
    kind: Literal["advance"] = "advance"


@dataclass(frozen=True)
class BombOrder:
    """Halve the units of a territory next to the player's own (a bomb card)."""

    target: str
    kind: Literal["bomb"] = "bomb"


@dataclass(frozen=True)
class BlockadeOrder:
    """Multiply an own territory's units and give it to the neutral owner (a blockade card)."""

    territory: str
    kind: Literal["blockade"] = "blockade"


@dataclass(frozen=True)
class AirliftOrder:
    """Move `units` between two own territories at any distance (an airlift card)."""

    units: int
    source: str
    target: str
    kind: Literal["airlift"] = "airlift"


@dataclass(frozen=True)
class NegotiateOrder:
    """A truce with another player until the end of the turn (a diplomacy card)."""

    player: str
    kind: Literal["negotiate"] = "negotiate"


@dataclass(frozen=True)
class ReinforceOrder:
    """Play a reinforcement card: 5 more units in this turn's pool, for deploys issued after it."""

    kind: Literal["reinforce"] = "reinforce"


@dataclass(frozen=True)
class CheatOrder:
    """The cheater's turn (W15): every territory next to its own becomes its own, without a battle. Only in games
    that allow cheaters."""

    kind: Literal["cheat"] = "cheat"


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


def describe(order: AnyOrder) -> str:
    """One order in the words a player types it with."""
    if isinstance(order, DeployOrder):
        return f"deploy {order.units} {order.territory}"
    if isinstance(order, AdvanceOrder):
        return f"advance {order.units} {order.source} {order.target}"
    if isinstance(order, AirliftOrder):
        return f"airlift {order.units} {order.source} {order.target}"
    if isinstance(order, BombOrder):
        return f"bomb {order.target}"
    if isinstance(order, BlockadeOrder):
        return f"blockade {order.territory}"
    if isinstance(order, NegotiateOrder):
        return f"negotiate {order.player}"
    if isinstance(order, ReinforceOrder):
        return "reinforce"
    return "cheat (conquer every neighbouring territory)"


def words(order: AnyOrder) -> str:
    """One order in a person's words, for a page that offers it or says it was done (`describe` is the handout's
    command)."""
    if isinstance(order, DeployOrder):
        return f"deploy {order.units} on {order.territory}"
    if isinstance(order, AdvanceOrder):
        return f"advance {order.units} from {order.source} to {order.target}"
    if isinstance(order, AirliftOrder):
        return f"airlift {order.units} from {order.source} to {order.target}"
    if isinstance(order, BombOrder):
        return f"bomb {order.target}: halve its units"
    if isinstance(order, BlockadeOrder):
        return f"blockade {order.territory}: multiply its units, and it turns neutral"
    if isinstance(order, NegotiateOrder):
        return f"a truce with {order.player} for this turn"
    if isinstance(order, ReinforceOrder):
        return "play a reinforcement card"
    return describe(order)
