"""The decisions of one game, apart from everything that waits: a table and a command in, a decision out.

Every function here is pure. It takes the game's table (settings, seats, the game under way) and what someone asks,
and either raises Refusal (nothing changed) or returns a Decision: the new table, the log entries that tell what
happened, the resolutions for the server's log, and whether the change is an order kept as a small row. The match
(server/match/) is the thin runner around it: it holds the lock, saves the decision, replies, broadcasts and arms
the turn's timer. The seed and the clock come in from outside, so a test needs neither monkeypatching nor waiting.

The decisions are grouped as the match's commands are: table.py (the table, a decision, the start, the summary),
seating.py (who sits, watches and is here, and the chat), playing.py (orders, commits, resolving, time running
out), handing_on.py (hand-over votes, rematches). Importing them loads no store.
"""

from server.core.handing_on import (
    RematchOutlook,
    Vote,
    hand_over_vote,
    rematch_outlook,
    rematch_problem,
    rematch_request,
    rematch_seats,
    rematch_started,
    stand_in_strategy,
    take_back,
)
from server.core.playing import (
    Batch,
    BatchAcceptance,
    BatchRefusal,
    commit,
    issue,
    issue_batch,
    play_seat,
    read_order,
    resign,
    resolution_entries,
    running,
    settle,
    time_out,
    turn_clock,
    unsettled,
    withdraw,
)
from server.core.seating import (
    all_away,
    chat,
    closable_unstarted,
    computers_alone,
    idle_left,
    join,
    leave,
    people_seated,
    presence_noted,
    seat_left,
    seat_named,
    seat_taken,
    sight,
    token_renewed,
)
from server.core.table import (
    Decision,
    Table,
    new_table,
    requests_kept,
    server_seat_names,
    start,
    step,
    summary,
    with_standings,
)

__all__ = [
    "Batch", "BatchAcceptance", "BatchRefusal", "Decision", "RematchOutlook", "Table", "Vote", "all_away", "chat",
    "closable_unstarted", "commit", "computers_alone", "hand_over_vote", "idle_left", "issue", "issue_batch",
    "join", "leave", "new_table", "people_seated", "play_seat", "presence_noted", "read_order", "rematch_outlook",
    "rematch_problem", "rematch_request", "rematch_seats", "rematch_started", "requests_kept", "resign",
    "resolution_entries", "running", "seat_left", "seat_named", "seat_taken", "server_seat_names", "settle",
    "sight", "stand_in_strategy", "start", "step", "summary", "take_back", "time_out", "token_renewed",
    "turn_clock", "unsettled", "with_standings", "withdraw",
]
