"""A game named by the start of its id, as people type it (`join cf` for game cfbec3): resolved against the games
the server holds, not against a list the client may have read before the game was created."""

from __future__ import annotations

from collections.abc import Iterable

from server.refusal import Refusal
from shared.protocol.codes import ErrorCode

SHOWN = 6
"""The most games an ambiguous start lists."""


def unique_game(typed: str, ids: Iterable[str]) -> str:
    """The id `typed` names: itself, else the one id that starts with it (regardless of case). A start that several
    ids share is refused with the games it could mean; one no id has, with no-such-game as before."""
    known = list(ids)
    if typed in known:
        return typed
    wanted = typed.casefold()
    starting = sorted(g for g in known if g.casefold().startswith(wanted))
    if len(starting) == 1:
        return starting[0]
    if starting:
        more = f" and {len(starting) - SHOWN} more" if len(starting) > SHOWN else ""
        raise Refusal(
            ErrorCode.NO_SUCH_GAME,
            f'"{typed}" could be any of the games {", ".join(starting[:SHOWN])}{more}: give more of its id',
        )
    return typed
