"""`risc play`: a whole game against computer players, with nothing to set up.

It starts a server inside this process, on a free port of 127.0.0.1, that keeps its games in a data directory of
this computer (`risc play --data-dir`, else the platform's data directory's local/), and opens the text client in
the player's seat. An unfinished game is offered again ("Continue game 3fa2c1, RISC with evolution 2 on ...?
[Y/n]"; several are listed, numbered, to choose from), so quitting in the middle of a game costs nothing: run
`risc play` again. With --rules, only the games of that rule set are offered (the others are counted); `--list`
lists every unfinished game and `--continue GAME` takes one up. Otherwise, or with --new, it creates a game of the
chosen rule set whose other seats the server fills with its own computer players. The game is the real thing, over
a real websocket, so everything the text client does works here too. A map given as a file is uploaded like any
client's map. When the client ends, so does the server.

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
import textwrap
import webbrowser
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from client.app import ClientApp
from client.connection import Backoff
from client.core import lobby
from client.core.effects import Ask, Plan, Request, Show
from client.core.names import name_problem
from client.core.state import error
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

DEFAULT_RULES = "risc"
"""The rule set of a new game when --rules is not given."""

LIST_WIDTH = 80
"""`risc play --list` fits the narrowest terminal a game is played in, as the text client does."""

LOCAL_SERVER = "local"
"""What the seat store knows `risc play`'s server by: it listens on a new port each time."""

NEW_GAME = ("n", "no", "new")
"""What a player answers, asked which unfinished game to go back to, for a new game instead."""


def local_data_dir() -> Path:
    return default_data_dir() / "local"


def game_title(settings: GameSettings) -> str:
    """A game's rule set, and the options it was made with where they differ from the rule set's defaults: "RISC",
    "RISC with evolution 2", "Warzone with allow cheaters, initial units 20"."""
    ruleset = RULESETS.get(settings.ruleset)
    if ruleset is None:
        return settings.ruleset
    defaults = ruleset.options({}).model_dump(mode="json")
    changed = []
    for key, value in sorted(settings.options.items()):
        if key in defaults and defaults[key] == value:
            continue
        words = key.replace("_", " ")
        changed.append(words if value is True else f"no {words}" if value is False else f"{words} {value}")
    return ruleset.title + (f" with {', '.join(changed)}" if changed else "")


@dataclass(frozen=True)
class Unfinished:
    """A game of an earlier `risc play` that is still going, and the player's seat in it."""

    seat: Seat
    match: Match

    @property
    def game_id(self) -> str:
        return self.seat.game_id

    @property
    def ruleset(self) -> str:
        return self.match.settings.ruleset

    def _parts(self) -> tuple[str, str]:
        summary = self.match.summary()
        others = ", ".join(s.name for s in summary.seats if s.name != self.seat.player)
        return (
            f"{game_title(summary.settings)} on {summary.map_name}",
            f"turn {summary.turn}, {self.seat.player} vs {others}",
        )

    def question(self) -> str:
        what, where = self._parts()
        return f"Continue game {self.game_id}, {what} ({where})?"

    def line(self) -> str:
        what, where = self._parts()
        return f"{self.game_id}  {what} ({where})"


@dataclass(frozen=True)
class NewGame(Request):
    """The new game, made on the server `risc play` runs (answered with its id, or None when it was refused)."""


