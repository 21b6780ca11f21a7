"""What a round of classic Risk amounts to for a finished game's statistics (shared/game/statistics.py): the rolls
of one attack on one country a battle (won when the country falls), the armies of each turn's start the income
(C3; cards traded in are counted as cards played, three to a set), and eliminations as the events name them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shared.game.game import Game
from shared.game.statistics import TurnFacts, TurnTally, holdings_of
from shared.rulesets.classic.board import ClassicBoard
from shared.rulesets.classic.events import CardsTraded, CountryConquered, DiceRolled, PlayerEliminated, TurnStarted


def holdings(game: Game[ClassicBoard, Any]) -> Mapping[str, tuple[str | None, int]]:
    return holdings_of(game.game_map.names, game.board.owner, game.board.armies)


def turn_facts(events: Sequence[Any]) -> TurnFacts:
    tally = TurnTally()
    for event in events:
        if isinstance(event, DiceRolled):
            tally.roll(event.player, event.defender, event.source, event.target)
        elif isinstance(event, CountryConquered):
            tally.taken(event.country)
        elif isinstance(event, TurnStarted):
            tally.received(event.player, event.armies)
        elif isinstance(event, CardsTraded):
            tally.played(event.player, len(event.cards))
        elif isinstance(event, PlayerEliminated):
            tally.went_out(event.player, event.by)
    return tally.facts()
