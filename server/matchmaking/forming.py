"""Which queued players make a game: pure, so one process and a cluster's forming node decide alike.

Players asking for the same rule set, number of players and pace are ordered by rating; a game is `players`
neighbours in that order whose ratings span no more than every one of their windows, a window widening with the time
its player has waited (WINDOW_START shown points at first, WINDOW_GROWTH more each second). Among the games
that fit, the one whose longest-waiting player has waited longest is formed first. A player who asked for computers
after N seconds and has waited that long is seated at once with the free seats the server's computers' (not rated).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WINDOW_START = 100.0
WINDOW_GROWTH = 20.0
"""The window: a game's ratings may span 100 shown points, and 20 more for each second waited (the whole ladder, a
few hundred points, is within reach after about half a minute)."""
SLOW_GROWTH = WINDOW_GROWTH / 10
"""Slow games (a turn of hours) widen ten times slower: a wait of minutes matters less to them."""


@dataclass(frozen=True)
class Ask:
    """What a player asked for."""

    ruleset: str
    players: int
    pace: str
    computers_after: float | None = None


@dataclass(frozen=True)
class Queued:
    """A player in the queue: their account, name, what they asked, their rating in that rule set, since when."""

    account: str
    name: str
    ask: Ask
    rating: int
    since: float

    def window(self, now: float) -> float:
        growth = SLOW_GROWTH if self.ask.pace == "slow" else WINDOW_GROWTH
        return WINDOW_START + growth * max(0.0, now - self.since)

    def computers_due(self, now: float) -> bool:
        after = self.ask.computers_after
        return after is not None and now - self.since >= after


@dataclass(frozen=True)
class Formed:
    """A game to make: its players (people), and whether the server's computers fill the rest (then not rated)."""

    ask: Ask
    players: tuple[Queued, ...]
    computers: int = 0

    @property
    def rated(self) -> bool:
        return self.computers == 0


def form(queue: Sequence[Queued], now: float) -> list[Formed]:
    """The games the queue makes now; each player in one at most."""
    groups: dict[tuple[str, int, str], list[Queued]] = {}
    for queued in queue:
        groups.setdefault((queued.ask.ruleset, queued.ask.players, queued.ask.pace), []).append(queued)
    formed: list[Formed] = []
    for group in groups.values():
        formed += _form_group(sorted(group, key=lambda q: (q.rating, q.since, q.account)), now)
    return formed


def _form_group(ordered: list[Queued], now: float) -> list[Formed]:
    formed: list[Formed] = []
    size = ordered[0].ask.players if ordered else 0
    while len(ordered) >= size:
        fits = [
            ordered[i : i + size]
            for i in range(len(ordered) - size + 1)
            if ordered[i + size - 1].rating - ordered[i].rating <= min(q.window(now) for q in ordered[i : i + size])
        ]
        if not fits:
            break
        chosen = min(fits, key=lambda run: min(q.since for q in run))
        formed.append(Formed(chosen[0].ask, tuple(chosen)))
        ordered = [q for q in ordered if q not in chosen]
    for queued in sorted(ordered, key=lambda q: q.since):
        if queued.computers_due(now):
            formed.append(Formed(queued.ask, (queued,), queued.ask.players - 1))
    return formed


def spread(players: Sequence[Queued]) -> int:
    return max(q.rating for q in players) - min(q.rating for q in players)
