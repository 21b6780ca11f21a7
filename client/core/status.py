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
    """Where the player is and what the game waits for, and who is signed in, most important first; what does not
    fit the terminal's width is left out, least important first (the server's address, `server`, before anything of
    the game). `now`: the clock the turn's deadline is on."""
    t, signed = state.tracker, state.signed_in
    if t is not None:
        parts = t.status_parts(now)
    elif signed is not None:
        parts = [("lobby: home, games, create, join, watch", 0)]
    else:
        parts = [("lobby: games, create, join, watch", 0)]
    if signed is not None:  # who is signed in: in a game, after the game's own news
        parts.append((f"signed in as {signed}", 1 if t is None else 3))
    parts = [*parts, (server.split("://", 1)[-1].rstrip("/"), 3)]
    if link is not LinkState.CONNECTED:
        parts.insert(0, (link.value.upper(), 0))
    return [("class:bottom-toolbar", f" {fit(parts, state.columns - 2)} ")]
