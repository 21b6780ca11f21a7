"""The game on screen: orders given, listed, withdrawn and committed, what is shown of the game (board, summary,
history, report, map, a rule set's own screens), chat, hand-over votes, resigning and rematches."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from client import commands as cmd
from client import render
from client.core import effects as fx
from client.core.effects import Ask, Plan, Show
from client.core.lobby import ask_name
from client.core.state import State, answer, error, on_screen, send
from client.tracker import Tracker
from shared.game.presentation import ShowCommand
from shared.protocol import messages as msg

ORDERS_SAID = 6
"""How many orders one command's answer names before it counts the rest."""


def _sentence(text: str) -> str:
    return f"{text[0].upper()}{text[1:]}."


def issue(state: State, command: cmd.Issue) -> Plan[None]:
    """A command's orders, sent; in a game whose players give their orders together, what was accepted said in one
    line (`place 60 *` gives one order per territory), with what the orders leave the player."""
    t = yield from on_screen(state)
    if t is None:
        return
    accepted: list[tuple[int, Any]] = []
    game = t.followed.game
    if len(command.orders) > 1 and game is not None and game.simultaneous:
        yield from _issue_together(t, command.orders, accepted)
    else:
        yield from _issue_one_by_one(t, command.orders, accepted)
    if not accepted or t.followed.game is None or not t.followed.game.simultaneous:
        return
    presentation = t.presentation
    said = [presentation.describe(o) if presentation else str(o) for _, o in accepted]
    if len(said) > ORDERS_SAID:  # `place 600 *` on a big map: sixty orders, a screenful
        said = [*said[: ORDERS_SAID - 1], f"and {len(said) - ORDERS_SAID + 1} more (orders lists them)"]
    shown = "; ".join(said)
    first, last = accepted[0][0], accepted[-1][0]
    note = f"Order {first}: {shown}." if first == last else f"Orders {first}-{last}: {shown}."
    extra = presentation.status(t.view, t.player, t.followed.orders, t.followed.game_map) if presentation else ""
    yield Show(note + (f" {_sentence(extra)}" if extra else ""), "class:ok")


def _issue_one_by_one(t: Tracker, orders: Sequence[Any], accepted: list[tuple[int, Any]]) -> Plan[None]:
    for order in orders:
        reply = yield from answer(fx.IssueOrder(t.followed, order), msg.OrderAccepted)
        if reply is None:
            return
        if t.followed.orders:
            accepted.append((reply.index + 1, t.followed.orders[-1]))


def _issue_together(t: Tracker, orders: Sequence[Any], accepted: list[tuple[int, Any]]) -> Plan[None]:
    """A command's several orders (`place 60 *`) in one message: each checked as if sent alone; the accepted ones
    join `accepted` (shown in one line), each refused one is said."""
    replies = yield from send(fx.IssueOrders(t.followed, orders))
    for reply in replies or []:
        if isinstance(reply, msg.Error):
            yield error(f"Refused: {reply.message}")
            return
        if not isinstance(reply, msg.OrdersAccepted):
            return
        listed = t.followed.orders
        accepted.extend((a.index + 1, listed[a.index]) for a in reply.accepted if a.index < len(listed))
        for refused in reply.refused:
            yield error(f"Refused: {refused.message}")


def list_orders(state: State) -> Plan[None]:
    t = yield from on_screen(state)
    if t is None:
        return
    reply = yield from answer(fx.ListOrders(t.followed), msg.Orders)
    if reply is None:
        return
    yield Show(render.order_list(t.followed.orders, t.presentation, reply.committed))
    extra = t.presentation.status(t.view, t.player, t.followed.orders, t.followed.game_map) if t.presentation else ""
    if extra and not reply.committed:
        yield Show(_sentence(extra), "class:hint")


def withdraw(state: State, number: int | None) -> Plan[None]:
    t = yield from on_screen(state)
    if t is None:
        return
    if number is None:
        count = len(t.followed.orders)
        for index in reversed(range(count)):
            reply = yield from send(fx.WithdrawOrder(t.followed, index))
            if reply is None:
                return
            if isinstance(reply, msg.Error):
                yield error(f"Refused: {reply.message}")
                return
        yield Show(f"Withdrew all {count} orders." if count else "You have no orders to withdraw.", "class:ok")
        return
    if number < 1:
        yield error("orders are numbered from 1: orders lists them")
        return
    taken = t.followed.orders[number - 1] if number <= len(t.followed.orders) else None
    if (yield from answer(fx.WithdrawOrder(t.followed, number - 1), msg.OrderWithdrawn)) is None:
        return
    what = f": {t.presentation.describe(taken)}" if taken is not None and t.presentation else ""
    yield Show(f"Withdrew order {number}{what}.", "class:ok")
    yield Show(render.order_list(t.followed.orders, t.presentation))


def reorder(state: State, number: int, place: int) -> Plan[None]:
    """Move order `number` to place `place` (both from 1), as the server checks it in its new place."""
    t = yield from on_screen(state)
    if t is None:
        return
    if number < 1 or place < 1:
        yield error("orders are numbered from 1: orders lists them")
        return
    if (yield from answer(fx.ShiftOrder(t.followed, number - 1, place - 1), msg.OrderMoved)) is None:
        return
    yield Show(f"Order {number} is number {place} now.", "class:ok")
    yield Show(render.order_list(t.followed.orders, t.presentation))


