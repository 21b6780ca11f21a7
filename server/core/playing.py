"""Playing a game: an order read from its JSON and issued (alone or in a batch), withdrawn, committed, a player
resigning, a computer's decision for its seat, a turn resolved once ready (after a restart too), the turn's time
running out, and what the turn's timer times.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import orjson
from pydantic import ValidationError

from server.core import pace
from server.core.entries import Logged, logged
from server.core.table import Decision, Table, with_standings
from server.refusal import Refusal
from server.storage.base import OrderChange
from shared.game import turns
from shared.game.errors import Refused, RuleError
from shared.game.game import Game
from shared.game.random import dice_of
from shared.game.ruleset import AnyRuleSet, Status
from shared.game.turns import Resolved
from shared.protocol import log as game_log
from shared.protocol.codes import ErrorCode
from shared.protocol.numbers import json_text


def running(table: Table, turn: int | None) -> tuple[Game[Any, Any], Status]:
    game = table.game
    if game is None:
        raise Refusal(
            Refused.WRONG_PHASE, f"game {table.game_id} starts when all {table.settings.players} seats are taken"
        )
    status = turns.status_of(table.ruleset, game)
    if status.finished:
        raise Refusal(Refused.GAME_OVER, "the game is over")
    if turn is not None and turn != status.turn:
        raise Refusal(
            Refused.WRONG_TURN,
            f"this is for turn {turn}, but the game is at turn {status.turn} ({status.phase})",
            field="turn",
        )
    return game, status


def read_order(ruleset: AnyRuleSet, data: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """An order's JSON checked against the game's rule set, and the order read back as JSON values (all its fields,
    defaults included): a sentence naming what is wrong, and the field at fault, never a traceback.

    The order is read as the published schema reads it: by JSON type (2 and 2.0 are the same whole number; true, "2"
    and 2.5 are not one), with exactly the fields of its kind."""
    fields_of = ruleset.order_fields()
    kind = data.get("kind")
    known = fields_of.get(kind) if isinstance(kind, str) else None
    if known is None:
        shown = "no kind" if kind is None else f'the kind "{str(kind)[:40]}"'
        raise Refusal(
            ErrorCode.UNKNOWN_ORDER,
            f"{ruleset.title} has no order with {shown} (its orders: {', '.join(fields_of)})",
            field="order.kind",
        )
    unknown = sorted(str(key)[:40] for key in data.keys() - known)
    if unknown:  # named before anything else: a misspelt field would otherwise be told as the one it stands for
        raise Refusal(
            ErrorCode.INVALID_ORDER,
            f"a {kind} order has no field {', '.join(unknown[:4])} (its fields: {', '.join(known)})",
            field="order." + unknown[0],
        )
    try:
        order = ruleset.order_type.validate_json(json_text(data), strict=True)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        parts = []
        for error in errors[:4]:
            where = ".".join(str(p) for p in error["loc"][1:]) or "order"
            parts.append(f"{where}: {_plain(error)}")
        at = ".".join(str(p) for p in errors[0]["loc"][1:])
        raise Refusal(
            ErrorCode.INVALID_ORDER,
            f"that {kind} order will not do: " + "; ".join(parts),
            field="order." + at if at else "order",
        ) from None
    return order, ruleset.dump_order(order)


def _plain(error: Any) -> str:
    """Pydantic's words for a field, as a player would say them."""
    kind, context = error["type"], error.get("ctx") or {}
    if kind == "missing":
        return "it is missing"
    given = error.get("input")
    shown = (
        f", not {json.dumps(given)}" if isinstance(given, bool | int | float | str) and len(str(given)) <= 40 else ""
    )
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return "a whole number is needed" + shown
    if kind in ("string_type",):
        return "a name is needed" + shown
    if kind == "greater_than_equal":
        return f"it must be at least {context.get('ge')}"
    if kind == "less_than_equal":
        return f"it must be at most {context.get('le')}"
    if kind == "extra_forbidden":
        return "this order has no such field"
    return str(error["msg"])


