"""The protocol's version and the stable codes of its errors: programs match the code, people read the message."""

from __future__ import annotations

from enum import IntEnum, StrEnum

PROTOCOL_VERSION = 5
"""Raised whenever a message changes incompatibly; client and server agree on it in the first exchange.
Version 2: every rule set on one protocol (orders, events and views are the game's rule set's), maps from the server's
catalogue or uploaded, a followed game's map sent once, views sent whole once then as patches.
Version 3: an order's acceptance or withdrawal names that order only (clients keep the turn's list themselves), and
an update's game summary is sent whole once, then as patches, as the view is.
Version 4: batches of orders (`issue_orders`), the words of orders and entries for clients that ask.
Version 5: accounts (sign up, in and out, sessions, a player's home), a seat resumed by its account."""

SUPPORTED_PROTOCOLS = (4, PROTOCOL_VERSION)
"""The versions a server speaks: a client of the one before plays as a guest, as it did."""


class ErrorCode(StrEnum):
    """Why a frame or a request was refused. A refused order carries its rule set's own code instead."""

    # The frame itself.
    NOT_JSON = "not-json"
    BINARY_FRAME = "binary-frame"
    TOO_LARGE = "too-large"
    UNKNOWN_TYPE = "unknown-type"
    INVALID_MESSAGE = "invalid-message"
    RATE_LIMITED = "rate-limited"
    # The opening exchange.
    HELLO_FIRST = "hello-first"
    VERSION_MISMATCH = "version-mismatch"
    BAD_PASSWORD = "bad-password"
    # Accounts.
    ACCOUNTS_OFF = "accounts-off"
    """This server has no accounts: everyone plays as a guest."""
    ACCOUNT_NEEDED = "account-needed"
    """Sign in first: this server needs an account to create or join games, or the request is an account's."""
    SIGNED_IN_ALREADY = "signed-in-already"
    BAD_CREDENTIALS = "bad-credentials"
    """No account has that name, or the password is not its: the same answer for both."""
    WEAK_PASSWORD = "weak-password"
    SIGN_IN_WAIT = "sign-in-wait"
    """Too many failed sign-ins under that name or from that address: the message says when to try again."""
    NAME_REGISTERED = "name-registered"
    """A guest may not sit or speak under an account's name, nor one that looks like it."""
    NO_SUCH_SESSION = "no-such-session"
    BUSY = "busy"
    """The server has too much of this work waiting (sign-ins being checked): try again in a moment."""
    # The lobby.
    NO_SUCH_GAME = "no-such-game"
    BAD_MAP = "bad-map"
    BAD_SETTINGS = "bad-settings"
    GAME_FULL = "game-full"
    NAME_TAKEN = "name-taken"
    BAD_GROUP = "bad-group"
    ALREADY_SEATED = "already-seated"
    NOT_SEATED = "not-seated"
    GAME_STARTED = "game-started"
    BAD_TOKEN = "bad-token"
    NOT_FINISHED = "not-finished"
    TOO_MANY_GAMES = "too-many-games"
    # Playing.
    UNKNOWN_ORDER = "unknown-order"
    INVALID_ORDER = "invalid-order"
    CANNOT_FOLLOW = "cannot-follow"
    CANNOT_HAND_OVER = "cannot-hand-over"
    TOO_MANY_ORDERS = "too-many-orders"
    """A player holds the most orders one may in a turn, or their orders have cost the server the most a turn's may."""
    NOT_AWAITED = "not-awaited"
    """A nudge to a player the game does not wait for now."""
    # Vacations and notifications.
    NO_VACATION_LEFT = "no-vacation-left"
    """A vacation longer than 10 days, or than what is left of the account's yearly allowance."""
    BAD_CHANNEL = "bad-channel"
    """A mail address or a webhook URL the server will not send to (the message says why)."""
    # A finished game told again.
    NO_SUCH_PLAYER = "no-such-player"
    # The server.
    STORAGE_FAILED = "storage-failed"
    GAME_MOVED = "game-moved"
    """The game moved to another node of the server, whose address is not known yet: try again in a moment."""
    SHUTTING_DOWN = "shutting-down"
    INTERNAL = "internal"


class CloseCode(IntEnum):
    """WebSocket close codes the server uses besides the standard ones (1000 normal, 1001 going away)."""

    VERSION_MISMATCH = 4001
    BAD_PASSWORD = 4003
    HELLO_FIRST = 4004
    ABUSE = 4008
    """Too many refused frames, or a flood past the rate limit."""
    TOO_SLOW = 4009
    """The client did not read what the server sent fast enough."""
    SIGNED_OUT = 4010
    """The connection's session ended (signed out, here or elsewhere; a password changed; the account disabled or
    deleted): connect again, as a guest or with a new session."""
