"""Warzone's computer players (W15): the COMP 345 strategies and the project's own strongest, `strategist`."""

from shared.game.strategy import Strategy
from shared.rulesets.warzone.bots.aggressive import AggressiveStrategy
from shared.rulesets.warzone.bots.benevolent import BenevolentStrategy
from shared.rulesets.warzone.bots.cheater import CheaterStrategy
from shared.rulesets.warzone.bots.neutral import NeutralStrategy
from shared.rulesets.warzone.bots.random_strategy import RandomStrategy
from shared.rulesets.warzone.bots.strategist import StrategistStrategy

STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls
    for cls in (
        AggressiveStrategy,
        BenevolentStrategy,
        NeutralStrategy,
        CheaterStrategy,
        RandomStrategy,
        StrategistStrategy,
    )
}

__all__ = ["STRATEGIES"]