ORDERS_HELD_LEAST = 200
ORDERS_HELD_PER_TERRITORY = 3
"""The most orders a player holds in one turn of a simultaneous game: three for each territory of the map, and never
fewer than 200. The server's strongest computers issue about one and a half per territory (285 on a map of 180);
30,000 orders from one player made a 2.9 MB order list, a 5 MB update for every follower, and a withdrawal that
checked every one of them again."""

ORDER_WORK_PER_HELD = 4
"""A player's orders of one turn cost the server at most four times the orders they may hold, counted in orders
checked (Table.order_work): issuing and withdrawing the same orders over and over is bounded too."""


def orders_held_most(table: Table) -> int:
    """The most orders one player may hold in one turn of this game (ORDERS_HELD_LEAST, ORDERS_HELD_PER_TERRITORY)."""
    return max(ORDERS_HELD_LEAST, ORDERS_HELD_PER_TERRITORY * len(table.game_map.territories))


def _work_after(table: Table, game: Game[Any, Any], player: str, checks: int) -> dict[str, Any]:
    """What the table's orders' costs become once `player` has spent `checks` more orders checked in this turn (the
    table's changes, for `evolve`); Refusal past the turn's bound."""
    same_step = table.order_work_step == game.step
    spent = _work_spent(table, game, player)
    _check_work(spent, checks, ORDER_WORK_PER_HELD * orders_held_most(table))
    work = {**table.order_work, player: spent + checks} if same_step else {player: spent + checks}
    return {"order_work": work, "order_work_step": game.step}


def _work_spent(table: Table, game: Game[Any, Any], player: str) -> int:
    """What `player`'s orders have cost the server in the game's turn so far, in orders checked."""
    return table.order_work.get(player, 0) if table.order_work_step == game.step else 0


def _check_work(spent: int, checks: int, most: int) -> None:
    """Refusal if `checks` more orders checked would take what a player's orders cost past `most` in one turn."""
    if spent + checks > most:
        raise Refusal(
            ErrorCode.TOO_MANY_ORDERS,
            f"your orders this turn have had the server check {spent} orders, and this would take it past the "
            f"{most} a player's orders may cost in one turn: commit what you hold",
        )


def _too_many_held(held: int) -> Refusal:
    return Refusal(
        ErrorCode.TOO_MANY_ORDERS,
        f"you hold {held} orders this turn, the most a player may on this map: commit them, or withdraw some first",
    )


def issue(table: Table, player: str, turn: int, data: dict[str, Any]) -> Decision:
    """One order: recorded (simultaneous games, up to the most a player may hold), or carried out at once
    (turn-by-turn games)."""
    ruleset = table.ruleset
    game, _ = running(table, turn)
    order, dumped = read_order(ruleset, data)
    if ruleset.simultaneous:
        issued = turns.issue(ruleset, game, player, order)
        if isinstance(issued, RuleError):
            raise Refusal.of(issued)
        held = len(game.orders_of(player))
        if held >= orders_held_most(table):
            raise _too_many_held(held)
        work = _work_after(table, game, player, 1)
        index = held
        change = OrderChange(player, game.step, index, orjson.dumps(dumped).decode())
        return Decision(table.evolve(game=issued, **work), order_change=change, accepted=order, accepted_data=dumped)
    acted = turns.act(ruleset, game, player, order, dice_of(table.seed))
    if isinstance(acted, RuleError):
        raise Refusal.of(acted)
    game, resolved = acted
    return with_standings(
        table,
        Decision(
            table.evolve(game=game),
            resolution_entries(table, [resolved]),
            [resolved],
            accepted=order,
            accepted_data=dumped,
        ),
    )


@dataclass(frozen=True)
class BatchRefusal:
    """An order of a batch that was refused: its 0-based position in the batch, and why."""

    position: int
    code: str
    message: str


@dataclass(frozen=True)
class BatchAcceptance:
    """An order of a batch that was taken: its position in the batch, its index in the player's list (0 where it took
    effect at once), the order as JSON values and as the rule set reads it (for its words)."""

    position: int
    index: int
    data: dict[str, Any]
    order: Any


