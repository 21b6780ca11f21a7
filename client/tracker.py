"""What the terminal shows of the game on screen, update by update, through the game's rule set's presentation.

The session (client/session.py) keeps what the server said; this turns each update into the lines to print: the log
entries, the board when a new stage of play begins (a turn, a phase), what the player can do now, the note after a
defeat, and at the end the result, the game in figures (the server's statistics) and the rematch offer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from client import render
from client.followed import Followed
from client.render import Fragments
from shared.game.presentation import Context, Palette, Presentation, plural
from shared.protocol import wording
from shared.protocol.lobby import GameStatus
from shared.protocol.log import (
    OrdersRevealed,
    PlayerCommitted,
    PlayerResigned,
    RematchDeclined,
    Standings,
    TimeRanOut,
)
from shared.protocol.messages import Update
from shared.protocol.statistics import GameStatistics


@dataclass
class Tracker:
    followed: Followed
    history: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)
    _stage: Any = None
    _lost_told: bool = False
    _presence: dict[str, tuple[bool, bool]] = field(default_factory=dict)
    """Each other player's (connected, handed over) as last seen: a change is news."""
    last_report: list[Any] = field(default_factory=list)
    """The game's events of the last update that brought any (a turn's result): `report` shows them again."""
    _told: list[Any] = field(default_factory=list)
    """In a game played turn by turn, the game's events since the viewer's previous turn began (a spectator's:
    since the previous round began): `report` shows them again."""
    _others_acted: int = 0
    """In a game played turn by turn, how many updates told of other players' actions: a new stage of play even
    when whose turn it is looks the same (the others played between two updates)."""
    _starts: list[int] = field(default_factory=list)
    """Where in `_told` each turn of the viewer (a spectator: each round) began, the last two."""
    turns: dict[int, list[Any]] = field(default_factory=dict)
    """The game's events by the turn they were told in (`report TURN`), from the first this client was sent: from
    the game's start for a watcher, within the log the server keeps."""
    _telling: int = 0
    """The turn whose events the log tells now: the last turn a commit, a time limit or revealed orders named."""
    catching_up: bool = False
    """Set for a watcher who starts to follow a game: its first update brings the log from the game's start, which is
    summed up in a line rather than printed whole."""
    statistics: GameStatistics | None = None
    """The finished game's statistics, as the server worked them out (`history` shows them again)."""
    _gathered: list[Any] = field(default_factory=list)
    """Events of a run told together once it ends (`Presentation.gathers`), not yet told."""

    # ---- what the client knows ------------------------------------------------------------------------------------

    @property
    def game_id(self) -> str:
        return self.followed.game_id

    @property
    def player(self) -> str | None:
        return self.followed.player

    @property
    def watching(self) -> bool:
        return self.followed.player is None

    @property
    def presentation(self) -> Presentation | None:
        ruleset = self.followed.ruleset
        return None if ruleset is None else ruleset.presentation

    @property
    def view(self) -> Any:
        return self.followed.view

    @property
    def turn(self) -> int:
        return self.followed.turn

    @property
    def finished(self) -> bool:
        return self.followed.finished

    @property
    def lost(self) -> bool:
        return self.followed.lost

    @property
    def active(self) -> bool:
        return self.followed.active

    def palette(self) -> Palette:
        return render.palette_of(self.followed.game)

    def context(self) -> Context:
        f = self.followed
        return Context(f.game_map, f.view, f.player, tuple(f.orders))

    def territories(self) -> list[str]:
        game_map = self.followed.game_map
        return [] if game_map is None else list(game_map.names)

    # ---- updates ------------------------------------------------------------------------------------------------

    def apply(self, entries: list[Any], update: Update, latest: bool = True) -> Fragments:
        """What to print about one update the session took in. Not `latest`: the session has taken in a later one
        since (news held while a command was answered), so the game as it stands now is told with that one, not with
        entries it does not follow from."""
        f = self.followed
        palette = self.palette()
        presentation = self.presentation
        out: Fragments = []
        if update.snapshot and f.seq > 0 and self._stage is not None:
            out.append(("class:muted", f"(Caught up with game {f.game_id}.)\n"))
        self._take_turns(entries)
        if self.catching_up and f.started and not update.snapshot and entries:
            out += self._caught_up()
        else:
            told = self._gather(entries, latest)
            out += render.entries(told, presentation, palette, f.player, brief=True)
        self.catching_up = False
        own_events = [e for e in entries if not isinstance(e, BaseModel | dict)]
        if own_events:
            self.last_report = own_events
        self._told += own_events
        if (
            presentation is not None
            and f.game is not None
            and not f.game.simultaneous
            and any(presentation.actor(e) not in (None, f.player) for e in own_events)
        ):
            self._others_acted += 1
        out += self._comings_and_goings(palette)
        if any(isinstance(e, RematchDeclined) for e in entries):
            out += self._rematch_outlook()
        if not latest:
            return out
        game = f.game
        if game is None or game.status is GameStatus.LOBBY or f.view is None or presentation is None:
            if game is not None and game.status is GameStatus.LOBBY and game.free:
                out.append(
                    (
                        "class:muted",
                        f"Game {f.game_id}: waiting for {game.free} more player{'s' if game.free != 1 else ''}.\n",
                    )
                )
            return out
        self._record()
        stage = (presentation.stage_key(f.view), game.status, f.awaited, f.turn, self._others_acted)
        if stage != self._stage or update.snapshot:
            before, self._stage = self._stage, stage
            if not game.simultaneous and self._turn_began(before, stage):
                self._starts.append(len(self._told))
                if len(self._starts) > 2:  # what came before the viewer's previous turn is of no more use
                    first = self._starts[-2]
                    self._told, self._starts = self._told[first:], [n - first for n in self._starts[-2:]]
            if game.simultaneous and not update.snapshot and before is not None and before[1] == stage[1]:
                if (before[0], before[3]) != (stage[0], stage[3]):  # a new turn or phase, not a commit
                    out += self._new_stage(brief=True)
            elif update.snapshot or before is None or game.simultaneous or self._concerns_viewer(before, stage):
                out += self._new_stage()
            elif before[2] and not f.awaited and f.player is not None and not f.lost:
                out.append(("class:muted", f"Waiting for {', '.join(f.waiting_for()) or 'nobody'} to play.\n"))
        if f.player is not None and f.lost and not self._lost_told:
            self._lost_told = True
            if not f.finished:
                out.append(
                    (
                        "class:hint",
                        "You may keep watching the game to its end, or type leave to go back to the lobby.\n",
                    )
                )
        return out

    def _gather(self, entries: list[Any], latest: bool) -> list[Any]:
        """The entries to print now: events the presentation gathers (the others' armies placed one at a time) wait
        until something else is told, the game comes to the viewer, or it ends; then they are told together."""
        presentation, f = self.presentation, self.followed
        told: list[Any] = []
        for entry in entries:
            if presentation is not None and presentation.gathers(entry, f.player):
                self._gathered.append(entry)
                continue
            if not isinstance(entry, BaseModel | dict):
                told += self._gathered
                self._gathered = []
            told.append(entry)
        if latest and self._gathered and (f.awaited or f.finished):
            told += self._gathered
            self._gathered = []
        return told

    def _take_turns(self, entries: list[Any]) -> None:
        """Each turn's standings as the log tells them (where the rules let everyone know them), and each turn's
        events kept for `report TURN`."""
        for entry in entries:
            if isinstance(entry, Standings):
                self.history["end" if entry.final else str(entry.turn)] = dict(entry.players)
            elif isinstance(entry, PlayerCommitted | TimeRanOut | OrdersRevealed | PlayerResigned):
                self._telling = entry.turn
            elif not isinstance(entry, BaseModel | dict):
                self.turns.setdefault(self._telling, []).append(entry)

    def _caught_up(self) -> Fragments:
        """What a watcher who came late is told instead of the whole log: how much of the game is there to read."""
        told = sorted(t for t in self.turns if t > 0)
        f = self.followed
        if not told:
            return [("class:muted", f"(Game {f.game_id} is at turn {f.turn}.)\n")]
        span = f"turn {told[0]}" if len(told) == 1 else f"turns {told[0]} to {told[-1]}"
        standings = " history: each player's territories and units turn by turn;" if self.history else ""
        return [
            (
                "class:hint",
                f"Game {f.game_id} is at turn {f.turn}; what happened before you came is kept, "
                f"{span}:{standings} report TURN: a turn in full.\n",
            )
        ]

    def turn_report(self, turn: int) -> list[Any]:
        """The events told in one turn, as `report TURN` shows them."""
        return self.turns.get(turn, [])

    def on_screen_again(self) -> Fragments:
        """A game put back on screen (one name plays several): where it stands, and what the player can do now."""
        f = self.followed
        game, presentation = f.game, self.presentation
        if (
            game is None
            or game.status is GameStatus.LOBBY
            or f.view is None
            or presentation is None
            or f.game_map is None
        ):
            return []
        self._record()
        self._stage = (presentation.stage_key(f.view), game.status, f.awaited, f.turn, self._others_acted)
        return self._new_stage()

    def _comings_and_goings(self, palette: Palette) -> Fragments:
        """Who dropped and who came back since the last update, while the game is played."""
        game = self.followed.game
        if game is None:
            return []
        out: Fragments = []
        playing = game.status is GameStatus.PLAYING
        for seat in game.seats:
            now = (seat.connected, seat.handed_over)
            before = self._presence.get(seat.name)
            self._presence[seat.name] = now
            if before is None or before == now or seat.name == self.player or not playing or seat.eliminated:
                continue
            if before[1] or now[1]:
                continue  # the log's own entries say the computer took the seat, and that its player took it back
            elif before[0] and not now[0]:
                if not seat.awaited:
                    told = " dropped."
                elif game.settings.turn_seconds:
                    told = " dropped: the game waits for them until the time runs out."
                else:
                    told = (
                        f" dropped: the game waits for them (if they stay away, handover {seat.name} lets the "
                        "computer play for them)."
                    )
                out += [*palette.name(seat.name), ("class:hint", told + "\n")]
            elif now[0] and not before[0]:
                out += [*palette.name(seat.name), ("class:hint", " is back.\n")]
        return out

    def rematch_problem(self) -> str | None:
        """Why there can be no rematch any more (too few players left at the table for the rule set), or None."""
        f = self.followed
        game, ruleset = f.game, f.ruleset
        if game is None or ruleset is None or not game.rematch_declined:
            return None
        try:
            fewest, _ = ruleset.player_counts(ruleset.options(game.settings.options))
        except ValueError:
            return None
        left = [s.name for s in game.seats if s.name not in game.rematch_declined]
        if len(left) >= fewest:
            return None
        gone = ", ".join(game.rematch_declined)
        return (
            f"There will be no rematch: {gone} left the table, and a {game.ruleset_title or ruleset.title} game "
            f"needs at least {fewest} players."
        )

    def _rematch_outlook(self) -> Fragments:
        """After someone left a finished game: whether the others can still have their rematch, and what it waits
        for."""
        f = self.followed
        game = f.game
        if game is None or f.player is None or game.rematch_game is not None:
            return []
        problem = self.rematch_problem()
        if problem is not None:
            return [("class:hint", f"{problem} Type leave to go back to the lobby.\n")]
        left = [s.name for s in game.seats if s.name not in game.rematch_declined]
        waiting = [n for n in left if n not in game.rematch]
        if not game.rematch:
            return [
                (
                    "class:hint",
                    f"A rematch can still be had by {', '.join(left)}: type rematch to ask for it, or leave.\n",
                )
            ]
        if waiting:
            return [("class:hint", f"The rematch goes on without them: waiting for {', '.join(waiting)} to ask.\n")]
        return []

    def _turn_began(self, before: tuple[Any, ...] | None, now: tuple[Any, ...]) -> bool:
        """Whether, in a game played turn by turn, a turn of the viewer's (a spectator: a round) begins now."""
        f = self.followed
        if f.player is not None and not f.lost:
            return f.awaited and (before is None or not before[2] or before[3] != now[3] or before[4] != now[4])
        return before is None or bool(before[3] != now[3])

    def report(self) -> tuple[str, list[Any]]:
        """What `report` shows again, under a heading: a turn's result in a game whose players give their orders
        together; in a game played turn by turn, everything since the viewer's previous turn began (a spectator's:
        since the previous round began), every player's actions and the dice."""
        f = self.followed
        if f.game is None or f.game.simultaneous:
            return "", self.last_report
        playing = f.player is not None and not f.lost
        if playing and not f.awaited and self._starts:
            return "Since your last turn began:", self._told[self._starts[-1] :]
        if len(self._starts) > 1:
            since = self._starts[-2]
            return (
                "Since your previous turn began:" if playing else "Since the previous round began:",
                self._told[since:],
            )
        return "All this client has seen of the game:", self._told

    def _concerns_viewer(self, before: tuple[Any, ...], now: tuple[Any, ...]) -> bool:
        """In a game played turn by turn, whether a new stage of play is one to print the board for: the viewer's
        turn or a phase of it begins (or, for a spectator, a new round), or the game ends. Every other player's
        action changes the stage too (whose turn it is), but it is told by its own line in the log: a board after
        each army placed by anyone would bury the game under boards."""
        f = self.followed
        if before[1] != now[1]:
            return True  # the game's status: it has started or ended
        if f.player is not None and not f.lost:
            return f.awaited
        return bool(before[3] != now[3])

    def _new_stage(self, brief: bool = False) -> Fragments:
        """A new turn or phase, or the end: the board (`brief`: a new turn of a game whose players give their orders
        together, which shows where the player stands rather than the board), and what the player can do now."""
        f = self.followed
        presentation = self.presentation
        assert presentation is not None and f.game_map is not None
        if f.finished:
            return self.game_over()
        out: Fragments = list(
            presentation.standing(f.view, f.game_map, self.palette(), f.player)
            if brief
            else presentation.stage_board(f.view, f.game_map, self.palette(), f.player, f.orders)
        )
        if f.player is not None and not f.lost:
            out += presentation.hint(f.view, f.game_map, f.player, f.awaited)
            if not f.awaited and f.game is not None and not f.game.simultaneous:
                waiting = ", ".join(f.waiting_for()) or "nobody"
                out.append(("class:muted", f"Waiting for {waiting} to play.\n"))
        elif f.watching:
            out.append(
                (
                    "class:muted",
                    f"{f.game.phase if f.game else ''}: waiting for {', '.join(f.waiting_for()) or 'nobody'}.\n",
                )
            )
        return out

    def game_over(self) -> Fragments:
        f = self.followed
        presentation = self.presentation
        palette = self.palette()
        out: Fragments = []
        if presentation is not None and f.game_map is not None and f.view is not None:
            out += [*presentation.stage_board(f.view, f.game_map, palette, f.player, ()), ("", "\n")]
        game = f.game
        if game is not None:
            if game.winner is not None:
                if game.winner == f.player:
                    out.append(("class:win", f"You won game {f.game_id} in {plural(game.turn, 'turn')}!\n"))
                else:
                    out += [
                        *palette.name(game.winner),
                        ("class:win", f" won game {f.game_id} in {plural(game.turn, 'turn')}.\n"),
                    ]
            elif game.draw:
                out.append(("class:win", f"Game {f.game_id} ended in a draw after {plural(game.turn, 'turn')}.\n"))
        return out

    def the_end(self, statistics: GameStatistics | None, width: int | None = None) -> Fragments:
        """What follows the end's board: the game in figures as the server worked them out (or, without them, the
        standings this client saw turn by turn), and what a player may do now. `width`: the terminal's, which the
        table of figures fits."""
        f = self.followed
        self.statistics = statistics
        out = (
            self.figures(width)
            if statistics is not None
            else render.history_table(self.history, f.players(), self.palette())
        )
        if f.player is not None:
            out.append(("class:hint", "Type rematch for a new game with the same players, or leave.\n"))
        return out

    def figures(self, width: int | None = None) -> Fragments:
        """The finished game's figures, as the server worked them out (`history` shows them again)."""
        assert self.statistics is not None
        cards = self.presentation is not None and self.presentation.cards
        return render.statistics_table(self.statistics, self.palette(), cards, width)

    def _record(self) -> None:
        """Each turn's standings, as first seen (they change only when the turn resolves), and the final one."""
        f = self.followed
        presentation = self.presentation
        if presentation is None or f.view is None:
            return
        standings = presentation.standings(f.view)
        if not standings:
            return
        label = "end" if f.finished else str(f.turn)
        if label not in self.history or label == "end":
            self.history[label] = standings

    # ---- the status bar -----------------------------------------------------------------------------------------

    def status(self, now: float) -> str:
        return " | ".join(text for text, _ in self.status_parts(now))

    def status_parts(self, now: float) -> list[tuple[str, int]]:
        """The status bar's parts in the order shown, each with how much it matters (0 most): a narrow terminal
        drops the least important first."""
        f = self.followed
        game = f.game
        eyes = f" through {f.follows}'s eyes" if f.follows else ""
        where = f"{f.player} in {f.game_id}" if f.player is not None else f"watching {f.game_id}{eyes}"
        if game is None or game.status is GameStatus.LOBBY:
            seats = "" if game is None else f", {len(game.seats)}/{game.settings.players} seated"
            return [(f"{where}: waiting for players{seats}", 0)]
        if game.status is GameStatus.FINISHED:
            result = f"{game.winner} won" if game.winner else "a draw" if game.draw else "over"
            return [(f"{where}: over, {result} after turn {game.turn}", 0)]
        parts = [(f"{where}: turn {game.turn}, {game.phase}", 0)]
        if f.lost:
            parts.append(("you lost", 0))
        if f.deadline is not None:
            left = max(0, int(f.deadline - now + 0.999))
            mine = next((s for s in game.seats if s.name == f.player), None)
            bank = f", bank {wording.duration(mine.bank)}" if mine is not None and mine.bank is not None else ""
            parts.append((f"{wording.duration(left)} left{bank}", 0))
        presentation = self.presentation
        if presentation is not None and f.view is not None and f.player is not None and f.awaited:
            extra = presentation.status(f.view, f.player, f.orders, f.game_map)
            if extra:
                parts.append((extra, 1))
        if game.simultaneous:
            alive = [s for s in game.seats if not s.eliminated]
            done = [s.name for s in alive if s.committed]
            if f.committed:
                waiting = [s.name for s in alive if not s.committed]
                parts.append((f"committed, waiting for {', '.join(waiting)}" if waiting else "committed", 1))
            else:
                parts.append((f"{len(done)}/{len(alive)} committed", 2))
                if done:
                    parts.append((", ".join(done), 4))
        else:
            parts.append((f"to play: {', '.join(f.waiting_for()) or 'nobody'}", 1))
        return parts
