"""Starting and stopping a server: the store, the lobby, the transport, and the signals that end them."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import signal
from collections.abc import Callable
from pathlib import Path

from server.catalogue import Catalogue
from server.clock import Clock
from server.config import ServerConfig
from server.lobby import Lobby
from server.logs import setup_logging
from server.storage import Storage, StorageError, default_data_dir, open_storage
from server.transport import Transport

logger = logging.getLogger("risc.server")


class RiscServer:
    """A running server. `async with RiscServer(config) as server:` listens on `server.port` until the block ends."""

    def __init__(self, config: ServerConfig, storage: Storage | None = None, *,
                 seeds: Callable[[], int] | None = None, clock: Clock | None = None) -> None:
        """`seeds` gives each new game's seed and `clock` times turns: a test passes its own of both."""
        self.config = config
        catalogue = Catalogue(config.maps)
        self.storage = storage if storage is not None else open_storage(config.data_dir)
        self.lobby = Lobby(self.storage, config.max_games, finished_games_kept=config.finished_games_kept,
                           bot_turn_pause=config.bot_turn_pause, catalogue=catalogue, seeds=seeds, clock=clock,
                           min_turn_seconds=config.min_turn_seconds, hand_over_after=config.hand_over_after,
                           open_games_per_connection=config.open_games_per_connection,
                           open_games_per_address=config.open_games_per_address)
        self.transport = Transport(config, self.lobby)

    @property
    def port(self) -> int:
        return self.transport.port

    async def start(self) -> None:
        restored = await self.lobby.restore()
        await self.transport.start()
        logger.info("listening on %s:%d%s%s", self.config.host, self.port,
                    " (password required)" if self.config.password else "",
                    f", {restored} games restored" if restored else "")

    async def stop(self) -> None:
        """Finish the change each game has under way, refuse new ones, tell the clients, close, flush the store."""
        logger.info("shutting down")
        await self.lobby.close()
        await self.transport.stop()
        await self.storage.close()
        logger.info("stopped")

    async def __aenter__(self) -> RiscServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()


YOUNG_COLLECTION_EVERY = 20_000
"""Objects allocated (net) between two collections of the youngest generation (Python's default: 700)."""


def settle_collector() -> None:
    """Once a server has started: keep the cyclic garbage collector off what it will hold for its whole life, and
    let the objects of requests under way die young.

    Everything the start made (modules, rule sets' schemas, maps, restored games) is moved out of the collector's
    generations (gc.freeze), so a full collection no longer walks it; and the youngest generation is collected
    after 20,000 allocations rather than 700, by which time most of the coroutines and futures of the requests
    then under way (waiting on the store) are gone rather than promoted to older generations, whose collections
    cost the most. docs/performance.md gives what it saves under load (bench/server_load.py).
    """
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, older * 2, oldest)


async def serve_until_signalled(config: ServerConfig) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # not on Windows; Ctrl-C then ends asyncio.run
            loop.add_signal_handler(sig, stop.set)
    async with RiscServer(config):
        settle_collector()
        await stop.wait()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    parser.add_argument("--port", type=int, default=8765, help="port for WebSocket clients and GET /healthz "
                                                               "(default 8765; 0 picks a free one)")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="where the server keeps its games, in games.sqlite3 (default: "
                             f"{default_data_dir()})")
    parser.add_argument("--memory", action="store_true",
                        help="keep games in memory only: they end with the server")
    parser.add_argument("--max-games", type=int, default=ServerConfig.max_games, metavar="N",
                        help=f"games in play the server holds at once (default {ServerConfig.max_games})")
    parser.add_argument("--bot-turn-pause", type=float, default=ServerConfig.bot_turn_pause, metavar="SECONDS",
                        help="once only the server's own players are left in a game, the time each turn waits, so "
                             f"that eliminated players can watch (default {ServerConfig.bot_turn_pause:g})")
    parser.add_argument("--maps", type=Path, action="append", default=[], metavar="DIR",
                        help="a folder of map files (native .toml, Domination or Conquest .map) to offer besides the "
                             "bundled maps; may be given more than once")
    parser.add_argument("--min-turn-seconds", type=float, default=ServerConfig.min_turn_seconds, metavar="SECONDS",
                        help="the shortest turn time limit a game may have "
                             f"(default {ServerConfig.min_turn_seconds:g})")
    parser.add_argument("--password", default=None,
                        help="password clients must give (default: the RISC_PASSWORD environment variable, "
                             "else none)")


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    password = args.password if args.password is not None else os.environ.get("RISC_PASSWORD") or None
    data_dir = None if args.memory else (args.data_dir or default_data_dir())
    if data_dir is not None:
        data_dir.mkdir(parents=True, exist_ok=True)
    if args.max_games < 1 or args.bot_turn_pause < 0 or args.min_turn_seconds < 0:
        raise ValueError("--max-games must be at least 1, --bot-turn-pause and --min-turn-seconds at least 0")
    for folder in args.maps:
        if not folder.is_dir():
            raise ValueError(f"--maps {folder}: not a folder")
    return ServerConfig(host=args.host, port=args.port, data_dir=data_dir, password=password,
                        max_games=args.max_games, bot_turn_pause=args.bot_turn_pause,
                        min_turn_seconds=args.min_turn_seconds, maps=tuple(args.maps))


def run(args: argparse.Namespace) -> int:
    setup_logging()
    try:
        config = config_from_args(args)
        asyncio.run(serve_until_signalled(config))
    except (OSError, StorageError, ValueError) as exc:
        logger.error("cannot start: %s", exc)
        return 1
    except KeyboardInterrupt:
        pass
    return 0
