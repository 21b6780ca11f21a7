"""One action of the player whose turn it is, under way: working copies of what it changes, and the events it tells.

Each rule set's `Play` subclasses this one with its own actions and what they change; `finish` makes the new board.
What is the same in both is here: whose seat comes next, and when the turn number rises.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any, ClassVar

from shared.game.events import GameDrawn, turn_limit_reached
from shared.game.game import Game
from shared.game.random import GameRandom
from shared.game.ruleset import Told


class TurnPlay:
    finished: ClassVar[Enum]
    """The rule set's phase of a game that is over."""

    def __init__(self, game: Game[Any, Any], rng: GameRandom) -> None:
        board = game.board
        self.game_map = game.game_map
        self.options = game.options
        self.rng = rng
        self.board = board
        self.seats = self.seat_order(game)
        """The order turns go round in."""
        self.phase = board.phase
        self.turn: int = board.turn
        self.active: str = board.active
        self.owner: dict[str, str] = dict(board.owner)
        self.conquest = board.conquest
        self.eliminated: list[str] = list(board.eliminated)
        self.winner: str | None = board.winner
        self.events: list[Told] = []

    def seat_order(self, game: Game[Any, Any]) -> tuple[str, ...]:
        """The order turns go round in: the players as they sat down, unless the rules draw it."""
        return game.players

    def act(self, player: str, order: Any) -> None:
        """Carry out one action (checked already), and what follows from it by itself."""
        raise NotImplementedError

    def start_turn(self, player: str, turn: int) -> None:
        """`player`'s turn `turn` begins."""
        raise NotImplementedError

    def pass_turn(self, player: str) -> None:
        """`player`'s turn is over: the next player's begins, unless the round that ends was the turn limit's
        (`max_turns`): then the game is over, a draw."""
        following, turn = self.next_player(player)
        if turn <= self.options.max_turns:
            self.start_turn(following, turn)
            return
        self.phase, self.conquest = self.finished, None
        self.events.append(GameDrawn(self.turn, turn_limit_reached(self.turn)))

    def resign(self, player: str) -> None:
        """The player gives up: out from now on, and what follows by itself (the next player's turn, a win)."""
        raise NotImplementedError

    def finish(self) -> Any:
        """The board once the action and what followed are done."""
        raise NotImplementedError

    def own(self, player: str) -> list[str]:
        """The player's territories, in the map's order."""
        return [name for name in self.game_map.names if self.owner[name] == player]

    def next_seat(self, player: str, wanted: Callable[[str], bool]) -> str | None:
        """The first seat after `player` (cyclically, `player` last) for which `wanted(seat)` holds."""
        start = self.seats.index(player)
        for step in range(1, len(self.seats) + 1):
            seat = self.seats[(start + step) % len(self.seats)]
            if wanted(seat):
                return seat
        return None

    def next_player(self, player: str) -> tuple[str, int]:
        """Who plays after `player` (the next seat still in, the others' order unchanged), and on which turn: a turn
        is a round of the seats, so it rises when the seats wrap round."""
        following = self.next_seat(player, lambda p: p not in self.eliminated)
        assert following is not None, "someone is still in"
        turn = self.turn + 1 if self.seats.index(following) <= self.seats.index(player) else self.turn
        return following, turn
