"""What happened when a Warzone turn executed: the turn's report, order by order, in execution order (W5-W14).

Everything here is public except `CardDrawn`, which goes out as Private to its holder; everyone else is told
`CardReceived` (that the player drew a card, not which).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from shared.game import events
from shared.game.events import TurnStarted as TurnStarted
from shared.rulesets.warzone.cards import Card
from shared.rulesets.warzone.orders import Order


@dataclass(frozen=True)
class TurnOrderDrawn:
    """W5: the order in which the players' orders are taken this turn, drawn by the game's generator."""

    turn: int
    players: tuple[str, ...]
    kind: Literal["turn_order"] = "turn_order"


@dataclass(frozen=True)
class TruceMade:
    """W11: `player` played diplomacy on `partner`: neither may advance into nor bomb the other until the turn ends."""

    player: str
    partner: str
    kind: Literal["truce"] = "truce"


@dataclass(frozen=True)
class Deployed:
    player: str
    territory: str
    units: int
    kind: Literal["deployed"] = "deployed"


@dataclass(frozen=True)
class ReinforcementCardPlayed:
    """A reinforcement card: `units` more in the player's pool this turn."""

    player: str
    units: int
    kind: Literal["reinforcement_card"] = "reinforcement_card"


@dataclass(frozen=True)
class Moved:
    """An advance into an own territory (W7) or an airlift (W10). `ordered` > `units` when the source held fewer
    than the order named and sent what was left (W6)."""

    player: str
    units: int
    source: str
    target: str
    ordered: int
    airlift: bool = False
    kind: Literal["moved"] = "moved"


@dataclass(frozen=True)
class Battle:
    """W7: one advance into someone else's territory, one volley each way."""

    attacker: str
    source: str
    territory: str
    defender: str | None
    attacking_units: int
    defending_units: int
    attacker_losses: int
    defender_losses: int
    holder: str | None
    """Who holds the territory after the battle."""
    units_left: int
    """Units in the territory after the battle: the survivors who moved in, or the defenders left."""
    ordered: int
    kind: Literal["battle"] = "battle"

    @property
    def conquered(self) -> bool:
        return self.holder == self.attacker


@dataclass(frozen=True)
class Bombed:
    player: str
    territory: str
    owner: str | None
    before: int
    after: int
    kind: Literal["bombed"] = "bombed"


@dataclass(frozen=True)
class Blockaded:
    player: str
    territory: str
    before: int
    after: int
    kind: Literal["blockaded"] = "blockaded"


@dataclass(frozen=True)
class CheatConquered:
    """W15: the cheater took these territories without a battle (only in games that allow cheaters)."""

    player: str
    territories: tuple[str, ...]
    kind: Literal["cheat_conquered"] = "cheat_conquered"


@dataclass(frozen=True)
class Skipped:
    """W6: an order that no longer holds when its time comes. It changed nothing (a card it would play stays in
    the hand)."""

    player: str
    order: Order
    code: str
    reason: str
    kind: Literal["skipped"] = "skipped"


@dataclass(frozen=True)
class CardDrawn:
    """W13: the card itself. Private to its holder."""

    player: str
    card: Card
    kind: Literal["card_drawn"] = "card_drawn"


@dataclass(frozen=True)
class CardReceived:
    """W13: what everyone else is told: the player drew a card."""

    player: str
    kind: Literal["card_received"] = "card_received"


@dataclass(frozen=True)
class DeckEmpty:
    """W13: the player conquered this turn but the deck had no card left."""

    player: str
    kind: Literal["deck_empty"] = "deck_empty"


@dataclass(frozen=True)
class ReinforcementsReceived:
    """W3: the start of a turn's pool. `base` is max(3, territories // 3); `continents` those held whole."""

    player: str
    units: int
    base: int
    continents: tuple[str, ...]
    pool: int
    """The pool for the coming turn, units carried over included."""
    kind: Literal["reinforcements"] = "reinforcements"


@dataclass(frozen=True)
class PlayerEliminated(events.PlayerEliminated):
    """W14: no territory left at the end of the turn; `cards_returned` went back to the deck."""

    cards_returned: int


@dataclass(frozen=True)
class PlayerTurnStats:
    """One player's line of the statistics for one turn (W14)."""

    territories: int
    units: int
    """On the board at the end of the turn (the pool not counted)."""
    conquests: int
    losses: int
    """Units destroyed this turn: in battles, attacking or defending, and by bombs."""
    cards_played: int


@dataclass(frozen=True)
class TurnStats:
    """W14: the statistics of one turn, for the table the end shows."""

    turn: int
    players: dict[str, PlayerTurnStats]
    kind: Literal["turn_stats"] = "turn_stats"


@dataclass(frozen=True)
class GameWon(events.GameWon):
    """W14: one player is left. `statistics`: every turn's, for the end's table."""

    turn: int
    statistics: tuple[TurnStats, ...]


@dataclass(frozen=True)
class GameDrawn(events.GameDrawn):
    """W14: `max_turns` turns played without a winner, or the last players went out together. `statistics`: every
    turn's, for the end's table."""

    statistics: tuple[TurnStats, ...]


AnyEvent = (
    TurnOrderDrawn
    | TruceMade
    | Deployed
    | ReinforcementCardPlayed
    | Moved
    | Battle
    | Bombed
    | Blockaded
    | CheatConquered
    | Skipped
    | CardDrawn
    | CardReceived
    | DeckEmpty
    | ReinforcementsReceived
    | PlayerEliminated
    | TurnStats
    | GameWon
    | GameDrawn
    | TurnStarted
)
Event = Annotated[AnyEvent, Field(discriminator="kind")]
