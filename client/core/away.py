"""Games of days away from the board (docs/notifications.md): a nudge to the player the game on screen waits for, the
account's vacation, and how it is told that a game waits for it (by mail, by webhook). The server's answers said."""

from __future__ import annotations

import datetime

from client.core import account
from client.core.effects import Plan, Said, Show
from client.core.state import State, answer, error, on_screen
from shared.protocol.notifications import (
    AskNotifications,
    AskVacation,
    NotificationSettings,
    Nudge,
    Nudged,
    SetNotifications,
    VacationStatus,
)


def nudge(state: State, player: str) -> Plan[None]:
    t = yield from on_screen(state)
    if t is None:
        return
    done = yield from answer(Said(Nudge(game_id=t.game_id, player=player)), Nudged)
    if done is not None:
        yield Show(f"{done.player} is told that game {done.game_id} waits for them.", "class:hint")


def vacation(state: State, days: float | None) -> Plan[None]:
    if (yield from account._signed(state)) is None:
        return
    if days is not None and not 0 <= days <= 10:
        yield error("A vacation lasts up to 10 days: vacation DAYS, or vacation end.")
        return
    status = yield from answer(Said(AskVacation(days=days)), VacationStatus)
    if status is None:
        return
    left = f"{status.used_days:g} of {status.allowed_days:g} days taken this year"
    if status.until is None:
        yield Show(f"No vacation under way ({left}).", "class:hint")
    else:
        until = datetime.datetime.fromtimestamp(status.until).strftime("%a %d %b %H:%M")
        yield Show(
            f"On vacation until {until} ({left}): games that honour it wait for you. Taking a turn ends it an hour "
            "later.",
            "class:hint",
        )


def notify(state: State, channel: str | None, value: str | None) -> Plan[None]:
    if (yield from account._signed(state)) is None:
        return
    message: AskNotifications | SetNotifications = AskNotifications()
    if channel == "mail":
        message = SetNotifications(mail=value)
    elif channel == "webhook":
        message = SetNotifications(webhook=value)
    settings = yield from answer(Said(message), NotificationSettings)
    if settings is None:
        return
    lines = [
        f"  mail:     {settings.mail or 'none'}"
        + (f" (paused: {settings.mail_paused})" if settings.mail_paused else ""),
        f"  webhook:  {settings.webhook or 'none'}"
        + (f" (paused: {settings.webhook_paused})" if settings.webhook_paused else ""),
    ]
    if settings.webhook_secret:
        lines.append(f"  its key:  {settings.webhook_secret} (check each delivery's X-Risc-Signature with it)")
    lines.append(f"  told of:  {', '.join(settings.events)}")
    yield Show("How you are told that a game waits for you:\n" + "\n".join(lines))
