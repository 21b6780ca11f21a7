"""RISC (../shared/spec/risc.md and risc-evolutions.md): secret placement, simultaneous turns, d20 combat, +1 per
territory; with the `evolution` option 2, unit levels, food and technology; with 3, fog of war, spies and cloaking.

`RiscRuleSet` is the registry's "risc" and plays Evolution 1, exactly as before the evolutions existed (the same board
fields, events, orders and dice), so stored games replay unchanged. Each evolution is a variant of it, a subclass
(evo_rules.py) that says only what it changes: `variant(options)` picks one by the `evolution` option, once, where a
game is made or read. A fourth evolution is one more subclass.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Annotated, Any, ClassVar, cast

from pydantic import Field, TypeAdapter

from shared.game.errors import RuleError
from shared.game.events import turn_limit_reached
from shared.game.game import Game
from shared.game.random import GameRandom
from shared.game.ruleset import AnyRuleSet, Legal, RuleSet, Status, Told
from shared.game.shares import even_shares
from shared.game.statistics import TurnFacts
from shared.maps.groups import neutral_territories, starting_groups
from shared.maps.model import GameMap
from shared.rulesets.risc import checker, statistics
from shared.rulesets.risc.board import Owner, Phase, RiscBoard
from shared.rulesets.risc.bots import STRATEGIES
from shared.rulesets.risc.checker import Code, Tally
from shared.rulesets.risc.combat import fight
from shared.rulesets.risc.events import (
    Combat,
    GameDrawn,
    GameWon,
    PlayerEliminated,
    TurnStarted,
    UnitsMoved,
    UnitsPlaced,
    UnitsReceived,
)
from shared.rulesets.risc.evo_checker import EvoCode, EvoTally
from shared.rulesets.risc.evo_events import AllEvents
from shared.rulesets.risc.evo_orders import AllOrders
from shared.rulesets.risc.evo_orders import AnyOrder as EveryOrder
from shared.rulesets.risc.evo_view import EvoView
from shared.rulesets.risc.options import RiscOptions
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, PlaceOrder
from shared.rulesets.risc.presentation import RiscPresentation
from shared.rulesets.risc.view import RiscView, standings, view, view_values

UNITS_PER_GROUP_TERRITORY = 10
"""Default starting pool per territory of a group: the seed's example has 30 units on 3 territories."""

AnyOrder = EveryOrder
RiscGame = Game[RiscBoard, AnyOrder]
AnyView = RiscView | EvoView
AnyTally = Tally | EvoTally

EVOLUTION_1_ORDERS = (PlaceOrder, MoveOrder, AttackOrder)
"""As a tuple: isinstance checks a tuple faster than a union (every order issued is checked against it)."""

VIEWS: TypeAdapter[AnyView] = TypeAdapter(cast(Any, Annotated[RiscView | EvoView, Field(discriminator="kind")]))
"""Evolution 1's view and the evolutions' view, told apart by `kind`."""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def end_of_turn(
    game: RiscGame, owner: Mapping[str, Owner], newly_out: Sequence[str], events: list[Told]
) -> dict[str, Any]:
    """R25-R26: players with nothing left are out; one owner of everything wins; else, once the turn limit's turn
    is over, the game is a draw; else the next turn begins. What it changes of the board, as `evolve`'s arguments;
    the events it tells are added to `events`. Every evolution ends its turns so."""
    board = game.board
    events.extend(PlayerEliminated(p) for p in newly_out)
    ending: dict[str, Any] = {"eliminated": board.eliminated + tuple(newly_out)}
    holders = set(owner.values())
    only_holder = holders.pop() if len(holders) == 1 else None
    if only_holder is not None:
        events.append(GameWon(only_holder))
        return {**ending, "phase": Phase.FINISHED, "winner": only_holder}
    if board.turn >= game.options.max_turns:
        events.append(GameDrawn(board.turn, turn_limit_reached(board.turn)))
        return {**ending, "phase": Phase.FINISHED}
    events.append(TurnStarted(board.turn + 1))
    return {**ending, "phase": Phase.ORDERS, "turn": board.turn + 1}


