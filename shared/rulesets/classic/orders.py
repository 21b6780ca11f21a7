"""The actions a classic Risk player takes, one at a time, each named as in the SOEN 6441 grammar (C12)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field


@dataclass(frozen=True)
class PlaceArmy:
    """C1 `placearmy country`: one starting army on an own country."""

    country: str
    kind: Literal["placearmy"] = "placearmy"


@dataclass(frozen=True)
class PlaceAll:
    """C1 `placeall`: the rest of one's starting armies, each on an own country drawn at random."""

    kind: Literal["placeall"] = "placeall"


@dataclass(frozen=True)
class ChooseCapital:
    """C11 capital mode: `capital country`."""

    country: str
    kind: Literal["capital"] = "capital"


@dataclass(frozen=True)
class ExchangeCards:
    """C4 `exchangecards n n n`: trade the cards at these positions of one's hand (from 1) for armies."""

    positions: tuple[int, int, int]
    kind: Literal["exchangecards"] = "exchangecards"


@dataclass(frozen=True)
class KeepCards:
    """C4 `exchangecards -none`: no trade this turn (refused while 5 cards or more are held)."""

    kind: Literal["keepcards"] = "keepcards"


@dataclass(frozen=True)
class Reinforce:
    """C3 `reinforce country num`."""

    country: str
    armies: int
    kind: Literal["reinforce"] = "reinforce"


@dataclass(frozen=True)
class Attack:
    """C5 `attack from to numdice`: one roll."""

    source: str
    target: str
    dice: int
    kind: Literal["attack"] = "attack"


@dataclass(frozen=True)
class AllOut:
    """C5 `attack from to -allout`: rolls with the most dice until the country falls or 1 army is left."""

    source: str
    target: str
    kind: Literal["allout"] = "allout"


@dataclass(frozen=True)
class AttackUntil:
    """`attack from to -until num`: an all-out attack that stops once `remain` armies are left in the attacking
    country (Domination's "attack until"): rolls with the most dice until the country falls or the attacker is down
    to `remain`. All-out is `remain` 1."""

    source: str
    target: str
    remain: int
    kind: Literal["attackuntil"] = "attackuntil"


@dataclass(frozen=True)
class NoAttack:
    """C7 `attack -noattack`: no more attacks this turn."""

    kind: Literal["noattack"] = "noattack"


@dataclass(frozen=True)
class AttackMove:
    """C6 `attackmove num`: the armies that enter the country just conquered."""

    armies: int
    kind: Literal["attackmove"] = "attackmove"


@dataclass(frozen=True)
class Fortify:
    """C7 `fortify from to num`: the turn's one move, which ends it."""

    source: str
    target: str
    armies: int
    kind: Literal["fortify"] = "fortify"


@dataclass(frozen=True)
class NoFortify:
    """C7 `fortify -none`: end the turn without a move."""

    kind: Literal["nofortify"] = "nofortify"


@dataclass(frozen=True)
class Cheat:
    """C10's cheater, only where the game's options allow it: in reinforcement it doubles the armies on every own
    country; in attack it takes every enemy country next to an own one; in fortification it doubles the armies on
    every own country that borders an enemy, and ends the turn."""

    kind: Literal["cheat"] = "cheat"


ClassicOrder = (
    PlaceArmy
    | PlaceAll
    | ChooseCapital
    | ExchangeCards
    | KeepCards
    | Reinforce
    | Attack
    | AllOut
    | AttackUntil
    | NoAttack
    | AttackMove
    | Fortify
    | NoFortify
    | Cheat
)

Order = Annotated[ClassicOrder, Field(discriminator="kind")]


def describe(order: ClassicOrder) -> str:
    """The order as the grammar writes it."""
    if isinstance(order, PlaceArmy):
        return f"placearmy {order.country}"
    if isinstance(order, PlaceAll):
        return "placeall"
    if isinstance(order, ChooseCapital):
        return f"capital {order.country}"
    if isinstance(order, ExchangeCards):
        return "exchangecards " + " ".join(str(p) for p in order.positions)
    if isinstance(order, KeepCards):
        return "exchangecards -none"
    if isinstance(order, Reinforce):
        return f"reinforce {order.country} {order.armies}"
    if isinstance(order, Attack):
        return f"attack {order.source} {order.target} {order.dice}"
    if isinstance(order, AllOut):
        return f"attack {order.source} {order.target} -allout"
    if isinstance(order, AttackUntil):
        return f"attack {order.source} {order.target} -until {order.remain}"
    if isinstance(order, NoAttack):
        return "attack -noattack"
    if isinstance(order, AttackMove):
        return f"attackmove {order.armies}"
    if isinstance(order, Fortify):
        return f"fortify {order.source} {order.target} {order.armies}"
    if isinstance(order, NoFortify):
        return "fortify -none"
    return "cheat"


def words(order: ClassicOrder) -> str:
    """The order in a person's words, for a page that offers it or says it was done (`describe` is the console's)."""
    if isinstance(order, PlaceArmy):
        return f"place an army on {order.country}"
    if isinstance(order, PlaceAll):
        return "place all the rest at random"
    if isinstance(order, ChooseCapital):
        return f"choose {order.country} as your capital"
    if isinstance(order, ExchangeCards):
        positions = [str(p) for p in order.positions]
        return (
            f"trade cards {', '.join(positions[:-1])} and {positions[-1]}"
            if len(positions) > 1
            else f"trade card {''.join(positions)}"
        )
    if isinstance(order, KeepCards):
        return "keep your cards"
    if isinstance(order, Reinforce):
        return f"place {order.armies} armies on {order.country}"
    if isinstance(order, Attack):
        return f"attack {order.target} from {order.source} with {order.dice} dice"
    if isinstance(order, AllOut):
        return f"attack {order.target} from {order.source} all out, until it falls or one army is left"
    if isinstance(order, AttackUntil):
        left = "1 army is" if order.remain == 1 else f"{order.remain} armies are"
        return f"attack {order.target} from {order.source} until it falls or {left} left in {order.source}"
    if isinstance(order, NoAttack):
        return "end the attack phase"
    if isinstance(order, AttackMove):
        return f"move {order.armies} armies in"
    if isinstance(order, Fortify):
        return f"move {order.armies} armies from {order.source} to {order.target}"
    if isinstance(order, NoFortify):
        return "skip fortifying: end your turn"
    return "cheat: break the rules as the cheater does"
