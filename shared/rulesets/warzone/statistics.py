"""What a Warzone turn's events amount to for a finished game's statistics (shared/game/statistics.py): every
advance on another's territory a battle, the reinforcements of W3 the income, the cards played as the turn's own
statistics count them (W14), and a player who went out put out by whoever took their last territory that turn."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from shared.game.game import Game
from shared.game.statistics import Battle, TurnFacts
from shared.rulesets.warzone.board import WarzoneBoard
from shared.rulesets.warzone.events import Battle as Advance
from shared.rulesets.warzone.events import PlayerEliminated, ReinforcementsReceived, TurnStats


def holdings(game: Game[WarzoneBoard, Any]) -> Mapping[str, tuple[str | None, int]]:
    board = game.board
    return {name: (board.owner[name], board.units[name]) for name in game.game_map.names}


def turn_facts(events: Sequence[Any]) -> TurnFacts:
    battles: list[Battle] = []
    income: Counter[str] = Counter()
    cards: dict[str, int] = {}
    took_last: dict[str, str] = {}
    eliminated: list[tuple[str, str | None]] = []
    for event in events:
        if isinstance(event, Advance):
            taken = event.holder == event.attacker
            battles.append(Battle(event.attacker, event.defender, taken))
            if taken and event.defender is not None:
                took_last[event.defender] = event.attacker
        elif isinstance(event, ReinforcementsReceived):
            income[event.player] += event.units
        elif isinstance(event, TurnStats):
            cards = {player: stats.cards_played for player, stats in event.players.items()}
        elif isinstance(event, PlayerEliminated):
            eliminated.append((event.player, took_last.get(event.player)))
    return TurnFacts(battles, income, cards, eliminated)
