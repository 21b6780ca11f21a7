"""D4: what a person types is matched to names without regard to case; a unique prefix is enough. A name's letters
and digits alone are enough too (`northam` for "North America", `stpete` for "St. Petersburg"), so that the short
labels the client draws, which leave out spaces and punctuation, can be typed as they are shown."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from shared.game.errors import Refused, RuleError


def compact(name: str) -> str:
    """A name's letters and digits, case folded: what matching falls back to when the name as typed matches none."""
    return "".join(c for c in name.casefold() if c.isalnum())


def match_name(
    typed: str, names: Iterable[str], what: str = "territory", code: str = Refused.UNKNOWN_TERRITORY
) -> str | RuleError:
    wanted = typed.strip().casefold()
    candidates = list(names)
    exact = [n for n in candidates if n.casefold() == wanted]
    if len(exact) == 1:
        return exact[0]
    prefixed = [n for n in candidates if n.casefold().startswith(wanted)] if wanted else []
    if len(prefixed) == 1:
        return prefixed[0]
    if not prefixed:
        key = compact(wanted)
        if key:
            same = [n for n in candidates if compact(n) == key]
            if len(same) == 1:
                return same[0]
            prefixed = same or [n for n in candidates if compact(n).startswith(key)]
            if len(prefixed) == 1:
                return prefixed[0]
    if not prefixed:
        return RuleError(code, f'no {what} matches "{typed}"')
    shown = ", ".join(sorted(prefixed)[:6])
    return RuleError(code, f'"{typed}" could be any of: {shown}')


def typable_names(names: Sequence[str], least: int = 3) -> dict[str, str]:
    """Each name's shortest label that names it and nothing else when typed (match_name): its first letters and
    digits, at least `least` of them where it has that many, without spaces or punctuation, so that it reads as one
    word on a board or a map picture. A name no such label can tell apart from another (two names alike but for
    case or punctuation) is given whole."""
    found: dict[str, str] = {}
    for name in names:
        letters = [c for c in name if c.isalnum()]
        found[name] = name
        for size in range(min(least, len(letters)), len(letters) + 1):
            label = "".join(letters[:size])
            if label and match_name(label, names) == name:
                found[name] = label
                break
    return found
