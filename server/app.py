"""Starting and stopping a server: the store, the lobby, the transport, and the signals that end them."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import socket
import ssl
from collections.abc import Callable
from pathlib import Path

from pydantic import ValidationError

from server.accounts.desk import AccountDesk
from server.accounts.service import MODES, Accounts
from server.clock import Clock, LoopClock
from server.cluster.node import NodeIdTaken
from server.collector import settle_collector as settle_collector
from server.config import ServerConfig
from server.frontier import origins
from server.frontier.addresses import where_to_connect
from server.frontier.room import connections
from server.frontier.transport import Transport
from server.lobby.catalogue import Catalogue
from server.lobby.lobby import Lobby
from server.logs import FORMATS, LogFormat, setup_logging
from server.loop import LOOPS, choose_loop
from server.matchmaking.desk import PeopleDesk
from server.metrics import Metrics
from server.notify.desk import Notifier
from server.notify.mail import SmtpServer
from server.notify.sender import Outgoing, Sender
from server.notify.vacations import Vacations
from server.opening import alone, open_place
from server.storage import Storage, StorageError, default_data_dir, is_postgres
from shared.protocol.codes import PROTOCOL_VERSION
from shared.protocol.messages import Hello
from shared.rulesets import prepare_rulesets

logger = logging.getLogger("risc.server")


class RiscServer:
    """A running server. `async with RiscServer(config) as server:` listens on `server.port` until the block ends."""

    def __init__(
        self,
        config: ServerConfig,
        storage: Storage | None = None,
        *,
        seeds: Callable[[], int] | None = None,
        clock: Clock | None = None,
    ) -> None:
        """`storage`: a store of the test's, played by this server alone (a server opens the store `config` names,
        and a PostgreSQL store is played as one node of several). `seeds` gives each new game's seed and `clock`
        times turns: a test passes its own of both."""
        self.config = config
        self.clock: Clock = clock or LoopClock()
        catalogue = Catalogue(config.maps)
        self.storage, self.directory = alone(storage, config) if storage is not None else open_place(config, self.clock)
        self.metrics = Metrics()
        """What the server does, in figures (GET /metrics)."""
        self.storage.committed = self.metrics.store_commits.observe
        self.lobby = Lobby(
            self.storage,
            config.max_games,
            finished_games_kept=config.finished_games_kept,
            bot_turn_pause=config.bot_turn_pause,
            catalogue=catalogue,
            seeds=seeds,
            clock=self.clock,
            min_turn_seconds=config.min_turn_seconds,
            hand_over_after=config.hand_over_after,
            open_games_per_connection=config.open_games_per_connection,
            open_games_per_address=config.open_games_per_address,
            computer_games=config.computer_games,
            computer_share=config.computer_share,
            unstarted_expiry=config.unstarted_game_expiry,
            lonely_expiry=config.lonely_game_expiry,
            newcomers_share=config.newcomers_share,
            directory=self.directory,
            metrics=self.metrics,
        )
        self.accounts = Accounts(self.storage.accounts(), self.clock, mode=config.accounts)
        self.notifier = notifier(config, self.storage, self.clock, self.lobby)
        desk = AccountDesk(self.accounts, self.lobby, self.storage, self.notifier)
        desk.people = self.people = PeopleDesk(
            self.lobby,
            self.accounts,
            self.storage.ratings(),
            self.directory.queue(),
            self.storage.invitations(),
            self.directory.node_name,
            self.clock,
        )
        self.people.notifier = self.notifier
        self.transport = Transport(config, self.lobby, desk, self.clock)
        self.notifier.connections = lambda: self.transport.connections
        self.notifier.on_kept = self.metrics.notice_kept
        if self.directory.node_name:
            self.notifier.elsewhere = self.directory.tell_notices
        self.notifier.sender.counted = self.metrics.notices_counted
        self.notifier.sender.late = self.metrics.notices_late.set
        self.metrics.read_states(
            self.lobby.held_by_status, lambda: len(self.transport.connections), lambda: self.directory.alive
        )

    @property
    def port(self) -> int:
        return self.transport.port

    async def start(self) -> None:
        prepare_rulesets()  # before the collector freezes what the server holds: their making leaves garbage
        self.lobby.rulesets()
        await self.storage.open()
        self.metrics.start()
        try:  # listening first: a node says where it is reached before it joins the others
            await self.transport.start()
            self.directory.listening(self.config.host, self.port)
            await self.notifier.vacations.start()
            restored = await self.lobby.restore()
            await self.accounts.start(self.transport.sessions_ended)
            self.notifier.sender.outgoing = self.notifier.outgoing = outgoing(self.config, self.port)
            self.notifier.sender.start()
        except BaseException:
            await self.transport.stop()
            await self.metrics.stop()
            await self.storage.close()
            raise
        if self.directory.own_url:
            logger.info("%s, reached at %s", self.directory.describe(), self.directory.own_url)
        aside = len(self.storage.damaged)
        games = f", {restored} game{'s' * (restored != 1)} restored" if restored or aside else ""
        if aside:
            games += f", {aside} set aside (damaged: see above, or `risc games damaged`)"
        logger.info(
            "listening on %s:%d%s%s, room for %s",
            self.config.host,
            self.port,
            " (password required)" if self.config.password else "",
            games,
            connections(self.transport.room),
        )
        for line in where_to_connect(self.config.host, self.port, self.config.web_root is not None):
            logger.info("%s", line)

    async def stop(self) -> None:
        """Finish the change each game has under way, refuse new ones, tell the clients, close, flush the store."""
        logger.info("shutting down")
        await self.people.close()
        await self.lobby.close()
        if self.directory.own_url:  # a node of several: the others play on, and its games went to them
            await self.transport.stop("this node of the server is stopping; the other nodes play on")
        else:
            await self.transport.stop()
        await self.notifier.close()
        await self.accounts.close()
        await self.metrics.stop()
        await self.storage.close()
        logger.info("stopped")

    async def __aenter__(self) -> RiscServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()


def outgoing(config: ServerConfig, port: int) -> Outgoing:
    """Where and how the server sends its notifications, from its settings (the page's address: the one given, else
    this machine's name and the port it listens on)."""
    smtp_tls = webhook_tls = None
    if config.webhook_cafile:
        webhook_tls = ssl.create_default_context()
        webhook_tls.load_verify_locations(config.webhook_cafile)
    page = config.page_url or f"http://{socket.gethostname()}:{port}/"
    return Outgoing(
        smtp=SmtpServer.of_url(config.smtp) if config.smtp else None,
        mail_from=config.mail_from,
        page_url=page if page.endswith("/") else page + "/",
        webhook_allow=frozenset(h.lower() for h in config.webhook_allow),
        smtp_tls=smtp_tls,
        webhook_tls=webhook_tls,
        poll_every=config.notify_every,
        lease=config.notify_lease,
    )


def notifier(config: ServerConfig, storage: Storage, clock: Clock, lobby: Lobby) -> Notifier:
    """The server's notifications: vacations read by its games' deadlines, the outbox's sender, live notices."""
    store = storage.notices()
    vacations = Vacations(store, clock, config.vacation_days, lobby.vacation_changed, shared=storage.shared)
    sent = outgoing(config, config.port)
    name = config.node_id or f"{socket.gethostname()}:{os.getpid()}"
    sender = Sender(store, clock, sent, name, still_news=lobby.still_news)
    found = Notifier(store, vacations, sender, sent, lambda: ())
    lobby.notifier = found
    return found


async def serve_until_signalled(config: ServerConfig) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # not on Windows; Ctrl-C then ends asyncio.run
            loop.add_signal_handler(sig, stop.set)
    async with RiscServer(config):
        settle_collector()
        await stop.wait()


def _config_option(parser: argparse.ArgumentParser, flag: str, metavar: str, help: str) -> None:
    """An option of a number whose default is ServerConfig's field of the same name, said at the end of its help."""
    default = getattr(ServerConfig, flag.removeprefix("--").replace("-", "_"))
    parser.add_argument(
        flag, type=type(default), default=default, metavar=metavar, help=f"{help} (default {default:g})"
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        default=None,
        metavar="POSTGRESQL_URL",
        help="keep games in this PostgreSQL database (postgresql://USER@HOST/DATABASE) instead of "
        "the SQLite file: several servers (nodes) may share it (default: the RISC_STORE "
        "environment variable, else the SQLite file in --data-dir; docs/scaling.md)",
    )
    parser.add_argument(
        "--node-id", default=None, help="this node's name among the nodes sharing --store (default: host name and port)"
    )
    parser.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="where clients reach this node, which other nodes send them to (default: "
        "ws://THIS-MACHINE'S-ADDRESS:PORT/)",
    )
    _config_option(
        parser,
        "--fence-after",
        "SECONDS",
        "with --store: end the database session of a node whose heartbeat stopped this long "
        "ago, freeing its games for the others",
    )
    _config_option(
        parser,
        "--sweep-every",
        "SECONDS",
        "with --store: how often a node looks for games nobody plays that play by themselves "
        "(a time limit, computer players)",
    )
    parser.add_argument(
        "--nodes",
        type=int,
        default=1,
        metavar="N",
        help="with --store: start N nodes on this machine, on ports PORT to PORT+N-1, to try a cluster; a node that "
        "dies is started again (default 1)",
    )
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    parser.add_argument(
        "--port",
        type=int,
        default=8765,
        help="port for WebSocket clients and GET /healthz (default 8765; 0 picks a free one)",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help=f"where the server keeps its games, in games.sqlite3 (default: {default_data_dir()})",
    )
    parser.add_argument("--memory", action="store_true", help="keep games in memory only: they end with the server")
    _config_option(parser, "--max-games", "N", "games in play the server holds at once")
    parser.add_argument(
        "--max-connections",
        type=int,
        default=None,
        metavar="N",
        help="connections the server holds at once; past it a new one is refused (HTTP 503) (default: as many as "
        "its open-files limit leaves room for, which it raises to the hard limit)",
    )
    parser.add_argument(
        "--connections-per-address",
        type=int,
        default=ServerConfig.connections_per_address,
        metavar="N",
        help="connections one network address (an IPv6 one by its /64) holds at once; past it a new one is refused "
        "(HTTP 429); 0: no limit of its own, for a server behind a proxy "
        f"(default {ServerConfig.connections_per_address})",
    )
    _config_option(
        parser,
        "--bot-turn-pause",
        "SECONDS",
        "once only the server's own players are left in a game, the time each turn waits, so "
        "that eliminated players can watch",
    )
    parser.add_argument(
        "--maps",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="a folder of map files (native .toml, Domination or Conquest .map) to offer besides the "
        "bundled maps; may be given more than once",
    )
    _config_option(parser, "--min-turn-seconds", "SECONDS", "the shortest turn time limit a game may have")
    _config_option(
        parser,
        "--keepalive",
        "SECONDS",
        "a connection silent this long is pinged, and one still silent this long after its ping is disconnected",
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help="let web pages of this origin (such as https://risc.example.org) open game "
        "connections, besides pages served at the server's own address; repeatable",
    )
    parser.add_argument(
        "--no-compression",
        action="store_true",
        help="send every frame uncompressed, even to clients that offer permessage-deflate (it "
        "saves about a tenth of the server's CPU where bandwidth is plenty, as on a LAN)",
    )
    parser.add_argument(
        "--loop",
        choices=LOOPS,
        default="auto",
        help="the event loop: uvloop where it is installed (auto, the default), or asyncio's own",
    )
    parser.add_argument(
        "--accounts",
        choices=MODES,
        default="optional",
        help="players' accounts: off (everyone is a guest), optional (the default: guests play as ever, players may "
        "sign up and in), required (creating or joining a game needs an account; anyone may watch)",
    )
    parser.add_argument(
        "--log-format",
        choices=FORMATS,
        default="text",
        help="the log on stderr: text (the default: one line an event, naming the node on a server of several) or "
        "json (one JSON object a line, for log collectors)",
    )
    parser.add_argument(
        "--smtp",
        default=None,
        metavar="URL",
        help="mail notifications through this server: smtp://[USER[:PASSWORD]@]HOST[:PORT] (STARTTLS when offered) "
        "or smtps://... (default: the RISC_SMTP environment variable, else no mail; docs/notifications.md)",
    )
    parser.add_argument(
        "--mail-from", default=ServerConfig.mail_from, metavar="ADDRESS", help="the From of the server's mail"
    )
    parser.add_argument(
        "--page-url",
        default=None,
        metavar="URL",
        help="where players reach the web page, for the links in the server's mail (default: the RISC_PAGE_URL "
        "environment variable, else http://HOST:PORT/)",
    )
    parser.add_argument(
        "--webhook-allow",
        action="append",
        default=[],
        metavar="HOST",
        help="let webhooks reach this host though its addresses are loopback or private (or over http); repeatable",
    )
    _config_option(
        parser,
        "--notify-lease",
        "SECONDS",
        "how long a node's claim on the notifications it sends lasts: one that dies mid-send holds them this long "
        "before another node sends them",
    )
    _config_option(parser, "--vacation-days", "DAYS", "days of vacation an account may take a year")
    parser.add_argument(
        "--password",
        default=None,
        help="password clients must give (default: the RISC_PASSWORD environment variable, else none)",
    )


