"""What the client knows of the game on screen, kept from the server's updates, and what each update means to show.

The server decides everything; this only remembers its latest word (the summary, this viewer's view, the last log
number seen, the deadline) plus what a player wants at hand: their orders, their placement pool, and each turn's
standings, so the end of a game can tell its story. `apply` turns an update into the lines to print: the log entries,
then the board when a new turn (or placement) begins, the choice after a defeat, the result and the rematch offer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from prompt_toolkit.formatted_text import FormattedText

from client import render
from client.render import Fragments
from shared.protocol.lobby import GamePhase, GameSummary
from shared.protocol.messages import Update
from shared.rules.events import PlayerEliminated
from shared.rules.orders import Order, PlaceOrder
from shared.rules.state import Phase
from shared.rules.view import GameView


@dataclass
class Tracker:
    game_id: str
    player: str | None
    """The seat this client holds, or None when it watches."""
    token: str | None = None
    seq: int = 0
    game: GameSummary | None = None
    view: GameView | None = None
    orders: list[Order] = field(default_factory=list)
    deadline: float | None = None
    """When the turn's time runs out, on the event loop's clock."""
    pool: int = 0
    """The placement pool in full; what is left is this minus what the placement orders use."""
    lost: bool = False
    history: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)

    # ---- what the client knows ----------------------------------------------------------------------------------

    @property
    def watching(self) -> bool:
        return self.player is None

    @property
    def phase(self) -> Phase | None:
        return None if self.view is None else self.view.phase

    @property
    def turn(self) -> int:
        return 0 if self.view is None else self.view.turn

    @property
    def finished(self) -> bool:
        return self.view is not None and self.view.phase is Phase.FINISHED

    @property
    def active(self) -> bool:
        """Holding a seat in a game still being played: leaving it is not a matter of one word."""
        return self.player is not None and not self.lost and not self.finished \
            and self.game is not None and self.game.phase is not GamePhase.LOBBY

    @property
    def pool_left(self) -> int:
        return self.pool - sum(o.units for o in self.orders if isinstance(o, PlaceOrder))

    @property
    def committed(self) -> bool:
        if self.view is None or self.player is None:
            return False
        return any(p.name == self.player and p.committed for p in self.view.players)

    def territories(self) -> list[str]:
        return [] if self.view is None else [t.name for t in self.view.territories]

    def own_territories(self) -> list[str]:
        if self.view is None or self.player is None:
            return []
        return [t.name for t in self.view.territories if t.owner == self.player]

    def attackable_from(self, source: str) -> list[str]:
        if self.view is None:
            return []
        by_name = {t.name: t for t in self.view.territories}
        here = by_name.get(source)
        if here is None:
            return []
        return [n for n in here.neighbours if by_name[n].owner != here.owner]

    def players(self) -> list[str]:
        if self.view is not None:
            return [p.name for p in self.view.players]
        return [] if self.game is None else [s.name for s in self.game.seats]

    def palette(self) -> render.Palette:
        return render.palette_of(self.view, self.game)

    def waiting_for(self) -> list[str]:
        if self.view is None:
            return []
        return [p.name for p in self.view.players if not p.committed and not p.eliminated]

    # ---- updates ------------------------------------------------------------------------------------------------

    def apply(self, update: Update, now: float) -> FormattedText:
        """Take in one update; returns what to print about it."""
        out: Fragments = []
        previous = self.view
        fresh = [entry.event for entry in update.events if entry.seq > self.seq]
        if update.snapshot and self.seq > 0:
            out.append(("class:muted", f"(Caught up with game {self.game_id}.)\n"))
        self.seq = max(self.seq, update.seq)
        self.game = update.game
        if update.you is not None:
            self.player = update.you
        self.view = update.view
        self.deadline = None if update.deadline_in is None else now + update.deadline_in
        out += render.events(fresh, self.palette(), self.player)

        view = self.view
        if view is None:
            if any(getattr(e, "kind", None) == "player_joined" for e in fresh) or previous is None:
                free = update.game.free
                if free:
                    out.append(("class:muted", f"Game {self.game_id}: waiting for {free} more "
                                               f"player{'s' if free != 1 else ''}.\n"))
            return FormattedText(out)

        self._record(view)
        if previous is None or (previous.phase, previous.turn) != (view.phase, view.turn) or update.snapshot:
            out += self._new_stage(view)
        if self.player is not None and not self.lost and any(
                isinstance(e, PlayerEliminated) and e.player == self.player for e in fresh):
            self.lost = True
            if not self.finished:
                out.append(("class:hint", "You may keep watching the game to its end, or type leave to go back to "
                                          "the lobby.\n"))
        elif self.player is not None and not self.lost and any(p.name == self.player and p.eliminated
                                                                for p in view.players):
            self.lost = True
        return FormattedText(out)

    def _new_stage(self, view: GameView) -> Fragments:
        """A new turn, the placement, or the end: the board, and what the player can do now."""
        self.orders = list(view.your_orders)
        out: Fragments = []
        if view.phase is Phase.PLACEMENT:
            self.pool = view.pool_left + sum(o.units for o in view.your_orders if isinstance(o, PlaceOrder))
            out += render.board(view)
            if self.player is not None and not self.committed:
                out += render.placement_hint(view, self.pool_left)
            elif self.watching:
                out.append(("class:muted", "The players are placing their units.\n"))
        elif view.phase is Phase.ORDERS:
            out += render.board(view)
            if self.player is not None and not self.lost and not self.committed and \
                    not any(p.name == self.player and p.eliminated for p in view.players):
                out += render.orders_hint(view)
        else:
            out += self.game_over()
        return out

    def game_over(self) -> Fragments:
        view = self.view
        assert view is not None
        palette = self.palette()
        out: Fragments = [*render.board(view), ("", "\n")]
        if view.winner is not None:
            if view.winner == self.player:
                out.append(("class:win", f"You won game {self.game_id} in {view.turn} turns!\n"))
            else:
                out += [*palette.name(view.winner), ("class:win", f" won game {self.game_id} "
                                                                  f"in {view.turn} turns.\n")]
        out += render.history_table(self.history, self.players(), palette)
        if self.player is not None:
            out.append(("class:hint", "Type rematch for a new game with the same players, or leave.\n"))
        return out

    def _record(self, view: GameView) -> None:
        """Each turn's standings, as first seen (they change only when the turn resolves), and the final one."""
        if view.phase is Phase.PLACEMENT:
            return
        label = "end" if view.phase is Phase.FINISHED else str(view.turn)
        if label not in self.history or label == "end":
            self.history[label] = {p.name: (p.territories, p.units) for p in view.players}

    # ---- the status bar -----------------------------------------------------------------------------------------

    def status(self, now: float) -> str:
        if self.view is None:
            seats = "" if self.game is None else f" {len(self.game.seats)}/{self.game.settings.players} seated"
            return f"game {self.game_id}: waiting for players{seats}"
        view = self.view
        who = "watching" if self.watching else self.player
        if view.phase is Phase.FINISHED:
            return f"game {self.game_id} | {who} | over: {view.winner or 'nobody'} won after turn {view.turn}"
        stage = "placement" if view.phase is Phase.PLACEMENT else f"turn {view.turn}"
        alive = [p for p in view.players if not p.eliminated]
        done = [p.name for p in alive if p.committed]
        parts = [f"game {self.game_id}", str(who), stage,
                 f"committed {len(done)}/{len(alive)}" + (f": {', '.join(done)}" if done else "")]
        if view.phase is Phase.PLACEMENT and self.player is not None and not self.committed:
            parts.append(f"{render.units(self.pool_left)} to place")
        if self.deadline is not None:
            left = max(0, int(self.deadline - now + 0.999))
            parts.append(f"{left // 60}:{left % 60:02d} left")
        if self.lost:
            parts.append("you lost")
        return " | ".join(parts)

