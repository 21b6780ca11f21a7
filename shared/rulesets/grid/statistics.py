"""What a round of the grid game amounts to for a finished game's statistics (shared/game/statistics.py): the rolls
of one attack on one cell a battle (won when the cell is taken), each turn's new troops the income (G3), and
eliminations as the events name them. The grid game has no cards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from shared.game.game import Game
from shared.game.statistics import Roll, TurnFacts, battles_of_rolls
from shared.rulesets.grid.board import GridBoard
from shared.rulesets.grid.events import Battle, CellTaken, PlayerEliminated, TurnStarted


def holdings(game: Game[GridBoard, Any]) -> Mapping[str, tuple[str | None, int]]:
    board = game.board
    return {name: (board.owner.get(name), board.troops.get(name, 0)) for name in game.game_map.names}


def turn_facts(events: Sequence[Any]) -> TurnFacts:
    rolls: list[Roll] = []
    income: Counter[str] = Counter()
    eliminated: list[tuple[str, str | None]] = []
    for event in events:
        if isinstance(event, Battle):
            rolls.append(Roll(event.player, event.defender, event.source, event.target))
        elif isinstance(event, CellTaken) and rolls and rolls[-1].target == event.cell:
            last = rolls[-1]
            rolls[-1] = Roll(last.attacker, last.defender, last.source, last.target, taken=True)
        elif isinstance(event, TurnStarted):
            income[event.player] += event.new_troops
        elif isinstance(event, PlayerEliminated):
            eliminated.append((event.player, event.by))
    return TurnFacts(battles_of_rolls(rolls), income, {}, eliminated)
