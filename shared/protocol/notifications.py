"""The protocol's messages for games that fit lives (protocol 5, added without a new version): how an account is told
of its games away from them (mail, a webhook, the page, the text client) and of which events, vacations, nudges, what
a connection is looking at, and the notices a live connection is sent.

A webhook's secret travels only in `notification_settings`, to the account's own connections: it signs each delivery
(HMAC-SHA256), so the receiver can tell a delivery is the server's.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from shared.protocol.envelope import ClientMessageBase, ServerMessageBase
from shared.protocol.lobby import GameId, PlayerName

Event = Literal["your_turn", "game_started", "game_ended", "player_out", "nudged", "named", "challenge"]
"""What an account may be told of: a turn waits for its orders; a game it is in started, ended or lost a player; it
was nudged, or named in a game's chat; a challenge arrived."""

MOST_VACATION_DAYS = 10


class AskNotifications(ClientMessageBase):
    """How the signed-in account is told of its games: answered `notification_settings`."""

    type: Literal["notifications"] = "notifications"


class SetNotifications(ClientMessageBase):
    """Change how the signed-in account is told; a field left out stays as it is. `mail` and `webhook` null: none.
    Setting the mail address or the webhook URL again starts a channel that was paused."""

    type: Literal["set_notifications"] = "set_notifications"
    mail: Annotated[str | None, Field(max_length=254, description="an address to mail, or null for none")] = None
    webhook: Annotated[
        str | None, Field(max_length=2000, description="an https URL to POST each notification to, or null for none")
    ] = None
    events: list[Event] | None = Field(default=None, description="the events told (null: as they are)")
    page: bool | None = Field(default=None, description="the web page tells them (while hidden)")
    terminal: bool | None = Field(default=None, description="the text client tells them (for games not on screen)")


class NotificationSettings(ServerMessageBase):
    """How the account is told: the answer to `notifications` and `set_notifications`."""

    type: Literal["notification_settings"] = "notification_settings"
    mail: str | None
    webhook: str | None
    webhook_secret: str | None = Field(description="the key each webhook delivery is signed with (HMAC-SHA256)")
    events: list[Event]
    page: bool
    terminal: bool
    mail_paused: str | None = Field(description="why mail stopped (bounces, an unsubscribe), until set again")
    webhook_paused: str | None = Field(description="why the webhook stopped (failures), until set again")


class AskVacation(ClientMessageBase):
    """Take a vacation of `days` (more than 0, at most 10) from now, within the yearly allowance; 0 ends the one under
    way; null only asks. Games that honour vacations wait for the account's orders rather than its deadline while it
    lasts. Answered `vacation`."""

    type: Literal["vacation"] = "vacation"
    days: Annotated[float | None, Field(ge=0, le=MOST_VACATION_DAYS)] = None


class VacationStatus(ServerMessageBase):
    type: Literal["vacation"] = "vacation"
    until: float | None = Field(description="when the vacation under way ends (seconds since the epoch), or null")
    used_days: float = Field(description="days of vacation taken in the last 365 days")
    allowed_days: float = Field(description="days a year the server allows")


class Nudge(ClientMessageBase):
    """Remind a player the game waits for that it does: they are told on their channels. Once a day per game."""

    type: Literal["nudge"] = "nudge"
    game_id: GameId
    player: PlayerName


class Nudged(ServerMessageBase):
    type: Literal["nudged"] = "nudged"
    game_id: str
    player: str


class Looking(ClientMessageBase):
    """What this connection's player looks at now: a game it follows (its screen), or null for none (the page hidden,
    the player away). Nobody is told away from a game about a game they are looking at; a connection that never says
    looks at every game it follows. No answer."""

    type: Literal["looking"] = "looking"
    game_id: GameId | None = None


class Notice(ServerMessageBase):
    """Sent on its own to the account's live connections: something happened in one of its games (or a challenge
    came). `text` says it in words; `body` holds what the player may know of it (never more than their seat saw)."""

    type: Literal["notice"] = "notice"
    id: str = Field(description="the notification's id (the same as its mail's and webhook's)")
    kind: Event
    game_id: str | None
    text: str
    body: dict[str, Any]


class ChannelProblem(BaseModel):
    """A channel paused, as the account's home says it."""

    channel: Literal["mail", "webhook"]
    why: str
