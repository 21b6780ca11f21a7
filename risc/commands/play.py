"""`risc play`: a whole game against computer players, with nothing to set up.

It starts a server inside this process, on a free port of 127.0.0.1 and keeping its games in memory, creates a
game whose other seats the server fills with its own computer players, and opens the text client in the player's
seat. The game is the real thing, over a real websocket, so everything the text client does works here too. When the
client ends, so does the server.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
from pathlib import Path
from typing import Any

from client.app import ClientApp, name_problem
from client.connection import Backoff
from client.tokens import SeatStore
from server.app import RiscServer
from server.config import ServerConfig
from server.match import Refusal
from server.storage import MemoryStorage
from shared.bots.registry import STRATEGIES
from shared.protocol.lobby import MAX_PLAYERS, GameSettings
from shared.protocol.messages import GameCreated


class LocalGameClient(ClientApp):
    """The text client, sitting down in one game at once instead of showing the lobby."""

    def __init__(self, url: str, game_id: str, *, name: str | None, store: SeatStore,
                 backoff: Backoff | None = None) -> None:
        super().__init__(url, name=name, store=store, backoff=backoff)
        self.local_game = game_id

    async def _start(self) -> None:
        self.show(f"RISC: game {self.local_game} on this computer. Type help for the commands, quit to stop.")
        if self.name is None:
            self.name = await self._ask_name()
            if self.name is None:
                self._quit = True
                return
        await self._join(self.local_game, None)


class LocalPlay:
    """One `risc play` session: the server, the game and the client, in that order up and in reverse down."""

    def __init__(self, map_name: str = "seed", bots: int = 2, strategy: str = "strategist",
                 name: str | None = None, backoff: Backoff | None = None) -> None:
        self.settings = GameSettings(map=map_name, players=bots + 1, bots=bots, bot_strategy=strategy)
        self.name = name
        self.backoff = backoff
        self.server: RiscServer | None = None
        self.app: LocalGameClient | None = None
        self.game: GameCreated | None = None

    async def run(self) -> int:
        quiet = logging.getLogger("risc.server")
        kept = quiet.propagate, list(quiet.handlers)
        quiet.propagate = False  # the server's log lines would land in the middle of the player's screen
        quiet.handlers = [logging.NullHandler()]
        try:
            with tempfile.TemporaryDirectory(prefix="risc-play-") as seats:
                config = ServerConfig(host="127.0.0.1", port=0)
                async with RiscServer(config, MemoryStorage()) as server:
                    self.server = server
                    try:
                        match = await server.lobby.create(self.settings)
                    except Refusal as refusal:
                        print(f"risc play: {refusal.message}", file=sys.stderr)
                        return 2
                    self.game = GameCreated(game=match.summary())
                    self.app = LocalGameClient(f"ws://127.0.0.1:{server.port}", match.game_id, name=self.name,
                                               store=SeatStore(Path(seats) / "seats.json"), backoff=self.backoff)
                    return await self.app.run()
        finally:
            quiet.propagate, quiet.handlers = kept


def _run(args: argparse.Namespace) -> int:
    if args.strategy not in STRATEGIES:
        print(f"risc play: --strategy {args.strategy!r}: known strategies are {', '.join(sorted(STRATEGIES))}",
              file=sys.stderr)
        return 2
    if not 1 <= args.bots <= MAX_PLAYERS - 1:
        print(f"risc play: --bots {args.bots}: between 1 and {MAX_PLAYERS - 1} computer players", file=sys.stderr)
        return 2
    if args.name is not None and (problem := name_problem(args.name)) is not None:
        print(f"risc play: --name {args.name!r}: {problem}", file=sys.stderr)
        return 2
    if args.name is not None and args.name.casefold().startswith("bot-"):
        print(f"risc play: --name {args.name!r}: names starting with bot- are the computer players'",
              file=sys.stderr)
        return 2
    try:
        return asyncio.run(LocalPlay(args.map, args.bots, args.strategy, args.name).run())
    except KeyboardInterrupt:
        return 130


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("play", help="play a game against computer players on this computer",
                                   description="Start a server on this computer, create a game with computer "
                                               "players in the other seats, and play it in the text client. "
                                               "Quitting the client stops the server.")
    parser.add_argument("--map", default="seed", metavar="NAME|FILE",
                        help="a bundled map's name (risc maps list) or a map file (default seed)")
    parser.add_argument("--bots", type=int, default=2, help=f"computer players, 1 to {MAX_PLAYERS - 1} (default 2)")
    parser.add_argument("--strategy", default="strategist",
                        help=f"how they play: {', '.join(sorted(STRATEGIES))} (default strategist)")
    parser.add_argument("--name", default=None, help="your player name (asked when missing)")
    parser.set_defaults(handler=_run)
