"""What a client knows of one game it follows (plays or watches), from the server alone: the map (sent once), the
summary and the view (each sent whole once, then as patches; the view read through the game's rule set into its own
typed view), the log entries read into the framework's entries or the rule set's events, and the player's orders of
the turn, kept from the server's answers (an acceptance names only the new order). Plain state, no connection: the
session (client/session.py) takes in what the server sends, and every face on it reads this.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from shared.game.ruleset import AnyRuleSet
from shared.maps.model import GameMap
from shared.protocol import messages as msg
from shared.protocol.lobby import GameStatus, GameSummary
from shared.protocol.log import FRAMEWORK_ENTRY, FRAMEWORK_KINDS
from shared.protocol.patch import apply as apply_patch
from shared.protocol.patch import seats_keyed, seats_listed
from shared.rulesets import RULESETS, game_ruleset


def read_entry(event: dict[str, Any], ruleset: AnyRuleSet | None) -> Any:
    """A log entry as an object: one of the framework's, or the game's rule set's event (the dict itself when
    neither can read it, so that a newer server's entries are shown as unknown rather than stopping the client)."""
    try:
        if event.get("kind") in FRAMEWORK_KINDS:
            return FRAMEWORK_ENTRY.validate_python(event)
        if ruleset is not None:
            return ruleset.load_event(event)
    except ValidationError:
        pass
    return event


