"""What a Warzone turn's events amount to for a finished game's statistics (shared/game/statistics.py): every
advance on another's territory a battle, the reinforcements of W3 the income, the cards played as the turn's own
statistics count them (W14), and a player who went out put out by whoever took their last territory that turn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shared.game.game import Game
from shared.game.statistics import TurnFacts, TurnTally, holdings_of
from shared.rulesets.warzone.board import WarzoneBoard
from shared.rulesets.warzone.events import Battle, PlayerEliminated, ReinforcementsReceived, TurnStats


def holdings(game: Game[WarzoneBoard, Any]) -> Mapping[str, tuple[str | None, int]]:
    return holdings_of(game.game_map.names, game.board.owner, game.board.units)


def turn_facts(events: Sequence[Any]) -> TurnFacts:
    tally = TurnTally()
    for event in events:
        if isinstance(event, Battle):
            tally.battle(event.attacker, event.defender, event.holder == event.attacker)
        elif isinstance(event, ReinforcementsReceived):
            tally.received(event.player, event.units)
        elif isinstance(event, TurnStats):
            for player, stats in event.players.items():
                tally.played(player, stats.cards_played)
        elif isinstance(event, PlayerEliminated):
            tally.went_out(event.player)
    return tally.facts()
