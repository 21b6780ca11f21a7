"""E7: the orders of Evolutions 2 and 3 checked when issued, against what the player's earlier orders of the turn
leave: units per level and territory (as R15), food and technology. Costs are paid when the turn executes (E8).

The checks follow the execution order (E8: upgrades and spy training, then moves, then attacks, then research and
cloaks), so that whatever is accepted can be carried out:
- a move or an attack takes units of one level from what is there now (`left`): the units there at the start, as
  upgraded, with what earlier moves brought in and earlier moves and attacks took away;
- an upgrade or the training of a spy executes before every move, so it may take only units that stay on their
  territory throughout the moves issued so far: at most the lowest count the territory's level ever falls to along
  the player's orders (`floor`). Taking them lowers every later count alike, so no earlier order is broken.
Every cost is known when the order is issued (the paths run through the player's territories at the start of the
turn, which moves do not change), so the stocks never go below zero when the turn executes.

Under fog of war (E15) a refusal never tells more than the player knows: an attack is judged only on the map and on
which territories are the player's own, whatever holds the target, and no message names another player's territory
or units.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from shared.game.errors import Refused, RuleError
from shared.game.game import Game
from shared.game.presentation import plural
from shared.rulesets.risc import checker, evo_orders, levels
from shared.rulesets.risc.board import Phase, RiscBoard
from shared.rulesets.risc.checker import Code, no_path, route_problem
from shared.rulesets.risc.evo_board import EvoState
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, PlaceOrder
from shared.rulesets.risc.resources import PathCosts


class EvoCode:
    """Refusal codes of Evolutions 2 and 3 (beside Evolution 1's `Code` and the framework's `Refused`)."""

    NOT_IN_THIS_EVOLUTION = "not-in-this-evolution"
    BAD_LEVEL = "bad-level"
    LEVEL_ABOVE_TECHNOLOGY = "level-above-technology"
    NOT_ENOUGH_FOOD = "not-enough-food"
    NOT_ENOUGH_TECHNOLOGY = "not-enough-technology"
    ONE_RESEARCH_A_TURN = "one-research-a-turn"
    TOP_TECHNOLOGY = "top-technology"
    CLOAKING_KNOWN = "cloaking-known"
    CLOAKING_UNKNOWN = "cloaking-unknown"
    TECHNOLOGY_TOO_LOW = "technology-too-low"
    ALREADY_CLOAKED = "already-cloaked"
    NOT_ENOUGH_SPIES = "not-enough-spies"
    NO_SPY_PATH = "no-spy-path"


@dataclass(frozen=True)
class EvoTally:
    pool_left: int
    food: int
    """Food the player's stock keeps once their orders so far are paid."""
    technology: int
    left: Mapping[str, levels.Levels] = field(default_factory=dict)
    """Units per level on each territory an order touched, after all the orders so far (others: the board's)."""
    floor: Mapping[str, levels.Levels] = field(default_factory=dict)
    """The lowest each of those counts falls to along the orders so far: what upgrades may still take."""
    spies: Mapping[str, int] = field(default_factory=dict)
    """Spies free to move on each territory an order touched (a spy that stepped abroad this turn is not)."""
    researched: bool = False
    """A research order (of either kind) is issued: one a turn."""
    cloaks: frozenset[str] = frozenset()
    paths: PathCosts | None = field(default=None, compare=False, repr=False)
    """Cheapest paths through the player's own territories at the start of the turn (E4)."""


def state(board: RiscBoard) -> EvoState:
    if board.evo is None:
        raise ValueError("this board has no evolution state (an Evolution 1 board)")
    return board.evo


def own_paths(game: Game[RiscBoard, Any], player: str) -> PathCosts:
    board = game.board
    sizes = {name: land.size for name, land in state(board).land.items()}
    return PathCosts(game.game_map, sizes, lambda name: board.owner.get(name) == player)


def start_tally(game: Game[RiscBoard, Any], player: str) -> EvoTally:
    board = game.board
    stock = state(board).stocks.get(player)
    food, technology = (stock.food, stock.technology) if stock is not None else (0, 0)
    return EvoTally(board.pools.get(player, 0), food, technology, paths=own_paths(game, player))


def levels_left(board: RiscBoard, tally: EvoTally, territory: str) -> levels.Levels:
    return tally.left.get(territory, state(board).levels[territory])


def levels_floor(board: RiscBoard, tally: EvoTally, territory: str) -> levels.Levels:
    return tally.floor.get(territory, state(board).levels[territory])


def spies_left(board: RiscBoard, tally: EvoTally, player: str, territory: str) -> int:
    return tally.spies.get(territory, state(board).spies_of(player).get(territory, 0))


def paths_of(game: Game[RiscBoard, Any], player: str, tally: EvoTally) -> PathCosts:
    return tally.paths or own_paths(game, player)


