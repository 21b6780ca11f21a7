"""How a server is set up: where it listens, what it keeps, and the limits it holds every connection to."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ServerConfig:
    host: str = "0.0.0.0"
    port: int = 8765
    data_dir: Path | None = None
    password: str | None = None
    max_message_bytes: int = 64 * 1024
    """Frames larger than this get a too-large error; frames past 4 times this close the connection (1009)."""
    messages_per_second: float = 100.0
    burst: int = 200
    """A client may send `burst` frames at once, then `messages_per_second` on average."""
    bad_frames_burst: int = 10
    bad_frames_per_second: float = 0.2
    """Refused frames a client may send before it is disconnected: `bad_frames_burst`, regained at this rate."""
    hello_timeout: float = 10.0
    outbound_queue: int = 512
    """Messages waiting for a client that reads too slowly, past which it is disconnected."""
    max_games: int = 500
    """Games not yet finished that the server holds at once; past it, creating one is refused."""
    finished_games_kept: int = 200
    """Finished games kept in memory for their watchers and rematches; past it, the oldest are let go (the store keeps
    them all, for `risc replay`)."""
    bot_turn_pause: float = 1.0
    """Once only the server's own players are left in a game, each turn waits this long, so that the players who were
    eliminated can watch it to its end, and a game between computer players that cannot end does not take the CPU."""
    min_turn_seconds: float = 10.0
    """The shortest turn time limit a game may have: shorter ones would have games play themselves."""
    hand_over_after: float = 120.0
    """How long a seat must be without its player before the others may hand it to the server's computer player."""
    unstarted_game_expiry: float = 600.0
    """An unstarted game in which no player has sat with a live connection for this long is closed (the server's own
    players do not count); one whose last player leaves it is closed at once. 0: never."""
    maps: tuple[Path, ...] = ()
    """Folders of map files the server offers besides its bundled maps (`--maps DIR`)."""
    shutdown_grace: float = 3.0
    """How long clients have to receive the last messages when the server stops."""
