"""What the PostgreSQL store writes of a game's change, and a transaction's changes as few statements as can carry them.

Why: a node on PostgreSQL spent as much of its CPU sending each change as its own statement (psycopg's pipeline, its
sync, each statement's parameters, a wait on the socket) as on what the changes carried, and PostgreSQL started a plan
for each. The group commit's transaction carries the changes of several games (server/storage/group_commit.py), so
they go as one statement whose parameters are arrays across the changes: one statement's cost for the lot.

Every part of a statement (its WITH parts) sees the database as it was before the statement. A game's later change
in the same transaction (its whole save, which deletes the orders kept apart since the last, after those orders)
must therefore come in a statement after the earlier one: a batch is cut into layers, in order, a new layer begun
when a change's game has one in the current layer already. The statement's rows are the games it found at the epochs
their changes name: a change whose game is not among them wrote nothing (its game is gone, or another node holds it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple, TypeVar

from server.storage.base import CommitChange, LogLine, OrderChange, RequestRecord
from server.storage.notices import Notice

_C = TypeVar("_C")


class WholeRow(NamedTuple):
    """What a whole save writes on its game's row."""

    progress: str
    phase: str
    handed_over: bool
    closed: bool
    summary: str | None
    forget_before: int
    """Kept requests of steps before it are forgotten."""


@dataclass(frozen=True, slots=True)
class GameChange:
    """One change of a game, as rows: written only beside its game's row found at `epoch` (the node's claim)."""

    game_id: str
    epoch: int
    whole: WholeRow | None = None
    orders: Sequence[OrderChange] = ()
    commit: CommitChange | None = None
    events: Sequence[LogLine] = ()
    """The log's new entries."""
    seated: Sequence[tuple[str, str]] = ()
    """The seats accounts hold (account, player): a whole save's."""
    notices: Sequence[Notice] = ()
    request: RequestRecord | None = None


def layers(changes: Sequence[_C], game_of: Callable[[_C], str]) -> list[list[_C]]:
    """The changes in order, cut where a game comes a second time: each layer holds a game once."""
    cut: list[list[_C]] = [[]]
    games: set[str] = set()
    for change in changes:
        game_id = game_of(change)
        if game_id in games:
            cut.append([])
            games = set()
        cut[-1].append(change)
        games.add(game_id)
    return cut


def statement(layer: Sequence[GameChange]) -> tuple[str, dict[str, Any]]:
    """One statement writing every change of `layer` (each of a different game), and its parameters; its rows are
    the ids of the games found at their changes' epochs. A layer of one change names its game by scalars (cheaper
    to send, and a plan of an index lookup); of several, by arrays joined to their rows."""
    one = len(layer) == 1
    small = [c for c in layer if c.whole is None]
    whole = [(c, c.whole) for c in layer if c.whole is not None]
    params: dict[str, Any] = {}
    if one:
        params["game_id"], params["epoch"] = layer[0].game_id, layer[0].epoch
        for _, w in whole:
            params.update(
                progress=w.progress, phase=w.phase, handed_over=w.handed_over, closed=w.closed, summary=w.summary
            )
            params["forget_before"] = w.forget_before
    else:
        if small:
            params["s_games"] = [c.game_id for c in small]
            params["s_epochs"] = [c.epoch for c in small]
        if whole:
            params["w_games"] = [c.game_id for c, _ in whole]
            params["w_epochs"] = [c.epoch for c, _ in whole]
            params["w_progress"] = [w.progress for _, w in whole]
            params["w_phases"] = [w.phase for _, w in whole]
            params["w_handed_over"] = [w.handed_over for _, w in whole]
            params["w_closed"] = [w.closed for _, w in whole]
            params["w_summaries"] = [w.summary or "" for _, w in whole]
            params["w_summarised"] = [w.summary is not None for _, w in whole]
            params["w_forget_before"] = [w.forget_before for _, w in whole]
    found: dict[str, list[tuple[str, Any]]] = {kind: [] for kind in _COLUMNS}
    for c in layer:
        game_id = c.game_id
        for kind, rows in (
            ("o", c.orders),
            ("c", () if c.commit is None else (c.commit,)),
            ("e", c.events),
            ("a", c.seated),
            ("n", c.notices),
            ("r", () if c.request is None else (c.request,)),
        ):
            if rows:
                found[kind].extend((game_id, row) for row in rows)
    used: list[str] = []
    for kind, columns in _COLUMNS.items():
        flat = found[kind]
        if not flat:
            continue
        used.append(kind)
        if not one:
            params[f"{kind}_games"] = [game_id for game_id, _ in flat]
        for name, column in columns:
            params[name] = [column(row) for _, row in flat]
    return _query(one, bool(small), bool(whole), frozenset(used)), params


