"""Warzone (../shared/spec/warzone.md, W1-W16): the COMP 345 game on simultaneous secret turns.

Every player issues a whole turn in secret and commits; then the turn executes in the spec's order (execution.py).
Issuing is checked in checker.py, the battle is in battle.py, continents and reinforcements in continents.py, what
each viewer sees in view.py, how the text client shows it all in presentation.py, the computer players in bots/.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from pydantic import TypeAdapter

from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.random import GameRandom
from shared.game.ruleset import Legal, RuleSet, Status, Told
from shared.game.shares import even_shares
from shared.game.statistics import TurnFacts
from shared.maps.model import GameMap
from shared.rulesets.warzone import checker, statistics
from shared.rulesets.warzone.board import Phase, WarzoneBoard
from shared.rulesets.warzone.bots import STRATEGIES
from shared.rulesets.warzone.cards import Card, new_deck
from shared.rulesets.warzone.checker import Tally
from shared.rulesets.warzone.events import Event, GameWon, PlayerEliminated
from shared.rulesets.warzone.execution import resolve_turn
from shared.rulesets.warzone.options import MAX_PLAYERS, MIN_PLAYERS, WarzoneOptions
from shared.rulesets.warzone.orders import (
    AdvanceOrder,
    AirliftOrder,
    AnyOrder,
    BlockadeOrder,
    BombOrder,
    DeployOrder,
    NegotiateOrder,
    Order,
    ReinforceOrder,
)
from shared.rulesets.warzone.presentation import WarzonePresentation
from shared.rulesets.warzone.view import VIEW, WarzoneView, view, view_values

WarzoneGame = Game[WarzoneBoard, AnyOrder]


def deal(game_map: GameMap, players: Sequence[str], options: WarzoneOptions, rng: GameRandom) -> dict[str, str | None]:
    """W2: the territories, shuffled, dealt round-robin to the players in a shuffled order (so that who receives
    one more is left to chance too); with `neutral_remainder` the ones an even deal leaves over stay neutral."""
    names = list(game_map.names)
    rng.shuffle(names)
    seats = list(players)
    rng.shuffle(seats)
    dealt = len(names) - len(names) % len(seats) if options.neutral_remainder else len(names)
    owner: dict[str, str | None] = dict.fromkeys(game_map.names)
    for index, name in enumerate(names[:dealt]):
        owner[name] = seats[index % len(seats)]
    return owner


class WarzoneRuleSet(RuleSet[WarzoneOptions, WarzoneBoard, AnyOrder, Any, WarzoneView, Tally]):
    name = "warzone"
    title = "Warzone"
    blurb = "COMP 345 Warzone: secret simultaneous turns, deploy and advance, 60/70 battles, cards, continent bonuses"
    simultaneous = True
    options_type = WarzoneOptions
    default_strategy = "strategist"
    presentation_type = WarzonePresentation
    strategies = STRATEGIES

    def __init__(self) -> None:
        self.order_type = TypeAdapter[AnyOrder](cast(Any, Order))
        self.event_type = TypeAdapter[Any](cast(Any, Event))
        self.view_type = VIEW
        self.board_type = TypeAdapter(WarzoneBoard)

    # ---- creating ------------------------------------------------------------------------------------------------

    def player_counts(self, options: WarzoneOptions) -> tuple[int, int]:
        return MIN_PLAYERS, MAX_PLAYERS

    def map_problem(self, game_map: GameMap, options: WarzoneOptions, players: int) -> str | None:
        if len(game_map.names) < players:
            return (
                f"{game_map.name} has {len(game_map.names)} territories: too few to give each of {players} players one"
            )
        return None

    def setup(
        self,
        game_map: GameMap,
        players: Sequence[str],
        options: WarzoneOptions,
        rng: GameRandom,
        choices: Mapping[str, int],
    ) -> WarzoneBoard:
        if len(set(players)) != len(players):
            raise ValueError("player names must be unique")
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"Warzone is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}")
        problem = self.map_problem(game_map, options, len(players))
        if problem is not None:
            raise ValueError(problem)
        owner = deal(game_map, players, options, rng)
        deck = list(new_deck(rng))
        hands: dict[str, tuple[Card, ...]] = {}
        for player in players:  # W2: each draws `initial_cards` from the shuffled deck
            drawn = min(options.initial_cards, len(deck))
            hands[player], deck = tuple(deck[:drawn]), deck[drawn:]
        return WarzoneBoard(
            phase=Phase.ORDERS,
            turn=1,
            owner=owner,
            units=dict.fromkeys(game_map.names, 0),
            pools=dict.fromkeys(players, options.initial_units),
            hands=hands,
            deck=tuple(deck),
        )

    # ---- where it stands -------------------------------------------------------------------------------------------

    def status(self, game: WarzoneGame) -> Status:
        board = game.board
        finished = board.phase is Phase.FINISHED
        acting = frozenset() if finished else frozenset(board.alive(game.players))
        return Status(board.phase.value, board.turn, acting, board.eliminated, finished, board.winner)

    # ---- issuing -------------------------------------------------------------------------------------------------

    def start_tally(self, game: WarzoneGame, player: str) -> Tally:
        return checker.start_tally(game.board, player)

    def check_order(self, game: WarzoneGame, player: str, tally: Tally, order: AnyOrder) -> RuleError | None:
        return checker.check(game, player, tally, order)

    def account(self, game: WarzoneGame, player: str, tally: Tally, order: AnyOrder) -> Tally:
        return checker.account(game.board, tally, order)

    resource_words = {"pool_left": "units to deploy"}  # noqa: RUF012 (read only)

    def left(self, game: WarzoneGame, player: str, tally: Tally) -> dict[str, int] | None:
        """W4: the pool still to deploy (a reinforcement card adds to it)."""
        return {"pool_left": tally.pool_left} if game.board.phase is Phase.ORDERS else None

    def check_commit(self, game: WarzoneGame, player: str, tally: Tally) -> RuleError | None:
        return checker.check_commit(tally)

    def timeout_orders(self, game: WarzoneGame, player: str, tally: Tally) -> list[AnyOrder]:
        """What is left of the pool goes round the player's territories, one share each, and nothing else."""
        if tally.pool_left <= 0:
            return []
        own = game.board.territories_of(player)
        if not own:
            return []
        return [DeployOrder(name, units) for name, units in even_shares(tally.pool_left, own)]

    # ---- resolving -------------------------------------------------------------------------------------------------

    def resolve(
        self, game: WarzoneGame, orders: Mapping[str, Sequence[AnyOrder]], rng: GameRandom
    ) -> tuple[WarzoneBoard, list[Told]]:
        if game.board.phase is Phase.FINISHED:
            return game.board, []
        return resolve_turn(game, orders, rng)

    # ---- telling -------------------------------------------------------------------------------------------------

    def holdings(self, game: WarzoneGame) -> Mapping[str, tuple[str | None, int]]:
        return statistics.holdings(game)

    def turn_facts(self, events: Sequence[Any]) -> TurnFacts:
        return statistics.turn_facts(events)

    def resign(self, game: WarzoneGame, player: str, rng: GameRandom) -> tuple[WarzoneBoard, list[Told]]:
        """A player gives up: their territories go to the neutral owner with their units (W12, as a blockade's do),
        their cards back to the deck (W14, as an elimination's), their pool is lost. The last player left wins."""
        board = game.board
        returned = board.hands.get(player, ())
        still = [p for p in board.alive(game.players) if p != player]
        events: list[Told] = [PlayerEliminated(player, len(returned))]
        changed = board.evolve(
            owner={t: None if held == player else held for t, held in board.owner.items()},
            hands={**board.hands, player: ()},
            deck=(*board.deck, *returned),
            pools={**board.pools, player: 0},
            eliminated=(*board.eliminated, player),
        )
        if len(still) == 1:
            events.append(GameWon(still[0], board.turn, board.history))
            return changed.evolve(phase=Phase.FINISHED, winner=still[0]), events
        return changed, events

    def view(self, game: WarzoneGame, viewer: str | None) -> WarzoneView:
        return view(game, viewer)

    def view_values(self, game: WarzoneGame, viewer: str | None) -> dict[str, Any]:
        return view_values(game, viewer)

    def legal_orders(self, game: WarzoneGame, player: str, counted: Tally) -> list[Legal[AnyOrder]]:
        """Every rule's order the player could issue now, each with its units at the most. The cheater's order is
        left out: it is no order of the rules, and only the cheater strategy issues it."""
        board, game_map = game.board, game.game_map
        own = [t for t in game_map.names if board.owner[t] == player]
        candidates: list[tuple[AnyOrder, str | None]] = []
        if counted.pool_left > 0:
            candidates += [(DeployOrder(t, counted.pool_left), "units") for t in own]
        for source in own:
            left = checker.units_left(board, counted, source)
            if left > 0:
                candidates += [(AdvanceOrder(left, source, t), "units") for t in game_map.neighbours_in_order(source)]
                if counted.cards.get(Card.AIRLIFT, 0) > 0:
                    candidates += [(AirliftOrder(left, source, t), "units") for t in own if t != source]
        if counted.cards.get(Card.BOMB, 0) > 0:
            candidates += [(BombOrder(t), None) for t in game_map.names if board.owner[t] != player]
        if counted.cards.get(Card.BLOCKADE, 0) > 0:
            candidates += [(BlockadeOrder(t), None) for t in own]
        if counted.cards.get(Card.DIPLOMACY, 0) > 0:
            candidates += [(NegotiateOrder(p), None) for p in game.players if p != player]
        if counted.cards.get(Card.REINFORCEMENT, 0) > 0:
            candidates.append((ReinforceOrder(), None))
        return [
            Legal(order, field) for order, field in candidates if checker.check(game, player, counted, order) is None
        ]
