"""Dividing a count among places, as the rules and their players do: a pool spread over one's territories."""

from __future__ import annotations

from collections.abc import Sequence


def even_shares(total: int, places: Sequence[str]) -> list[tuple[str, int]]:
    """`total` split as evenly as it goes over `places`, in their order (the first get what does not divide), each
    with its share; places that get nothing are left out."""
    if not places:
        return []
    share, extra = divmod(total, len(places))
    return [(place, share + (i < extra)) for i, place in enumerate(places) if share + (i < extra) > 0]
