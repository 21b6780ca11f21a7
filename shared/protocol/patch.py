"""JSON merge patches (RFC 7386): how an update carries only what changed in a view.

A patch is an object: each key's value replaces the target's, an object is merged key by key, and null removes the
key. So a view field that can be null must mean the same when absent (default None). Lists are replaced whole:
views keep their large collections in objects keyed by name, so a turn that changes ten territories sends ten.
"""

from __future__ import annotations

from typing import Any


def diff(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The patch that turns `old` into `new` (empty when they are equal)."""
    patch: dict[str, Any] = {}
    for key, value in new.items():
        if key not in old:
            patch[key] = value
            continue
        before = old[key]
        if before == value:
            continue
        if isinstance(value, dict) and isinstance(before, dict):
            inner = diff(before, value)
            if inner:
                patch[key] = inner
        else:
            patch[key] = value
    for key in old:
        if key not in new:
            patch[key] = None
    return patch


def apply(target: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """`target` with `patch` applied; `target` itself is left as it was."""
    result = dict(target)
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        elif isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = apply(result[key], value)
        else:
            result[key] = value
    return result


def seats_keyed(summary: dict[str, Any]) -> dict[str, Any]:
    """A game summary in the form its `game_patch` patches: `seats` an object keyed by each seat's position ("0",
    "1", ...) rather than a list, so that a commit's patch names the one seat it changed (a list is replaced whole,
    and every seat sent again with every commit cost its followers three times what the rest of the patch did)."""
    seats = summary.get("seats")
    if not isinstance(seats, list):
        return summary
    return {**summary, "seats": {str(position): seat for position, seat in enumerate(seats)}}


def seats_listed(keyed: dict[str, Any]) -> dict[str, Any]:
    """The summary back from the form `seats_keyed` gives: its seats a list again, by position."""
    seats = keyed.get("seats")
    if not isinstance(seats, dict):
        return keyed
    return {**keyed, "seats": [seat for _, seat in sorted(seats.items(), key=lambda item: int(item[0]))]}