_COLUMNS: dict[str, tuple[tuple[str, Callable[[Any], Any]], ...]] = {
    "o": (
        ("o_players", attrgetter("player")),
        ("o_steps", attrgetter("step")),
        ("o_positions", attrgetter("index")),
        ("o_bodies", lambda o: o.order or ""),  # a body is JSON, never empty: "" is a withdrawal (None)
    ),
    "c": (("c_players", attrgetter("player")), ("c_steps", attrgetter("step")), ("c_seqs", attrgetter("seq"))),
    "e": (("e_seqs", attrgetter("seq")), ("e_bodies", attrgetter("stored"))),
    "a": (("a_accounts", itemgetter(0)), ("a_players", itemgetter(1))),
    "n": (
        ("n_accounts", attrgetter("account_id")),
        ("n_kinds", attrgetter("kind")),
        ("n_about", lambda n: n.game_id or ""),  # a notification about no game: never "" otherwise
        ("n_bodies", Notice.body_text),
        ("n_at", lambda n: float(n.at)),  # one type in the array, though a time came as an int
    ),
    "r": (
        ("r_players", attrgetter("player")),
        ("r_ids", attrgetter("request_id")),
        ("r_steps", attrgetter("step")),
        ("r_replies", attrgetter("reply")),
    ),
}
"""Each kind of row a change adds (`_ROWS`), and how each of its columns' parameters is read from a row: orders
(OrderChange), commits (CommitChange), log entries (LogLine), accounts' seats (account, player), notifications
(Notice), kept requests (RequestRecord). Where None goes as "" (an array of text with no type to guess when every
element is None), "" is never a value otherwise."""

_LOCKED = """{name} AS (SELECT game_id FROM games WHERE game_id = %(game_id)s AND epoch = %(epoch)s FOR SHARE)"""
"""A small change's game: its row at this node's epoch, locked against a claim until the change is committed."""

_ALL_LOCKED = """{name} AS (SELECT games.game_id FROM games
           JOIN unnest(%(s_games)b::text[], %(s_epochs)b::bigint[]) AS x(game_id, epoch)
             ON games.game_id = x.game_id AND games.epoch = x.epoch
           FOR SHARE OF games)"""
"""The games of small changes (orders, commits): their rows at this node's epochs, locked likewise."""

_SAVED = """{name} AS (UPDATE games SET progress = %(progress)s, phase = %(phase)s, handed_over = %(handed_over)s,
                            closed = %(closed)s, summary = coalesce(%(summary)s, summary)
           WHERE game_id = %(game_id)s AND epoch = %(epoch)s RETURNING game_id, %(forget_before)s AS forget_before)"""
"""A whole save's game: its row at this node's epoch, given the new progress."""

_ALL_SAVED = """{name} AS (UPDATE games SET progress = x.progress, phase = x.phase, handed_over = x.handed_over,
                            closed = x.closed, summary = CASE WHEN x.summarised THEN x.summary ELSE games.summary END
           FROM unnest(%(w_games)b::text[], %(w_epochs)b::bigint[], %(w_progress)b::text[], %(w_phases)b::text[],
                       %(w_handed_over)b::boolean[], %(w_closed)b::boolean[], %(w_summaries)b::text[],
                       %(w_summarised)b::boolean[], %(w_forget_before)b::integer[])
                AS x(game_id, epoch, progress, phase, handed_over, closed, summary, summarised, forget_before)
           WHERE games.game_id = x.game_id AND games.epoch = x.epoch
           RETURNING games.game_id, x.forget_before)"""
"""The games saved whole: their rows at this node's epochs, given their new progress."""

