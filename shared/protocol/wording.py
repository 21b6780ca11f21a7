"""What was wrong with a value, said as a player would say it: pydantic's messages ("Input should be less than or
equal to 5") are written for programmers, and a player reads them in the client's answers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import ValidationError


def plain(error: Mapping[str, Any]) -> str:
    """One validation error's complaint, without the field's name: "must be at most 5"."""
    kind, context = error.get("type", ""), error.get("ctx") or {}
    if kind == "missing":
        return "is missing"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return "must be a whole number"
    if kind in ("float_type", "float_parsing"):
        return "must be a number"
    if kind in ("bool_type", "bool_parsing"):
        return "must be yes or no"
    if kind == "string_type":
        return "must be a name"
    if kind == "greater_than_equal":
        return f"must be at least {context.get('ge')}"
    if kind == "greater_than":
        return f"must be more than {context.get('gt')}"
    if kind == "less_than_equal":
        return f"must be at most {context.get('le')}"
    if kind == "less_than":
        return f"must be less than {context.get('lt')}"
    if kind == "extra_forbidden":
        return "is not a setting here"
    if kind == "string_too_long":
        return f"is too long (at most {context.get('max_length')} characters)"
    if kind == "string_too_short":
        return "is too short"
    if kind == "string_pattern_mismatch":
        return "has characters that are not allowed"
    if kind in ("literal_error", "enum"):
        return f"must be one of {context.get('expected')}"
    if kind == "value_error":
        return str(context.get("error") or error.get("msg", "is not right")).removeprefix("Value error, ")
    return "is not right"


def problems(exc: ValidationError, *, skip: int = 0, limit: int = 4, word: Callable[[str], str] | None = None) -> str:
    """Every complaint of a validation error in one sentence: "players must be at most 8; units must be a whole
    number". `skip`: leading parts of each field's path to leave out (the union member a value was tried as);
    `word`: the name a player knows a field by."""
    parts = []
    for error in exc.errors(include_url=False)[:limit]:
        where = ".".join(str(p) for p in error["loc"][skip:])
        if word is not None and where:
            where = word(where)
        complaint = plain(error)
        if error.get("type") == "value_error" or not where:
            parts.append(complaint)
        else:
            parts.append(f"{where} {complaint}")
    return "; ".join(parts)


def player_count(title: str, fewest: int, most: int, players: int) -> str:
    """A number of players the rule set does not seat, said the one way every part of the game says it."""
    return f"a {title} game has {fewest} to {most} players, not {players}"


def duration(seconds: float) -> str:
    """A time left as a person reads it: "2 d 3 h", "5 h 20 min", "1:05" (minutes and seconds under an hour)."""
    whole = max(0, int(seconds))
    days, hours, minutes = whole // 86_400, whole % 86_400 // 3600, whole % 3600 // 60
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    return f"{minutes}:{whole % 60:02d}"
