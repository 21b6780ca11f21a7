"""What a RISC turn's events amount to for a finished game's statistics (shared/game/statistics.py): every combat
(Evolution 1) or battle (Evolutions 2 and 3) a battle, the units received each turn its income (R19), and a player
who went out put out by whoever took their last territory that turn. RISC has no cards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from shared.game.game import Game
from shared.game.statistics import Battle, TurnFacts
from shared.rulesets.risc.board import RiscBoard
from shared.rulesets.risc.events import Combat, PlayerEliminated, UnitsReceived
from shared.rulesets.risc.evo_events import Battle as EvoBattle


def holdings(game: Game[RiscBoard, Any]) -> Mapping[str, tuple[str | None, int]]:
    board = game.board
    return {name: (board.owner[name], board.units[name]) for name in game.game_map.names}


def turn_facts(events: Sequence[Any]) -> TurnFacts:
    battles: list[Battle] = []
    income: Counter[str] = Counter()
    took_last: dict[str, str] = {}
    eliminated: list[tuple[str, str | None]] = []
    for event in events:
        if isinstance(event, Combat | EvoBattle):
            taken = event.new_owner == event.attacker
            battles.append(Battle(event.attacker, event.defender, taken))
            if taken and event.defender is not None:
                took_last[event.defender] = event.attacker
        elif isinstance(event, UnitsReceived):
            income[event.player] += event.units
        elif isinstance(event, PlayerEliminated):
            eliminated.append((event.player, took_last.get(event.player)))
    return TurnFacts(battles, income, {}, eliminated)
