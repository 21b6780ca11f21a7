"""Seat tokens: handed to their owner once, kept only as a hash, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from server.storage.base import SeatRecord


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, seat: SeatRecord) -> bool:
    return hmac.compare_digest(token_hash(token), seat.token_hash)


def find_seat(token: str, seats: list[SeatRecord]) -> SeatRecord | None:
    """The seat this token opens, looking at every seat so that the time taken tells nothing."""
    found = None
    for seat in seats:
        if token_matches(token, seat):
            found = seat
    return found
