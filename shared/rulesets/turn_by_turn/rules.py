"""What a turn-by-turn rule set is, beside its own rules: who is awaited (the active player), no tally of orders
(each resolves at once), and a resolution that is its `Play` carrying the one action out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from shared.game.game import Game
from shared.game.random import GameRandom
from shared.game.ruleset import RuleSet, Status, Told
from shared.maps.model import GameMap
from shared.rulesets.turn_by_turn.board import FINISHED
from shared.rulesets.turn_by_turn.play import TurnPlay


class TurnByTurnRuleSet(RuleSet[Any, Any, Any, Any, Any, None]):
    simultaneous = False
    play_type: ClassVar[type[TurnPlay]]
    """Carries one action out (the rule set's own Play)."""

    def check_seats(self, game_map: GameMap, players: Sequence[str], options: Any) -> None:
        """Refuse a setup the rules cannot deal: names twice, too few or too many players, a map too small."""
        if len(set(players)) != len(players):
            raise ValueError("player names must be unique")
        low, high = self.player_counts(options)
        if not low <= len(players) <= high:
            raise ValueError(f"{self.title} is played by {low} to {high} players, not {len(players)}")
        problem = self.map_problem(game_map, options, len(players))
        if problem is not None:
            raise ValueError(problem)

    def status(self, game: Game[Any, Any]) -> Status:
        board = game.board
        finished = board.phase == FINISHED
        return Status(
            board.phase.value,
            board.turn,
            frozenset() if finished else frozenset({board.active}),
            board.eliminated,
            finished,
            board.winner,
        )

    def start_tally(self, game: Game[Any, Any], player: str) -> None:
        return None

    def account(self, game: Game[Any, Any], player: str, tally: None, order: Any) -> None:
        return None

    def resolve(
        self, game: Game[Any, Any], orders: Mapping[str, Sequence[Any]], rng: GameRandom
    ) -> tuple[Any, list[Told]]:
        play = self.play_type(game, rng)
        for player, batch in orders.items():
            for order in batch:
                play.act(player, order)
        return play.finish(), play.events

    def resign(self, game: Game[Any, Any], player: str, rng: GameRandom) -> tuple[Any, list[Told]]:
        """The rule set's Play lets the player go (what they held stays theirs, for the others to take)."""
        play = self.play_type(game, rng)
        play.resign(player)
        return play.finish(), play.events
