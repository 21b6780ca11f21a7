"""Classic Risk's computer players (C10): each sees only its own seat's view and answers one action at a time."""

from shared.game.strategy import Strategy
from shared.rulesets.classic.bots.aggressive import AggressiveStrategy
from shared.rulesets.classic.bots.benevolent import BenevolentStrategy
from shared.rulesets.classic.bots.cheater import CheaterStrategy
from shared.rulesets.classic.bots.random_strategy import RandomStrategy
from shared.rulesets.classic.bots.strategist import StrategistStrategy

STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls
    for cls in (AggressiveStrategy, BenevolentStrategy, RandomStrategy, CheaterStrategy, StrategistStrategy)
}

__all__ = ["STRATEGIES"]
