"""How a turn-by-turn game reads, whatever its rules: each event a line as it falls, whose action each was, and a
new stage of play whenever the phase, the turn or the active player changes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shared.game import events
from shared.game.presentation import Fragments, Palette, Presentation


class TurnByTurnPresentation(Presentation):
    def events(self, told: Sequence[Any], palette: Palette, you: str | None) -> Fragments:
        out: Fragments = []
        for event in told:
            out += self.event_line(event, palette, you)
        return out

    def event_line(self, event: Any, palette: Palette, you: str | None) -> Fragments:
        """One event in a line (or a few)."""
        raise NotImplementedError

    def actor(self, event: Any) -> str | None:
        """An elimination is the eliminator's doing; the win follows someone's action rather than being one."""
        if isinstance(event, events.PlayerEliminated):
            by = getattr(event, "by", None)
            return by if isinstance(by, str) else None
        if isinstance(event, events.GameWon):
            return None
        return super().actor(event)

    def stage_key(self, view: Any) -> Any:
        return view.phase, view.turn, view.active
