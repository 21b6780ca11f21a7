"""`risc play`: a whole game against computer players, with nothing to set up.

It starts a server inside this process, on a free port of 127.0.0.1, that keeps its games in a data directory of
this computer (`risc play --data-dir`, else the platform's data directory's local/), and opens the text client in
the player's seat. An unfinished game is offered again ("Continue game 3fa2c1 ...? [Y/n]"), so quitting in the middle
of a game costs nothing: run `risc play` again. Otherwise, or with --new, it creates a game of the chosen rule set
whose other seats the server fills with its own computer players. The game is the real thing, over a real websocket,
so everything the text client does works here too. A map given as a file is uploaded like any client's map. When
the client ends, so does the server.

With --web the game is played in the browser: the server (its games in memory) also serves the web page, the
address of the game is printed (and opened in the computer's browser when it has one), and the server runs until
Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
import webbrowser
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from client.app import ClientApp, name_problem
from client.connection import Backoff
from client.tokens import Seat, SeatStore
from risc.commands.rules import OptionsError, read_options
from server.app import RiscServer
from server.config import ServerConfig
from server.match import Match
from server.refusal import Refusal
from server.storage import MemoryStorage, StorageError, default_data_dir
from shared.protocol.lobby import GameSettings
from shared.protocol.messages import GameCreated, MapUpload, Resumed
from shared.rulesets import RULESETS, get_ruleset

LOCAL_SERVER = "local"
"""What the seat store knows `risc play`'s server by: it listens on a new port each time."""


def local_data_dir() -> Path:
    return default_data_dir() / "local"


@dataclass(frozen=True)
class Unfinished:
    """A game of an earlier `risc play` that is still going, and the player's seat in it."""

    seat: Seat
    match: Match

    def question(self) -> str:
        summary = self.match.summary()
        others = ", ".join(s.name for s in summary.seats if s.name != self.seat.player)
        return f"Continue game {summary.game_id} on {summary.map_name} (turn {summary.turn}, vs {others})?"


class LocalGameClient(ClientApp):
    """The text client, sitting down at once: back in an unfinished game if the player wants it, else in a new one
    instead of the lobby."""

    def __init__(self, url: str, new_game: Callable[[], Awaitable[str | None]], *, name: str | None,
                 store: SeatStore, unfinished: Unfinished | None = None, backoff: Backoff | None = None) -> None:
        super().__init__(url, name=name, store=store, backoff=backoff, server_id=LOCAL_SERVER)
        self.new_game = new_game
        self.unfinished = unfinished
        self.local_game: str | None = None

    async def _start(self) -> None:
        self.show("RISC on this computer. Type help for the commands, quit to stop (the game is kept).")
        if self.unfinished is not None:
            self.show(self.unfinished.question(), "class:hint")  # shown, so that a long one is wrapped
            answer = await self._ask("[Y/n] ")
            if answer is None:
                self._quit = True
                return
            if answer.casefold() in ("", "y", "yes") and await self._continue(self.unfinished.seat):
                return
        if self.name is None:
            self.name = await self._ask_name()
            if self.name is None:
                self._quit = True
                return
        self.local_game = await self.new_game()
        if self.local_game is None:
            self._quit = True
            return
        self.show(f"New game {self.local_game}.", "class:ok")
        await self._join(self.local_game, None)

    async def _continue(self, seat: Seat) -> bool:
        self.local_game = seat.game_id
        self._expecting = seat.game_id
        reply = await self._call(self.session.resume(seat.game_id, seat.player, seat.token, seat.seq or None))
        if not isinstance(reply, Resumed):
            self.error(f"Game {seat.game_id} cannot be continued; here is a new one.")
            return False
        self.name = reply.player
        self._put_on_screen(self.session.followed[seat.game_id])
        return True

    def _do_quit(self) -> None:
        if self.tracker is not None and self.tracker.active:
            self.show("The game is kept: run risc play again to continue it.", "class:hint")
        self._quit = True


