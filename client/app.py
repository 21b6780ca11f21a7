"""The text client: a prompt that reads commands, a status bar, and the game's news printed above the line being typed.

It is a face on the session (client/session.py), which holds the connection, the seats and what the server said of
each game. One game is on screen at a time (played or watched). Every command is one request whose answer is shown at
once; what the server says unasked (updates, a rematch seating us, a seat taken back) is printed as it comes, above
the prompt, without touching what the player is typing. The seat token is saved the moment the server hands it over,
so a closed terminal, a dropped link or a restarted server never costs the seat: the client resumes it with the last
log number it saw, and prints what it missed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Sequence
from typing import Any, TypeVar

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app_or_none, get_app_session
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.patch_stdout import patch_stdout
from prompt_toolkit.shortcuts import print_formatted_text
from pydantic import BaseModel, TypeAdapter, ValidationError

from client import commands as cmd
from client import render
from client.completion import CommandCompleter
from client.connection import Backoff, ConnectionFailed, ConnectionLost, LinkState
from client.help import help_text
from client.render import Fragments
from client.routing import Router
from client.session import Followed, Session
from client.tokens import Seat, SeatStore
from client.tracker import Tracker
from shared.game import grammar
from shared.game.presentation import Context, wrap
from shared.protocol import messages as msg
from shared.protocol import wording
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import DEFAULT_RULESET, GameSettings, GameStatus, GameSummary, PlayerName
from shared.rulesets import RULESETS

_NAME: TypeAdapter[str] = TypeAdapter(PlayerName)

ORDERS_SAID = 6
"""How many orders one command's answer names before it counts the rest."""


def fit(parts: list[tuple[str, int]], width: int) -> str:
    """The parts joined by " | ", leaving out the least important (the highest number, the last of equals) until
    the line fits `width`; a part that alone is too long is cut."""
    kept = list(parts)
    while len(kept) > 1 and len(" | ".join(text for text, _ in kept)) > width:
        least = max(range(len(kept)), key=lambda i: (kept[i][1], i))
        del kept[least]
    line = " | ".join(text for text, _ in kept)
    return line if len(line) <= width else line[: max(0, width - 1)] + "…"


def name_problem(name: str) -> str | None:
    """Why this player name will not do, said before asking the server: one the server would refuse, or one that
    looks like a command (`join 6da` typed where the client asked for a name), which other players would read as
    one."""
    try:
        _NAME.validate_python(name)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        if errors and errors[0].get("type") == "value_error":  # a character players could not see, said by name
            return wording.plain(errors[0])
        return "a name has 1 to 20 letters, digits, spaces, . ' - or _, and does not start or end with a space"
    words = name.casefold().split()
    commands = {word for spec in cmd.SPECS for word in (spec.name, *spec.aliases)}
    if words and (name.casefold() in commands or (words[0] in commands and len(words) > 1)):
        return (
            f'"{name}" looks like a command, not a name: type the name the other players will know you by '
            "(such as Alice); commands come after, at the lobby> prompt"
        )
    return None


_Answer = TypeVar("_Answer")
"""What a session call answers: a server message, or several."""