@dataclass
class Batch:
    """Several orders of one player issued in one request, each as `issue` would have taken it alone, in turn."""

    decision: Decision
    """The table after every accepted order, and what those that took effect at once (turn-by-turn games) logged."""
    changes: list[OrderChange] = field(default_factory=list)
    """The accepted orders kept as small rows (simultaneous games)."""
    accepted: list[BatchAcceptance] = field(default_factory=list)
    refused: list[BatchRefusal] = field(default_factory=list)
    committed: bool = False
    """Whether the batch's commit was carried out (`decision` is then the commit's, the orders in its `issued`)."""
    commit_refused: Refusal | None = None
    """Why the rules refused the commit the batch asked for, once every order was taken."""


def issue_batch(
    table: Table, player: str, turn: int, orders: Sequence[dict[str, Any]], commit_after: bool = False
) -> Batch:
    """Each order checked against what the batch's earlier accepted ones left, as if issued one by one: a refused
    order changes nothing, and those after it are still checked. `commit_after`: then the turn is committed as
    `commit` would, if every order was taken (a player whose orders were not all taken decides again)."""
    if table.ruleset.simultaneous:
        batch = _issue_simultaneous(table, player, turn, orders)
    else:
        batch = _issue_one_by_one(table, player, turn, orders)
    if commit_after and not batch.refused:
        _commit_batch(batch, player, turn)
    return batch


def _issue_simultaneous(table: Table, player: str, turn: int, orders: Sequence[dict[str, Any]]) -> Batch:
    """A simultaneous game's batch: each order taken or refused as `issue` would, one after the other, and the
    table made once, with the game after every order taken and what their checks cost (a whole turn's orders come
    in one batch: a table and a decision for each of them were a fifth of its cost)."""
    batch = Batch(Decision(table))
    try:
        game, _ = running(table, turn)
    except Refusal as refusal:
        batch.refused = [BatchRefusal(position, refusal.code, refusal.message) for position in range(len(orders))]
        return batch
    ruleset, most = table.ruleset, orders_held_most(table)
    work_most, spent = ORDER_WORK_PER_HELD * most, _work_spent(table, game, player)
    for position, data in enumerate(orders):
        try:
            order, dumped = read_order(ruleset, data)
            issued = turns.issue(ruleset, game, player, order)
            if isinstance(issued, RuleError):
                raise Refusal.of(issued)
            held = len(game.orders_of(player))
            if held >= most:
                raise _too_many_held(held)
            _check_work(spent, 1, work_most)
        except Refusal as refusal:
            batch.refused.append(BatchRefusal(position, refusal.code, refusal.message))
            continue
        spent += 1
        batch.changes.append(OrderChange(player, game.step, held, orjson.dumps(dumped).decode()))
        batch.accepted.append(BatchAcceptance(position, held, dumped, order))
        game = issued
    if batch.accepted:
        same_step = table.order_work_step == game.step
        work = {**table.order_work, player: spent} if same_step else {player: spent}
        batch.decision = Decision(table.evolve(game=game, order_work=work, order_work_step=game.step))
    return batch


def _issue_one_by_one(table: Table, player: str, turn: int, orders: Sequence[dict[str, Any]]) -> Batch:
    """A turn-by-turn game's batch: each order `issue`d in turn, its table the next one's."""
    current = Decision(table)
    batch = Batch(current)
    for position, data in enumerate(orders):
        try:
            decision = issue(current.table, player, turn, data)
        except Refusal as refusal:
            batch.refused.append(BatchRefusal(position, refusal.code, refusal.message))
            continue
        assert decision.accepted_data is not None, "an issued order comes back as JSON values"
        change = decision.order_change
        if change is not None:
            batch.changes.append(change)
        batch.accepted.append(
            BatchAcceptance(position, 0 if change is None else change.index, decision.accepted_data, decision.accepted)
        )
        current = Decision(
            decision.table, [*current.entries, *decision.entries], [*current.resolved, *decision.resolved]
        )
    batch.decision = current
    return batch


