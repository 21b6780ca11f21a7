"""The grid game's computer players: each sees only its own seat's view and answers one action at a time."""

from shared.game.strategy import Strategy
from shared.rulesets.grid.bots.aggressive import AggressiveStrategy
from shared.rulesets.grid.bots.defensive import DefensiveStrategy
from shared.rulesets.grid.bots.random_strategy import RandomStrategy
from shared.rulesets.grid.bots.strategist import StrategistStrategy

STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (AggressiveStrategy, DefensiveStrategy, RandomStrategy, StrategistStrategy)
}

__all__ = ["STRATEGIES"]