class LocalGameClient(ClientApp):
    """The text client, sitting down at once: back in an unfinished game if the player wants it, else in a new one
    instead of the lobby."""

    def __init__(
        self,
        url: str,
        new_game: Callable[[], Awaitable[str | None]],
        *,
        name: str | None,
        store: SeatStore,
        unfinished: Sequence[Unfinished] = (),
        elsewhere: int = 0,
        resume: Unfinished | None = None,
        new_title: str = "RISC",
        backoff: Backoff | None = None,
    ) -> None:
        super().__init__(url, name=name, store=store, backoff=backoff, server_id=LOCAL_SERVER)
        self.state.seat_kept = (
            "The game is kept: run risc play again to continue it (or risc play --continue {game_id})."
        )
        self.new_game = new_game
        self.unfinished = list(unfinished)
        """The unfinished games offered, newest first."""
        self.elsewhere = elsewhere
        """Unfinished games of other rule sets than the one asked for, which are not offered but counted."""
        self.resume = resume
        """The game `--continue` named: taken up without a question."""
        self.new_title = new_title

    async def send(self, request: Request) -> Any:
        if isinstance(request, NewGame):
            return await self.new_game()
        return await super().send(request)

    def start(self) -> Plan[None]:
        state = self.state
        yield Show("RISC on this computer. Type help for the commands, quit to stop (the game is kept).")
        if self.resume is not None:
            if not (yield from self._continue(self.resume.seat, instead="run risc play --list to see the others")):
                state.quit = True
            return
        if self.elsewhere:
            games = "game" if self.elsewhere == 1 else "games"
            yield Show(
                f"{self.elsewhere} unfinished {games} of other rule sets: risc play --list shows them, "
                "risc play --continue GAME takes one up.",
                "class:hint",
            )
        chosen = yield from self._choose()
        if state.quit:
            return
        if chosen is not None and (yield from self._continue(chosen.seat)):
            return
        if state.name is None:
            state.name = yield from lobby.ask_name()
            if state.name is None:
                state.quit = True
                return
        game_id = yield NewGame()
        if game_id is None:
            state.quit = True
            return
        yield Show(f"New game {game_id}.", "class:ok")
        yield from lobby.join(state, game_id, None)

    def _choose(self) -> Plan[Unfinished | None]:
        """The unfinished game the player goes back to; None for a new game, or to stop (Ctrl-D: then quit)."""
        if not self.unfinished:
            return None
        if len(self.unfinished) == 1:
            yield Show(self.unfinished[0].question(), "class:hint")  # shown, so that a long one is wrapped
            while True:
                answer = yield Ask("[Y/n] ")
                if answer is None:
                    self.state.quit = True
                    return None
                said = answer.strip().casefold()
                if said in ("", "y", "yes"):
                    return self.unfinished[0]
                if said in NEW_GAME:
                    return None
                # an order typed ahead is not a no: a new game would be made, and the one asked about left aside
                yield error(f"type y (or Enter) to continue game {self.unfinished[0].game_id}, or n for a new game")
        lines = [f"  {n}. {u.line()}" for n, u in enumerate(self.unfinished, start=1)]
        yield Show("Unfinished games on this computer, newest first:\n" + "\n".join(lines))
        last = len(self.unfinished)
        while True:
            typed = yield Ask(f"Continue which (1-{last}, Enter for 1; n for a new {self.new_title} game)? ")
            if typed is None:
                self.state.quit = True
                return None
            if typed == "":
                return self.unfinished[0]
            if typed.casefold() in NEW_GAME:
                return None
            if typed.isdigit() and 1 <= int(typed) <= last:
                return self.unfinished[int(typed) - 1]
            yield error(f"type a number from 1 to {last}, Enter for 1, or n for a new game")

    def _continue(self, seat: Seat, instead: str = "here is a new one") -> Plan[bool]:
        reply = yield from lobby.resume(self.state, seat)
        if not isinstance(reply, Resumed):
            yield error(f"Game {seat.game_id} cannot be continued; {instead}.")
            return False
        return True