def commit(state: State) -> Plan[None]:
    t = yield from on_screen(state)
    if t is None:
        return
    turn = t.followed.turn
    stage = f"turn {turn}" if turn or t.followed.game is None else t.followed.game.phase
    reply = yield from answer(fx.Commit(t.followed), msg.CommitAccepted)
    if reply is None:
        return
    if t.followed.turn == reply.turn and not t.finished:
        waiting = [p for p in t.followed.waiting_for() if p != t.player]
        tail = f" Waiting for {', '.join(waiting)}." if waiting else ""
        yield Show(f"Committed {stage}.{tail}", "class:ok")


def show(state: State, command: cmd.Board | cmd.Summary | cmd.History | cmd.Report) -> Plan[None]:
    """What `board`, `summary`, `history` and `report` show of the game on screen."""
    t = yield from on_screen(state, seated=False)
    if t is None:
        return
    f = t.followed
    if isinstance(command, cmd.History):
        yield Show(
            t.figures(state.columns - 1)
            if t.statistics is not None
            else render.history_table(t.history, f.players(), t.palette())
        )
    elif isinstance(command, cmd.Report) and command.turn is not None:
        told = t.turn_report(command.turn)
        if not told or t.presentation is None:
            known = sorted(n for n in t.turns if n > 0)
            span = f" (this client has turns {known[0]} to {known[-1]})" if known else ""
            yield Show(f"Nothing was told of turn {command.turn}{span}.", "class:muted")
        else:
            yield Show(f"Turn {command.turn}:", "class:title")
            yield Show(t.presentation.events(told, t.palette(), f.player))
    elif isinstance(command, cmd.Report):
        heading, told = t.report()
        if not told or t.presentation is None:
            yield Show("No turn has been played yet.", "class:muted")
        else:
            if heading:
                yield Show(heading, "class:title")
            yield Show(t.presentation.events(told, t.palette(), f.player))
    elif f.view is None or f.game_map is None or t.presentation is None:
        yield Show("The game has not started yet.", "class:muted")
    elif isinstance(command, cmd.Board):
        yield Show(t.presentation.board(f.view, f.game_map, t.palette(), f.player, f.orders, command.focus))
    else:
        yield Show(t.presentation.summary(f.view, f.game_map, t.palette(), f.player))
        yield Show(render.progress_line(f.game))


def show_own(state: State, shown: ShowCommand) -> Plan[None]:
    """One of the rule set's commands that only shows something (Warzone's `cards`)."""
    t = yield from on_screen(state, seated=False)
    if t is not None and t.presentation is not None and t.view is not None and t.followed.game_map is not None:
        yield Show(t.presentation.show(shown, t.view, t.followed.game_map, t.palette(), t.player))


def draw_map(state: State, region: str | None = None) -> Plan[None]:
    """`map`: the map drawn to the terminal's size, a screen at a time (`region`: one continent, or the one a
    territory lies in)."""
    t = yield from on_screen(state, seated=False)
    if t is None:
        return
    f = t.followed
    if f.view is None or f.game_map is None or t.presentation is None:
        yield Show("The game has not started yet.", "class:muted")
        return
    screens = t.presentation.picture(
        f.view, f.game_map, t.palette(), f.player, state.columns - 1, state.screen_rows, region
    )
    if screens is None:
        yield Show(t.presentation.no_picture(f.view, f.game_map), "class:muted")
    for screen in screens or []:
        yield Show(screen)


def hand_over(state: State, player: str) -> Plan[None]:
    t = yield from on_screen(state)
    if t is None:
        return
    reply = yield from answer(fx.HandOver(t.followed, player), msg.HandOverPending)
    if reply is not None and reply.needed:
        yield Show(f"Your vote counts. Still to agree: {', '.join(reply.needed)}.", "class:ok")


def say(state: State, text: str, to: str | None) -> Plan[None]:
    """The chat of the game on screen, or the lobby's; a spectator and the lobby speak under the client's name."""
    t = state.tracker
    if t is None and to is not None:
        yield error("tell is for the players of the game on screen: join or watch one.")
        return
    name = None if t is not None and t.player is not None else state.name
    if name is None and (t is None or t.player is None):
        name = state.name = yield from ask_name()
        if name is None:
            return
    reply = yield from send(fx.Chat(None if t is None else t.game_id, text, to, name))
    if isinstance(reply, msg.Error):
        yield error(f"Refused: {reply.message}")


def resign(state: State) -> Plan[None]:
    t = yield from on_screen(state)
    if t is None:
        return
    if not t.active:
        yield error("There is nothing to resign: the game has not started, is over, or you are out already.")
        return
    typed = yield Ask(f"Resign game {t.game_id}? You will be out for good (yes/no): ")
    if typed is None or typed.casefold() not in ("y", "yes"):
        yield Show("You play on.", "class:muted")
        return
    if (yield from answer(fx.Resign(t.followed), msg.Resigned)) is not None:
        yield Show(f"You resigned game {t.game_id}: you may watch it to its end, or leave.", "class:ok")


def rematch(state: State) -> Plan[None]:
    t = yield from on_screen(state)
    if t is None:
        return
    problem = t.rematch_problem() if t.finished else None
    if problem is not None:
        yield error(f"{problem} Type leave to go back to the lobby.")
        return
    reply = yield from answer(fx.Rematch(t.followed), msg.RematchPending)
    if reply is None:
        return
    asked = set(t.followed.game.rematch) if t.followed.game is not None else set()
    waiting = [p for p in reply.waiting_for if p not in asked]  # some may have asked since the reply
    if waiting:
        yield Show(f"Rematch asked. Waiting for {', '.join(waiting)} to ask too.", "class:ok")