class RiscRuleSet(RuleSet[RiscOptions, RiscBoard, AnyOrder, Any, AnyView, AnyTally]):
    name = "risc"
    title = "RISC"
    blurb = "simultaneous secret turns, moves then attacks, d20 combat, +1 unit per territory each turn"
    simultaneous = True
    options_type = RiscOptions
    default_strategy = "strategist"
    plain_events = True
    presentation_type = RiscPresentation
    strategies = STRATEGIES
    default_map = "seed"
    evolution: ClassVar[int] = 1
    evolutions: ClassVar[dict[int, type[RiscRuleSet]]] = {}
    """Each evolution's rule set, by number: a subclass names its own `evolution` and is found here."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        RiscRuleSet.evolutions[cls.evolution] = cls

    def __init__(self) -> None:
        self.order_type = TypeAdapter[AnyOrder](cast(Any, AllOrders))
        self.event_type = TypeAdapter[Any](cast(Any, AllEvents))
        self.view_type = VIEWS
        self.board_type = TypeAdapter(RiscBoard)

    def variants(self) -> list[AnyRuleSet]:
        chosen = [evolution for _, evolution in sorted(self.evolutions.items())]
        return [self if type(self) is evolution else _made(evolution) for evolution in chosen]

    def variant(self, options: RiscOptions) -> RiscRuleSet:
        """The evolution the options choose (`evolution`): this rule set for its own, else that evolution's."""
        wanted = self.evolutions[options.evolution]
        return self if type(self) is wanted else _made(wanted)

    # ---- creating ------------------------------------------------------------------------------------------------

    def player_counts(self, options: RiscOptions) -> tuple[int, int]:
        return 2, options.max_players

    def map_problem(self, game_map: GameMap, options: RiscOptions, players: int) -> str | None:
        try:
            starting_groups(game_map, players)
        except ValueError as exc:
            return str(exc)
        return None

    def seat_choices(self, game_map: GameMap, options: RiscOptions, players: int) -> list[list[str]] | None:
        if not options.choose_groups:
            return None
        return [list(g) for g in starting_groups(game_map, players)]

    def setup(
        self,
        game_map: GameMap,
        players: Sequence[str],
        options: RiscOptions,
        rng: GameRandom,
        choices: Mapping[str, int],
    ) -> RiscBoard:
        if len(set(players)) != len(players):
            raise ValueError("player names must be unique")
        groups = starting_groups(game_map, len(players))
        order = list(range(len(groups)))
        if not options.choose_groups:
            rng.shuffle(order)
        taken = set(choices.values())
        free = [g for g in order if g not in taken]
        assignment = {p: choices[p] if p in choices else free.pop(0) for p in players}
        owner: dict[str, str | None] = {name: None for name in game_map.names}
        for player, index in assignment.items():
            for name in groups[index]:
                owner[name] = player
        neutral = set(neutral_territories(game_map, groups))
        units = {name: options.neutral_units if name in neutral else 0 for name in game_map.names}
        pool = options.initial_units
        if pool is None:
            pool = UNITS_PER_GROUP_TERRITORY * len(groups[0])
        return RiscBoard(phase=Phase.PLACEMENT, turn=0, owner=owner, units=units, pools={p: pool for p in players})

    # ---- where it stands -------------------------------------------------------------------------------------------

    def status(self, game: RiscGame) -> Status:
        board = game.board
        finished = board.phase is Phase.FINISHED
        acting = frozenset() if finished else frozenset(p for p in game.players if p not in board.eliminated)
        return Status(board.phase.value, board.turn, acting, board.eliminated, finished, board.winner)

    # ---- issuing -------------------------------------------------------------------------------------------------

    def start_tally(self, game: RiscGame, player: str) -> AnyTally:
        return checker.start_tally(game, player)  # type: ignore[arg-type]

    def check_order(self, game: RiscGame, player: str, tally: AnyTally, order: AnyOrder) -> RuleError | None:
        if not isinstance(order, EVOLUTION_1_ORDERS):
            return RuleError(
                EvoCode.NOT_IN_THIS_EVOLUTION,
                f"{getattr(order, 'kind', order)} orders are part of RISC "
                "Evolutions 2 and 3; this game plays Evolution 1",
            )
        return checker.check(game, player, tally, order)  # type: ignore[arg-type]

    def account(self, game: RiscGame, player: str, tally: AnyTally, order: AnyOrder) -> AnyTally:
        return checker.account(game.board, tally, order)  # type: ignore[arg-type]

    resource_words = {"pool_left": "units to place"}  # noqa: RUF012 (read only)

    def left(self, game: RiscGame, player: str, tally: AnyTally) -> dict[str, int] | None:
        """R9: the units still to place, during placement."""
        return {"pool_left": tally.pool_left} if game.board.phase is Phase.PLACEMENT else None

    def check_commit(self, game: RiscGame, player: str, tally: AnyTally) -> RuleError | None:
        if game.board.phase is Phase.PLACEMENT and tally.pool_left > 0:
            return RuleError(
                Code.UNITS_NOT_PLACED,
                f"{_plural(tally.pool_left, 'unit')} still to place: all must be placed before the first turn",
            )
        return None

    def timeout_orders(self, game: RiscGame, player: str, tally: AnyTally) -> list[AnyOrder]:
        """In placement, units the player left in the pool go round their territories one by one (D3)."""
        if game.board.phase is not Phase.PLACEMENT or tally.pool_left <= 0:
            return []
        own = game.board.territories_of(player)
        own = [t for t in game.game_map.names if t in set(own)]
        if not own:
            return []
        return [PlaceOrder(name, units) for name, units in even_shares(tally.pool_left, own)]

    # ---- resolving -------------------------------------------------------------------------------------------------

    def resolve(
        self, game: RiscGame, orders: Mapping[str, Sequence[AnyOrder]], rng: GameRandom
    ) -> tuple[RiscBoard, list[Told]]:
        if game.board.phase is Phase.PLACEMENT:
            return self._resolve_placement(game, orders)
        if game.board.phase is Phase.ORDERS:
            return self._resolve_turn(game, orders, rng)
        return game.board, []

    def _resolve_placement(
        self, game: RiscGame, orders: Mapping[str, Sequence[AnyOrder]]
    ) -> tuple[RiscBoard, list[Told]]:
        units = dict(game.board.units)
        events: list[Told] = []
        for player in game.players:
            for order in orders.get(player, ()):
                if isinstance(order, PlaceOrder):
                    units[order.territory] += order.units
                    events.append(UnitsPlaced(player, order.territory, order.units))
        events.append(TurnStarted(1))
        return game.board.evolve(phase=Phase.ORDERS, turn=1, units=units, pools={}), events

    def _resolve_turn(
        self, game: RiscGame, orders: Mapping[str, Sequence[AnyOrder]], rng: GameRandom
    ) -> tuple[RiscBoard, list[Told]]:
        board, game_map = game.board, game.game_map
        units = dict(board.units)
        owner = dict(board.owner)
        events: list[Told] = []
        alive = [p for p in game.players if p not in board.eliminated]

        # R17: every move first, each player's in the order issued.
        for player in alive:
            for order in orders.get(player, ()):
                if isinstance(order, MoveOrder):
                    units[order.source] -= order.units
                    units[order.target] += order.units
                    events.append(UnitsMoved(player, order.units, order.source, order.target))

        # R18, R21: every attacking unit leaves at once; one player's units against one target form one force.
        forces: dict[str, dict[str, int]] = defaultdict(dict)
        sources: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
        for player in alive:
            for order in orders.get(player, ()):
                if isinstance(order, AttackOrder):
                    units[order.source] -= order.units
                    force = forces[order.target]
                    force[player] = force.get(player, 0) + order.units
                    came_from = sources[(order.target, player)]
                    came_from[order.source] = came_from.get(order.source, 0) + order.units

        # R22: at each target, the attackers fight one after another in a random order.
        for target in game_map.names:
            if target not in forces:
                continue
            attackers = list(forces[target])
            rng.shuffle(attackers)
            for attacker in attackers:
                attacking = forces[target][attacker]
                defender, defending = owner[target], units[target]
                if defender == attacker:  # cannot follow from legal orders; joins rather than fights
                    units[target] += attacking
                    continue
                attackers_left, defenders_left = fight(attacking, defending, rng)
                won = attackers_left > 0
                if won:
                    owner[target] = attacker
                units[target] = attackers_left if won else defenders_left
                events.append(
                    Combat(
                        target,
                        attacker,
                        defender,
                        attacking,
                        defending,
                        attacking - attackers_left,
                        defending - defenders_left,
                        owner[target],
                        tuple(sources[(target, attacker)].items()),
                    )
                )

        # R19: one new unit on every territory a player owns.
        received: dict[str, int] = defaultdict(int)
        for name in game_map.names:
            holder = owner[name]
            if holder is not None:
                units[name] += 1
                received[holder] += 1
        events.extend(UnitsReceived(p, received[p]) for p in alive if received[p])

        newly_out = [p for p in alive if received[p] == 0]
        ending = end_of_turn(game, owner, newly_out, events)
        return board.evolve(owner=owner, units=units, **ending), events

    # ---- telling -------------------------------------------------------------------------------------------------

    def holdings(self, game: RiscGame) -> Mapping[str, tuple[str | None, int]]:
        return statistics.holdings(game)

    def turn_facts(self, events: Sequence[Any]) -> TurnFacts:
        return statistics.turn_facts(events)

    def resign(self, game: RiscGame, player: str, rng: GameRandom) -> tuple[RiscBoard, list[Told]]:
        """A player gives up: their territories turn neutral with their units (R7; in the evolutions with their
        levels), what is left of their pool is lost. The last player left wins: the others conceded, so R26's every
        territory is not waited for."""
        board = game.board
        eliminated = (*board.eliminated, player)
        changed = board.evolve(
            owner={t: None if held == player else held for t, held in board.owner.items()},
            pools={**board.pools, player: 0} if player in board.pools else board.pools,
            eliminated=eliminated,
        )
        events: list[Told] = [PlayerEliminated(player)]
        alive = [p for p in game.players if p not in eliminated]
        if len(alive) == 1:
            events.append(GameWon(alive[0]))
            return changed.evolve(phase=Phase.FINISHED, winner=alive[0]), events
        return changed, events

    def view(self, game: RiscGame, viewer: str | None) -> AnyView:
        return view(game, viewer)  # type: ignore[arg-type]

    def view_values(self, game: RiscGame, viewer: str | None) -> dict[str, Any]:
        return view_values(game, viewer)  # type: ignore[arg-type]

    def standings(self, game: RiscGame) -> dict[str, tuple[int, int]] | None:
        return standings(game)  # type: ignore[arg-type]

    def dump_board(self, board: RiscBoard) -> dict[str, Any]:
        """An Evolution 1 board dumps exactly as before the evolutions existed (no `evo` key)."""
        data = super().dump_board(board)
        if data.get("evo", 0) is None:
            del data["evo"]
        return data

    def legal_orders(self, game: RiscGame, player: str, tally: AnyTally) -> list[Legal[AnyOrder]]:
        board, counted = game.board, cast(Tally, tally)
        if board.phase is Phase.PLACEMENT:
            if counted.pool_left <= 0:
                return []
            return [
                Legal(PlaceOrder(t, counted.pool_left), "units")
                for t in game.game_map.names
                if board.owner[t] == player
            ]
        legal: list[Legal[AnyOrder]] = []
        paths = counted.paths or checker.OwnPaths(game.game_map, board.owner, player)
        for source in game.game_map.names:
            if board.owner[source] != player:
                continue
            left = checker.units_left(board, counted, source)
            if left <= 0:
                continue
            reach = paths.reach(source)
            for target in game.game_map.neighbours_in_order(source):
                if board.owner[target] != player:
                    legal.append(Legal(AttackOrder(left, source, target), "units"))
            legal += [
                Legal(MoveOrder(left, source, t), "units") for t in game.game_map.names if t in reach and t != source
            ]
        return legal


RiscRuleSet.evolutions[RiscRuleSet.evolution] = RiscRuleSet


@cache
def _made(variant: type[RiscRuleSet]) -> RiscRuleSet:
    """One rule set of each evolution, made when a game of it first needs it."""
    return variant()
