"""Computer players: strategies that see what a player sees and answer with legal orders, and the in-process
tournaments that pit them against each other."""

from shared.bots.base import Strategy
from shared.bots.registry import STRATEGIES, make_strategy
from shared.bots.viewstate import legal_only, state_from_view

__all__ = ["STRATEGIES", "Strategy", "legal_only", "make_strategy", "state_from_view"]
