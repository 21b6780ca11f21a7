"""Which players a change of a game is news to, told away from the game (by mail, a webhook, a page in another tab,
a text client on another game): a turn that waits for their orders, the game started, ended or lost a player, they
were named in its chat. Pure: a table before, the decision, and who is looking at the game in.

Nothing here says more than the player's seat could see: who is awaited, who is out, who won and what the summary
says are everyone's; a word of the chat is told only to a player it was said to (its audience); and no event of a
turn (what moved or fought, under fog or not) is ever in a notice.
"""

from __future__ import annotations

import re
from collections.abc import Set

from server.core import pace
from server.core.table import Decision, Table
from server.storage.notices import Notice
from shared.game import turns
from shared.protocol import log as game_log


def _about(table: Table) -> dict[str, object]:
    """What every notice of a game says of it: its rule set and map, as its list does."""
    return {"title": table.ruleset.title, "map": table.game_map.name}


def notices_of(before: Table, decision: Decision, now: float, looking: Set[str]) -> list[Notice]:
    """The notices a change makes, for the seats of accounts (a guest has no channel), but those `looking` at the
    game now (nobody is told about a game they are looking at)."""
    after = decision.table
    accounts = {s.name: s.account for s in after.seats if s.account is not None}
    if not accounts:
        return []
    found: list[tuple[str, str, dict[str, object]]] = []
    status, was = after.status, before.status
    if after.game is not None and before.game is None:
        found += [(p, "game_started", {"players": list(after.game.players)}) for p in accounts]
    if status is not None and status.finished and (was is None or not was.finished):
        found += [(p, "game_ended", {"winner": status.winner, "draw": status.winner is None}) for p in accounts]
    if status is not None and was is not None:
        out = sorted(set(status.eliminated) - set(was.eliminated))
        booted = {
            e.event.player for e in decision.entries if isinstance(e.event, game_log.PlayerResigned) and e.event.booted
        }
        for player in out:
            found += [(p, "player_out", {"player": player, "booted": player in booted}) for p in accounts]
    if status is not None and not status.finished and after.game is not None:
        waited_before = set(turns.awaiting(before.ruleset, before.game)) if before.game is not None else set()
        key_moved = pace.clock_key(before) != pace.clock_key(after) or before.game is None
        waited = set(turns.awaiting(after.ruleset, after.game))
        for player in sorted(waited):
            if player in accounts and player not in after.handed_over and (key_moved or player not in waited_before):
                due = pace.deadline(after, player)
                found.append((player, "your_turn", {"turn": status.turn, "step": after.game.step, "deadline": due}))
    for entry in decision.entries:
        if isinstance(entry.event, game_log.ChatSaid):
            said = entry.event
            for player in named(said.text, accounts, said.player):
                if entry.audience is None or player in entry.audience:
                    found.append((player, "named", {"by": said.player, "text": said.text}))
    return [
        Notice(accounts[p], kind, after.game_id, {**_about(after), **body}, now)
        for p, kind, body in found
        if p not in looking
    ]


def named(text: str, players: Set[str] | dict[str, str], speaker: str) -> list[str]:
    """The players a word of the chat names (a name as a whole word, with or without @, whatever its case), but the
    speaker."""
    lowered = f" {text.casefold()} "
    found = []
    for player in sorted(players):
        if player == speaker:
            continue
        name = player.casefold()
        if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", lowered):
            found.append(player)
    return found


def nudge_notice(table: Table, by: str, player: str, now: float) -> Notice | None:
    """The notice of `by` nudging `player` (their account's), or None for a guest's seat."""
    account = next((s.account for s in table.seats if s.name == player), None)
    if account is None:
        return None
    return Notice(account, "nudged", table.game_id, {**_about(table), "by": by}, now)
