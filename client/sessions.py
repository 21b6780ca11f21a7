"""Account sessions kept on disk, one per server, so that a player signed in stays signed in: `risc client` opens on
their home, and `risc account` speaks for them.

Kept beside the seat tokens (client/tokens.py), in the user's config directory, readable by its owner only (mode 0600,
the directory 0700), changed under the same kind of lock: a session's token is a key to every game of the account.
Only the token and the account's name are kept, never a password.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

from client.tokens import config_dir, exclusive, read_kept, server_key, write_kept

FILE_NAME = "sessions.json"


@dataclass(frozen=True)
class KeptSession:
    server: str
    name: str
    token: str


class SessionStore:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or config_dir() / FILE_NAME

    def _read(self) -> list[KeptSession]:
        return read_kept(self.path, "sessions", KeptSession)

    def _write(self, sessions: list[KeptSession]) -> None:
        write_kept(self.path, "sessions", sessions)

    def get(self, server: str) -> KeptSession | None:
        key = server_key(server)
        return next((s for s in self._read() if s.server == key), None)

    def keep(self, server: str, name: str, token: str) -> None:
        key = server_key(server)
        with exclusive(self.path):
            self._write([*(s for s in self._read() if s.server != key), KeptSession(key, name, token)])

    def forget(self, server: str, token: str | None = None) -> None:
        """Forget the session kept for a server (only if it is still `token`, when given: a session that ended
        under one client never takes with it the new one another client of this user kept since)."""
        key = server_key(server)
        with contextlib.suppress(OSError), exclusive(self.path):
            sessions = self._read()
            kept = [s for s in sessions if s.server != key or (token is not None and s.token != token)]
            if len(kept) != len(sessions):
                self._write(kept)