def _commit_batch(batch: Batch, player: str, turn: int) -> None:
    """The batch's orders, then the commit, as one change: its orders are kept with the commit's small row (or in
    the whole progress, when the commit resolves the turn)."""
    taken = batch.decision
    ruleset, game = taken.table.ruleset, taken.table.game
    if not ruleset.simultaneous and game is not None:  # asked before `turn` is checked: the orders moved it on
        problem = turns.commit(ruleset, game, player)
        assert isinstance(problem, RuleError), "a turn-by-turn game has nothing to commit"
        batch.commit_refused = Refusal.of(problem)
        return
    try:
        committed = commit(taken.table, player, turn)
    except Refusal as refusal:
        batch.commit_refused = refusal
        return
    batch.decision = replace(
        committed,
        entries=[*taken.entries, *committed.entries],
        resolved=[*taken.resolved, *committed.resolved],
        issued=tuple(batch.changes),
    )
    batch.committed = True


def resign(table: Table, player: str, booted: bool = False) -> Decision:
    """A player gives up a running game (or, `booted`, the game's boot puts them out): the rule set decides what
    becomes of what they held; a simultaneous turn that waited only for them resolves."""
    game, status = running(table, None)
    result = turns.resign(table.ruleset, game, player, dice_of(table.seed))
    if isinstance(result, RuleError):
        raise Refusal.of(result)
    game, resolved = result
    entries = [
        Logged(game_log.PlayerResigned(player=player, turn=status.turn, step=resolved.step, booted=booted)),
        *(logged(event) for event in resolved.events),
    ]
    return with_standings(table, _resolve_if_ready(Decision(table.evolve(game=game), entries, [resolved])))


def withdraw(table: Table, player: str, turn: int, index: int) -> Decision:
    """An order taken back: it costs the turn's bound on what a player's orders cost one order for itself and one for
    each order after it (those are checked again, turns.withdraw)."""
    game, _ = running(table, turn)
    problem = turns.gate(table.ruleset, game, player)
    if problem is not None:
        raise Refusal.of(problem)
    held = len(game.orders_of(player))
    work = _work_after(table, game, player, held - index) if 0 <= index < held else {}
    result = turns.withdraw(table.ruleset, game, player, index)
    if isinstance(result, RuleError):
        raise Refusal.of(result)
    return Decision(table.evolve(game=result, **work), order_change=OrderChange(player, game.step, index, None))


def move(table: Table, player: str, turn: int, index: int, to: int) -> Decision:
    """An order put at another place among the player's orders (turns.move): kept as rows a store already knows,
    the orders from the first place that changes withdrawn and given again in their new order."""
    ruleset = table.ruleset
    game, _ = running(table, turn)
    result = turns.move(ruleset, game, player, index, to)
    if isinstance(result, RuleError):
        raise Refusal.of(result)
    first = min(index, to)
    tail = result.orders_of(player)[first:]
    changes = [OrderChange(player, game.step, first, None) for _ in tail] + [
        OrderChange(player, game.step, first + k, orjson.dumps(ruleset.dump_order(order)).decode())
        for k, order in enumerate(tail)
    ]
    return Decision(table.evolve(game=result), order_changes=tuple(changes))


def commit(table: Table, player: str, turn: int) -> Decision:
    game, status = running(table, turn)
    result = turns.commit(table.ruleset, game, player)
    if isinstance(result, RuleError):
        raise Refusal.of(result)
    decision = Decision(
        table.evolve(game=result), [Logged(game_log.PlayerCommitted(player=player, turn=status.turn))], committed=player
    )
    return with_standings(table, _resolve_if_ready(decision))


