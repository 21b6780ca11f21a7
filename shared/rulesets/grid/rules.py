"""The VG101 grid game (../shared/spec/classic.md G1-G6): 3 to 5 players on a generated 5 x 5 board, one player at
a time, each action resolved at once with fresh dice (GameRandom(seed, step)).

Players and letters: the game's players are named as they join; the grid's letters follow the seats, in the order
they joined: the first is A, the second B, and so on. Turns go A, B, C, ... as in the seed, and the board shows the
letters with a legend of names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from pydantic import TypeAdapter

from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.random import GameRandom
from shared.game.ruleset import Legal
from shared.game.statistics import TurnFacts
from shared.maps.model import GameMap
from shared.rulesets.grid import checker, statistics
from shared.rulesets.grid.board import GridBoard, Phase
from shared.rulesets.grid.bots import STRATEGIES
from shared.rulesets.grid.cells import make_grid
from shared.rulesets.grid.dice import most_attacking
from shared.rulesets.grid.events import Event
from shared.rulesets.grid.options import FEWEST, MOST, GridOptions
from shared.rulesets.grid.orders import Attack, Deploy, End, GridOrder, Move, MoveIn, Order
from shared.rulesets.grid.presentation import GridPresentation
from shared.rulesets.grid.resolve import Play
from shared.rulesets.grid.view import VIEW, GridView, view
from shared.rulesets.turn_by_turn.rules import TurnByTurnRuleSet

GridGame = Game[GridBoard, GridOrder]


def deal_sizes(players: int, cells: int) -> list[int]:
    """G2: 5 each for 5 players; 6, 6, 6, 7 for 4; 8, 8, 9 for 3: the cells left over go to the last seats, who
    move last."""
    share, extra = divmod(cells, players)
    return [share + (i >= players - extra) for i in range(players)]


class GridRuleSet(TurnByTurnRuleSet):
    name = "grid"
    title = "Grid Risk (VG101)"
    blurb = "the VG101 grid game: 3 to 5 players on a 5 x 5 board, one at a time, ties lose for the attacker"
    own_map = True
    options_type = GridOptions
    default_strategy = "strategist"
    play_type = Play
    presentation_type = GridPresentation
    strategies = STRATEGIES

    def __init__(self) -> None:
        self.order_type = TypeAdapter[GridOrder](cast(Any, Order))
        self.event_type = TypeAdapter[Any](cast(Any, Event))
        self.view_type = VIEW
        self.board_type = TypeAdapter(GridBoard)

    def player_counts(self, options: GridOptions) -> tuple[int, int]:
        return FEWEST, MOST

    def make_map(self, options: GridOptions) -> GameMap:
        return make_grid()

    def map_problem(self, game_map: GameMap, options: GridOptions, players: int) -> str | None:
        share = -(-len(game_map.names) // players)
        if share > options.troops:
            return f"each player deploys {options.troops} troops, fewer than the {share} territories some are dealt"
        return None

    def setup(
        self,
        game_map: GameMap,
        players: Sequence[str],
        options: GridOptions,
        rng: GameRandom,
        choices: Mapping[str, int],
    ) -> GridBoard:
        """G2: the cells shuffled (Python's shuffle is Fisher-Yates, drawn from the game's generator) and dealt in
        runs in seat order; one troop on each; then deployment starts with A."""
        self.check_seats(game_map, players, options)
        cells = list(game_map.names)
        rng.shuffle(cells)
        owner: dict[str, str] = {}
        start = 0
        for player, size in zip(players, deal_sizes(len(players), len(cells)), strict=True):
            for name in cells[start : start + size]:
                owner[name] = player
            start += size
        owner = {name: owner[name] for name in game_map.names}
        deployed = {p: sum(1 for held in owner.values() if held == p) for p in players}
        board = GridBoard(
            phase=Phase.DEPLOYMENT,
            turn=0,
            active=players[0],
            owner=owner,
            troops=dict.fromkeys(game_map.names, 1),
            deployed=deployed,
        )
        if deployed[players[0]] < options.troops:
            return board
        play = Play(Game(self.name, game_map, tuple(players), options, board), rng)
        play.next_deployer(players[-1])
        return play.finish()

    def check_order(self, game: GridGame, player: str, tally: None, order: GridOrder) -> RuleError | None:
        return checker.check(game, player, order)

    def timeout_orders(self, game: GridGame, player: str, tally: None) -> list[GridOrder]:
        """A player whose time ran out: troops go on their weakest territory next to an enemy (deployment and new
        troops alike), no attack, a pending move-in moves the least, no move."""
        board, game_map = game.board, game.game_map
        if board.phase in (Phase.DEPLOYMENT, Phase.NEW_TROOPS):
            own = [n for n in game_map.names if board.owner[n] == player]
            fronts = [n for n in own if any(board.owner[m] != player for m in game_map.neighbours(n))] or own
            return [Deploy(min(fronts, key=lambda n: board.troops[n]))]
        if board.phase is Phase.MOVE_IN:
            assert board.conquest is not None
            return [MoveIn(board.conquest.least)]
        if board.phase is Phase.ATTACK:
            return [End()]
        return []

    def holdings(self, game: GridGame) -> Mapping[str, tuple[str | None, int]]:
        return statistics.holdings(game)

    def turn_facts(self, events: Sequence[Any]) -> TurnFacts:
        return statistics.turn_facts(events)

    def view(self, game: GridGame, viewer: str | None) -> GridView:
        return view(game, viewer)

    def legal_orders(self, game: GridGame, player: str, tally: None) -> list[Legal[GridOrder]]:
        return legal_orders(game, player)


def legal_orders(game: GridGame, player: str) -> list[Legal[GridOrder]]:
    board, game_map = game.board, game.game_map
    own = [n for n in game_map.names if board.owner[n] == player]
    legal: list[Legal[GridOrder]] = []
    if board.phase in (Phase.DEPLOYMENT, Phase.NEW_TROOPS):
        legal += [Legal(Deploy(n)) for n in own]
    elif board.phase is Phase.MOVE_IN:
        assert board.conquest is not None
        legal.append(Legal(MoveIn(board.conquest.most), "troops", board.conquest.least))
    elif board.phase is Phase.ATTACK:
        for source in own:
            troops = board.troops[source]
            if troops < 2:
                continue
            legal += [
                Legal(Attack(source, target, most_attacking(troops)), "troops")
                for target in game_map.neighbours_in_order(source)
                if board.owner[target] != player
            ]
        for source in own:
            if board.troops[source] >= 2:
                joined = checker.reach(game_map, board.owner, source)
                legal += [
                    Legal(Move(source, target, board.troops[source] - 1), "troops")
                    for target in game_map.names
                    if target in joined and target != source
                ]
        legal.append(Legal(End()))
    return legal
