"""The state of the client's link to its server, as the connection (client/connection.py) keeps it and every face on
the session shows it; apart from the connection so that the text client's core reads it without loading a socket."""

from __future__ import annotations

from enum import StrEnum


class LinkState(StrEnum):
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"
    CLOSED = "closed"