class LocalPlay:
    """One `risc play` session: the server, the game and the client, in that order up and in reverse down."""

    def __init__(self, map_name: str | None = None, bots: int = 2, strategy: str | None = None,
                 name: str | None = None, backoff: Backoff | None = None, rules: str = "risc",
                 options: dict[str, Any] | None = None, data_dir: Path | None = None, new: bool = False) -> None:
        ruleset = get_ruleset(rules)
        if map_name is None and not ruleset.own_map:
            map_name = ruleset.default_map
        self.map_name = None if ruleset.own_map else map_name
        self.settings = GameSettings(ruleset=rules, players=bots + 1, bots=bots, bot_strategy=strategy,
                                     options=options or {})
        self.name = name
        self.backoff = backoff
        self.data_dir = data_dir or local_data_dir()
        self.new = new
        self.server: RiscServer | None = None
        self.app: LocalGameClient | None = None
        self.game: GameCreated | None = None
        self.refused = False
        """The server refused the new game's settings (a map it could not read...)."""

    def _map_choice(self, server: RiscServer) -> tuple[GameSettings, MapUpload | None]:
        """A map of the catalogue by its id, or a map file of this computer, uploaded as any client would."""
        if self.map_name is None:
            return self.settings, None
        if self.map_name.casefold() in {i.casefold() for i in server.lobby.catalogue.ids()}:
            return self.settings.model_copy(update={"map": self.map_name}), None
        path = Path(self.map_name)
        if not path.is_file():
            raise Refusal("bad-map", f'no map "{self.map_name}": neither a bundled map (risc maps list) nor a file')
        text = path.read_bytes().decode("utf-8", errors="replace")
        return self.settings, MapUpload(name=path.name, text=text)

    def _unfinished(self, server: RiscServer, store: SeatStore) -> Unfinished | None:
        """The newest game of an earlier `risc play` still going in which this player (any, without --name) has a
        seat kept; seats of games that ended or are gone are forgotten."""
        for seat in store.seats_for(LOCAL_SERVER, self.name):
            match = server.lobby.matches.get(seat.game_id)
            if match is None or match.finished:
                store.forget(LOCAL_SERVER, seat.game_id, seat.player)
            elif match.started:
                return Unfinished(seat, match)
        return None

    async def _new_game(self, server: RiscServer) -> str | None:
        try:
            settings, upload = self._map_choice(server)
            match = await server.lobby.create(settings, upload)
        except Refusal as refusal:
            print(f"risc play: {refusal.message}", file=sys.stderr)
            self.refused = True
            return None
        self.game = GameCreated(game=match.summary())
        return match.game_id

    async def run(self) -> int:
        quiet = logging.getLogger("risc.server")
        kept = quiet.propagate, list(quiet.handlers)
        quiet.propagate = False  # the server's log lines would land in the middle of the player's screen
        quiet.handlers = [logging.NullHandler()]
        try:
            config = ServerConfig(host="127.0.0.1", port=0, data_dir=self.data_dir, maps=())
            try:
                server = RiscServer(config)
            except StorageError as exc:
                print(f"risc play: {exc}. Is another risc play running? (--data-dir DIR plays elsewhere)",
                      file=sys.stderr)
                return 1
            async with server:
                self.server = server
                try:
                    self._map_choice(server)  # a map that cannot be found is said before the client opens
                except Refusal as refusal:
                    print(f"risc play: {refusal.message}", file=sys.stderr)
                    return 2
                store = SeatStore(self.data_dir / "seats.json")
                unfinished = None if self.new else self._unfinished(server, store)

                async def new_game() -> str | None:
                    return await self._new_game(server)

                self.app = LocalGameClient(f"ws://127.0.0.1:{server.port}", new_game, name=self.name, store=store,
                                           unfinished=unfinished, backoff=self.backoff)
                status = await self.app.run()
                return 2 if self.refused else status
        finally:
            quiet.propagate, quiet.handlers = kept


TEXT_BROWSERS = frozenset({"lynx", "w3m", "links", "elinks", "www-browser"})
"""Browsers that would take over this terminal: the page is not opened in them."""


def open_in_browser(url: str) -> bool:
    """Open the page in the computer's browser where there is one with a window; False when there is none."""
    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return False
    if getattr(browser, "name", "") in TEXT_BROWSERS:
        return False
    try:
        return bool(browser.open(url))
    except Exception:
        return False