_SETTLED = """so AS (DELETE FROM pending_orders p USING {saved} s WHERE p.game_id = s.game_id),
    sc AS (DELETE FROM pending_commits p USING {saved} s WHERE p.game_id = s.game_id),
    sf AS (DELETE FROM requests q USING {saved} s WHERE q.game_id = s.game_id AND q.step < s.forget_before)"""
"""What a whole save holds now: the orders and commits kept apart since the last, and the requests of steps past."""

_ROWS = {
    "o": """o AS (INSERT INTO pending_orders (game_id, player, step, position, body)
      SELECT g.game_id, x.player, x.step, x.position, nullif(x.body, '')
      FROM {rows}%(o_players)b::text[], %(o_steps)b::integer[], %(o_positions)b::integer[], %(o_bodies)b::text[])
           WITH ORDINALITY AS x({key}player, step, position, body, n){join}
      ORDER BY x.n)""",
    "c": """c AS (INSERT INTO pending_commits (game_id, player, step, seq)
      SELECT g.game_id, x.player, x.step, x.seq
      FROM {rows}%(c_players)b::text[], %(c_steps)b::integer[], %(c_seqs)b::integer[])
           WITH ORDINALITY AS x({key}player, step, seq, n){join}
      ORDER BY x.n)""",
    "e": """e AS (INSERT INTO events (game_id, seq, body)
      SELECT g.game_id, x.seq, x.body
      FROM {rows}%(e_seqs)b::integer[], %(e_bodies)b::text[]) AS x({key}seq, body){join})""",
    "a": """a AS (INSERT INTO account_games (account_id, game_id, player)
      SELECT x.account_id, g.game_id, x.player
      FROM {rows}%(a_accounts)b::text[], %(a_players)b::text[]) AS x({key}account_id, player){join}
      ON CONFLICT DO NOTHING)""",
    "n": """n AS (INSERT INTO outbox (account_id, kind, game_id, body, created_at, mail_due, hook_due)
      SELECT x.account_id, x.kind, nullif(x.about, ''), x.body, x.at, x.at, x.at
      FROM {rows}%(n_accounts)b::text[], %(n_kinds)b::text[], %(n_about)b::text[], %(n_bodies)b::text[],
                  %(n_at)b::double precision[])
           WITH ORDINALITY AS x({key}account_id, kind, about, body, at, k){join}
      ORDER BY x.k)""",
    "r": """r AS (INSERT INTO requests (game_id, player, request_id, step, reply)
      SELECT g.game_id, x.player, x.request_id, x.step, x.reply
      FROM {rows}%(r_players)b::text[], %(r_ids)b::text[], %(r_steps)b::integer[], %(r_replies)b::text[])
           AS x({key}player, request_id, step, reply){join})""",
}
"""The rows a change adds, each kind written only beside its change's game found (`g`): the orders and commits kept
apart until the next whole save, the log's entries, the seats accounts hold, the notifications into the outbox
(`about`: the game a notification is about, "" for none), the request that made a change, kept with it."""


@functools.cache
def _query(one: bool, small: bool, whole: bool, rows: frozenset[str]) -> str:
    """A layer's statement, with only the parts it writes: a part with nothing to write is still a plan to start and
    a table to scan."""
    both = small and whole
    parts: list[str] = []
    if small:
        parts.append((_LOCKED if one else _ALL_LOCKED).format(name="gs" if both else "g"))
    if whole:
        saved = "gw" if both else "g"
        parts += [(_SAVED if one else _ALL_SAVED).format(name=saved), _SETTLED.format(saved=saved)]
    if both:
        parts.append("g AS (SELECT game_id FROM gs UNION ALL SELECT game_id FROM gw)")
    for kind, part in _ROWS.items():
        if kind in rows:
            if one:
                parts.append(part.format(rows="g, unnest(", key="", join=""))
            else:
                parts.append(
                    part.format(
                        rows=f"unnest(%({kind}_games)b::text[], ",
                        key="of_game, ",
                        join="\n      JOIN g ON g.game_id = x.of_game",
                    )
                )
    return "WITH " + ",\n    ".join(parts) + "\nSELECT game_id FROM g"
