"""The actions a classic Risk player takes, one at a time, each named as in the SOEN 6441 grammar (C12)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from shared.game import tagged


class PlaceArmy(tagged.Order, kind="placearmy"):
    """C1 `placearmy country`: one starting army on an own country."""

    country: str
    said = "placearmy {country}"
    worded = "place an army on {country}"


class PlaceAll(tagged.Order, kind="placeall"):
    """C1 `placeall`: the rest of one's starting armies, each on an own country drawn at random."""

    said = "placeall"
    worded = "place all the rest at random"


class ChooseCapital(tagged.Order, kind="capital"):
    """C11 capital mode: `capital country`."""

    country: str
    said = "capital {country}"
    worded = "choose {country} as your capital"


class ExchangeCards(tagged.Order, kind="exchangecards"):
    """C4 `exchangecards n n n`: trade the cards at these positions of one's hand (from 1) for armies."""

    positions: tuple[int, int, int]
    said = "exchangecards {positions}"
    worded = "{trade}"

    @property
    def trade(self) -> str:
        """ "trade cards 1, 2 and 3" (or the one card)."""
        positions = [str(p) for p in self.positions]
        if len(positions) > 1:
            return f"trade cards {', '.join(positions[:-1])} and {positions[-1]}"
        return f"trade card {''.join(positions)}"


class KeepCards(tagged.Order, kind="keepcards"):
    """C4 `exchangecards -none`: no trade this turn (refused while 5 cards or more are held)."""

    said = "exchangecards -none"
    worded = "keep your cards"


class Reinforce(tagged.Order, kind="reinforce"):
    """C3 `reinforce country num`."""

    country: str
    armies: int
    said = "reinforce {country} {armies}"
    worded = "place {armies} armies on {country}"


class Attack(tagged.Order, kind="attack"):
    """C5 `attack from to numdice`: one roll."""

    source: str
    target: str
    dice: int
    said = "attack {source} {target} {dice}"
    worded = "attack {target} from {source} with {dice} dice"


class AllOut(tagged.Order, kind="allout"):
    """C5 `attack from to -allout`: rolls with the most dice until the country falls or 1 army is left."""

    source: str
    target: str
    said = "attack {source} {target} -allout"
    worded = "attack {target} from {source} all out, until it falls or one army is left"


class AttackUntil(tagged.Order, kind="attackuntil"):
    """`attack from to -until num`: an all-out attack that stops once `remain` armies are left in the attacking
    country (Domination's "attack until"): rolls with the most dice until the country falls or the attacker is down
    to `remain`. All-out is `remain` 1."""

    source: str
    target: str
    remain: int
    said = "attack {source} {target} -until {remain}"
    worded = "attack {target} from {source} until it falls or {left} left in {source}"

    @property
    def left(self) -> str:
        return "1 army is" if self.remain == 1 else f"{self.remain} armies are"


class NoAttack(tagged.Order, kind="noattack"):
    """C7 `attack -noattack`: no more attacks this turn."""

    said = "attack -noattack"
    worded = "end the attack phase"


class AttackMove(tagged.Order, kind="attackmove"):
    """C6 `attackmove num`: the armies that enter the country just conquered."""

    armies: int
    said = "attackmove {armies}"
    worded = "move {armies} armies in"


class Fortify(tagged.Order, kind="fortify"):
    """C7 `fortify from to num`: the turn's one move, which ends it."""

    source: str
    target: str
    armies: int
    said = "fortify {source} {target} {armies}"
    worded = "move {armies} armies from {source} to {target}"


class NoFortify(tagged.Order, kind="nofortify"):
    """C7 `fortify -none`: end the turn without a move."""

    said = "fortify -none"
    worded = "skip fortifying: end your turn"


class Cheat(tagged.Order, kind="cheat"):
    """C10's cheater, only where the game's options allow it: in reinforcement it doubles the armies on every own
    country; in attack it takes every enemy country next to an own one; in fortification it doubles the armies on
    every own country that borders an enemy, and ends the turn."""

    said = "cheat"
    worded = "cheat: break the rules as the cheater does"


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
