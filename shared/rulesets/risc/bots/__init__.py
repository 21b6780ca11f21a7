"""RISC's computer players: strategies that see what a player sees and answer with legal orders."""

from shared.game.strategy import Strategy
from shared.rulesets.risc.bots.aggressive import AggressiveStrategy
from shared.rulesets.risc.bots.defensive import DefensiveStrategy
from shared.rulesets.risc.bots.random_strategy import RandomStrategy
from shared.rulesets.risc.bots.strategist import StrategistStrategy

STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (RandomStrategy, AggressiveStrategy, DefensiveStrategy, StrategistStrategy)
}

__all__ = ["STRATEGIES"]
