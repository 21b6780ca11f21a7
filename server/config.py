"""How a server is set up: where it listens, what it keeps, and the limits it holds every connection to."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal


@dataclass(frozen=True)
class ServerConfig:
    host: str = "0.0.0.0"
    port: int = 8765
    data_dir: Path | None = None
    password: str | None = None
    allowed_origins: tuple[str, ...] = ()
    """Web pages of these origins ("https://host[:port]") may open game connections, besides pages served at the
    server's own address; programs send no Origin and are always accepted (server/frontier/origins.py)."""
    compression: bool = True
    """Accept a client's offer of permessage-deflate (frames of 2 KB or more compressed, shared/protocol/deflate.py):
    a bigeurope game's bytes a turn 3 to 5 times fewer for about a tenth more CPU. Off: every frame uncompressed."""
    max_message_bytes: int = 64 * 1024
    """Frames larger than this get a too-large error; frames past 4 times this close the connection (1009)."""
    messages_per_second: float = 100.0
    burst: int = 200
    """A client may send `burst` frames at once, then `messages_per_second` on average."""
    bad_frames_burst: int = 10
    bad_frames_per_second: float = 0.2
    """Refused frames a client may send before it is disconnected: `bad_frames_burst`, regained at this rate."""
    hello_timeout: float = 10.0
    keepalive: float = 20.0
    """Seconds: a connection the server has heard nothing from for this long is pinged, and one still silent this
    long after its ping is disconnected (1011: server/frontier/keepalive.py)."""
    password_free_failures: int = 5
    """Wrong passwords an address may give before each further refusal waits (see server/frontier/guesses.py)."""
    password_delay: float = 1.0
    password_delay_max: float = 60.0
    """The first wait, doubled at each further wrong password of the address, up to this."""
    password_forget: float = 15 * 60.0
    """An address's wrong passwords are forgotten after this long without one (and at once by a right one)."""
    password_report_every: float = 60.0
    """Wrong passwords are logged per address at most once in this long, saying how many."""
    outbound_bytes: int = 2 * 1024 * 1024
    """Bytes waiting for one client, past which it is disconnected (4009): it reads too slowly. A client whose queue
    is empty always gets the next message, however large."""
    outbound_total_bytes: int = 64 * 1024 * 1024
    """Bytes waiting for all clients together: past it, the clients holding the most are disconnected (4009), so
    clients that stop reading cannot make the server hold more than this, however many they are."""
    socket_send_buffer: int | None = 256 * 1024
    """The OS's send buffer for each connection (SO_SNDBUF; Linux doubles it): what the kernel holds for a client
    that does not read, besides the server's own queue. Without it, Linux grows a buffer to 4 MiB per connection
    (tcp_wmem), kernel memory that clients that stop reading could take; None leaves the OS's choice."""
    max_connections: int | None = None
    """Connections the server admits at once (a client's, a page's request under way); past it, a new one is refused
    with HTTP 503. None: as many as its open-files limit leaves room for, past a reserve for its store (server/frontier/
    room.py)."""
    connections_per_address: int | None = 256
    """Connections one network address (an IPv6 one by its /64) holds at once; past it, a new one is refused with
    HTTP 429, so that one program cannot take the whole room. Enough for a school's or an office's players behind one
    address, each with a few pages open. None: no limit of its own (behind a proxy that every player comes through,
    which is one address)."""
    max_games: int = 500
    """Games not yet finished that the server holds at once; past it, creating one is refused."""
    finished_games_kept: int = 200
    """Finished games kept in memory for their watchers and rematches; past it, the oldest are let go (the store keeps
    them all, for `risc replay`)."""
    bot_turn_pause: float = 1.0
    """Once only the server's own players are left in a game, each turn waits this long, so that the players who were
    eliminated can watch it to its end, and a game between computer players that cannot end does not take the CPU."""
    open_games_per_connection: int = 3
    open_games_per_address: int = 10
    """Games that one connection, and one network address (an IPv6 one by its /64), may have created and that hold
    no player still in: games not yet started, and games of the server's computers alone (which play on by
    themselves). Enough for any game night, too few to fill the server."""
    computer_games: int = 20
    """Games of the server's computers alone (every player still in is one of its own) the server plays at once:
    past it, creating one whose every seat is a computer is refused. They cost the server's time and memory for as
    long as they play, whoever asked for them."""
    computer_share: float = 0.5
    """The most of the server's time its computer players take: after each computer's turn, their queue rests that
    turn's time scaled to this share (server/computers/share.py), so people are never kept waiting behind them."""
    min_turn_seconds: float = 10.0
    """The shortest turn time limit a game may have: shorter ones would have games play themselves."""
    hand_over_after: float = 120.0
    """How long a seat must be without its player before the others may hand it to the server's computer player."""
    unstarted_game_expiry: float = 600.0
    """An unstarted game in which no player has sat with a live connection for this long is closed (the server's own
    players do not count); one whose last player leaves it is closed at once. 0: never."""
    lonely_game_expiry: float = 1800.0
    """A game waiting for players that nobody else joined (one person in it at most) this long after the server began
    to hold it is closed, whoever sits in it. 0: never."""
    newcomers_share: float = 0.1
    """The share of max_games kept for addresses that hold no game waiting for players (nor one of computers alone)."""
    maps: tuple[Path, ...] = ()
    """Folders of map files the server offers besides its bundled maps (`--maps DIR`)."""
    web_root: Path | None = None
    """The web page's folder, served at / on the game's port (server/frontier/web.py); None: no page, WebSocket clients
    and GET /healthz only. Whoever composes the server with the page sets it (`risc server`, `risc play --web`)."""
    shutdown_grace: float = 3.0
    """How long clients have to receive the last messages when the server stops."""
    accounts: Literal["off", "optional", "required"] = "optional"
    """Whether players may have accounts (`off`: everyone is a guest), and whether creating or joining a game needs one
    (`required`); watching never does."""
    store: str | None = None
    """A PostgreSQL store's address (postgresql://...), which several servers (nodes) may share: games then live
    there, each played by one node (server/cluster/node.py). None: the SQLite file in `data_dir`, or memory."""
    node_id: str | None = None
    """This node's name among the nodes sharing the store (default: host name and port)."""
    public_url: str | None = None
    """Where clients reach this node (ws://host:port/), which other nodes send them to (default: this machine's
    address and the port)."""
    heartbeat: float = 1.0
    """Seconds between two heartbeats of a node into the shared store."""
    fence_after: float = 15.0
    """A node whose heartbeat stopped this long ago is fenced by the others: its database session is ended, which
    frees the games it held."""
    smtp: str | None = None
    """Where notifications are mailed (`--smtp smtp://[USER[:PASSWORD]@]HOST[:PORT]`, or smtps://): None mails
    nothing (docs/notifications.md)."""
    mail_from: str = "risc@localhost"
    """The From of the server's mail (`--mail-from`)."""
    page_url: str | None = None
    """Where players reach the web page, for the links of the server's mail (default: http://THIS-HOST:PORT/)."""
    webhook_allow: tuple[str, ...] = ()
    """Hosts a webhook may reach though they are loopback or private, or over plain http (`--webhook-allow`)."""
    webhook_cafile: str | None = None
    """Certificates webhooks' hosts are checked against, besides the system's (an operator's own authority)."""
    vacation_days: float = 30.0
    """Days of vacation an account may take a year (`--vacation-days`)."""
    notify_lease: float = 60.0
    """How long a sender's claim on the notifications it is sending lasts: a node that dies mid-send holds them this
    long, then another node sends them (`--notify-lease`)."""
    notify_every: float = 5.0
    """Seconds between two looks at the outbox (a change that keeps a notification wakes its sender at once)."""
    sweep_every: float = 2.0
    """Seconds between two looks for games nobody holds that play by themselves (a turn clock, computer players)."""