def password_from(args: argparse.Namespace) -> str | None:
    """The password clients must give: --password, else RISC_PASSWORD, else none.

    Raises ValueError for a password no client could give, which would otherwise fail every hello at run time:
    `--password ""` (say no --password to run without one), text that is not UTF-8 (the bytes of another locale), or
    a password longer than a hello may carry. An empty RISC_PASSWORD counts as unset, as it does for the clients:
    docker-compose passes one whenever none is chosen.
    """
    password: str | None
    if args.password is not None:
        password, source = str(args.password), "--password"
        if not password:
            raise ValueError("--password is empty: give a password, or leave out --password to run without one")
    else:
        password, source = os.environ.get("RISC_PASSWORD") or None, "RISC_PASSWORD"
        if password is None:
            return None
    try:
        password.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(
            f"{source} is not UTF-8 text (its bytes come from another locale?): clients send their "
            "password as UTF-8, so none could give it"
        ) from None
    try:
        Hello(protocol=PROTOCOL_VERSION, password=password)
    except ValidationError as exc:  # the only limit a hello puts on a password is its length
        longest = exc.errors()[0].get("ctx", {}).get("max_length", "?")
        raise ValueError(f"{source} is longer than a client may send: at most {longest} characters") from None
    return password


def config_from_args(args: argparse.Namespace, web_root: Path | None = None) -> ServerConfig:
    """The server's settings from its command line; `web_root`: the web page's folder, if it serves one."""
    password = password_from(args)
    store = args.store if args.store is not None else (os.environ.get("RISC_STORE") or None)
    if store is not None and args.memory:
        raise ValueError("--memory and --store choose two different stores: give one")
    if store is not None and not is_postgres(store):
        raise ValueError(
            f"--store: {store.split('://')[0]!r} is not a PostgreSQL address: give "
            "postgresql://USER@HOST/DATABASE, or leave --store out for the SQLite file"
        )
    if store is None and (args.node_id or args.public_url):
        raise ValueError("--node-id and --public-url are for nodes sharing a PostgreSQL --store")
    data_dir = None if args.memory or store is not None else (args.data_dir or default_data_dir())
    if data_dir is not None:
        data_dir.mkdir(parents=True, exist_ok=True)
    if args.nodes != 1:
        raise ValueError("--nodes N starts several nodes of one server: `risc server --store URL --nodes N` does it")
    if args.fence_after <= 0 or args.sweep_every <= 0:
        raise ValueError("--fence-after and --sweep-every must be more than 0 seconds")
    if args.keepalive <= 0:
        raise ValueError("--keepalive must be more than 0 seconds")
    if args.max_connections is not None and args.max_connections < 1:
        raise ValueError("--max-connections must be at least 1")
    if args.connections_per_address < 0:
        raise ValueError("--connections-per-address must be at least 0 (0: no limit of its own)")
    if args.max_games < 1 or args.bot_turn_pause < 0 or args.min_turn_seconds < 0:
        raise ValueError("--max-games must be at least 1, --bot-turn-pause and --min-turn-seconds at least 0")
    for folder in args.maps:
        if not folder.is_dir():
            raise ValueError(f"--maps {folder}: not a folder")
    smtp = getattr(args, "smtp", None) or os.environ.get("RISC_SMTP") or None
    if smtp is not None:
        SmtpServer.of_url(smtp)  # a ValueError that says what to give
    mail_from = getattr(args, "mail_from", ServerConfig.mail_from)
    if "@" not in mail_from or any(ord(ch) < 32 for ch in mail_from):
        raise ValueError(f"--mail-from {mail_from!r}: give a mail address")
    if getattr(args, "vacation_days", 0) < 0:
        raise ValueError("--vacation-days must be at least 0")
    return ServerConfig(
        host=args.host,
        port=args.port,
        data_dir=data_dir,
        password=password,
        allowed_origins=allowed_origins(args.allow_origin),
        max_games=args.max_games,
        max_connections=args.max_connections,
        connections_per_address=args.connections_per_address or None,
        bot_turn_pause=args.bot_turn_pause,
        min_turn_seconds=args.min_turn_seconds,
        keepalive=args.keepalive,
        maps=tuple(args.maps),
        web_root=web_root,
        compression=not args.no_compression,
        store=store,
        accounts=getattr(args, "accounts", "optional"),
        node_id=args.node_id,
        public_url=args.public_url,
        fence_after=args.fence_after,
        sweep_every=args.sweep_every,
        heartbeat=min(ServerConfig.heartbeat, args.fence_after / 4),
        smtp=smtp,
        mail_from=mail_from,
        page_url=getattr(args, "page_url", None) or os.environ.get("RISC_PAGE_URL") or None,
        webhook_allow=tuple(getattr(args, "webhook_allow", ())),
        vacation_days=getattr(args, "vacation_days", ServerConfig.vacation_days),
        notify_lease=getattr(args, "notify_lease", ServerConfig.notify_lease),
    )


