"""RISC (../shared/spec/risc.md): the rule set this project began with, and its evolutions (risc-evolutions.md),
each a variant of it chosen by the `evolution` option."""

from shared.rulesets.risc.evo_rules import Evolution2, Evolution3
from shared.rulesets.risc.rules import RiscRuleSet

__all__ = ["Evolution2", "Evolution3", "RiscRuleSet"]
