"""The framework's log entries in words, one wording for every client: joins, commits, time running out, resignations,
rematches, hand-overs, as lines, which the text client prints and the server sends with each entry to a client that
asked for words (the web page).

Told to a player, a line that speaks of them speaks to them (shared/game/told.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shared.game.presentation import Fragments, Palette, Presentation
from shared.protocol.log import (
    GameCreated,
    GameStarted,
    OrdersRevealed,
    PlayerCommitted,
    PlayerJoined,
    PlayerLeft,
    PlayerResigned,
    RematchDeclined,
    RematchImpossible,
    RematchRequested,
    RematchStarted,
    SeatHandedOver,
    SeatTakenBack,
    TimeRanOut,
)


def _line(*parts: tuple[str, str]) -> Fragments:
    return [*parts, ("", "\n")]


def framework_line(entry: Any, palette: Palette, you: str | None = None) -> Fragments:
    """One of the framework's log entries as one line (with its newline); one nobody needs to read gives nothing."""

    def who(name: str | None) -> Fragments:
        return palette.name(name)

    if isinstance(entry, GameCreated | OrdersRevealed):
        return []
    if isinstance(entry, PlayerJoined):
        return _line(*who(entry.player), ("", " joined."))
    if isinstance(entry, PlayerLeft):
        return _line(*who(entry.player), ("", " left."))
    if isinstance(entry, GameStarted):
        return _line(("class:title", "The game starts: "), ("", ", ".join(entry.players) + "."))
    if isinstance(entry, PlayerCommitted):
        return _line(*who(entry.player), ("", " committed."))
    if isinstance(entry, TimeRanOut):
        names = ", ".join(entry.players) or "nobody"
        return _line(("class:hint", f"Time ran out: the rules played for {names}."))
    if isinstance(entry, RematchRequested):
        return _line(*who(entry.player), ("", " wants a rematch."))
    if isinstance(entry, RematchDeclined):
        return _line(*who(entry.player), ("", " left the table: no rematch for them."))
    if isinstance(entry, RematchStarted):
        return _line(("class:hint", f"The rematch has started: game {entry.game_id}."))
    if isinstance(entry, SeatHandedOver):
        return _line(
            *who(entry.player),
            ("class:hint", f"'s seat is played by the computer ({entry.strategy}) until they come back."),
        )
    if isinstance(entry, SeatTakenBack):
        return _line(*who(entry.player), ("class:hint", " is back and plays their own seat again."))
    if isinstance(entry, RematchImpossible):
        return _line(("class:hint", f"{entry.reason}."))
    return []


def resigned_line(
    entry: PlayerResigned, presentation: Presentation | None, palette: Palette, you: str | None
) -> Fragments:
    """A resignation, with what became of what the player held as the rule set decides it."""
    what = presentation.resignation_for(entry.player, you) if presentation is not None else ""
    return _line(*palette.name(entry.player, you), ("class:hint", " resigned" + (f": {what}." if what else ".")))


def framework_text(entry: Any, presentation: Presentation | None, players: Sequence[str]) -> str:
    """A framework entry in plain words as a spectator reads it ("" for one nobody needs to read)."""
    palette = Palette(tuple(players))
    if isinstance(entry, PlayerResigned):
        fragments = resigned_line(entry, presentation, palette, None)
    else:
        fragments = framework_line(entry, palette)
    return "".join(text for _, text in fragments).strip()
