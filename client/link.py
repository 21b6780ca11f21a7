"""The state of the client's link to its server, as the connection (client/connection.py) keeps it and every face on
the session shows it; apart from the connection so that the text client's core reads it without loading a socket."""

from __future__ import annotations

from enum import StrEnum


class LinkState(StrEnum):
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"
    CLOSED = "closed"


SIGNED_OUT = "signed out: connecting again as a guest"
"""What the link says when the server closed it because its account session ended (close code 4010): it comes back
at once, as a guest's, never with the dead session."""