def move_cost(game: Game[RiscBoard, Any], player: str, tally: EvoTally, source: str, target: str) -> int | None:
    """E4: food per unit moved from `source` to `target`, or None when no path of own territories joins them."""
    return paths_of(game, player, tally).cost(source, target)


def spy_cost(game: Game[RiscBoard, Any], player: str, tally: EvoTally, source: str, target: str) -> int | None:
    """E13: food per spy: through own territories, and at most one step into other players' land, at the end."""
    return paths_of(game, player, tally).cost_into(source, target)


def _bad_count(units: Any) -> bool:
    return isinstance(units, bool) or not isinstance(units, int) or units < 1


def _bad_level(level: Any) -> bool:
    return isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= levels.TOP_LEVEL


def _unknown(game: Game[RiscBoard, Any], *names: str) -> RuleError | None:
    for name in names:
        if name not in game.game_map:
            return RuleError(Refused.UNKNOWN_TERRITORY, f'there is no territory called "{name}"')
    return None


def _food(tally: EvoTally, cost: int, what: str) -> RuleError | None:
    if cost > tally.food:
        return RuleError(EvoCode.NOT_ENOUGH_FOOD, f"{what} costs {cost} food; your orders leave you {tally.food}")
    return None


def _technology(tally: EvoTally, cost: int, what: str) -> RuleError | None:
    if cost > tally.technology:
        return RuleError(
            EvoCode.NOT_ENOUGH_TECHNOLOGY, f"{what} costs {cost} technology; your orders leave you {tally.technology}"
        )
    return None


def check(game: Game[RiscBoard, Any], player: str, tally: EvoTally, order: evo_orders.AnyOrder) -> RuleError | None:
    """Is `order` legal in an Evolution 2 or 3 game, after the orders that made `tally`?"""
    board = game.board
    evolution: int = game.options.evolution
    if isinstance(order, PlaceOrder):
        return checker.check(game, player, checker.Tally(tally.pool_left), order)
    if isinstance(order, MoveOrder | AttackOrder):
        return RuleError(
            EvoCode.NOT_IN_THIS_EVOLUTION,
            f"in Evolution {evolution} a {order.kind} names the level of its units "
            f"(e.g. {order.kind} {order.units}@0 {order.source} {order.target})",
        )
    if isinstance(order, evo_orders.EVOLUTION_3_ONLY) and evolution < 3:
        return RuleError(
            EvoCode.NOT_IN_THIS_EVOLUTION,
            f"spies and cloaking are part of Evolution 3; this game plays Evolution {evolution}",
        )
    if board.phase is not Phase.ORDERS:
        return RuleError(Refused.WRONG_PHASE, "orders start after placement")
    if isinstance(order, evo_orders.LevelMoveOrder | evo_orders.LevelAttackOrder):
        return _check_move_or_attack(game, player, tally, order)
    if isinstance(order, evo_orders.UpgradeOrder):
        return _check_upgrade(game, player, tally, order)
    if isinstance(order, evo_orders.ResearchOrder):
        return _check_research(game, player, tally)
    if isinstance(order, evo_orders.SpyOrder):
        return _check_spy(game, player, tally, order)
    if isinstance(order, evo_orders.SpyMoveOrder):
        return _check_spy_move(game, player, tally, order)
    if isinstance(order, evo_orders.CloakingResearchOrder):
        if player in state(board).cloaking:
            return RuleError(EvoCode.CLOAKING_KNOWN, "you have researched cloaking already")
        level = state(board).tech_level.get(player, 1)
        if level < levels.CLOAKING_MIN_TECH_LEVEL:
            return RuleError(
                EvoCode.TECHNOLOGY_TOO_LOW,
                f"cloaking needs a maximum technology level of {levels.CLOAKING_MIN_TECH_LEVEL}; yours is {level}",
            )
        if tally.researched:
            return RuleError(EvoCode.ONE_RESEARCH_A_TURN, "you have already ordered a research this turn (one a turn)")
        return _technology(tally, levels.CLOAKING_RESEARCH_COST, "researching cloaking")
    if isinstance(order, evo_orders.CloakOrder):
        problem = _unknown(game, order.territory)
        if problem is not None:
            return problem
        if player not in state(board).cloaking:
            return RuleError(EvoCode.CLOAKING_UNKNOWN, "research cloaking first (research cloaking)")
        if board.owner[order.territory] != player:
            return RuleError(
                Code.NOT_YOUR_TERRITORY, f"{order.territory} is not yours: you cloak only your own territories"
            )
        if order.territory in tally.cloaks:
            return RuleError(EvoCode.ALREADY_CLOAKED, f"you have already ordered {order.territory} cloaked this turn")
        return _technology(tally, levels.CLOAK_COST, f"cloaking {order.territory}")
    return RuleError(EvoCode.NOT_IN_THIS_EVOLUTION, f"{getattr(order, 'kind', order)} is not an order of this game")