class WebPlay(LocalPlay):
    """`risc play --web`: the same server and game, played in the browser; the server runs until Ctrl-C."""

    def __init__(self, *args: Any, port: int = 0, open_browser: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.port = port
        self.open_browser = open_browser
        self.url: str | None = None
        self.ready = asyncio.Event()
        self.stop = asyncio.Event()

    async def run(self) -> int:
        from client.webpage import web_root

        quiet = logging.getLogger("risc.server")
        kept = quiet.propagate, list(quiet.handlers)
        quiet.propagate = False
        quiet.handlers = [logging.NullHandler()]
        try:
            config = ServerConfig(host="127.0.0.1", port=self.port, maps=(), web_root=web_root())
            async with RiscServer(config, MemoryStorage()) as server:
                self.server = server
                game_id = await self._new_game(server)
                if game_id is None:
                    return 2
                self.url = f"http://127.0.0.1:{server.port}/#game={game_id}"
                print(f"RISC: game {game_id} waits for you at {self.url}", flush=True)
                if self.open_browser and not await asyncio.to_thread(open_in_browser, self.url):
                    print("No browser could be opened here: open the address above in one.", flush=True)
                print("Ctrl-C stops the server.", flush=True)
                self.ready.set()
                loop = asyncio.get_running_loop()
                signals = (signal.SIGINT, signal.SIGTERM)
                for sig in signals:
                    with contextlib.suppress(NotImplementedError, RuntimeError):
                        loop.add_signal_handler(sig, self.stop.set)
                try:
                    await self.stop.wait()
                finally:
                    for sig in signals:
                        with contextlib.suppress(NotImplementedError, RuntimeError):
                            loop.remove_signal_handler(sig)
                return 0
        finally:
            quiet.propagate, quiet.handlers = kept


def _run(args: argparse.Namespace) -> int:
    ruleset = RULESETS.get(args.rules)
    if ruleset is None:
        print(f"risc play: --rules {args.rules!r}: known rule sets are {', '.join(sorted(RULESETS))} "
              "(risc rules describes them)", file=sys.stderr)
        return 2
    if args.strategy is not None and args.strategy not in ruleset.strategies:
        print(f"risc play: --strategy {args.strategy!r}: {ruleset.title}'s computer players are "
              f"{', '.join(sorted(ruleset.strategies))}", file=sys.stderr)
        return 2
    try:
        options, chosen = read_options(ruleset, args.option)
    except OptionsError as exc:
        print(f"risc play: --option: {exc}", file=sys.stderr)
        return 2
    fewest, most = ruleset.player_counts(chosen)
    if not fewest - 1 <= args.bots <= most - 1 or args.bots < 1:
        print(f"risc play: --bots {args.bots}: a {ruleset.title} game has {fewest} to {most} players, so "
              f"{max(1, fewest - 1)} to {most - 1} computer players", file=sys.stderr)
        return 2
    if args.name is not None and (problem := name_problem(args.name)) is not None:
        print(f"risc play: --name {args.name!r}: {problem}", file=sys.stderr)
        return 2
    if args.name is not None and args.name.casefold().startswith("bot-"):
        print(f"risc play: --name {args.name!r}: names starting with bot- are the computer players'",
              file=sys.stderr)
        return 2
    try:
        if args.web:
            web = WebPlay(args.map, args.bots, args.strategy, args.name, rules=args.rules, options=options,
                          port=args.port, open_browser=not args.no_browser)
            return asyncio.run(web.run())
        play = LocalPlay(args.map, args.bots, args.strategy, args.name, rules=args.rules, options=options,
                         data_dir=args.data_dir, new=args.new)
        return asyncio.run(play.run())
    except KeyboardInterrupt:
        return 130


def register(subparsers: Any) -> None:
    rules = ", ".join(f"{name} ({r.title})" for name, r in sorted(RULESETS.items()))
    parser = subparsers.add_parser("play", help="play a game against computer players on this computer",
                                   description="Start a server on this computer, create a game with computer "
                                               "players in the other seats, and play it in the text client. "
                                               "Quitting the client stops the server; the game is kept, and "
                                               "offered again the next time.",
                                   epilog="risc rules lists the rule sets, risc rules NAME the options each takes.")
    parser.add_argument("--rules", default="risc", metavar="NAME", help=f"the game: {rules} (default risc)")
    parser.add_argument("--map", default=None, metavar="NAME|FILE",
                        help="a bundled map's name (risc maps list) or a map file (default: the game's own choice; "
                             "the grid game has its own board)")
    parser.add_argument("--bots", type=int, default=2, help="computer players (default 2)")
    parser.add_argument("--strategy", default=None, help="how they play (default: the game's strongest)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="one of the game's options (e.g. --option evolution=2; risc rules NAME lists them); "
                             "may repeat")
    parser.add_argument("--name", default=None, help="your player name (asked when missing)")
    parser.add_argument("--web", action="store_true",
                        help="play in the web browser instead of the terminal: the server runs until Ctrl-C")
    parser.add_argument("--port", type=int, default=0, help="with --web: the port of the page (default: a free one)")
    parser.add_argument("--no-browser", action="store_true", help="with --web: print the address, open no browser")
    parser.add_argument("--new", action="store_true",
                        help="start a new game even if an unfinished one could be continued")
    parser.add_argument("--data-dir", type=Path, default=None, metavar="DIR",
                        help=f"where local games are kept (default {local_data_dir()})")
    parser.set_defaults(handler=_run)
