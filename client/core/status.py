"""The prompt and the status bar: where the player is and what the game waits for, fitted to the terminal's width."""

from __future__ import annotations

from client.core.state import State
from client.link import LinkState
from shared.game.presentation import Fragments


def fit(parts: list[tuple[str, int]], width: int) -> str:
    """The parts joined by " | ", leaving out the least important (the highest number, the last of equals) until
    the line fits `width`; a part that alone is too long is cut."""
    kept = list(parts)
    while len(kept) > 1 and len(" | ".join(text for text, _ in kept)) > width:
        least = max(range(len(kept)), key=lambda i: (kept[i][1], i))
        del kept[least]
    line = " | ".join(text for text, _ in kept)
    return line if len(line) <= width else line[: max(0, width - 1)] + "…"


def prompt(state: State) -> Fragments:
    t = state.tracker
    if t is None:
        return [("class:muted", "lobby"), ("", "> ")]
    if t.player is None:
        return [("class:muted", f"watching {t.game_id}"), ("", "> ")]
    return [(t.palette().style(t.player), t.player), ("", f"@{t.game_id}> ")]


def status_bar(state: State, now: float, link: LinkState, server: str) -> Fragments:
    """Where the player is and what the game waits for, most important first; what does not fit the terminal's width
    is left out, least important first (the server's address, `server`, before anything of the game). `now`: the
    clock the turn's deadline is on."""
    parts = state.tracker.status_parts(now) if state.tracker is not None else [("lobby: games, create, join, watch", 0)]
    parts = [*parts, (server.split("://", 1)[-1].rstrip("/"), 3)]
    if link is not LinkState.CONNECTED:
        parts.insert(0, (link.value.upper(), 0))
    return [("class:bottom-toolbar", f" {fit(parts, state.columns - 2)} ")]