def _check_move_or_attack(
    game: Game[RiscBoard, Any],
    player: str,
    tally: EvoTally,
    order: evo_orders.LevelMoveOrder | evo_orders.LevelAttackOrder,
) -> RuleError | None:
    board, game_map = game.board, game.game_map
    if _bad_count(order.units):
        return RuleError(Code.NON_POSITIVE_UNITS, f"an order must name at least 1 unit, this one names {order.units}")
    if _bad_level(order.level):
        return RuleError(EvoCode.BAD_LEVEL, f"unit levels go from 0 to {levels.TOP_LEVEL}, not {order.level}")
    moving = isinstance(order, evo_orders.LevelMoveOrder)
    problem = route_problem(game_map, board.owner, player, order.source, order.target, moving)
    if problem is not None:
        return problem
    if moving:
        per_unit = move_cost(game, player, tally, order.source, order.target)
        if per_unit is None:
            return no_path(order.source, order.target)
        cost = per_unit * order.units
    else:
        cost = order.units
    there = levels_left(board, tally, order.source)[order.level]
    if order.units > there:
        kind = f"level-{order.level} unit"
        return RuleError(
            Code.NOT_ENOUGH_UNITS,
            f"{order.source} has {plural(there, kind)} left to send, the order asks for {order.units}",
        )
    return _food(tally, cost, f"this {'move' if isinstance(order, evo_orders.LevelMoveOrder) else 'attack'}")


def _check_upgrade(
    game: Game[RiscBoard, Any], player: str, tally: EvoTally, order: evo_orders.UpgradeOrder
) -> RuleError | None:
    board = game.board
    if _bad_count(order.units):
        return RuleError(Code.NON_POSITIVE_UNITS, f"an order must name at least 1 unit, this one names {order.units}")
    if _bad_level(order.level) or _bad_level(order.to_level):
        return RuleError(EvoCode.BAD_LEVEL, f"unit levels go from 0 to {levels.TOP_LEVEL}")
    if order.to_level <= order.level:
        return RuleError(
            EvoCode.BAD_LEVEL, f"an upgrade raises units to a higher level: {order.to_level} is not above {order.level}"
        )
    problem = _unknown(game, order.territory)
    if problem is not None:
        return problem
    if board.owner[order.territory] != player:
        return RuleError(
            Code.NOT_YOUR_TERRITORY, f"{order.territory} is not yours: you upgrade units only on your own territories"
        )
    most = state(board).tech_level.get(player, 1)
    if order.to_level > most:
        return RuleError(
            EvoCode.LEVEL_ABOVE_TECHNOLOGY,
            f"your maximum technology level is {most}: units cannot go above it (research to raise it)",
        )
    there = levels_floor(board, tally, order.territory)[order.level]
    if order.units > there:
        return RuleError(
            Code.NOT_ENOUGH_UNITS,
            f"{order.territory} has {plural(there, 'level-' + str(order.level) + ' unit')} to upgrade "
            f"(units moved in arrive after upgrades; units sent away are gone), the order asks for "
            f"{order.units}",
        )
    return _technology(tally, levels.upgrade_cost(order.units, order.level, order.to_level), "this upgrade")


def _check_research(game: Game[RiscBoard, Any], player: str, tally: EvoTally) -> RuleError | None:
    level = state(game.board).tech_level.get(player, 1)
    cost = levels.research_cost(level)
    if cost is None:
        return RuleError(EvoCode.TOP_TECHNOLOGY, f"your maximum technology level is already {level}, the highest")
    if tally.researched:
        return RuleError(EvoCode.ONE_RESEARCH_A_TURN, "you have already ordered a research this turn (one a turn)")
    return _technology(tally, cost, f"researching level {level + 1}")


def _check_spy(
    game: Game[RiscBoard, Any], player: str, tally: EvoTally, order: evo_orders.SpyOrder
) -> RuleError | None:
    board = game.board
    if _bad_count(order.units):
        return RuleError(Code.NON_POSITIVE_UNITS, f"an order must name at least 1 spy, this one names {order.units}")
    problem = _unknown(game, order.territory)
    if problem is not None:
        return problem
    if board.owner[order.territory] != player:
        return RuleError(
            Code.NOT_YOUR_TERRITORY, f"{order.territory} is not yours: spies are trained on your own territories"
        )
    there = levels_floor(board, tally, order.territory)[0]
    if order.units > there:
        return RuleError(
            Code.NOT_ENOUGH_UNITS,
            f"{order.territory} has {plural(there, 'level-0 unit')} to turn "
            f"into spies, the order asks for {order.units}",
        )
    return _technology(tally, levels.SPY_COST * order.units, "training these spies")