class LocalPlay:
    """One `risc play` session: the server, the game and the client, in that order up and in reverse down."""

    def __init__(
        self,
        map_name: str | None = None,
        bots: int = 2,
        strategy: str | None = None,
        name: str | None = None,
        backoff: Backoff | None = None,
        rules: str | None = None,
        options: dict[str, Any] | None = None,
        data_dir: Path | None = None,
        new: bool = False,
        continue_game: str | None = None,
    ) -> None:
        """`rules`: the rule set asked for, whose unfinished games are offered and whose game a new one is; None:
        any unfinished game is offered, and a new game is RISC. `continue_game`: the id (or its start) of the
        unfinished game to take up without a question."""
        self.rules = rules
        ruleset = get_ruleset(rules or DEFAULT_RULES)
        if map_name is None and not ruleset.own_map:
            map_name = ruleset.default_map
        self.map_name = None if ruleset.own_map else map_name
        self.settings = GameSettings(
            ruleset=ruleset.name, players=bots + 1, bots=bots, bot_strategy=strategy, options=options or {}
        )
        self.name = name
        self.backoff = backoff
        self.data_dir = data_dir or local_data_dir()
        self.new = new
        self.continue_game = continue_game
        self.server: RiscServer | None = None
        self.app: LocalGameClient | None = None
        self.opened = asyncio.Event()
        """Set once the client is made (`app`), or the run ended without one."""
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

    def _unfinished(self, server: RiscServer, store: SeatStore) -> list[Unfinished]:
        """The games of earlier `risc play`s still going in which this player (any, without --name) has a seat
        kept, newest first, whatever their rule set; seats of games that ended or are gone are forgotten."""
        found: list[Unfinished] = []
        for seat in store.seats_for(LOCAL_SERVER, self.name):
            match = server.lobby.matches.get(seat.game_id)
            if match is None or match.finished:
                store.forget(LOCAL_SERVER, seat.game_id, seat.player)
            elif match.started and all(u.game_id != seat.game_id for u in found):
                found.append(Unfinished(seat, match))
        return found

    def _named(self, unfinished: list[Unfinished]) -> Unfinished | None:
        """The unfinished game `--continue` names, by its id or the start of it; None (said) when none or several
        fit."""
        wanted = (self.continue_game or "").casefold()
        fits = [u for u in unfinished if u.game_id.casefold() == wanted] or [
            u for u in unfinished if u.game_id.casefold().startswith(wanted)
        ]
        if len(fits) == 1:
            return fits[0]
        whose = f" of {self.name}" if self.name is not None else ""
        if fits:
            print(
                f"risc play: --continue {self.continue_game}: it could be any of the games "
                f"{', '.join(u.game_id for u in fits)}: type more of its id",
                file=sys.stderr,
            )
        elif unfinished:
            print(
                f"risc play: --continue {self.continue_game}: no unfinished game{whose} of that id on this "
                "computer; these are:\n" + "\n".join(f"  {u.line()}" for u in unfinished),
                file=sys.stderr,
            )
        else:
            print(
                f"risc play: --continue {self.continue_game}: there is no unfinished game{whose} on this computer",
                file=sys.stderr,
            )
        return None

    async def list_games(self) -> int:
        """`risc play --list`: every unfinished game kept here (of the rule set asked for, if any), newest first."""
        with self._quiet():
            server = self._open_server()
            if server is None:
                return 1
            async with server:
                found = [
                    u
                    for u in self._unfinished(server, SeatStore(self.data_dir / "seats.json"))
                    if self.rules is None or u.ruleset == self.rules
                ]
        kind = "" if self.rules is None else f"{get_ruleset(self.rules).title} "
        whose = f" of {self.name}" if self.name is not None else ""
        if not found:
            print(f"No unfinished {kind}games{whose} on this computer: risc play starts one.")
            return 0
        print(
            textwrap.fill(
                f"Unfinished {kind}games{whose} on this computer, newest first (risc play --continue "
                "GAME takes one up):",
                LIST_WIDTH,
                subsequent_indent="    ",
                break_on_hyphens=False,
            )
        )
        for unfinished in found:
            print(
                textwrap.fill(
                    unfinished.line(),
                    LIST_WIDTH,
                    initial_indent="  ",
                    subsequent_indent="      ",
                    break_long_words=False,
                    break_on_hyphens=False,
                )
            )
        return 0

    def _open_server(self) -> RiscServer | None:
        config = ServerConfig(host="127.0.0.1", port=0, data_dir=self.data_dir, maps=())
        try:
            return RiscServer(config)
        except StorageError as exc:
            print(f"risc play: {exc}. Is another risc play running? (--data-dir DIR plays elsewhere)", file=sys.stderr)
            return None

    @contextlib.contextmanager
    def _quiet(self) -> Iterator[None]:
        """The server's log lines would land in the middle of the player's screen: they are not shown."""
        quiet = logging.getLogger("risc.server")
        kept = quiet.propagate, list(quiet.handlers)
        quiet.propagate = False
        quiet.handlers = [logging.NullHandler()]
        try:
            yield
        finally:
            quiet.propagate, quiet.handlers = kept

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
        with self._quiet():
            server = self._open_server()
            if server is None:
                return 1
            async with server:
                self.server = server
                store = SeatStore(self.data_dir / "seats.json")
                unfinished = self._unfinished(server, store)
                resume = None
                if self.continue_game is not None:
                    resume = self._named([u for u in unfinished if self.rules is None or u.ruleset == self.rules])
                    if resume is None:
                        return 2
                else:
                    try:
                        self._map_choice(server)  # a map that cannot be found is said before the client opens
                    except Refusal as refusal:
                        print(f"risc play: {refusal.message}", file=sys.stderr)
                        return 2
                offered = (
                    []
                    if self.new or resume is not None
                    else [u for u in unfinished if self.rules is None or u.ruleset == self.rules]
                )
                elsewhere = 0 if self.new or resume is not None else len(unfinished) - len(offered)

                async def new_game() -> str | None:
                    return await self._new_game(server)

                self.app = LocalGameClient(
                    f"ws://127.0.0.1:{server.port}",
                    new_game,
                    name=self.name,
                    store=store,
                    unfinished=offered,
                    elsewhere=elsewhere,
                    resume=resume,
                    new_title=game_title(self.settings),
                    backoff=self.backoff,
                )
                self.opened.set()
                status = await self.app.run()
                return 2 if self.refused else status


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

        with self._quiet():
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