def allowed_origins(given: list[str]) -> tuple[str, ...]:
    """The --allow-origin values, each as an origin is written (lower case, no default port). Raises ValueError
    naming one that is not an origin, which would otherwise never match anything."""
    found = []
    for text in given:
        origin = origins.parse_origin(text)
        if origin is None:
            raise ValueError(
                f'--allow-origin "{text}" is not an origin: give scheme://host[:port], the scheme '
                "http or https, with no path (such as https://risc.example.org)"
            )
        found.append(origins.origin_text(origin))
    return tuple(dict.fromkeys(found))


def log_name(config: ServerConfig) -> str | None:
    """The name every log line of a node of several gives (None for a server alone)."""
    if config.store is None:
        return None
    from server.cluster.network import default_node_id

    return config.node_id or default_node_id(config.port)


def run(args: argparse.Namespace, web_root: Path | None = None) -> int:
    log_format: LogFormat = "json" if getattr(args, "log_format", "text") == "json" else "text"
    setup_logging(log_format=log_format)
    try:
        config = config_from_args(args, web_root)
        setup_logging(node=log_name(config), log_format=log_format)
        loop = choose_loop(getattr(args, "loop", "auto"))
        logger.info("event loop: %s", loop.name)
        with asyncio.Runner(loop_factory=loop.factory) as runner:
            runner.run(serve_until_signalled(config))
    except (OSError, StorageError, ValueError, NodeIdTaken) as exc:
        logger.error("cannot start: %s", exc)
        return 1
    except KeyboardInterrupt:
        pass
    return 0