def play_seat(table: Table, player: str, turn: int, orders: Sequence[Any]) -> tuple[Decision, list[RuleError]]:
    """A computer player's decision for its seat, carried out at once (turns.play_seat): the orders the rules accept
    and the commit, or the action; whatever the rules refuse is played as when time runs out, so the game never
    stalls on it. Returns the decision and the refusals. Refusal when the game has moved on since the decision was
    taken (another turn), or no longer waits for the player."""
    game, status = running(table, turn)
    if player not in turns.awaiting(table.ruleset, game):
        raise Refusal(Refused.NOT_YOUR_TURN, "the game does not wait for you now")
    played = turns.play_seat(table.ruleset, game, player, orders, dice_of(table.seed))
    refusals = [problem for _, problem in played.refused]
    if table.ruleset.simultaneous:
        decision = Decision(
            table.evolve(game=played.game), [Logged(game_log.PlayerCommitted(player=player, turn=status.turn))]
        )
        return _resolve_if_ready(decision), refusals
    entries = [Logged(game_log.TimeRanOut(turn=status.turn, players=[player]))] if played.timed_out else []
    entries += resolution_entries(table, played.resolved)
    return Decision(table.evolve(game=played.game), entries, played.resolved), refusals


def _resolve_if_ready(decision: Decision) -> Decision:
    table = decision.table
    if table.game is None or not turns.ready(table.ruleset, table.game):
        return decision
    game, resolved = turns.advance(table.ruleset, table.game, dice_of(table.seed))
    return Decision(
        table.evolve(game=game),
        decision.entries + resolution_entries(table, [resolved]),
        [*decision.resolved, resolved],
    )


def resolution_entries(table: Table, resolutions: Sequence[Resolved]) -> list[Logged]:
    """Each resolution's orders (so the game can be replayed from its seed), then what happened."""
    revealed_to = None if table.ruleset.reveals_orders(table.options) else frozenset[str]()
    out: list[Logged] = []
    for resolved in resolutions:
        out.append(
            Logged(
                game_log.OrdersRevealed(
                    turn=resolved.turn, step=resolved.step, orders=turns.reveal(resolved.orders, table.ruleset)
                ),
                revealed_to,
            )
        )
        out += [logged(event) for event in resolved.events]
    return out


def unsettled(table: Table) -> bool:
    """Every player has committed the turn but it is not resolved (a server stopped in between): see settle."""
    return table.game is not None and turns.ready(table.ruleset, table.game)


def settle(table: Table) -> Decision | None:
    if not unsettled(table):
        return None
    return with_standings(table, _resolve_if_ready(Decision(table)))


def time_out(table: Table, clock: Any, now: float) -> tuple[Decision, frozenset[str]] | None:
    """D3, C9: time ran out for the awaited players whose deadline (their bank and vacation counted) has passed at
    `now` (the time of day): each is played for, or put out once their time has run out as many turns running as the
    game's boot allows. Returns the decision and who timed out; None when the game has moved on since the timer was
    set (`clock`), or nobody's time has run out (a vacation or a bank moved a deadline on: the timer is armed again).
    """
    game = table.game
    if game is None:
        return None
    status = turns.status_of(table.ruleset, game)
    if status.finished or pace.clock_key(table) != clock[0]:
        return None
    before = table
    late = pace.due(table, now)
    if not late:
        return None
    out = pace.booted(table, late)
    played = [p for p in late if p not in out]
    table = pace.timed_out(table, late, now)
    entries: list[Logged] = []
    resolutions: list[Resolved] = []
    if played:
        game, timed, resolutions = turns.time_out(table.ruleset, game, dice_of(table.seed), played)
        entries = [
            Logged(game_log.TimeRanOut(turn=status.turn, players=timed)),
            *resolution_entries(table, resolutions),
        ]
        table = table.evolve(game=game)
    decision = Decision(table, entries, resolutions)
    for player in out:
        if decision.table.finished or player in (decision.table.status or status).eliminated:
            continue
        booted = resign(decision.table, player, booted=True)
        decision = Decision(booted.table, decision.entries + booted.entries, decision.resolved + booted.resolved)
    return with_standings(before, decision), frozenset(late)


def turn_clock(table: Table, anyone_seated: bool, now: float) -> tuple[Any, float] | None:
    """What the turn's timer times now (the turn, who is awaited, and when the earliest of their deadlines falls,
    server/core/pace.py) and that time of day, or None for no timer: a game without a time limit, not started, over,
    or whose every seat is empty in a game of short turns (it waits for its players rather than play itself). A
    change that leaves the same key leaves the timer running."""
    return pace.next_deadline(table, now, anyone_seated)
