"""A classic Risk board: owners and armies, whose turn and which phase, hands, deck and discard pile, the conquest
awaiting its move-in, capitals and missions, who is out and who won. Never mutated once made."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from shared.rulesets.classic.cards import Card
from shared.rulesets.classic.missions import Mission
from shared.rulesets.turn_by_turn.board import Conquest as Conquest


class Phase(StrEnum):
    STARTUP = "startup"
    """C1: the players place the rest of their starting armies, one at a time in seat order."""
    CAPITAL = "capital"
    """C11 capital mode: each player picks a capital, in seat order, once every starting army is placed."""
    REINFORCEMENT = "reinforcement"
    ATTACK = "attack"
    MOVE_IN = "move-in"
    """C6: a country has just been conquered; the attacker must say how many armies enter it."""
    FORTIFICATION = "fortification"
    FINISHED = "finished"


TURN_PHASES = (Phase.REINFORCEMENT, Phase.ATTACK, Phase.MOVE_IN, Phase.FORTIFICATION)


@dataclass(frozen=True)
class ClassicBoard:
    phase: Phase
    turn: int
    """0 during startup and capital choice; then rounds: turn N is every player's N-th turn."""
    seats: tuple[str, ...]
    """C1: the seat order, drawn at random."""
    active: str
    owner: Mapping[str, str]
    armies: Mapping[str, int]
    unplaced: Mapping[str, int] = field(default_factory=dict)
    """Startup: each player's armies still to place."""
    reinforcements: int = 0
    """Reinforcement: the active player's armies still to place."""
    hands: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    deck: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    trades: int = 0
    """Sets traded by anyone so far: what the next is worth on an increasing schedule."""
    trading_closed: bool = False
    """The active player said `exchangecards -none` this turn."""
    conquered: bool = False
    """The active player has conquered a country this turn: a card is theirs at its end."""
    conquest: Conquest | None = None
    """C6: the conquest awaiting its move-in."""
    capitals: Mapping[str, str] = field(default_factory=dict)
    missions: Mapping[str, Mission] = field(default_factory=dict)
    eliminated: tuple[str, ...] = ()
    eliminated_by: Mapping[str, str] = field(default_factory=dict)
    winner: str | None = None

    def evolve(self, **changes: Any) -> ClassicBoard:
        return replace(self, **changes)

    def countries_of(self, player: str) -> list[str]:
        return [name for name, held in self.owner.items() if held == player]

    def hand(self, player: str) -> tuple[Card, ...]:
        return self.hands.get(player, ())

    @property
    def alive(self) -> tuple[str, ...]:
        return tuple(p for p in self.seats if p not in self.eliminated)
