"""What happened when a Warzone turn executed: the turn's report, order by order, in execution order (W5-W14).

Everything here is public except `CardDrawn`, which goes out as Private to its holder; everyone else is told
`CardReceived` (that the player drew a card, not which).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from pydantic import Field

from shared.game import events
from shared.game.events import TurnStarted as TurnStarted
from shared.game.tagged import Tagged
from shared.rulesets.warzone.cards import Card
from shared.rulesets.warzone.orders import Order


class TurnOrderDrawn(Tagged, kind="turn_order"):
    """W5: the order in which the players' orders are taken this turn, drawn by the game's generator."""

    turn: int
    players: tuple[str, ...]


class TruceMade(Tagged, kind="truce"):
    """W11: `player` played diplomacy on `partner`: neither may advance into nor bomb the other until the turn ends."""

    player: str
    partner: str


class Deployed(Tagged, kind="deployed"):
    player: str
    territory: str
    units: int


class ReinforcementCardPlayed(Tagged, kind="reinforcement_card"):
    """A reinforcement card: `units` more in the player's pool this turn."""

    player: str
    units: int


class Moved(Tagged, kind="moved"):
    """An advance into an own territory (W7) or an airlift (W10). `ordered` > `units` when the source held fewer
    than the order named and sent what was left (W6)."""

    player: str
    units: int
    source: str
    target: str
    ordered: int
    airlift: bool = False


class Battle(Tagged, kind="battle"):
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

    @property
    def conquered(self) -> bool:
        return self.holder == self.attacker


class Bombed(Tagged, kind="bombed"):
    player: str
    territory: str
    owner: str | None
    before: int
    after: int


class Blockaded(Tagged, kind="blockaded"):
    player: str
    territory: str
    before: int
    after: int


class CheatConquered(Tagged, kind="cheat_conquered"):
    """W15: the cheater took these territories without a battle (only in games that allow cheaters)."""

    player: str
    territories: tuple[str, ...]


class Skipped(Tagged, kind="skipped"):
    """W6: an order that no longer holds when its time comes. It changed nothing (a card it would play stays in
    the hand)."""

    player: str
    order: Order
    code: str
    reason: str


class CardDrawn(Tagged, kind="card_drawn"):
    """W13: the card itself. Private to its holder."""

    player: str
    card: Card


class CardReceived(Tagged, kind="card_received"):
    """W13: what everyone else is told: the player drew a card."""

    player: str


class DeckEmpty(Tagged, kind="deck_empty"):
    """W13: the player conquered this turn but the deck had no card left."""

    player: str


class ReinforcementsReceived(Tagged, kind="reinforcements"):
    """W3: the start of a turn's pool. `base` is max(3, territories // 3); `continents` those held whole."""

    player: str
    units: int
    base: int
    continents: tuple[str, ...]
    pool: int
    """The pool for the coming turn, units carried over included."""


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


class TurnStats(Tagged, kind="turn_stats"):
    """W14: the statistics of one turn, for the table the end shows."""

    turn: int
    players: dict[str, PlayerTurnStats]


class GameWon(events.GameWon):
    """W14: one player is left. `statistics`: every turn's, for the end's table."""

    turn: int
    statistics: tuple[TurnStats, ...]


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
