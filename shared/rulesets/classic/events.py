"""What happened in a classic Risk game, told to every player and spectator as it happens (each die included),
except what only some may know: the card a player draws, the cards handed over with a last country, a mission
that changed. Those go out as Private events to their holders."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from shared.game import events
from shared.game.tagged import Tagged
from shared.rulesets.classic.cards import Card
from shared.rulesets.classic.missions import Mission


class ArmyPlaced(Tagged, kind="army_placed"):
    """C1: one starting army placed."""

    player: str
    country: str


class ArmiesPlaced(Tagged, kind="armies_placed"):
    """C1 `placeall`: the rest of a player's starting armies, where each went."""

    player: str
    placed: tuple[tuple[str, int], ...]


class CapitalChosen(Tagged, kind="capital_chosen"):
    player: str
    country: str


class TurnStarted(events.TurnStarted):
    """C3: a player's turn begins with this many armies to place: countries / 3 (at least 3) and continents."""

    player: str
    armies: int
    from_countries: int
    continents: tuple[tuple[str, int], ...] = ()


class CardsTraded(Tagged, kind="cards_traded"):
    """C4: a set traded; traded cards are shown to everyone."""

    player: str
    cards: tuple[Card, ...]
    armies: int


class CardsKept(Tagged, kind="cards_kept"):
    """C4 `exchangecards -none`."""

    player: str


class Reinforced(Tagged, kind="reinforced"):
    player: str
    country: str
    armies: int
    left: int
    """Armies the player still has to place."""


class DiceRolled(Tagged, kind="dice_rolled"):
    """C5: one roll, every die, the losses, and the armies on both sides after it."""

    player: str
    source: str
    target: str
    defender: str
    attack: tuple[int, ...]
    defence: tuple[int, ...]
    attacker_losses: int
    defender_losses: int
    source_armies: int
    target_armies: int


class CountryConquered(Tagged, kind="country_conquered"):
    player: str
    source: str
    country: str
    defender: str
    least: int
    """C6: the fewest armies that may move in, and the most."""
    most: int


class ArmiesMovedIn(Tagged, kind="armies_moved_in"):
    """C6: the move-in after a conquest (`automatic` when there was only one choice, or the game was won)."""

    player: str
    source: str
    target: str
    armies: int
    automatic: bool = False


class AttacksEnded(Tagged, kind="attacks_ended"):
    player: str
    automatic: bool = False
    """True when no attack was possible any more."""


class Fortified(Tagged, kind="fortified"):
    player: str
    source: str
    target: str
    armies: int


class FortificationSkipped(Tagged, kind="fortification_skipped"):
    player: str
    automatic: bool = False
    """True when no fortification was possible."""


class CardDrawn(Tagged, kind="card_drawn"):
    """C4: a player who conquered this turn draws a card (which one is told to them alone: CardReceived)."""

    player: str
    cards: int
    """How many they hold now."""


class CardReceived(Tagged, kind="card_received"):
    """Private to the player: the card they drew."""

    player: str
    card: Card


class DeckReshuffled(Tagged, kind="deck_reshuffled"):
    """C4: the discard pile, shuffled, is the new deck."""

    cards: int


class CardsCaptured(Tagged, kind="cards_captured"):
    """C4: the conqueror of a player's last country takes their cards (how many is public)."""

    player: str
    loser: str
    count: int


class CardsHandedOver(Tagged, kind="cards_handed_over"):
    """Private to the conqueror and the loser: the cards themselves."""

    player: str
    loser: str
    cards: tuple[Card, ...]


class MissionChanged(Tagged, kind="mission_changed"):
    """Private to the holder: their target was eliminated by someone else (or was themselves)."""

    player: str
    mission: Mission


class Cheated(Tagged, kind="cheated"):
    """C10's cheater at work, in the open: what it doubled or took."""

    player: str
    phase: str
    countries: tuple[str, ...]


class PlayerEliminated(events.PlayerEliminated):
    by: str


class GameWon(events.GameWon):
    how: str
    """What won: "domination", "capital", "mission" (with what it was), or "last player"."""


GameDrawn = events.GameDrawn

ClassicEvent = (
    ArmyPlaced
    | ArmiesPlaced
    | CapitalChosen
    | TurnStarted
    | CardsTraded
    | CardsKept
    | Reinforced
    | DiceRolled
    | CountryConquered
    | ArmiesMovedIn
    | AttacksEnded
    | Fortified
    | FortificationSkipped
    | CardDrawn
    | CardReceived
    | DeckReshuffled
    | CardsCaptured
    | CardsHandedOver
    | MissionChanged
    | Cheated
    | PlayerEliminated
    | GameWon
    | GameDrawn
)

Event = Annotated[ClassicEvent, Field(discriminator="kind")]
