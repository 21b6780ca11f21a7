"""The text client: a prompt that reads commands, a status bar, and the game's news printed above the line being typed.

One game is on screen at a time (played or watched). Every command is one request whose answer is shown at once; what
the server says unasked (updates, a rematch seating us, a seat taken back) is printed as it comes, above the prompt,
without touching what the player is typing. The seat token is saved the moment the server hands it over, so a closed
terminal, a dropped link or a restarted server never costs the seat: the client resumes it with the last log number
it saw, and prints what it missed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict, deque
from collections.abc import Sequence

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app_or_none
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.patch_stdout import patch_stdout
from prompt_toolkit.shortcuts import print_formatted_text
from pydantic import BaseModel, TypeAdapter, ValidationError

from client import commands as cmd
from client import render
from client.completion import CommandCompleter
from client.connection import Backoff, Connection, ConnectionFailed, ConnectionLost, LinkState
from client.render import Fragments
from client.tokens import Seat, SeatStore
from client.tracker import Tracker
from shared.maps import bundled_map_names
from shared.protocol import messages as msg
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import GamePhase, GameSettings, GameSummary, PlayerName
from shared.rules.orders import AttackOrder, MoveOrder, Order, PlaceOrder, describe

EARLY_UPDATES_KEPT = 50
"""Updates for a game this client is about to follow, kept until it does (a join's update may beat its reply)."""


_NAME: TypeAdapter[str] = TypeAdapter(PlayerName)


def name_problem(name: str) -> str | None:
    """Why the server would refuse this player name, said before asking it."""
    try:
        _NAME.validate_python(name)
    except ValidationError:
        return "a name has 1 to 20 letters, digits, spaces, . ' - or _, and does not start or end with a space"
    return None


class ClientApp:
    def __init__(self, url: str, *, name: str | None = None, password: str | None = None, watch: str | None = None,
                 store: SeatStore | None = None, backoff: Backoff | None = None) -> None:
        self.url = url
        self.name = name
        self.watch_id = watch
        self.store = store or SeatStore()
        self.connection = Connection(url, password=password, on_message=self._on_message, on_link=self._on_link,
                                     on_reconnect=self._on_reconnect, backoff=backoff)
        self.tracker: Tracker | None = None
        self.games: list[GameSummary] = []
        self.transcript: list[str] = []
        self.prompts = 0
        """How many times the client has waited at its prompt: a script typing commands waits for the next one."""
        self.session: PromptSession[str] | None = None
        self._early: dict[str, deque[msg.Update]] = defaultdict(lambda: deque(maxlen=EARLY_UPDATES_KEPT))
        self._quit = False
        self._maps = bundled_map_names()
        self._background: set[asyncio.Task[None]] = set()
        self._resuming: str | None = None
        """A game whose seat is being resumed: its updates wait until the server has said we are back."""

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
        print_formatted_text(fragments, style=render.STYLE, end="")
        self._refresh()

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
        now = asyncio.get_running_loop().time()
        link = self.connection.state
        status = self.tracker.status(now) if self.tracker is not None else "lobby: games, create, join, watch"
        if link is not LinkState.CONNECTED:
            status = f"{link.value.upper()} | {status}"
        return FormattedText([("class:bottom-toolbar", f" {status} ")])

    async def run(self) -> int:
        """Connect, find our seat again or show the lobby, then read commands until quit or end of input."""
        try:
            await self.connection.open()
        except ConnectionFailed as exc:
            self.error(str(exc))
            return 1
        self.session = PromptSession(completer=CommandCompleter(self), complete_while_typing=False,
                                     bottom_toolbar=self._toolbar, refresh_interval=1.0, style=render.STYLE)
        try:
            with patch_stdout(raw=True):
                await self._start()
                await self._loop()
        finally:
            await self.connection.close()
        return 0

    async def _loop(self) -> None:
        assert self.session is not None
        while not self._quit:
            self.prompts += 1
            try:
                line = await self.session.prompt_async(self._prompt)
            except KeyboardInterrupt:
                continue
            except EOFError:
                break
            await self.execute(line)

    async def _ask_name(self) -> str | None:
        assert self.session is not None
        while True:
            self.prompts += 1
            try:
                typed = (await self.session.prompt_async("Your name: ")).strip()
            except (EOFError, KeyboardInterrupt):
                return None
            problem = name_problem(typed)
            if problem is None:
                return typed
            self.error(problem)

    async def _start(self) -> None:
        self.show(FormattedText([("class:title", "RISC"), ("", f" at {self.url}. Type help for the commands.\n")]))
        if self.watch_id is not None:
            await self._watch(self.watch_id)
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

    def territories(self) -> Sequence[str]:
        return self.tracker.territories() if self.tracker else []

    def own_territories(self) -> Sequence[str]:
        return self.tracker.own_territories() if self.tracker else []

    def attackable_from(self, source: str) -> Sequence[str]:
        return self.tracker.attackable_from(source) if self.tracker else []

    def game_ids(self) -> Sequence[str]:
        return [g.game_id for g in self.games]

    def map_names(self) -> Sequence[str]:
        return self._maps

    # ---- requests -----------------------------------------------------------------------------------------------

    async def _ask(self, message: BaseModel) -> msg.ServerMessage | None:
        """The server's answer, or None (having said why) when the link is down."""
        try:
            return await self.connection.request(message)
        except ConnectionLost as exc:
            state = self.connection.state
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

    async def execute(self, line: str) -> None:
        command = cmd.parse(line, cmd.Context(self.territories()))
        if isinstance(command, cmd.ParseError):
            self.error(str(command))
            return
        match command:
            case cmd.Empty():
                pass
            case cmd.Help(topic):
                self.show(cmd.help_text(topic))
            case cmd.Quit():
                self._do_quit()
            case cmd.Games():
                await self._list_games()
            case cmd.Create():
                await self._do_create(command)
            case cmd.Join(game_id, group):
                await self._join(game_id, group)
            case cmd.Watch(game_id):
                await self._watch(game_id)
            case cmd.Place(units, territory):
                await self._issue(PlaceOrder(territory, units))
            case cmd.Move(units, source, target):
                await self._issue(MoveOrder(units, source, target))
            case cmd.Attack(units, source, target):
                await self._issue(AttackOrder(units, source, target))
            case cmd.ListOrders():
                await self._do_orders()
            case cmd.Withdraw(number):
                await self._do_withdraw(number)
            case cmd.Done():
                await self._do_done()
            case cmd.Board() | cmd.Summary() | cmd.History():
                self._do_show(command)
            case cmd.Leave():
                await self._do_leave()
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
        reply = await self._ask(msg.ListGames())
        if isinstance(reply, msg.Games):
            self.games = reply.games
            self.show(render.games_table(reply.games))
        else:
            self._refused(reply)

    async def _do_create(self, command: cmd.Create) -> None:
        values: dict[str, object] = {"map": command.map, "choose_groups": command.choose_groups}
        for key in ("players", "initial_units", "neutral_units", "turn_seconds"):
            if getattr(command, key) is not None:
                values[key] = getattr(command, key)
        try:
            settings = GameSettings.model_validate(values)
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
            self.error(f"Those settings will not do: {problems}")
            return
        if self.tracker is not None and self.tracker.active:
            self.error(f"You are playing game {self.tracker.game_id}: play it out before starting another.")
            return
        reply = await self._ask(msg.CreateGame(settings=settings))
        if self._refused(reply) or not isinstance(reply, msg.GameCreated):
            return
        game = reply.game
        self.games = [*self.games, game]
        self.show(f"Created game {game.game_id}: {game.map_name}, {game.settings.players} players.", "class:ok")
        if game.settings.choose_groups:
            self.show(render.groups_list(game))
            return
        await self._join(game.game_id, None)

    async def _join(self, game_id: str, group: int | None) -> None:
        if not await self._switch_away(game_id):
            return
        if self.name is None:
            self.name = await self._ask_name()
            if self.name is None:
                return
        reply = await self._ask(msg.JoinGame(game_id=game_id, name=self.name, group=group))
        if isinstance(reply, msg.Error):
            self.error(f"Refused: {reply.message}")
            if reply.code is ErrorCode.BAD_GROUP:
                listed = await self._ask(msg.ListGames())
                if isinstance(listed, msg.Games):
                    self.games = listed.games
                summary = next((g for g in self.games if g.game_id == game_id), None)
                if summary is not None and summary.groups:
                    self.show(render.groups_list(summary))
            return
        if not isinstance(reply, msg.Joined):
            return
        self.store.save(self.url, reply.game_id, reply.player, reply.token)
        self.show(f"You sit in game {reply.game_id} as {reply.player}.", "class:ok")
        self._follow(Tracker(reply.game_id, reply.player, token=reply.token))

    async def _watch(self, game_id: str) -> None:
        if not await self._switch_away(game_id):
            return
        reply = await self._ask(msg.WatchGame(game_id=game_id))
        if self._refused(reply) or not isinstance(reply, msg.Watching):
            return
        self.show(f"Watching game {game_id}. (leave stops watching)", "class:ok")
        self._follow(Tracker(game_id, None))

    async def _switch_away(self, game_id: str) -> bool:
        """Before following another game: stop following the one on screen, unless a seat there still matters."""
        t = self.tracker
        if t is None or (t.game_id == game_id and t.player is None):
            return True
        if t.active:
            self.error(f"You are playing game {t.game_id}: play it out first (your seat there is kept).")
            return False
        if t.player is not None and t.game is not None and t.game.phase is GamePhase.LOBBY:
            self.error(f"You sit in game {t.game_id}, which has not started: leave it first.")
            return False
        await self._ask(msg.LeaveGame(game_id=t.game_id))
        self.tracker = None
        return True

    def _follow(self, tracker: Tracker) -> None:
        """Put a game on screen, and take in the updates about it that came before we knew we would follow it."""
        self.tracker = tracker
        now = asyncio.get_running_loop().time()
        for update in self._early.pop(tracker.game_id, ()):
            self.show(tracker.apply(update, now))
        self._refresh()

    async def _resume_saved(self) -> bool:
        """Back to the newest seat this user holds on this server, if its game is still on (or was rematched)."""
        seats = self.store.seats_for(self.url, self.name)
        if not seats:
            return False
        reply = await self._ask(msg.ListGames())
        if not isinstance(reply, msg.Games):
            return False
        self.games = reply.games
        by_id = {g.game_id: g for g in reply.games}
        for seat in seats:
            game = by_id.get(seat.game_id)
            rematch = game.rematch_game if game is not None and game.phase is GamePhase.FINISHED else None
            if rematch is not None and self.store.get(self.url, rematch) is None:
                # The server seated us in the rematch while we were away, with the same token (R27).
                self.store.save(self.url, rematch, seat.player, seat.token)
                seat = Seat(seat.server, rematch, seat.player, seat.token, seat.saved_at)
                game = by_id.get(rematch)
            if game is None or game.phase is GamePhase.FINISHED:
                self.store.forget(self.url, seat.game_id)
                continue
            if await self._resume(seat.game_id, seat.player, seat.token, None):
                return True
        return False

    async def _resume(self, game_id: str, player: str, token: str, last_seq: int | None) -> bool:
        self._resuming = game_id
        try:
            reply = await self._ask(msg.Resume(game_id=game_id, token=token, last_seq=last_seq))
        finally:
            self._resuming = None
        if not isinstance(reply, msg.Resumed):
            self._early.pop(game_id, None)
            if isinstance(reply, msg.Error):
                if reply.code in (ErrorCode.BAD_TOKEN, ErrorCode.NO_SUCH_GAME):
                    self.store.forget(self.url, game_id)
                self.error(f"Could not return to game {game_id}: {reply.message}")
            return False
        self.name = reply.player
        self.show(f"Back in game {game_id} as {reply.player}.", "class:ok")
        same = self.tracker is not None and self.tracker.game_id == game_id
        self._follow(self.tracker if same and self.tracker else Tracker(game_id, reply.player, token=token))
        return True

    # ---- game commands ------------------------------------------------------------------------------------------

    async def _issue(self, order: Order) -> None:
        t = self._game()
        if t is None:
            return
        reply = await self._ask(msg.IssueOrder(game_id=t.game_id, turn=t.turn, order=order))
        if self._refused(reply) or not isinstance(reply, msg.OrderAccepted):
            return
        t.orders = list(reply.orders)
        note = f"Order {reply.index + 1}: {describe(reply.order)}."
        if isinstance(order, PlaceOrder):
            note += f" {render.units(t.pool_left)} left to place."
        self.show(note, "class:ok")

    async def _do_orders(self) -> None:
        t = self._game()
        if t is None:
            return
        reply = await self._ask(msg.ListOrders(game_id=t.game_id))
        if self._refused(reply) or not isinstance(reply, msg.Orders):
            return
        t.orders = list(reply.orders)
        self.show(render.order_list(reply.orders, reply.committed))
        if t.phase is not None and t.phase.value == "placement" and not reply.committed:
            self.show(f"{render.units(t.pool_left)} left to place.", "class:hint")

    async def _do_withdraw(self, number: int) -> None:
        t = self._game()
        if t is None:
            return
        if number < 1:
            self.error("orders are numbered from 1: orders lists them")
            return
        taken = t.orders[number - 1] if number <= len(t.orders) else None
        reply = await self._ask(msg.WithdrawOrder(game_id=t.game_id, turn=t.turn, index=number - 1))
        if self._refused(reply) or not isinstance(reply, msg.OrderWithdrawn):
            return
        t.orders = list(reply.orders)
        what = f": {describe(taken)}" if taken is not None else ""
        self.show(f"Withdrew order {number}{what}.", "class:ok")
        self.show(render.order_list(reply.orders))

    async def _do_done(self) -> None:
        t = self._game()
        if t is None:
            return
        reply = await self._ask(msg.Commit(game_id=t.game_id, turn=t.turn))
        if self._refused(reply) or not isinstance(reply, msg.CommitAccepted):
            return
        waiting = [p for p in t.waiting_for() if p != t.player]
        stage = "placement" if reply.turn == 0 else f"turn {reply.turn}"
        tail = f" Waiting for {', '.join(waiting)}." if waiting and t.turn == reply.turn else ""
        self.show(f"Committed {stage}.{tail}", "class:ok")

    def _do_show(self, command: cmd.Board | cmd.Summary | cmd.History) -> None:
        t = self._game(seated=False)
        if t is None:
            return
        if isinstance(command, cmd.History):
            self.show(render.history_table(t.history, t.players(), t.palette()))
        elif t.view is None:
            self.show("The game has not started yet.", "class:muted")
        else:
            self.show(render.board(t.view, t.orders) if isinstance(command, cmd.Board) else render.summary(t.view))

    async def _do_leave(self) -> None:
        t = self._game(seated=False)
        if t is None:
            return
        reply = await self._ask(msg.LeaveGame(game_id=t.game_id))
        if self._refused(reply) or not isinstance(reply, msg.Left):
            return
        if t.player is not None and (t.game is None or t.game.phase is GamePhase.LOBBY or t.lost or t.finished):
            self.store.forget(self.url, t.game_id)
        self.tracker = None
        self.show(f"You left game {t.game_id}.", "class:ok")
        await self._list_games()

    async def _do_rematch(self) -> None:
        t = self._game()
        if t is None:
            return
        reply = await self._ask(msg.Rematch(game_id=t.game_id))
        if self._refused(reply) or not isinstance(reply, msg.RematchPending):
            return
        if reply.waiting_for:
            self.show(f"Rematch asked. Waiting for {', '.join(reply.waiting_for)} to ask too.", "class:ok")

    # ---- what the server says unasked ---------------------------------------------------------------------------

    def _on_message(self, message: msg.ServerMessage) -> None:
        if isinstance(message, msg.Update):
            t = self.tracker
            if t is not None and t.game_id == message.game_id and self._resuming != t.game_id:
                self.show(t.apply(message, asyncio.get_running_loop().time()))
            else:
                self._early[message.game_id].append(message)
        elif isinstance(message, msg.Resumed) and message.ref is None:
            self._seated_by_rematch(message)
        elif isinstance(message, msg.Error) and message.ref is None:
            self.error(message.message)
            if message.code is ErrorCode.NOT_SEATED and self.tracker is not None \
                    and self.tracker.game_id == message.game_id:
                self.tracker = None
        elif isinstance(message, msg.ShuttingDown):
            self.show(f"{message.message}; the client will reconnect when the server is back.", "class:hint")

    def _seated_by_rematch(self, message: msg.Resumed) -> None:
        """R27: everyone asked, and the server seated us in the new game with the same token."""
        old = self.tracker
        token = old.token if old is not None else None
        if token is None and old is not None:
            seat = self.store.get(self.url, old.game_id)
            token = seat.token if seat is not None else None
        if token is not None:
            self.store.save(self.url, message.game_id, message.player, token)
        if old is not None:
            self.store.forget(self.url, old.game_id)
            self._spawn_leave(old.game_id)
        self.show(f"The rematch begins: game {message.game_id}, you play as {message.player}.", "class:win")
        self._follow(Tracker(message.game_id, message.player, token=token))

    def _spawn_leave(self, game_id: str) -> None:
        async def leave() -> None:
            with contextlib.suppress(ConnectionLost):
                await self.connection.request(msg.LeaveGame(game_id=game_id))

        task = asyncio.get_running_loop().create_task(leave())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _on_link(self, state: LinkState, detail: str) -> None:
        if state is LinkState.RECONNECTING:
            self.show("Connection lost: reconnecting...", "class:error")
        elif state is LinkState.CLOSED:
            self.error(f"Disconnected: {detail}. Type quit.")
        self._refresh()

    async def _on_reconnect(self) -> None:
        t = self.tracker
        if t is None:
            self.show("Reconnected.", "class:ok")
            return
        if t.player is not None:
            token = t.token
            if token is None:
                seat = self.store.get(self.url, t.game_id)
                token = seat.token if seat is not None else None
            if token is None:
                self.error(f"Reconnected, but no seat token for game {t.game_id} is saved.")
                return
            await self._resume(t.game_id, t.player, token, t.seq)
        else:
            reply = await self._ask(msg.WatchGame(game_id=t.game_id, last_seq=t.seq))
            if not self._refused(reply):
                self.show(f"Reconnected: watching game {t.game_id} again.", "class:ok")
