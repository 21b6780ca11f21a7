"""The grid game (../shared/spec/classic.md G1-G6): the UM-SJTU VG101 "Simple Risk" on a 5 x 5 board."""

from shared.rulesets.grid.rules import GridRuleSet

__all__ = ["GridRuleSet"]
