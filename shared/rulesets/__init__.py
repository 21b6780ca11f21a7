"""Every rule set a server plays, by name: a new rule set is its own package here and one line below."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.game.ruleset import AnyRuleSet
from shared.rulesets.classic import ClassicRuleSet
from shared.rulesets.grid import GridRuleSet
from shared.rulesets.risc import RiscRuleSet
from shared.rulesets.warzone import WarzoneRuleSet

RULESETS: dict[str, AnyRuleSet] = {}


def register(ruleset: AnyRuleSet) -> AnyRuleSet:
    """Add a rule set (the built-in ones below; a test may add its own)."""
    RULESETS[ruleset.name] = ruleset
    return ruleset


def unregister(name: str) -> None:
    RULESETS.pop(name, None)


def get_ruleset(name: str) -> AnyRuleSet:
    try:
        return RULESETS[name]
    except KeyError:
        raise ValueError(f'unknown rule set "{name}" (known: {", ".join(sorted(RULESETS))})') from None


def prepare_rulesets() -> None:
    """Every rule set, each variant of it, made ready for play (RuleSet.prepare): what a server does as it starts."""
    for ruleset in RULESETS.values():
        for variant in ruleset.variants():
            variant.prepare()


def game_ruleset(name: str, options: Mapping[str, Any]) -> tuple[AnyRuleSet, Any]:
    """The rule set that plays a game of these settings (the variant its options choose), and the options read.
    Raises ValueError for an unknown rule set, pydantic's ValidationError for options it refuses."""
    ruleset = get_ruleset(name)
    chosen = ruleset.options(options)
    return ruleset.variant(chosen), chosen


register(RiscRuleSet())
register(WarzoneRuleSet())
register(ClassicRuleSet())
register(GridRuleSet())