class ClientApp:
    def __init__(
        self,
        url: str,
        *,
        name: str | None = None,
        password: str | None = None,
        watch: str | None = None,
        store: SeatStore | None = None,
        backoff: Backoff | None = None,
        server_id: str | None = None,
    ) -> None:
        self.url = url
        self.name = name
        self.watch_id = watch
        self.session = Session(url, self, password=password, store=store, backoff=backoff, server_id=server_id)
        self.store = self.session.store
        self.tracker: Tracker | None = None
        self.transcript: list[str] = []
        self.prompts = 0
        """How many times the client has waited at its prompt: a script typing commands waits for the next one."""
        self.prompt_session: PromptSession[str] | None = None
        self._quit = False
        self._maps: list[str] = []
        self._expecting: str | None = None
        """A game being joined, watched or resumed: its first updates put it on screen."""
        self._holding = 0
        self._held: list[tuple[Followed, list[Any], msg.Update]] = []
        """Updates that came while a command was being answered: shown after its answer, so that nothing printed
        is older than what it follows (the answer to a commit before the turn it resolved)."""
        self._seen: dict[str, int] = {}
        """The last log entry remembered in the seat store, by game."""
        self._trackers: dict[str, Tracker] = {}
        """The screen of each game played here, kept while it is off screen."""
        self._elsewhere: dict[str, tuple[Any, ...]] = {}
        """What was last said of each game played off screen (its status, turn, whether it waits for the player)."""
        self._ended: set[str] = set()
        """Games whose end was told with their statistics."""
        self._background: set[asyncio.Task[None]] = set()

    @property
    def connection(self) -> Router:
        return self.session.connection

    # ---- output -------------------------------------------------------------------------------------------------

    def show(self, text: FormattedText | Fragments | str, style: str = "") -> None:
        """Print above the prompt (or plainly before it exists), and keep the plain text in the transcript."""
        fragments = FormattedText([(style, text)]) if isinstance(text, str) else FormattedText(text)
        plain = render.plain(fragments)
        if not plain:
            return
        if not plain.endswith("\n"):
            fragments = FormattedText([*fragments, ("", "\n")])
            plain += "\n"
        self.transcript.append(plain)
        shown = wrap([(part[0], part[1]) for part in fragments], self.width() - 1)
        print_formatted_text(FormattedText(shown), style=render.STYLE, end="")
        self._refresh()

    @staticmethod
    def size() -> tuple[int, int]:
        """The terminal's columns and rows (prompt_toolkit's output: 80 by 40 when there is no terminal)."""
        size = get_app_session().output.get_size()
        return size.columns, size.rows

    def width(self) -> int:
        return self.size()[0]

    def error(self, text: str) -> None:
        self.show(text, "class:error")

    def text(self) -> str:
        return "".join(self.transcript)

    def _refresh(self) -> None:
        app = get_app_or_none()
        if app is not None and app.is_running:
            app.invalidate()

    # ---- the prompt ---------------------------------------------------------------------------------------------

    def _prompt(self) -> FormattedText:
        t = self.tracker
        if t is None:
            return FormattedText([("class:muted", "lobby"), ("", "> ")])
        if t.player is None:
            return FormattedText([("class:muted", f"watching {t.game_id}"), ("", "> ")])
        return FormattedText([(t.palette().style(t.player), t.player), ("", f"@{t.game_id}> ")])

    def _toolbar(self) -> FormattedText:
        """Where the player is and what the game waits for, most important first; what does not fit the terminal's
        width is left out, least important first (the server's address before anything of the game)."""
        now = asyncio.get_running_loop().time()
        link = self.session.state
        parts = (
            self.tracker.status_parts(now) if self.tracker is not None else [("lobby: games, create, join, watch", 0)]
        )
        server = self.session.connection.url.split("://", 1)[-1].rstrip("/")  # the node reached now, of several
        parts = [*parts, (server, 3)]
        if link is not LinkState.CONNECTED:
            parts.insert(0, (link.value.upper(), 0))
        return FormattedText([("class:bottom-toolbar", f" {fit(parts, self.width() - 2)} ")])

    async def run(self) -> int:
        """Connect, find our seat again or show the lobby, then read commands until quit or end of input."""
        try:
            await self.session.open()
        except ConnectionFailed as exc:
            self.error(str(exc))
            return 1
        self.prompt_session = PromptSession(
            completer=CommandCompleter(self),
            complete_while_typing=False,
            bottom_toolbar=self._toolbar,
            refresh_interval=1.0,
            style=render.STYLE,
        )
        try:
            with patch_stdout(raw=True):
                async with self._answering():
                    await self._start()
                await self._loop()
        finally:
            self._remember_seen()
            await self.session.close()
        return 0

    async def _loop(self) -> None:
        assert self.prompt_session is not None
        while not self._quit:
            self.prompts += 1
            try:
                line = await self.prompt_session.prompt_async(self._prompt)
            except KeyboardInterrupt:
                continue
            except EOFError:
                break
            await self.execute(line)

    async def _ask(self, question: str) -> str | None:
        assert self.prompt_session is not None
        self.prompts += 1
        self.transcript.append(question)
        try:
            answer = (await self.prompt_session.prompt_async(question)).strip()
        except (EOFError, KeyboardInterrupt):
            self.transcript.append("\n")
            return None
        self.transcript.append(answer + "\n")
        return answer

    async def _ask_name(self) -> str | None:
        while True:
            typed = await self._ask("Your name: ")
            if typed is None or typed.casefold() in ("quit", "exit"):
                return None
            problem = name_problem(typed)
            if problem is None:
                return typed
            self.error(problem)

    async def _start(self) -> None:
        self.show(FormattedText([("class:title", "RISC"), ("", f" at {self.url}. Type help for the commands.\n")]))
        if self.watch_id is not None:
            await self._watch(self.watch_id, None)
            return
        if await self._resume_saved():
            return
        if self.name is None:
            self.name = await self._ask_name()
            if self.name is None:
                self._quit = True
                return
        await self._list_games()

    # ---- completion candidates ----------------------------------------------------------------------------------

    def setting(self) -> cmd.Setting:
        t = self.tracker
        games = list(dict.fromkeys([*self.session.followed, *(g.game_id for g in self.session.games)]))
        if t is None:
            return cmd.Setting(games=games)
        f = t.followed
        ruleset = f.ruleset
        simultaneous = f.game.simultaneous if f.game is not None else ruleset is None or ruleset.simultaneous
        return cmd.Setting(
            t.presentation, Context(f.game_map, f.view, f.player, tuple(f.orders)), games, f.players(), simultaneous
        )

    def phase(self) -> str | None:
        t = self.tracker
        return None if t is None or t.followed.game is None else t.followed.game.phase

    def game_ids(self) -> Sequence[str]:
        return [g.game_id for g in self.session.games]

    def map_names(self) -> Sequence[str]:
        return self._maps

    # ---- requests -----------------------------------------------------------------------------------------------

    async def _call(self, work: Awaitable[_Answer]) -> _Answer | None:
        """The server's answer to a session call, or None (having said why) when the link is down, or when what was
        typed cannot make a message the server would take (a character the chat refuses): said here, never a
        crash."""
        try:
            return await work
        except ValidationError as exc:
            self.error(f"Not sent: {wording.problems(exc)}.")
            return None
        except ConnectionLost as exc:
            state = self.session.state
            if state is LinkState.CONNECTED:
                self.error(f"No answer from the server: {exc}. Try again in a moment.")
            elif state is LinkState.RECONNECTING:
                self.error("Not connected to the server: the client reconnects by itself; try again in a moment.")
            else:
                self.error("Disconnected from the server for good: type quit, then start the client again.")
            return None

    def _refused(self, reply: msg.ServerMessage | None) -> bool:
        if isinstance(reply, msg.Error):
            self.error(f"Refused: {reply.message}")
            return True
        return reply is None

    @contextlib.asynccontextmanager
    async def _answering(self) -> AsyncIterator[None]:
        """While a command is answered, the game's news waits; then it is shown, in the order it came."""
        self._holding += 1
        try:
            yield
        finally:
            self._holding -= 1
            if not self._holding:
                held, self._held = self._held, []
                for number, (followed, entries, update) in enumerate(held):
                    later = any(other is followed for other, _, _ in held[number + 1 :])
                    self._show_update(followed, entries, update, latest=not later)

    async def execute(self, line: str) -> None:
        async with self._answering():
            await self._execute(line)

    async def _execute(self, line: str) -> None:
        setting = self.setting()
        command = cmd.parse(line, setting)
        if isinstance(command, cmd.ParseError):
            self.error(str(command))
            return
        match command:
            case cmd.Empty():
                pass
            case cmd.Help("create", detail):
                await self._help_create(detail, setting)
            case cmd.Help(topic):
                self.show(help_text(topic, setting, self.width() - 1))
            case cmd.Quit():
                self._do_quit()
            case cmd.Games():
                await self._list_games()
            case cmd.Maps():
                await self._list_maps()
            case cmd.Create():
                await self._do_create(command)
            case cmd.Join(game_id, group):
                await self._join(game_id, group)
            case cmd.Watch(game_id, follow):
                await self._watch(game_id, follow)
            case cmd.Issue():
                await self._issue(command)
            case cmd.Show(shown):
                t = self._game(seated=False)
                if (
                    t is not None
                    and t.presentation is not None
                    and t.view is not None
                    and t.followed.game_map is not None
                ):
                    self.show(t.presentation.show(shown, t.view, t.followed.game_map, t.palette(), t.player))
            case cmd.ListOrders():
                await self._do_orders()
            case cmd.Withdraw(number):
                await self._do_withdraw(number)
            case cmd.Reorder(number, place):
                await self._do_reorder(number, place)
            case cmd.Done():
                await self._do_done()
            case cmd.Board() | cmd.Summary() | cmd.History() | cmd.Report():
                self._do_show(command)
            case cmd.MapPicture():
                self._do_map()
            case cmd.HandOverCommand(player):
                await self._do_hand_over(player)
            case cmd.Leave():
                await self._do_leave()
            case cmd.Resign():
                await self._do_resign()
            case cmd.Say(text, to):
                await self._do_say(text, to)
            case cmd.RematchCommand():
                await self._do_rematch()

    def _game(self, seated: bool = True) -> Tracker | None:
        t = self.tracker
        if t is None:
            self.error("You are not in a game: games lists them; join or watch one.")
            return None
        if seated and t.player is None:
            self.error(f"You are watching game {t.game_id}: only its players give orders.")
            return None
        return t

    # ---- lobby commands -----------------------------------------------------------------------------------------

    def _do_quit(self) -> None:
        if self.tracker is not None and self.tracker.active:
            self.show("Your seat stays yours: run the same command again to come back to the game.", "class:hint")
        self._quit = True

    async def _list_games(self) -> None:
        reply = await self._call(self.session.list_games())
        if isinstance(reply, msg.Games):
            self.show(render.games_table(reply.games))
            if reply.total > len(reply.games):
                self.show(f"(the {len(reply.games)} newest of {reply.total} games)", "class:muted")
        else:
            self._refused(reply)

    async def _list_maps(self) -> None:
        reply = await self._call(self.session.request(msg.ListMaps()))
        if isinstance(reply, msg.Maps):
            self._maps = [m.id for m in reply.maps]
            lines = [f"  {m.id:<16} {m.territories:>4} territories  {m.name}" for m in reply.maps]
            self.show("Maps (create MAP ...):\n" + "\n".join(lines))
        else:
            self._refused(reply)

    async def _help_create(self, only: str | None, setting: cmd.Setting) -> None:
        """`help create`: the command, then the games the server plays and their options as the server describes
        them (`help create NAME`: one game's)."""
        text = help_text("create", setting)
        reply = await self._call(self.session.request(msg.ListRuleSets()))
        if not isinstance(reply, msg.RuleSets):
            self.show(text)
            self._refused(reply)
            return
        known = [r.name for r in reply.rulesets]
        if only is not None:
            found = grammar.name(only, known, "game")
            if isinstance(found, grammar.ParseError):
                self.show(text)
                self.error(f"{found} (this server plays {', '.join(known)})")
                return
            only = found
        words = {name: r.presentation.option_words for name, r in RULESETS.items()}
        self.show(text + render.create_help(reply.rulesets, words, only))

    async def _do_create(self, command: cmd.Create) -> None:
        ruleset_name = command.ruleset or DEFAULT_RULESET
        ruleset = RULESETS.get(ruleset_name)
        words = ruleset.presentation.option_words if ruleset is not None else {}
        options = {words.get(k, k): v for k, v in command.options.items()}
        values: dict[str, Any] = {"ruleset": ruleset_name, "map": command.map, "options": options}
        if ruleset is not None and ruleset.own_map:
            values["map"] = None
        elif command.map is None and ruleset is not None:
            values["map"] = ruleset.default_map
        for key in ("players", "turn_seconds", "bots", "bot_strategy"):
            if getattr(command, key) is not None:
                values[key] = getattr(command, key)
        if values["map"] is None and (ruleset is None or not ruleset.own_map):
            self.error("Which map? create MAP ...: maps lists this server's maps.")
            return
        spoken = {v: k for k, v in words.items()} | {"turn_seconds": "time", "bot_strategy": "strategy"}

        def word(field: str) -> str:
            return spoken.get(field.removeprefix("options."), field.removeprefix("options."))

        try:
            if ruleset is not None:  # the rule set's own options and number of players, before the protocol's
                fewest, most = ruleset.player_counts(ruleset.options(options))
                players = values.get("players", GameSettings.model_fields["players"].default)
                if not fewest <= players <= most:
                    problem = wording.player_count(ruleset.title, fewest, most, players)
                    self.error(f"Those settings will not do: {problem}.")
                    return
            settings = GameSettings.model_validate(values)
        except ValidationError as exc:
            self.error(f"Those settings will not do: {wording.problems(exc, word=word)}.")
            return
        reply = await self._call(self.session.create(settings))
        if self._refused(reply) or not isinstance(reply, msg.GameCreated):
            return
        game = reply.game
        self.show(
            f"Created game {game.game_id}: {game.ruleset_title} on {game.map_name}, {game.settings.players} players.",
            "class:ok",
        )
        if game.groups is not None:
            self.show(render.groups_list(game))
            return
        if game.settings.bots >= game.settings.players:  # no seat left for a person: the game is there to watch
            self.show(f"Every seat of game {game.game_id} is a computer's: you watch it.", "class:hint")
            await self._watch(game.game_id, None)
            return
        await self._join(game.game_id, None)

    async def _join(self, game_id: str, group: int | None) -> None:
        held = self.session.followed.get(game_id)
        if held is not None and held.player is not None:  # a seat this client holds already: back to it
            self._say_parked(await self._switch_away(game_id))
            self.show(f"Back to game {game_id}, where you play as {held.player}.", "class:ok")
            self._put_on_screen(held)
            if self.tracker is not None:
                self.show(self.tracker.on_screen_again())
            return
        parked = await self._switch_away(game_id)
        if self.name is None:
            self.name = await self._ask_name()
            if self.name is None:
                self._unpark(parked)
                return
        self._expecting = game_id
        reply = await self._call(self.session.join(game_id, self.name, group))
        if isinstance(reply, msg.Error):
            self._unpark(parked)
            self.error(f"Refused: {reply.message}")
            if reply.code == ErrorCode.BAD_GROUP:
                await self._call(self.session.list_games())
                summary = next((g for g in self.session.games if g.game_id == game_id), None)
                if summary is not None and summary.groups:
                    self.show(render.groups_list(summary))
            return
        if not isinstance(reply, msg.Joined):
            self._unpark(parked)
            return
        self._say_parked(parked)
        self.show(f"You sit in game {reply.game_id} as {reply.player}.", "class:ok")
        self._put_on_screen(self.session.followed[reply.game_id])

    async def _watch(self, game_id: str, follow: str | None) -> None:
        parked = await self._switch_away(game_id, follow is not None)
        self._expecting = game_id
        reply = await self._call(self.session.watch(game_id, follow))
        if self._refused(reply) or not isinstance(reply, msg.Watching):
            self._unpark(parked)
            return
        self._say_parked(parked)
        whose = f" through {reply.follow}'s eyes" if reply.follow else ""
        self.show(f"Watching game {reply.game_id}{whose}. (leave stops watching)", "class:ok")
        followed = self.session.followed[reply.game_id]
        fresh = self.tracker is None or self.tracker.followed is not followed
        self._put_on_screen(followed)
        if fresh and self.tracker is not None:
            self.tracker.catching_up = True  # the log from the game's start comes: summed up, not printed whole
        ruleset = followed.ruleset
        note = (
            ruleset.presentation.spectator_note(followed.view)
            if ruleset is not None and not reply.follow and followed.view is not None
            else ""
        )
        if note:
            self.show(note, "class:hint")

    async def _switch_away(self, game_id: str, following: bool = False) -> Tracker | None:
        """Before following another game: stop following the one on screen, unless a seat there still matters. Such
        a game is parked off screen and returned: the caller says so once the other game is on screen
        (`_say_parked`), or puts it back when the server refuses the other (`_unpark`)."""
        t = self.tracker
        if t is None or (t.game_id == game_id and (t.player is None or following)):
            return None
        if t.active or (
            t.player is not None and t.followed.game is not None and t.followed.game.status is GameStatus.LOBBY
        ):
            self.tracker = None  # one name plays several games at once: it goes on, and says when it waits for you
            return t
        await self._call(self.session.leave(t.game_id))
        self.tracker = None
        return None

    def _say_parked(self, parked: Tracker | None) -> None:
        if parked is not None:
            self.show(
                f"Game {parked.game_id} goes on without being on screen: join {parked.game_id} goes back to it.",
                "class:hint",
            )

    def _unpark(self, parked: Tracker | None) -> None:
        """The game parked for one the server refused comes back on screen, as if nothing had been asked."""
        self._expecting = None
        if parked is not None and self.tracker is None:
            self.tracker = parked
            self._refresh()

    def _put_on_screen(self, followed: Followed) -> None:
        """Put a game on screen (its updates already shown when they came first); a game played before, off screen
        since, comes back with what its screen had recorded (its history)."""
        if self.tracker is None or self.tracker.followed is not followed:
            kept = self._trackers.get(followed.game_id)
            self.tracker = kept if kept is not None and kept.followed is followed else Tracker(followed)
            self._trackers[followed.game_id] = self.tracker
        self._expecting = None
        self._refresh()

    async def _resume_saved(self) -> bool:
        """Back to a seat this user holds on this server, if its game is still on (or was rematched). With a name,
        that player's seats; without one, the seats kept on this computer, asking which when there are several:
        never a seat the person did not name or choose."""
        seats = self.session.saved_seats(self.name)
        if not seats:
            return False
        reply = await self._call(self.session.list_games(limit=100))
        if not isinstance(reply, msg.Games):
            return False
        by_id = {g.game_id: g for g in reply.games}
        live: list[Seat] = []
        for seat in seats:
            game = by_id.get(seat.game_id)
            rematch = game.rematch_game if game is not None and game.status is GameStatus.FINISHED else None
            if rematch is not None and self.store.get(self.session.seat_server, rematch, seat.player) is None:
                # The server seated us in the rematch while we were away, with the same token (R27).
                self.store.save(self.session.seat_server, rematch, seat.player, seat.token)
                self.store.forget(self.session.seat_server, seat.game_id, seat.player)
                seat = Seat(seat.server, rematch, seat.player, seat.token, seat.saved_at)
                game = by_id.get(rematch)
            if game is None or game.status is GameStatus.FINISHED:
                self.store.forget(self.session.seat_server, seat.game_id, seat.player)
                continue
            live.append(seat)
        chosen = await self._choose_seat(live)
        if chosen is None:
            return False
        self._expecting = chosen.game_id
        reply = await self._call(self.session.resume(chosen.game_id, chosen.player, chosen.token, chosen.seq or None))
        if not isinstance(reply, msg.Resumed):
            if isinstance(reply, msg.Error):
                self.error(f"Could not return to game {chosen.game_id}: {reply.message}")
            return False
        self.name = reply.player
        self._put_on_screen(self.session.followed[chosen.game_id])
        return True

    async def _choose_seat(self, seats: list[Seat]) -> Seat | None:
        if not seats:
            return None
        if self.name is not None and len(seats) == 1:
            return seats[0]
        lines = [f"  {n}. {s.player} in game {s.game_id}" for n, s in enumerate(seats, start=1)]
        self.show("Seats kept on this computer for this server:\n" + "\n".join(lines))
        while True:
            typed = await self._ask("Return to which seat (number; Enter for none)? ")
            if not typed:
                return None
            if typed.isdigit() and 1 <= int(typed) <= len(seats):
                return seats[int(typed) - 1]
            self.error(f"type a number from 1 to {len(seats)}, or press Enter")

    # ---- game commands ------------------------------------------------------------------------------------------

    async def _issue(self, command: cmd.Issue) -> None:
        t = self._game()
        if t is None:
            return
        presentation = t.presentation
        accepted: list[tuple[int, Any]] = []
        try:
            if len(command.orders) > 1 and t.followed.game is not None and t.followed.game.simultaneous:
                await self._issue_together(t, command.orders, accepted)
                return
            for order in command.orders:
                reply = await self._call(self.session.issue(t.followed, order))
                if self._refused(reply) or not isinstance(reply, msg.OrderAccepted):
                    return
                if t.followed.orders:
                    accepted.append((reply.index + 1, t.followed.orders[-1]))
        finally:
            if accepted and t.followed.game is not None and t.followed.game.simultaneous:
                # One line for a command, however many orders it gave (`place 60 *` gives one per territory).
                said = [presentation.describe(o) if presentation else str(o) for _, o in accepted]
                if len(said) > ORDERS_SAID:  # `place 600 *` on a big map: sixty orders, a screenful
                    said = [*said[: ORDERS_SAID - 1], f"and {len(said) - ORDERS_SAID + 1} more (orders lists them)"]
                shown = "; ".join(said)
                first, last = accepted[0][0], accepted[-1][0]
                note = f"Order {first}: {shown}." if first == last else f"Orders {first}-{last}: {shown}."
                extra = (
                    presentation.status(t.view, t.player, t.followed.orders, t.followed.game_map)
                    if presentation
                    else ""
                )
                self.show(note + (f" {extra[0].upper()}{extra[1:]}." if extra else ""), "class:ok")

    async def _issue_together(self, t: Tracker, orders: Sequence[Any], accepted: list[tuple[int, Any]]) -> None:
        """A command's several orders (`place 60 *`) in one message: each checked as if sent alone; the accepted
        ones join `accepted` (shown in one line), each refused one is said."""
        replies = await self._call(self.session.issue_batch(t.followed, orders))
        for reply in replies or []:
            if self._refused(reply) or not isinstance(reply, msg.OrdersAccepted):
                return
            listed = t.followed.orders
            accepted.extend((a.index + 1, listed[a.index]) for a in reply.accepted if a.index < len(listed))
            for refused in reply.refused:
                self.error(f"Refused: {refused.message}")

    async def _do_orders(self) -> None:
        t = self._game()
        if t is None:
            return
        reply = await self._call(self.session.list_orders(t.followed))
        if self._refused(reply) or not isinstance(reply, msg.Orders):
            return
        self.show(render.order_list(t.followed.orders, t.presentation, reply.committed))
        extra = (
            t.presentation.status(t.view, t.player, t.followed.orders, t.followed.game_map) if t.presentation else ""
        )
        if extra and not reply.committed:
            self.show(f"{extra[0].upper()}{extra[1:]}.", "class:hint")

    async def _do_withdraw(self, number: int | None) -> None:
        t = self._game()
        if t is None:
            return
        if number is None:
            count = len(t.followed.orders)
            for index in reversed(range(count)):
                reply = await self._call(self.session.withdraw(t.followed, index))
                if self._refused(reply):
                    return
            self.show(f"Withdrew all {count} orders." if count else "You have no orders to withdraw.", "class:ok")
            return
        if number < 1:
            self.error("orders are numbered from 1: orders lists them")
            return
        taken = t.followed.orders[number - 1] if number <= len(t.followed.orders) else None
        reply = await self._call(self.session.withdraw(t.followed, number - 1))
        if self._refused(reply) or not isinstance(reply, msg.OrderWithdrawn):
            return
        what = f": {t.presentation.describe(taken)}" if taken is not None and t.presentation else ""
        self.show(f"Withdrew order {number}{what}.", "class:ok")
        self.show(render.order_list(t.followed.orders, t.presentation))

    async def _do_reorder(self, number: int, place: int) -> None:
        t = self._game()
        if t is None:
            return
        if number < 1 or place < 1:
            self.error("orders are numbered from 1: orders lists them")
            return
        reply = await self._call(self.session.move(t.followed, number - 1, place - 1))
        if self._refused(reply) or not isinstance(reply, msg.OrderMoved):
            return
        self.show(f"Order {number} is number {place} now.", "class:ok")
        self.show(render.order_list(t.followed.orders, t.presentation))

    async def _do_done(self) -> None:
        t = self._game()
        if t is None:
            return
        turn = t.followed.turn
        stage = f"turn {turn}" if turn or t.followed.game is None else t.followed.game.phase
        reply = await self._call(self.session.commit(t.followed))
        if self._refused(reply) or not isinstance(reply, msg.CommitAccepted):
            return
        if t.followed.turn == reply.turn and not t.finished:
            waiting = [p for p in t.followed.waiting_for() if p != t.player]
            tail = f" Waiting for {', '.join(waiting)}." if waiting else ""
            self.show(f"Committed {stage}.{tail}", "class:ok")

    def _do_show(self, command: cmd.Board | cmd.Summary | cmd.History | cmd.Report) -> None:
        t = self._game(seated=False)
        if t is None:
            return
        f = t.followed
        if isinstance(command, cmd.History):
            self.show(
                render.statistics_table(t.statistics, t.palette())
                if t.statistics is not None
                else render.history_table(t.history, f.players(), t.palette())
            )
        elif isinstance(command, cmd.Report) and command.turn is not None:
            told = t.turn_report(command.turn)
            if not told or t.presentation is None:
                known = sorted(n for n in t.turns if n > 0)
                span = f" (this client has turns {known[0]} to {known[-1]})" if known else ""
                self.show(f"Nothing was told of turn {command.turn}{span}.", "class:muted")
            else:
                self.show(f"Turn {command.turn}:", "class:title")
                self.show(t.presentation.events(told, t.palette(), f.player))
        elif isinstance(command, cmd.Report):
            heading, told = t.report()
            if not told or t.presentation is None:
                self.show("No turn has been played yet.", "class:muted")
            else:
                if heading:
                    self.show(heading, "class:title")
                self.show(t.presentation.events(told, t.palette(), f.player))
        elif f.view is None or f.game_map is None or t.presentation is None:
            self.show("The game has not started yet.", "class:muted")
        elif isinstance(command, cmd.Board):
            self.show(t.presentation.board(f.view, f.game_map, t.palette(), f.player, f.orders, command.focus))
        else:
            self.show(t.presentation.summary(f.view, f.game_map, t.palette(), f.player))
            self.show(render.progress_line(f.game))

    def _do_map(self) -> None:
        t = self._game(seated=False)
        if t is None:
            return
        f = t.followed
        if f.view is None or f.game_map is None or t.presentation is None:
            self.show("The game has not started yet.", "class:muted")
            return
        columns, rows = self.size()
        picture = t.presentation.picture(f.view, f.game_map, t.palette(), f.player, columns - 1, rows - 4)
        if picture is None:
            self.show(t.presentation.no_picture(f.view, f.game_map), "class:muted")
        else:
            self.show(picture)

    async def _do_hand_over(self, player: str) -> None:
        t = self._game()
        if t is None:
            return
        reply = await self._call(self.session.hand_over(t.followed, player))
        if self._refused(reply) or not isinstance(reply, msg.HandOverPending):
            return
        if reply.needed:
            self.show(f"Your vote counts. Still to agree: {', '.join(reply.needed)}.", "class:ok")

    async def _do_leave(self) -> None:
        t = self._game(seated=False)
        if t is None:
            return
        reply = await self._call(self.session.leave(t.game_id))
        if self._refused(reply) or not isinstance(reply, msg.Left):
            return
        self.tracker = None
        self.show(f"You left game {t.game_id}.", "class:ok")
        await self._list_games()

    async def _do_say(self, text: str, to: str | None) -> None:
        """The chat of the game on screen, or the lobby's; a spectator and the lobby speak under the client's name."""
        t = self.tracker
        if t is None and to is not None:
            self.error("tell is for the players of the game on screen: join or watch one.")
            return
        name = None if t is not None and t.player is not None else self.name
        if name is None and (t is None or t.player is None):
            name = self.name = await self._ask_name()
            if name is None:
                return
        reply = await self._call(self.session.chat(None if t is None else t.game_id, text, to, name))
        self._refused(reply)

    def on_lobby_chat(self, said: msg.LobbyChat) -> None:
        if self.tracker is None:
            self.show(FormattedText([("class:hint", "[lobby] "), ("", f"{said.player}: {said.text}")]))

    async def _do_resign(self) -> None:
        t = self._game()
        if t is None:
            return
        if not t.active:
            self.error("There is nothing to resign: the game has not started, is over, or you are out already.")
            return
        answer = await self._ask(f"Resign game {t.game_id}? You will be out for good (yes/no): ")
        if answer is None or answer.casefold() not in ("y", "yes"):
            self.show("You play on.", "class:muted")
            return
        reply = await self._call(self.session.resign(t.followed))
        if self._refused(reply) or not isinstance(reply, msg.Resigned):
            return
        self.show(f"You resigned game {t.game_id}: you may watch it to its end, or leave.", "class:ok")

    async def _do_rematch(self) -> None:
        t = self._game()
        if t is None:
            return
        problem = t.rematch_problem() if t.finished else None
        if problem is not None:
            self.error(f"{problem} Type leave to go back to the lobby.")
            return
        reply = await self._call(self.session.rematch(t.followed))
        if self._refused(reply) or not isinstance(reply, msg.RematchPending):
            return
        asked = set(t.followed.game.rematch) if t.followed.game is not None else set()
        waiting = [p for p in reply.waiting_for if p not in asked]  # some may have asked since the reply
        if waiting:
            self.show(f"Rematch asked. Waiting for {', '.join(waiting)} to ask too.", "class:ok")

    # ---- what the session tells -----------------------------------------------------------------------------

    def on_update(self, followed: Followed, entries: list[Any], update: msg.Update) -> None:
        if self._holding:
            self._held.append((followed, entries, update))
        else:
            self._show_update(followed, entries, update)

    def _show_update(self, followed: Followed, entries: list[Any], update: msg.Update, latest: bool = True) -> None:
        """`latest`: no later update of the game is held (one that is tells the game as it now stands)."""
        t = self.tracker
        if (t is None or t.followed is not followed) and followed.game_id == self._expecting:
            t = self.tracker = Tracker(followed)
        if t is not None and t.followed is followed:
            self.show(t.apply(entries, update, latest))
            self._remember_seen(followed)
            if t.finished and t.game_id not in self._ended:
                self._ended.add(t.game_id)
                task = asyncio.get_running_loop().create_task(self._tell_the_end(t))
                self._background.add(task)
                task.add_done_callback(self._background.discard)
        elif followed.player is not None:
            self._note_elsewhere(followed)

    async def _tell_the_end(self, t: Tracker) -> None:
        """Once a game is over: its statistics, asked of the server, then what a player may do now."""
        try:
            reply = await self.session.statistics(t.game_id)
        except ConnectionLost:
            reply = None
        self.show(t.the_end(reply.statistics if isinstance(reply, msg.Statistics) else None))

    def _note_elsewhere(self, followed: Followed) -> None:
        """A game this client plays but does not show: one line when it comes to wait for the player, and when it
        ends, so that a player in several games knows where to go."""
        game = followed.game
        waiting = followed.awaited and not followed.committed
        key = (game.status if game is not None else None, followed.turn, waiting)
        if self._elsewhere.get(followed.game_id) == key:
            return
        before = self._elsewhere.get(followed.game_id)
        self._elsewhere[followed.game_id] = key
        if followed.finished and (before is None or before[0] is not GameStatus.FINISHED):
            result = f"{game.winner} won" if game is not None and game.winner else "it is over"
            self.show(f"Game {followed.game_id} ended: {result} (join {followed.game_id} to see it).", "class:hint")
        elif waiting and (before is None or not before[2] or before[1] != followed.turn):
            self.show(
                f"Game {followed.game_id} waits for you (turn {followed.turn}): join {followed.game_id} to play it.",
                "class:hint",
            )

    def _remember_seen(self, only: Followed | None = None) -> None:
        """How far each seat's player has seen its game, kept as it is shown: a terminal closed under the client
        ends it without a word, and coming back, the player is shown what came after."""
        for followed in [only] if only is not None else list(self.session.followed.values()):
            if followed.player is None or not followed.seq or self._seen.get(followed.game_id) == followed.seq:
                continue
            self.store.seen(self.session.seat_server, followed.game_id, followed.player, followed.seq)
            self._seen[followed.game_id] = followed.seq

    def on_notice(self, error: msg.Error) -> None:
        self.error(error.message)
        if (
            error.code in (ErrorCode.NOT_SEATED, ErrorCode.NO_SUCH_GAME)
            and self.tracker is not None
            and self.tracker.game_id == error.game_id
        ):
            self.tracker = None

    def on_listed(self, game: GameSummary) -> None:
        if self.tracker is None:  # in the lobby: a new game to join
            self.show(f"New game: {render.game_line(game)}", "class:hint")

    def on_seated(self, followed: Followed, previous: Followed | None) -> None:
        self.show(f"The rematch begins: game {followed.game_id}, you play as {followed.player}.", "class:win")
        self.tracker = Tracker(followed)

    def on_resumed(self, followed: Followed) -> None:
        self.show(f"Back in game {followed.game_id} as {followed.player}.", "class:ok")

    def on_link(self, state: LinkState, detail: str) -> None:
        if state is LinkState.RECONNECTING:
            self.show("Connection lost: reconnecting...", "class:error")
        elif state is LinkState.CLOSED:
            self.error(f"Disconnected: {detail}. Type quit.")
        self._refresh()

    def on_shutdown(self, message: str) -> None:
        self.show(f"{message}; the client will reconnect when the server is back.", "class:hint")

    async def on_reconnected(self, resumed: bool) -> None:
        t = self.tracker
        if t is None:
            self.show("Reconnected.", "class:ok")
        elif t.player is None:
            self.show(f"Reconnected: watching game {t.game_id} again.", "class:ok")
        elif t.game_id not in self.session.followed:
            self.error(f"Reconnected, but could not take your seat in game {t.game_id} back.")

    # ---- for scripts --------------------------------------------------------------------------------------------

    async def request(self, message: BaseModel) -> msg.ServerMessage:
        return await self.session.request(message)
