"""D4: what a person types is matched to territory names without regard to case; a unique prefix is enough."""

from __future__ import annotations

from collections.abc import Iterable

from shared.rules.errors import RuleCode, RuleError


def match_name(typed: str, names: Iterable[str]) -> str | RuleError:
    wanted = typed.strip().casefold()
    candidates = list(names)
    exact = [n for n in candidates if n.casefold() == wanted]
    if len(exact) == 1:
        return exact[0]
    prefixed = [n for n in candidates if n.casefold().startswith(wanted)] if wanted else []
    if len(prefixed) == 1:
        return prefixed[0]
    if not prefixed:
        return RuleError(RuleCode.UNKNOWN_TERRITORY, f'no territory matches "{typed}"')
    shown = ", ".join(sorted(prefixed)[:6])
    return RuleError(RuleCode.UNKNOWN_TERRITORY, f'"{typed}" could be any of: {shown}')
