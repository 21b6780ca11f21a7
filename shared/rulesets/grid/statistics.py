"""What a round of the grid game amounts to for a finished game's statistics (shared/game/statistics.py): the rolls
of one attack on one cell a battle (won when the cell is taken), each turn's new troops the income (G3), and
eliminations as the events name them. The grid game has no cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shared.game.game import Game
from shared.game.statistics import TurnFacts, TurnTally, holdings_of
from shared.rulesets.grid.board import GridBoard
from shared.rulesets.grid.events import Battle, CellTaken, PlayerEliminated, TurnStarted


def holdings(game: Game[GridBoard, Any]) -> Mapping[str, tuple[str | None, int]]:
    return holdings_of(game.game_map.names, game.board.owner, game.board.troops)


def turn_facts(events: Sequence[Any]) -> TurnFacts:
    tally = TurnTally()
    for event in events:
        if isinstance(event, Battle):
            tally.roll(event.player, event.defender, event.source, event.target)
        elif isinstance(event, CellTaken):
            tally.taken(event.cell)
        elif isinstance(event, TurnStarted):
            tally.received(event.player, event.new_troops)
        elif isinstance(event, PlayerEliminated):
            tally.went_out(event.player, event.by)
    return tally.facts()
