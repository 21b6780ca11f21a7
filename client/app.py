"""The text client: a prompt that reads commands, a status bar, and the game's news printed above the line being typed.

It is the terminal's face on two things: the session (client/session.py), which holds the connection, the seats and
what the server said of each game, and the core (client/core/), which decides what to show, what to ask and what to
send. This layer reads lines, carries out the core's plans (a request through the session, a question at the prompt,
text printed above it) and hands the answers back. One game is on screen at a time (played or watched). What the
server says unasked (updates, a rematch seating us, a seat taken back) is printed as it comes, above the prompt,
without touching what the player is typing. The seat token is saved the moment the server hands it over, so a closed
terminal, a dropped link or a restarted server never costs the seat: the client resumes it with the last log number
it saw, and prints what it missed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from prompt_toolkit import PromptSession
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.history import DummyHistory
from prompt_toolkit.patch_stdout import patch_stdout
from pydantic import BaseModel, ValidationError

from client import render, terminal
from client.commands import Setting
from client.completion import CommandCompleter
from client.connection import Backoff, ConnectionFailed, ConnectionLost
from client.core import account, commands, lobby, news, people
from client.core import effects as fx
from client.core.effects import Plan
from client.core.state import State
from client.core.status import prompt, status_bar
from client.followed import Followed
from client.link import LinkState
from client.render import Fragments
from client.routing import Router
from client.session import Session
from client.sessions import SessionStore
from client.tokens import SeatStore
from client.tracker import Tracker
from shared.protocol import accounts, wording
from shared.protocol import messages as msg
from shared.protocol.lobby import GameSummary
from shared.protocol.notifications import Notice
from shared.protocol.ratings import QuickPlayFound, QuickPlayWaiting

T = TypeVar("T")


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
        sessions: SessionStore | None = None,
    ) -> None:
        """`store` and `sessions`: where seat tokens and the account's session are kept (the user's config
        directory by default)."""
        self.url = url
        self.session = Session(
            url,
            self,
            password=password,
            store=store,
            backoff=backoff,
            server_id=server_id,
            sessions=sessions or SessionStore(),
        )
        self.store = self.session.store
        self.state = State(url, self.session, name=name, watch_id=watch)
        self.transcript: list[str] = []
        self.prompts = 0
        """How many times the client has waited at its prompt: a script typing commands waits for the next one."""
        self.prompt_session: PromptSession[str] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._looking: str | None = None
        """The game on screen the server was last told of (`looking`)."""

    @property
    def connection(self) -> Router:
        return self.session.connection

    @property
    def tracker(self) -> Tracker | None:
        """The game on screen."""
        return self.state.tracker

    # ---- output -------------------------------------------------------------------------------------------------

    def show(self, text: Fragments | str, style: str = "") -> None:
        """Print above the prompt (or plainly before it exists), and keep the plain text in the transcript."""
        shown = terminal.fragments(text, style)
        plain = render.plain(shown)
        if not plain:
            return
        self.transcript.append(plain)
        terminal.print_above(shown)

    def error(self, text: str) -> None:
        self.show(text, "class:error")

    def text(self) -> str:
        return "".join(self.transcript)

    # ---- the prompt ---------------------------------------------------------------------------------------------

    def _prompt(self) -> FormattedText:
        return FormattedText(prompt(self.state))

    def _toolbar(self) -> FormattedText:
        self.state.size = terminal.size()
        now = asyncio.get_running_loop().time()
        return FormattedText(status_bar(self.state, now, self.session.state, self.session.connection.url))

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
            style=terminal.STYLE,
        )
        try:
            with patch_stdout(raw=True):
                self._measure()
                await self.carry_out(commands.answered(self.state, self.start()))
                await self._loop()
        finally:
            self._effects(news.remember_seen(self.state))
            await self.session.close()
        return 0

    def start(self) -> Plan[None]:
        """The first screen's plan (`risc play` has its own)."""
        return lobby.start(self.state, self.session.saved_seats(self.state.name), self.session.session_problem)

    async def _loop(self) -> None:
        assert self.prompt_session is not None
        while not self.state.quit:
            self.prompts += 1
            try:
                line = await self.prompt_session.prompt_async(self._prompt)
            except KeyboardInterrupt:
                continue
            except EOFError:
                break
            await self.execute(line)

    async def execute(self, line: str) -> None:
        self._measure()
        await self.carry_out(commands.execute(self.state, line))

    def _measure(self) -> None:
        """The terminal's size as it is now, and how many lines a screen of an answer takes on it (the prompt and the
        status bar take two)."""
        self.state.size = terminal.size()
        self.state.page_rows = self.state.size[1] - 2 if terminal.interactive() else None

    async def _ask(self, question: str, secret: bool = False) -> str | None:
        """The line typed at a question. A `secret` (a password) is typed without echo, at a prompt of its own that
        keeps no history, and goes into no transcript."""
        assert self.prompt_session is not None
        self.prompts += 1
        self.transcript.append(question)
        asking = self.prompt_session
        if secret:
            asking = PromptSession(history=DummyHistory(), bottom_toolbar=self._toolbar, style=terminal.STYLE)
        try:
            typed = await asking.prompt_async(
                question, is_password=secret, input_processors=[terminal.Unechoed()] if secret else None
            )
        except (EOFError, KeyboardInterrupt):
            self.transcript.append("\n")
            return None
        answer = typed if secret else typed.strip()
        self.transcript.append("\n" if secret else answer + "\n")
        return answer

    # ---- carrying out the core's plans ----------------------------------------------------------------------------

    async def carry_out(self, plan: Plan[T]) -> T:
        """Each effect the plan yields carried out, and its answer handed back, until the plan is done."""
        answer: Any = None
        try:
            while True:
                effect = plan.send(answer)
                if isinstance(effect, fx.Ask):
                    answer = await self._ask(effect.question, effect.secret)
                elif isinstance(effect, fx.Request):
                    answer = await self._request(effect)
                else:
                    self._effect(effect)
                    answer = None
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        finally:
            plan.close()
            terminal.refresh()

    def _effect(self, effect: fx.Effect) -> None:
        """An effect that needs no answer: text shown, a seat kept or forgotten, a plan carried out beside."""
        match effect:
            case fx.Show(text, style):
                self.show(text, style)
            case fx.Seen(game_id, player, seq):
                self.store.seen(self.session.seat_server, game_id, player, seq)
            case fx.KeepSeat(game_id, player, token):
                self.store.save(self.session.seat_server, game_id, player, token)
            case fx.ForgetSeat(game_id, player):
                self.store.forget(self.session.seat_server, game_id, player)
            case fx.Bell():
                terminal.bell()
            case fx.Later(plan):
                task = asyncio.get_running_loop().create_task(self.carry_out(plan))
                self._background.add(task)
                task.add_done_callback(self._background.discard)
            case _:
                raise TypeError(f"{effect!r} waits for an answer: it belongs in a plan")

    def _effects(self, effects: Iterable[fx.Effect]) -> None:
        for effect in effects:
            self._effect(effect)
        terminal.refresh()
        self._look()

    def _look(self) -> None:
        """Tell the server when the game on screen changed (nobody is told away from a game they look at)."""
        on_screen = self.state.tracker.game_id if self.state.tracker is not None else None
        if on_screen == self._looking:
            return
        self._looking = on_screen
        task = asyncio.get_running_loop().create_task(self.session.look(on_screen))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _request(self, request: fx.Request) -> Any:
        """The server's answer to a request, or why there is none (the link is down, or what was typed cannot make a
        message the server would take: said by the core, never a crash)."""
        try:
            return await self.send(request)
        except ValidationError as exc:
            return fx.Unsent(self.session.state, problems=wording.problems(exc))
        except ConnectionLost as exc:
            return fx.Unsent(self.session.state, lost=str(exc))

    async def send(self, request: fx.Request) -> Any:
        """A request, through the session."""
        s = self.session
        match request:
            case fx.ListGames(limit):
                return await s.list_games(limit=limit)
            case fx.ListMaps():
                return await s.request(msg.ListMaps())
            case fx.ListRuleSets():
                return await s.request(msg.ListRuleSets())
            case fx.CreateGame(settings):
                return await s.create(settings)
            case fx.JoinGame(game_id, name, group):
                return await s.join(game_id, name, group)
            case fx.WatchGame(game_id, follow):
                return await s.watch(game_id, follow)
            case fx.LeaveGame(game_id):
                return await s.leave(game_id)
            case fx.ResumeSeat(game_id, player, token, last_seq):
                return await s.resume(game_id, player, token, last_seq)
            case fx.IssueOrder(followed, order):
                return await s.issue(followed, order)
            case fx.IssueOrders(followed, orders):
                return await s.issue_batch(followed, orders)
            case fx.ListOrders(followed):
                return await s.list_orders(followed)
            case fx.WithdrawOrder(followed, index):
                return await s.withdraw(followed, index)
            case fx.ShiftOrder(followed, index, to):
                return await s.move(followed, index, to)
            case fx.Commit(followed):
                return await s.commit(followed)
            case fx.HandOver(followed, player):
                return await s.hand_over(followed, player)
            case fx.Chat(game_id, text, to, name):
                return await s.chat(game_id, text, to, name)
            case fx.Resign(followed):
                return await s.resign(followed)
            case fx.Rematch(followed):
                return await s.rematch(followed)
            case fx.AskStatistics(game_id):
                return await s.statistics(game_id)
            case fx.SignUp(name, password):
                return await s.sign_up(name, password)
            case fx.SignIn(name, password):
                return await s.sign_in(name, password)
            case fx.SignOut(everywhere):
                return await s.sign_out(everywhere)
            case fx.ChangePassword(password, new_password):
                return await s.request(accounts.ChangePassword(password=password, new_password=new_password))
            case fx.Said(message):
                return await s.request(message)
            case fx.ListSessions():
                return await s.request(accounts.ListSessions())
            case fx.EndSession(session):
                return await s.request(accounts.EndSession(session=session))
            case fx.MyGames():
                return await s.request(accounts.MyGames())
        raise TypeError(f"no way to send {request!r}")

    # ---- completion candidates ----------------------------------------------------------------------------------

    def setting(self) -> Setting:
        return self.state.setting()

    def phase(self) -> str | None:
        t = self.state.tracker
        return None if t is None or t.followed.game is None else t.followed.game.phase

    def game_ids(self) -> Sequence[str]:
        return [g.game_id for g in self.session.games]

    def map_names(self) -> Sequence[str]:
        return self.state.maps

    # ---- what the session tells -----------------------------------------------------------------------------

    def on_update(self, followed: Followed, entries: list[Any], update: msg.Update) -> None:
        self._effects(news.on_update(self.state, followed, entries, update))

    def on_notice(self, error: msg.Error) -> None:
        self._effects(news.on_notice(self.state, error))

    def on_listed(self, game: GameSummary) -> None:
        self._effects(news.on_listed(self.state, game))

    def on_lobby_chat(self, said: msg.LobbyChat) -> None:
        self._effects(news.on_lobby_chat(self.state, said))

    def on_game_notice(self, notice: Notice) -> None:
        self._effects(news.on_game_notice(self.state, notice))

    def on_quick_play(self, news_of: QuickPlayWaiting | QuickPlayFound) -> None:
        self._effects(people.on_quick_play(self.state, news_of))

    def on_seated(self, followed: Followed, previous: Followed | None) -> None:
        self._effects(news.on_seated(self.state, followed))

    def on_resumed(self, followed: Followed) -> None:
        self._effects(news.on_resumed(followed))

    def on_link(self, state: LinkState, detail: str) -> None:
        self._effects(news.on_link(self.state, state, detail))

    def on_signed_out(self) -> None:
        self._effects(account.on_signed_out(self.state))

    def on_session_problem(self, problem: str) -> None:
        self._effects(account.on_session_problem(problem))

    def on_shutdown(self, message: str) -> None:
        self._effects(news.on_shutdown(message))

    async def on_reconnected(self, resumed: bool) -> None:
        self._effects(news.on_reconnected(self.state))

    # ---- for scripts --------------------------------------------------------------------------------------------

    async def request(self, message: BaseModel) -> msg.ServerMessage:
        return await self.session.request(message)
