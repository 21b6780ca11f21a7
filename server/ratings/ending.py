"""A rated game's end as its store rates it: who each seat's rating belongs to, in the game's final ranking.

A seat an account holds is that account's, whoever played it at the end (a seat handed to the server's computer
while its player was away stays its player's: they left the game, and its result is theirs). A seat of the server's
own computer players is its strategy's (`bot:aggressive`), rated like a person. A game with any other seat (a
guest's) is not rated: a rated game seats none (server/core/seating.py). Several seats of one strategy are rated once,
at the best place among them (a strategy playing itself says nothing of its strength).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from server.core import Table
from server.storage.ratings import BOT_PREFIX, Placed, RatedEnd
from shared.game.ranking import final_ranking

logger = logging.getLogger("risc.server")


def holders(table: Table) -> dict[str, str] | None:
    """Each seat's holder (its account, or its computer strategy's), by seat name; None if a seat has neither."""
    strategy = table.settings.bot_strategy or table.ruleset.default_strategy
    found: dict[str, str] = {}
    for seat in table.seats:
        if seat.account is not None:
            found[seat.name] = seat.account
        elif seat.name in table.server_seats:
            found[seat.name] = BOT_PREFIX + strategy
        else:
            return None
    return found


def rated_end(table: Table, log: Sequence[Mapping[str, Any]], at: float) -> RatedEnd | None:
    """What the store rates as the finished game of `table` is saved (its whole `log`, as stored), or None when it is
    not a rated game, or cannot be rated (said in the server's log)."""
    game = table.game
    if not table.settings.rated or game is None:
        return None
    held = holders(table)
    if held is None:
        logger.warning("game %s: a seat is neither an account's nor a computer's: the game is not rated", table.game_id)
        return None
    try:
        ranking = final_ranking(table.ruleset, game, log)
    except ValueError as exc:
        logger.error("game %s: it cannot be ranked, so it is not rated: %s", table.game_id, exc)
        return None
    seen: set[str] = set()
    places = []
    for tied in ranking.places:
        kept = []
        for player in tied:
            if held[player] not in seen:
                seen.add(held[player])
                kept.append(Placed(held[player], player, ranking.place(player)))
        if kept:
            places.append(tuple(kept))
    if len(seen) < 2:
        return None
    return RatedEnd(table.game_id, table.ruleset.name, at, tuple(places), len(ranking.players))
