"""Seat tokens kept on disk, so closing the terminal never costs a player their seat.

The file lives in the user's config directory ($XDG_CONFIG_HOME/risc, else ~/.config/risc), readable by its owner
only (mode 0600, the directory 0700): a token is the one key to a seat. Seats are keyed by server address and game
id and player: several players on one computer (each in their own terminal) each keep their own seat in the same
game. Each seat remembers when it was saved, so the newest seat on a server is the one to go back to, and the last
log entry its player was shown, so that coming back shows what came after. A damaged file is treated as empty rather
than stopping the client.

Several clients of one user share the file (three players on one computer, each in a terminal), so every change is
read, made and written under a lock on a file beside it: one client's save never undoes another's.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

FILE_NAME = "seats.json"


@contextlib.contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold the lock beside `path` (flock where there is one; Windows clients go unlocked, as one user rarely runs
    several there). The lock file stays: removing it would race with the next holder."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    descriptor = os.open(path.with_name(f".{path.name}.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing lets go of the lock


_Kept = TypeVar("_Kept")


def read_kept(path: Path, key: str, kind: Callable[..., _Kept]) -> list[_Kept]:
    """The entries a client keeps in a file of its own (`{key: [entries]}`), each made with `kind`; none when the
    file is missing or damaged (a client never stops on it)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return [kind(**entry) for entry in raw.get(key, [])]
    except (OSError, ValueError, TypeError, AttributeError):
        return []


def write_kept(path: Path, key: str, entries: Iterable[Any]) -> None:
    """Write the entries (dataclasses) whole, readable by their owner only, replacing the file in one step."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        json.dump({key: [asdict(e) for e in entries]}, out, indent=1)
    os.chmod(temporary, 0o600)
    os.replace(temporary, path)


def config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "risc"


def server_address(typed: str) -> str:
    """A server's address as typed (`HOST:PORT` will do) as a websocket address: what seats and the account's
    session are kept under, alike for `risc client` and `risc account`."""
    return typed if "://" in typed else f"ws://{typed}"


def server_key(url: str) -> str:
    """ws://Host:8765/ and ws://host:8765 are the same server."""
    scheme, sep, rest = url.strip().partition("://")
    if not sep:
        return url.strip().rstrip("/")
    host, slash, path = rest.partition("/")
    return f"{scheme.lower()}://{host.lower()}{slash}{path}".rstrip("/")


@dataclass(frozen=True)
class Seat:
    server: str
    game_id: str
    player: str
    token: str
    saved_at: float
    seq: int = 0
    """The last log entry of the game this client showed: coming back, it is shown what came after."""


class SeatStore:
    def __init__(self, path: Path | None = None, clock: Callable[[], float] = time.time) -> None:
        """`clock`: the time of day a seat is saved at (seconds since the epoch), from outside so that a test can
        fix it."""
        self.path = path or config_dir() / FILE_NAME
        self.clock = clock

    def _read(self) -> list[Seat]:
        return read_kept(self.path, "seats", Seat)

    def _write(self, seats: list[Seat]) -> None:
        write_kept(self.path, "seats", seats)

    def save(self, server: str, game_id: str, player: str, token: str, seq: int = 0) -> Seat:
        key = server_key(server)
        seat = Seat(key, game_id, player, token, self.clock(), seq)
        with exclusive(self.path):
            kept = [s for s in self._read() if (s.server, s.game_id, s.player) != (key, game_id, player)]
            self._write([*kept, seat])
        return seat

    def get(self, server: str, game_id: str, player: str | None = None) -> Seat | None:
        """The seat in a game (the named player's, or the newest one kept there)."""
        key = server_key(server)
        found = [
            s
            for s in self._read()
            if (s.server, s.game_id) == (key, game_id) and (player is None or s.player == player)
        ]
        return found[-1] if found else None

    def seen(self, server: str, game_id: str, player: str, seq: int) -> None:
        """Remember how far this seat's player has seen the game's log (no newer save is undone by it)."""
        key = server_key(server)
        with contextlib.suppress(OSError), exclusive(self.path):
            seats = self._read()
            if not any((s.server, s.game_id, s.player) == (key, game_id, player) and s.seq < seq for s in seats):
                return
            self._write(
                [
                    Seat(s.server, s.game_id, s.player, s.token, s.saved_at, max(s.seq, seq))
                    if (s.server, s.game_id, s.player) == (key, game_id, player)
                    else s
                    for s in seats
                ]
            )

    def seats_for(self, server: str, player: str | None = None) -> list[Seat]:
        """The seats held on a server (by one player, when named), newest first."""
        key = server_key(server)
        found = [
            s for s in self._read() if s.server == key and (player is None or s.player.casefold() == player.casefold())
        ]
        return found[::-1]  # each save goes to the end of the file

    def forget(self, server: str, game_id: str, player: str | None = None) -> None:
        """Forget a seat (the named player's, or every seat kept in that game)."""
        key = server_key(server)
        with contextlib.suppress(OSError), exclusive(self.path):
            seats = self._read()
            kept = [
                s
                for s in seats
                if not ((s.server, s.game_id) == (key, game_id) and (player is None or s.player == player))
            ]
            if len(kept) != len(seats):
                self._write(kept)
