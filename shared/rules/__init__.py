"""The rules: state, orders, validation, resolution, combat and views, behind the Ruleset seam."""

from shared.rules.errors import RuleCode, RuleError
from shared.rules.orders import AttackOrder, MoveOrder, Order, PlaceOrder
from shared.rules.random import GameRandom
from shared.rules.registry import RULESETS, get_ruleset
from shared.rules.risc import RiscRuleset
from shared.rules.ruleset import GameOptions, Ruleset
from shared.rules.state import GameState, Phase
from shared.rules.turns import advance, commit, commit_for_timeout, issue, ready, withdraw
from shared.rules.view import GameView, view

__all__ = [
    "RULESETS",
    "AttackOrder",
    "GameOptions",
    "GameRandom",
    "GameState",
    "GameView",
    "MoveOrder",
    "Order",
    "Phase",
    "PlaceOrder",
    "RiscRuleset",
    "RuleCode",
    "RuleError",
    "Ruleset",
    "advance",
    "commit",
    "commit_for_timeout",
    "get_ruleset",
    "issue",
    "ready",
    "view",
    "withdraw",
]
