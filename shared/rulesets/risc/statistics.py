"""What a RISC turn's events amount to for a finished game's statistics (shared/game/statistics.py): every combat
(Evolution 1) or battle (Evolutions 2 and 3) a battle, the units received each turn its income (R19), and a player
who went out put out by whoever took their last territory that turn. RISC has no cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shared.game.game import Game
from shared.game.statistics import TurnFacts, TurnTally, holdings_of
from shared.rulesets.risc.board import RiscBoard
from shared.rulesets.risc.events import Combat, PlayerEliminated, UnitsReceived
from shared.rulesets.risc.evo_events import Battle


def holdings(game: Game[RiscBoard, Any]) -> Mapping[str, tuple[str | None, int]]:
    return holdings_of(game.game_map.names, game.board.owner, game.board.units)


def turn_facts(events: Sequence[Any]) -> TurnFacts:
    tally = TurnTally()
    for event in events:
        if isinstance(event, Combat | Battle):
            tally.battle(event.attacker, event.defender, event.new_owner == event.attacker)
        elif isinstance(event, UnitsReceived):
            tally.received(event.player, event.units)
        elif isinstance(event, PlayerEliminated):
            tally.went_out(event.player)
    return tally.facts()
