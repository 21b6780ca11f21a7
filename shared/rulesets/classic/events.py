"""What happened in a classic Risk game, told to every player and spectator as it happens (each die included),
except what only some may know: the card a player draws, the cards handed over with a last country, a mission
that changed. Those go out as Private events to their holders."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from shared.game import events
from shared.rulesets.classic.cards import Card
from shared.rulesets.classic.missions import Mission


@dataclass(frozen=True)
class ArmyPlaced:
    """C1: one starting army placed."""

    player: str
    country: str
    kind: Literal["army_placed"] = "army_placed"


@dataclass(frozen=True)
class ArmiesPlaced:
    """C1 `placeall`: the rest of a player's starting armies, where each went."""

    player: str
    placed: tuple[tuple[str, int], ...]
    kind: Literal["armies_placed"] = "armies_placed"


@dataclass(frozen=True)
class CapitalChosen:
    player: str
    country: str
    kind: Literal["capital_chosen"] = "capital_chosen"


@dataclass(frozen=True)
class TurnStarted(events.TurnStarted):
    """C3: a player's turn begins with this many armies to place: countries / 3 (at least 3) and continents."""

    player: str
    armies: int
    from_countries: int
    continents: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class CardsTraded:
    """C4: a set traded; traded cards are shown to everyone."""

    player: str
    cards: tuple[Card, ...]
    armies: int
    kind: Literal["cards_traded"] = "cards_traded"


@dataclass(frozen=True)
class CardsKept:
    """C4 `exchangecards -none`."""

    player: str
    kind: Literal["cards_kept"] = "cards_kept"


@dataclass(frozen=True)
class Reinforced:
    player: str
    country: str
    armies: int
    left: int
    """Armies the player still has to place."""
    kind: Literal["reinforced"] = "reinforced"


@dataclass(frozen=True)
class DiceRolled:
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
    kind: Literal["dice_rolled"] = "dice_rolled"


@dataclass(frozen=True)
class CountryConquered:
    player: str
    source: str
    country: str
    defender: str
    least: int
    """C6: the fewest armies that may move in, and the most."""
    most: int
    kind: Literal["country_conquered"] = "country_conquered"


@dataclass(frozen=True)
class ArmiesMovedIn:
    """C6: the move-in after a conquest (`automatic` when there was only one choice, or the game was won)."""

    player: str
    source: str
    target: str
    armies: int
    automatic: bool = False
    kind: Literal["armies_moved_in"] = "armies_moved_in"


@dataclass(frozen=True)
class AttacksEnded:
    player: str
    automatic: bool = False
    """True when no attack was possible any more."""
    kind: Literal["attacks_ended"] = "attacks_ended"


@dataclass(frozen=True)
class Fortified:
    player: str
    source: str
    target: str
    armies: int
    kind: Literal["fortified"] = "fortified"


@dataclass(frozen=True)
class FortificationSkipped:
    player: str
    automatic: bool = False
    """True when no fortification was possible."""
    kind: Literal["fortification_skipped"] = "fortification_skipped"


@dataclass(frozen=True)
class CardDrawn:
    """C4: a player who conquered this turn draws a card (which one is told to them alone: CardReceived)."""

    player: str
    cards: int
    """How many they hold now."""
    kind: Literal["card_drawn"] = "card_drawn"


@dataclass(frozen=True)
class CardReceived:
    """Private to the player: the card they drew."""

    player: str
    card: Card
    kind: Literal["card_received"] = "card_received"


@dataclass(frozen=True)
class DeckReshuffled:
    """C4: the discard pile, shuffled, is the new deck."""

    cards: int
    kind: Literal["deck_reshuffled"] = "deck_reshuffled"


@dataclass(frozen=True)
class CardsCaptured:
    """C4: the conqueror of a player's last country takes their cards (how many is public)."""

    player: str
    loser: str
    count: int
    kind: Literal["cards_captured"] = "cards_captured"


@dataclass(frozen=True)
class CardsHandedOver:
    """Private to the conqueror and the loser: the cards themselves."""

    player: str
    loser: str
    cards: tuple[Card, ...]
    kind: Literal["cards_handed_over"] = "cards_handed_over"


@dataclass(frozen=True)
class MissionChanged:
    """Private to the holder: their target was eliminated by someone else (or was themselves)."""

    player: str
    mission: Mission
    kind: Literal["mission_changed"] = "mission_changed"


@dataclass(frozen=True)
class Cheated:
    """C10's cheater at work, in the open: what it doubled or took."""

    player: str
    phase: str
    countries: tuple[str, ...]
    kind: Literal["cheated"] = "cheated"


@dataclass(frozen=True)
class PlayerEliminated(events.PlayerEliminated):
    by: str


@dataclass(frozen=True)
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
