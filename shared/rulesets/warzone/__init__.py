"""Warzone (../shared/spec/warzone.md): the COMP 345 Risk variant, with secret simultaneous turns."""

from shared.rulesets.warzone.rules import WarzoneRuleSet

__all__ = ["WarzoneRuleSet"]
