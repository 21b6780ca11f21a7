"""What a round of classic Risk amounts to for a finished game's statistics (shared/game/statistics.py): the rolls
of one attack on one country a battle (won when the country falls), the armies of each turn's start the income
(C3; cards traded in are counted as cards played, three to a set), and eliminations as the events name them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from shared.game.game import Game
from shared.game.statistics import Roll, TurnFacts, battles_of_rolls
from shared.rulesets.classic.board import ClassicBoard
from shared.rulesets.classic.events import CardsTraded, CountryConquered, DiceRolled, PlayerEliminated, TurnStarted


def holdings(game: Game[ClassicBoard, Any]) -> Mapping[str, tuple[str | None, int]]:
    board = game.board
    return {name: (board.owner.get(name), board.armies.get(name, 0)) for name in game.game_map.names}


def turn_facts(events: Sequence[Any]) -> TurnFacts:
    rolls: list[Roll] = []
    income: Counter[str] = Counter()
    cards: Counter[str] = Counter()
    eliminated: list[tuple[str, str | None]] = []
    for event in events:
        if isinstance(event, DiceRolled):
            rolls.append(Roll(event.player, event.defender, event.source, event.target))
        elif isinstance(event, CountryConquered) and rolls and rolls[-1].target == event.country:
            last = rolls[-1]
            rolls[-1] = Roll(last.attacker, last.defender, last.source, last.target, taken=True)
        elif isinstance(event, TurnStarted):
            income[event.player] += event.armies
        elif isinstance(event, CardsTraded):
            cards[event.player] += len(event.cards)
        elif isinstance(event, PlayerEliminated):
            eliminated.append((event.player, event.by))
    return TurnFacts(battles_of_rolls(rolls), income, cards, eliminated)
