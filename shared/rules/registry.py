"""Rulesets by name: a new rule set is one more entry here."""

from __future__ import annotations

from shared.rules.risc import RiscRuleset
from shared.rules.ruleset import Ruleset

RULESETS: dict[str, Ruleset] = {"risc": RiscRuleset()}


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        raise ValueError(f'unknown ruleset "{name}" (known: {", ".join(sorted(RULESETS))})') from None
