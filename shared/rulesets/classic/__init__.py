"""Classic Risk (../shared/spec/classic.md C1-C12): the SOEN 6441 / Domination game, one player at a time."""

from shared.rulesets.classic.rules import ClassicRuleSet

__all__ = ["ClassicRuleSet"]