@dataclass
class Followed:
    """What the client knows of one game it follows (plays or watches)."""

    game_id: str
    player: str | None
    """The seat this client holds, or None when it watches."""
    token: str | None = None
    account: bool = False
    """The seat is the signed-in account's: its sessions open it, with no token (none is kept on disk)."""
    follows: str | None = None
    seq: int = 0
    game: GameSummary | None = None
    game_data: dict[str, Any] | None = None
    """The summary as the server's patches patch it (seats keyed by position): the base of the next `game_patch`."""
    game_map: GameMap | None = None
    view_data: dict[str, Any] | None = None
    view: Any = None
    orders: list[Any] = field(default_factory=list)
    """The player's orders issued this turn: each acceptance adds one, each withdrawal takes one, a new turn or a
    resolution empties the list, and a view that shows them (or a `list_orders` reply) says them all again."""
    deadline: float | None = None
    """When the turn's time runs out, on the event loop's clock."""
    _variant: tuple[Any, AnyRuleSet] | None = field(default=None, repr=False, compare=False)

    @property
    def ruleset(self) -> AnyRuleSet | None:
        """The rule set that plays the game: the variant its options choose (read once per game's settings)."""
        settings = self.game.settings if self.game is not None else None
        if settings is None or settings.ruleset not in RULESETS:
            return None
        if self._variant is None or self._variant[0] != settings:
            try:
                chosen = game_ruleset(settings.ruleset, settings.options)[0]
            except ValidationError:  # options this client's rules do not read: the rule set as registered
                chosen = RULESETS[settings.ruleset]
            self._variant = (settings, chosen)
        return self._variant[1]

    @property
    def watching(self) -> bool:
        return self.player is None

    @property
    def turn(self) -> int:
        return 0 if self.game is None else self.game.turn

    @property
    def finished(self) -> bool:
        return self.game is not None and self.game.status is GameStatus.FINISHED

    @property
    def started(self) -> bool:
        return self.game is not None and self.game.status is not GameStatus.LOBBY

    def seat(self, name: str | None = None) -> Any:
        wanted = name or self.player
        if self.game is None or wanted is None:
            return None
        return next((s for s in self.game.seats if s.name == wanted), None)

    @property
    def awaited(self) -> bool:
        seat = self.seat()
        return seat is not None and seat.awaited

    @property
    def committed(self) -> bool:
        seat = self.seat()
        return seat is not None and seat.committed

    @property
    def lost(self) -> bool:
        seat = self.seat()
        return seat is not None and seat.eliminated

    @property
    def active(self) -> bool:
        """Holding a seat in a game still being played: leaving it is not a matter of one word."""
        return self.player is not None and self.started and not self.finished and not self.lost

    def players(self) -> list[str]:
        return [] if self.game is None else [s.name for s in self.game.seats]

    def waiting_for(self) -> list[str]:
        return [] if self.game is None else [s.name for s in self.game.seats if s.awaited]

    def apply(self, update: msg.Update, now: float) -> list[Any]:
        """Take in one update; returns the log entries it brought that were not seen before, as objects."""
        fresh = [entry.event for entry in update.events if entry.seq > self.seq]
        self.seq = max(self.seq, update.seq)
        before = self.game
        self._take_summary(update)
        game = self.game
        if before is not None and game is not None and (before.step, before.turn) != (game.step, game.turn):
            self.orders = []  # the turn moved on: the orders issued were carried out or dropped
        if update.you is not None:
            self.player = update.you
        ruleset = self.ruleset
        if update.view is not None:
            self.view_data = update.view
        elif update.view_patch is not None and self.view_data is not None:
            self.view_data = apply_patch(self.view_data, update.view_patch)
        if game is not None and game.status is GameStatus.LOBBY:
            self.view_data = None
        if ruleset is not None and (update.view is not None or update.view_patch is not None):
            self.view = ruleset.load_view(self.view_data) if self.view_data is not None else None
            own = getattr(self.view, "your_orders", None)
            if own is not None:
                self.orders = list(own)
        elif self.view_data is None:
            self.view = None
        self.deadline = None if update.deadline_in is None else now + update.deadline_in
        return [read_entry(event, ruleset) for event in fresh]

    def _take_summary(self, update: msg.Update) -> None:
        """The summary whole (a new follower, a snapshot), or the kept one patched and read again."""
        if update.game is not None:
            self.game = update.game
            self.game_data = seats_keyed(update.game.model_dump(mode="json"))
        elif update.game_patch is not None and self.game_data is not None:
            self.game_data = apply_patch(self.game_data, update.game_patch)
            self.game = GameSummary.model_validate(seats_listed(self.game_data))

    def _load_order(self, order: dict[str, Any]) -> Any:
        ruleset = self.ruleset
        return ruleset.load_order(order) if ruleset is not None else order

    def load_orders(self, orders: list[dict[str, Any]]) -> list[Any]:
        """The whole list, as a `list_orders` reply gives it."""
        self.orders = [self._load_order(o) for o in orders]
        return self.orders

    def accepted(self, reply: msg.OrderAccepted) -> list[Any]:
        """An accepted order joins the list at its index (a turn-by-turn game's took effect at once: none). A reply
        read after the update that ended its turn (time ran out meanwhile) is about a list that is gone."""
        if reply.turn == self.turn and (self.game is None or self.game.simultaneous):
            self.orders[reply.index :] = [self._load_order(reply.order)]
        return self.orders

    def accepted_batch(self, reply: msg.OrdersAccepted) -> list[Any]:
        """Each accepted order of a batch joins the list at its index, as `accepted` takes one."""
        if reply.turn == self.turn and (self.game is None or self.game.simultaneous):
            for taken in reply.accepted:
                self.orders[taken.index :] = [self._load_order(taken.order)]
        return self.orders

    def withdrawn(self, reply: msg.OrderWithdrawn) -> list[Any]:
        if reply.turn == self.turn and 0 <= reply.index < len(self.orders):
            del self.orders[reply.index]
        return self.orders

    def moved(self, reply: msg.OrderMoved) -> list[Any]:
        """The order at `index` goes to `to`, the others keeping their order, as the server moved it."""
        if reply.turn == self.turn and 0 <= reply.index < len(self.orders) and 0 <= reply.to < len(self.orders):
            self.orders.insert(reply.to, self.orders.pop(reply.index))
        return self.orders