def _run(args: argparse.Namespace) -> int:
    ruleset = RULESETS.get(args.rules or DEFAULT_RULES)
    if ruleset is None:
        print(
            f"risc play: --rules {args.rules!r}: known rule sets are {', '.join(sorted(RULESETS))} "
            "(risc rules describes them)",
            file=sys.stderr,
        )
        return 2
    if args.name is not None and (problem := name_problem(args.name)) is not None:
        print(f"risc play: --name {args.name!r}: {problem}", file=sys.stderr)
        return 2
    if args.name is not None and args.name.casefold().startswith("bot-"):
        print(f"risc play: --name {args.name!r}: names starting with bot- are the computer players'", file=sys.stderr)
        return 2
    if args.web and (args.list or args.continue_game is not None):
        print(
            f"risc play: {'--list' if args.list else '--continue'} is for the games kept on this computer; "
            "a game played with --web lasts as long as its server",
            file=sys.stderr,
        )
        return 2
    if args.list or args.continue_game is not None:
        for_new = [
            flag
            for flag, value in (
                ("--map", args.map),
                ("--bots", args.bots),
                ("--strategy", args.strategy),
                ("--option", args.option or None),
            )
            if value is not None
        ]
        if for_new:
            print(
                f"risc play: {'--list' if args.list else '--continue'}: {', '.join(for_new)} "
                f"{'is' if len(for_new) == 1 else 'are'} for a new game",
                file=sys.stderr,
            )
            return 2
        play = LocalPlay(name=args.name, rules=args.rules, data_dir=args.data_dir, continue_game=args.continue_game)
        try:
            return asyncio.run(play.list_games() if args.list else play.run())
        except KeyboardInterrupt:
            return 130
    bots = 2 if args.bots is None else args.bots
    if args.strategy is not None and args.strategy not in ruleset.strategies:
        print(
            f"risc play: --strategy {args.strategy!r}: {ruleset.title}'s computer players are "
            f"{', '.join(sorted(ruleset.strategies))}",
            file=sys.stderr,
        )
        return 2
    try:
        options, chosen = read_options(ruleset, args.option)
    except OptionsError as exc:
        print(f"risc play: --option: {exc}", file=sys.stderr)
        return 2
    fewest, most = ruleset.player_counts(chosen)
    if not fewest - 1 <= bots <= most - 1 or bots < 1:
        print(
            f"risc play: --bots {bots}: a {ruleset.title} game has {fewest} to {most} players, so "
            f"{max(1, fewest - 1)} to {most - 1} computer players",
            file=sys.stderr,
        )
        return 2
    try:
        if args.web:
            web = WebPlay(
                args.map,
                bots,
                args.strategy,
                args.name,
                rules=ruleset.name,
                options=options,
                port=args.port,
                open_browser=not args.no_browser,
            )
            return asyncio.run(web.run())
        play = LocalPlay(
            args.map,
            bots,
            args.strategy,
            args.name,
            rules=args.rules,
            options=options,
            data_dir=args.data_dir,
            new=args.new,
        )
        return asyncio.run(play.run())
    except KeyboardInterrupt:
        return 130


def register(subparsers: Any) -> None:
    rules = ", ".join(f"{name} ({r.title})" for name, r in sorted(RULESETS.items()))
    parser = subparsers.add_parser(
        "play",
        help="play a game against computer players on this computer",
        description="Start a server on this computer, create a game with computer players in the other seats, and "
        "play it in the text client. Quitting the client stops the server; the game is kept, and "
        "offered again the next time: one unfinished game is offered by a question, several are "
        "listed to choose from (with --rules, only that rule set's).",
        epilog="risc rules lists the rule sets, risc rules NAME the options each takes.",
    )
    parser.add_argument(
        "--rules",
        default=None,
        metavar="NAME",
        help=f"the game: {rules}; a new game is RISC unless told, and with --rules only that rule "
        "set's unfinished games are offered",
    )
    parser.add_argument(
        "--map",
        default=None,
        metavar="NAME|FILE",
        help="a bundled map's name (risc maps list) or a map file (default: the game's own choice; "
        "the grid game has its own board)",
    )
    parser.add_argument("--bots", type=int, default=None, help="computer players (default 2)")
    parser.add_argument("--strategy", default=None, help="how they play (default: the game's strongest)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="one of the game's options (e.g. --option evolution=2; risc rules NAME lists them); may repeat",
    )
    parser.add_argument("--name", default=None, help="your player name (asked when missing)")
    parser.add_argument(
        "--web",
        action="store_true",
        help="play in the web browser instead of the terminal: the server runs until Ctrl-C",
    )
    parser.add_argument("--port", type=int, default=0, help="with --web: the port of the page (default: a free one)")
    parser.add_argument("--no-browser", action="store_true", help="with --web: print the address, open no browser")
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--new", action="store_true", help="start a new game even if an unfinished one could be continued"
    )
    which.add_argument(
        "--list",
        action="store_true",
        help="list the unfinished games kept on this computer (with --rules, that rule set's; with "
        "--name, that player's), and stop",
    )
    which.add_argument(
        "--continue",
        dest="continue_game",
        default=None,
        metavar="GAME",
        help="take up the unfinished game GAME (its id, or the start of it) without a question",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help=f"where local games are kept (default {local_data_dir()})",
    )
    parser.set_defaults(handler=_run)
