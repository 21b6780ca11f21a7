"""D4: what a person types is matched to names without regard to case; a unique prefix is enough."""

from __future__ import annotations

from collections.abc import Iterable

from shared.game.errors import Refused, RuleError


def match_name(typed: str, names: Iterable[str], what: str = "territory",
               code: str = Refused.UNKNOWN_TERRITORY) -> str | RuleError:
    wanted = typed.strip().casefold()
    candidates = list(names)
    exact = [n for n in candidates if n.casefold() == wanted]
    if len(exact) == 1:
        return exact[0]
    prefixed = [n for n in candidates if n.casefold().startswith(wanted)] if wanted else []
    if len(prefixed) == 1:
        return prefixed[0]
    if not prefixed:
        return RuleError(code, f'no {what} matches "{typed}"')
    shown = ", ".join(sorted(prefixed)[:6])
    return RuleError(code, f'"{typed}" could be any of: {shown}')