def _check_spy_move(
    game: Game[RiscBoard, Any], player: str, tally: EvoTally, order: evo_orders.SpyMoveOrder
) -> RuleError | None:
    board = game.board
    if _bad_count(order.units):
        return RuleError(Code.NON_POSITIVE_UNITS, f"an order must name at least 1 spy, this one names {order.units}")
    problem = _unknown(game, order.source, order.target)
    if problem is not None:
        return problem
    if order.source == order.target:
        return RuleError(Code.SAME_TERRITORY, f"{order.source} is both the source and the destination")
    there = spies_left(board, tally, player, order.source)
    if order.units > there:
        return RuleError(
            EvoCode.NOT_ENOUGH_SPIES,
            f"you have {plural(there, 'spy', 'spies')} free to move in "
            f"{order.source}, the order asks for {order.units}",
        )
    per_spy = spy_cost(game, player, tally, order.source, order.target)
    if per_spy is None:
        return RuleError(
            EvoCode.NO_SPY_PATH,
            f"no way for a spy from {order.source} to {order.target}: spies go "
            "through your own territories and at most one step beyond them",
        )
    return _food(tally, per_spy * order.units, "moving these spies")


def account(game: Game[RiscBoard, Any], player: str, tally: EvoTally, order: evo_orders.AnyOrder) -> EvoTally:
    """The tally once `order` (checked already) is issued too."""
    board = game.board
    if isinstance(order, PlaceOrder):
        return replace(tally, pool_left=tally.pool_left - order.units)
    left, floor = dict(tally.left), dict(tally.floor)

    def take(territory: str, level: int, units: int, before_moves: bool) -> None:
        left[territory] = levels.add(left.get(territory, levels_left(board, tally, territory)), level, -units)
        current = floor.get(territory, levels_floor(board, tally, territory))
        if before_moves:
            floor[territory] = levels.add(current, level, -units)
        else:
            floor[territory] = tuple(min(f, n) for f, n in zip(current, left[territory], strict=True))

    def give(territory: str, level: int, units: int, before_moves: bool) -> None:
        left[territory] = levels.add(left.get(territory, levels_left(board, tally, territory)), level, units)
        if before_moves:
            floor[territory] = levels.add(floor.get(territory, levels_floor(board, tally, territory)), level, units)
        else:
            floor.setdefault(territory, levels_floor(board, tally, territory))

    if isinstance(order, evo_orders.LevelMoveOrder):
        cost = (move_cost(game, player, tally, order.source, order.target) or 0) * order.units
        take(order.source, order.level, order.units, False)
        give(order.target, order.level, order.units, False)
        return replace(tally, left=left, floor=floor, food=tally.food - cost)
    if isinstance(order, evo_orders.LevelAttackOrder):
        take(order.source, order.level, order.units, False)
        return replace(tally, left=left, floor=floor, food=tally.food - order.units)
    if isinstance(order, evo_orders.UpgradeOrder):
        take(order.territory, order.level, order.units, True)
        give(order.territory, order.to_level, order.units, True)
        return replace(
            tally,
            left=left,
            floor=floor,
            technology=tally.technology - levels.upgrade_cost(order.units, order.level, order.to_level),
        )
    if isinstance(order, evo_orders.SpyOrder):
        take(order.territory, 0, order.units, True)
        spies = dict(tally.spies)
        spies[order.territory] = spies_left(board, tally, player, order.territory) + order.units
        return replace(
            tally, left=left, floor=floor, spies=spies, technology=tally.technology - levels.SPY_COST * order.units
        )
    if isinstance(order, evo_orders.SpyMoveOrder):
        cost = (spy_cost(game, player, tally, order.source, order.target) or 0) * order.units
        spies = dict(tally.spies)
        spies[order.source] = spies_left(board, tally, player, order.source) - order.units
        if board.owner[order.target] == player:  # still at home: free to move on; abroad: it has had its step
            spies[order.target] = spies_left(board, tally, player, order.target) + order.units
        return replace(tally, spies=spies, food=tally.food - cost)
    if isinstance(order, evo_orders.ResearchOrder):
        cost = levels.research_cost(state(board).tech_level.get(player, 1)) or 0
        return replace(tally, researched=True, technology=tally.technology - cost)
    if isinstance(order, evo_orders.CloakingResearchOrder):
        return replace(tally, researched=True, technology=tally.technology - levels.CLOAKING_RESEARCH_COST)
    if isinstance(order, evo_orders.CloakOrder):
        return replace(tally, cloaks=tally.cloaks | {order.territory}, technology=tally.technology - levels.CLOAK_COST)
    return tally
