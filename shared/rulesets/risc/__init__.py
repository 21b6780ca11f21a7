"""RISC (../shared/spec/risc.md): the rule set this project began with."""

from shared.rulesets.risc.rules import RiscRuleSet

__all__ = ["RiscRuleSet"]
