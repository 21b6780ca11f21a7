"""RISC Evolutions 2 and 3 (../shared/spec/risc-evolutions.md): each a variant of Evolution 1's rule set (rules.py),
a subclass that says what it changes: setting a game up, checking and counting orders, placement and a turn, the
view, the legal orders; Evolution 3 adds fog of war, spies and cloaks to Evolution 2.

Evolution 1's rules hold unless these change them (R1-R27), and Evolution 1 keeps its own code, so that its games
replay as before.

A turn (E8): every upgrade and every spy trained, then every move (units and spies), then every attack (R17-R24 with
E9's combat), then research and cloaks; then one level-0 unit on every owned territory and each player's production
(E10). Each player's orders of one kind execute in the order issued, players in seat order; the checker (E7) has made
sure each can be paid and finds its units.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.random import GameRandom
from shared.game.ruleset import Legal, Private, RuleSet, Told
from shared.maps.groups import starting_groups
from shared.maps.model import GameMap
from shared.rulesets.risc import evo_checker, evo_events, evo_orders, fog
from shared.rulesets.risc.board import Phase, RiscBoard
from shared.rulesets.risc.events import TurnStarted, UnitsPlaced, UnitsReceived
from shared.rulesets.risc.evo_board import EvoState
from shared.rulesets.risc.evo_checker import EvoCode, EvoTally, levels_floor, levels_left, spies_left
from shared.rulesets.risc.evo_combat import fight_levels
from shared.rulesets.risc.evo_presentation import Evolution2Presentation, Evolution3Presentation
from shared.rulesets.risc.evo_view import EvoView, evo_view
from shared.rulesets.risc.levels import (
    CLOAK_COST,
    CLOAK_TURNS,
    CLOAKING_MIN_TECH_LEVEL,
    CLOAKING_RESEARCH_COST,
    FIRST_TECH_LEVEL,
    LEVELS,
    SPY_COST,
    TOP_LEVEL,
    TOTAL,
    Levels,
    add,
    combine,
    level_zero,
    research_cost,
    upgrade_cost,
)
from shared.rulesets.risc.options import RiscOptions
from shared.rulesets.risc.orders import PlaceOrder
from shared.rulesets.risc.resources import PathCosts, Stock, land_for_game
from shared.rulesets.risc.rules import RiscRuleSet, end_of_turn

EvoGame = Game[RiscBoard, Any]


def _units(levels: Mapping[str, Levels]) -> dict[str, int]:
    return {name: sum(counts) for name, counts in levels.items()}


def resolve_placement(
    game: EvoGame, orders: Mapping[str, Sequence[evo_orders.AnyOrder]], fogged: bool
) -> tuple[RiscBoard, list[Told]]:
    board, evo = game.board, evo_checker.state(game.board)
    seen = fog.sights(game.game_map, board, game.players) if fogged else {}
    levels = dict(evo.levels)
    events: list[Told] = []
    for player in game.players:
        for order in orders.get(player, ()):
            if isinstance(order, PlaceOrder):
                levels[order.territory] = add(levels[order.territory], 0, order.units)
                placed = UnitsPlaced(player, order.territory, order.units)
                events.append(fog.tell(placed, fog.audience(seen, order.territory, also=(player,))) if seen else placed)
    events.append(TurnStarted(1))
    board = board.evolve(phase=Phase.ORDERS, turn=1, units=_units(levels), pools={}, evo=evo.evolve(levels=levels))
    return _remembered(game, board, fogged), events


def _remembered(game: EvoGame, board: RiscBoard, fogged: bool) -> RiscBoard:
    """E12: each player's memory after a resolution, with the land they lost (they saw it lost)."""
    if not fogged:
        return board
    evo = evo_checker.state(board)
    before = game.board.owner
    lost = {p: [n for n in game.game_map.names if before[n] == p and board.owner[n] != p] for p in game.players}
    return board.evolve(evo=evo.evolve(memory=fog.remember(game.game_map, board, game.players, lost)))


class _Turn:
    """One turn being carried out: the board's changing parts, what each player spent, and what is told."""

    def __init__(self, game: EvoGame, orders: Mapping[str, Sequence[evo_orders.AnyOrder]], fogged: bool) -> None:
        board = game.board
        evo = evo_checker.state(board)
        self.game = game
        self.orders = orders
        self.fogged = fogged
        self.alive = [p for p in game.players if p not in board.eliminated]
        self.seen = fog.sights(game.game_map, board, game.players) if self.fogged else {}
        self.owner = dict(board.owner)
        self.levels = {name: list(counts) for name, counts in evo.levels.items()}
        self.spies = {p: dict(evo.spies_of(p)) for p in game.players}
        self.stocks = dict(evo.stocks)
        self.tech_level = dict(evo.tech_level)
        self.cloaking = list(evo.cloaking)
        self.cloaked = dict(evo.cloaked)
        self.spent_food: dict[str, int] = defaultdict(int)
        self.spent_technology: dict[str, int] = defaultdict(int)
        self.events: list[Told] = []
        self.tallies = {p: evo_checker.start_tally(game, p) for p in self.alive}

    def orders_of(self, player: str, *kinds: type) -> list[Any]:
        return [o for o in self.orders.get(player, ()) if isinstance(o, kinds)]

    def tell(self, event: object, *territories: str, player: str) -> None:
        """Everyone is told in Evolution 2; under fog, who saw the territories when the turn began, and `player`."""
        if self.fogged:
            self.events.append(fog.tell(event, fog.audience(self.seen, *territories, also=(player,))))
        else:
            self.events.append(event)

    def secret(self, event: object, player: str) -> None:
        """Told to `player` alone, whatever the evolution (E11, E13, E14), and not to whoever follows their sight
        (E12: following never shows stocks, spies or cloaks)."""
        self.events.append(Private(event, frozenset({player}), own=True))

    def spend(self, player: str, food: int = 0, technology: int = 0) -> None:
        self.spent_food[player] += food
        self.spent_technology[player] += technology

    # E5, E13: upgrades and spies first.
    def upgrades(self) -> None:
        for player in self.alive:
            for order in self.orders_of(player, evo_orders.UpgradeOrder, evo_orders.SpyOrder):
                counts = self.levels[order.territory]
                if isinstance(order, evo_orders.UpgradeOrder):
                    counts[order.level] -= order.units
                    counts[order.to_level] += order.units
                    self.spend(player, technology=upgrade_cost(order.units, order.level, order.to_level))
                    self.tell(
                        evo_events.UnitsUpgraded(player, order.territory, order.units, order.level, order.to_level),
                        order.territory,
                        player=player,
                    )
                else:
                    counts[0] -= order.units
                    self.spies[player][order.territory] = self.spies[player].get(order.territory, 0) + order.units
                    self.spend(player, technology=SPY_COST * order.units)
                    self.secret(evo_events.SpiesTrained(player, order.territory, order.units), player)

    # E4, E13: moves, each player's in the order issued; the paths are those of the turn's start.
    def moves(self) -> None:
        for player in self.alive:
            tally = self.tallies[player]
            for order in self.orders_of(player, evo_orders.LevelMoveOrder, evo_orders.SpyMoveOrder):
                if isinstance(order, evo_orders.LevelMoveOrder):
                    per_unit = evo_checker.move_cost(self.game, player, tally, order.source, order.target) or 0
                    self.levels[order.source][order.level] -= order.units
                    self.levels[order.target][order.level] += order.units
                    self.spend(player, food=per_unit * order.units)
                    self.tell(
                        evo_events.LevelMoved(player, order.units, order.level, order.source, order.target),
                        order.source,
                        order.target,
                        player=player,
                    )
                else:
                    per_spy = evo_checker.spy_cost(self.game, player, tally, order.source, order.target) or 0
                    spies = self.spies[player]
                    spies[order.source] -= order.units
                    if not spies[order.source]:
                        del spies[order.source]
                    spies[order.target] = spies.get(order.target, 0) + order.units
                    self.spend(player, food=per_spy * order.units)
                    self.secret(evo_events.SpiesMoved(player, order.units, order.source, order.target), player)

    # R18, R21-R24 with E9: every attacking unit leaves at once (1 food each, E4), then each target's fights.
    def attacks(self, rng: GameRandom) -> None:
        forces: dict[str, dict[str, list[int]]] = defaultdict(dict)
        sources: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
        for player in self.alive:
            for order in self.orders_of(player, evo_orders.LevelAttackOrder):
                self.levels[order.source][order.level] -= order.units
                force = forces[order.target].setdefault(player, [0] * LEVELS)
                force[order.level] += order.units
                came_from = sources[(order.target, player)]
                came_from[order.source] = came_from.get(order.source, 0) + order.units
                self.spend(player, food=order.units)
        for target in self.game.game_map.names:
            if target not in forces:
                continue
            attackers = list(forces[target])
            rng.shuffle(attackers)
            for attacker in attackers:
                attacking = tuple(forces[target][attacker])
                defender, defending = self.owner[target], tuple(self.levels[target])
                if defender == attacker:  # cannot follow from legal orders; joins rather than fights
                    self.levels[target] = list(combine(defending, attacking))
                    continue
                attackers_left, defenders_left = fight_levels(attacking, defending, rng)
                won = sum(attackers_left) > 0
                if won:
                    self.owner[target] = attacker
                    self.cloaked.pop(target, None)  # E14: a cloak ends when its territory changes hands
                self.levels[target] = list(attackers_left if won else defenders_left)
                battle = evo_events.Battle(
                    target,
                    attacker,
                    defender,
                    attacking,
                    defending,
                    attackers_left,
                    defenders_left,
                    self.owner[target],
                    tuple(sources[(target, attacker)].items()),
                )
                if self.fogged:
                    self.events.extend(fog.tell_battle(battle, self.seen))
                else:
                    self.events.append(battle)

    # E6, E14: research and cloaks last; a new level counts from the next turn.
    def research(self) -> None:
        turn = self.game.board.turn
        for player in self.alive:
            for order in self.orders_of(
                player, evo_orders.ResearchOrder, evo_orders.CloakingResearchOrder, evo_orders.CloakOrder
            ):
                if isinstance(order, evo_orders.ResearchOrder):
                    level = self.tech_level.get(player, FIRST_TECH_LEVEL)
                    self.spend(player, technology=research_cost(level) or 0)
                    self.tech_level[player] = level + 1
                    self.events.append(evo_events.TechnologyResearched(player, level + 1))
                elif isinstance(order, evo_orders.CloakingResearchOrder):
                    self.spend(player, technology=CLOAKING_RESEARCH_COST)
                    self.cloaking.append(player)
                    self.secret(evo_events.CloakingResearched(player), player)
                elif self.owner[order.territory] == player:  # a cloak on land lost this turn is void and unpaid
                    self.spend(player, technology=CLOAK_COST)
                    until = max(self.cloaked.get(order.territory, 0), turn + CLOAK_TURNS)
                    self.cloaked[order.territory] = until
                    self.secret(evo_events.TerritoryCloaked(player, order.territory, until), player)

    # E10 (R19): a level-0 unit on every owned territory, then the production of what each player holds now.
    def end(self) -> tuple[dict[str, int], dict[str, Stock]]:
        received: dict[str, int] = defaultdict(int)
        produced: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        land = evo_checker.state(self.game.board).land
        for name in self.game.game_map.names:
            holder = self.owner[name]
            if holder is not None:
                self.levels[name][0] += 1
                received[holder] += 1
                produced[holder][0] += land[name].food
                produced[holder][1] += land[name].technology
        for player in self.alive:
            if received[player]:
                event = UnitsReceived(player, received[player])
                self.events.append(Private(event, frozenset({player}), own=True) if self.fogged else event)
        stocks: dict[str, Stock] = {}
        for player, stock in self.stocks.items():
            food = stock.food - self.spent_food[player] + produced[player][0]
            technology = stock.technology - self.spent_technology[player] + produced[player][1]
            if food < 0 or technology < 0:
                raise AssertionError(f"{player}'s stock went below zero: the checker let through what cannot be paid")
            stocks[player] = Stock(food, technology)
            if player in self.alive:
                self.secret(
                    evo_events.StocksReport(
                        player,
                        self.spent_food[player],
                        self.spent_technology[player],
                        produced[player][0],
                        produced[player][1],
                        food,
                        technology,
                    ),
                    player,
                )
        return received, stocks


def resolve_turn(
    game: EvoGame, orders: Mapping[str, Sequence[evo_orders.AnyOrder]], rng: GameRandom, fogged: bool
) -> tuple[RiscBoard, list[Told]]:
    board = game.board
    turn = _Turn(game, orders, fogged)
    turn.upgrades()
    turn.moves()
    turn.attacks(rng)
    turn.research()
    received, stocks = turn.end()

    newly_out = [p for p in turn.alive if received[p] == 0]
    ending = end_of_turn(game, turn.owner, newly_out, turn.events)
    levels = {name: tuple(counts) for name, counts in turn.levels.items()}
    spies = {p: {t: n for t, n in s.items() if n} for p, s in turn.spies.items() if any(s.values())}
    cloaked = {t: until for t, until in turn.cloaked.items() if until > board.turn}
    evo = evo_checker.state(board).evolve(
        levels=levels,
        stocks=stocks,
        tech_level=turn.tech_level,
        cloaking=tuple(turn.cloaking),
        cloaked=cloaked,
        spies=spies,
    )
    new_board = board.evolve(owner=turn.owner, units=_units(levels), evo=evo, **ending)
    return _remembered(game, new_board, fogged), turn.events


# ---- the variants ----------------------------------------------------------------------------------------------------


class Evolution2(RiscRuleSet):
    """RISC Evolution 2 (E1-E11): unit levels, food and technology."""

    evolution = 2
    presentation_type = Evolution2Presentation
    fogged: ClassVar[bool] = False
    """E12-E15: fog of war, with what it brings (spies, cloaks, private events): Evolution 3's."""
    later_orders: ClassVar[tuple[type, ...]] = evo_orders.EVOLUTION_3_ONLY
    """Orders of a later evolution, refused here with a word on where they belong."""

    def setup(
        self,
        game_map: GameMap,
        players: Sequence[str],
        options: RiscOptions,
        rng: GameRandom,
        choices: Mapping[str, int],
    ) -> RiscBoard:
        """Evolution 1's board (groups, owners, neutrals, pools) with what the evolutions add (E1, E2). The extra
        dice are drawn after Evolution 1's, from the same setup generator."""
        board = super().setup(game_map, players, options, rng, choices)
        land = land_for_game(game_map, starting_groups(game_map, len(players)), rng)
        levels = {name: level_zero(board.units[name]) for name in game_map.names}
        return board.evolve(
            evo=EvoState(
                land=land,
                levels=levels,
                stocks={p: Stock(options.food, options.technology) for p in players},
                tech_level=dict.fromkeys(players, FIRST_TECH_LEVEL),
            )
        )

    resource_words = {  # noqa: RUF012 (read only)
        "pool_left": "units to place",
        "food_left": "food",
        "technology_left": "technology",
    }

    def left(self, game: EvoGame, player: str, tally: Any) -> dict[str, int] | None:
        """R9 during placement; E7 during a turn: the food and technology the orders leave."""
        if game.board.phase is Phase.PLACEMENT:
            return {"pool_left": tally.pool_left}
        if game.board.phase is Phase.ORDERS:
            return {"food_left": tally.food, "technology_left": tally.technology}
        return None

    def start_tally(self, game: EvoGame, player: str) -> EvoTally:
        return evo_checker.start_tally(game, player)

    def check_order(self, game: EvoGame, player: str, tally: Any, order: Any) -> RuleError | None:
        if isinstance(order, self.later_orders):
            return RuleError(
                EvoCode.NOT_IN_THIS_EVOLUTION,
                f"spies and cloaking are part of Evolution 3; this game plays Evolution {self.evolution}",
            )
        return evo_checker.check(game, player, tally, order)

    def account(self, game: EvoGame, player: str, tally: Any, order: Any) -> EvoTally:
        return evo_checker.account(game, player, tally, order)

    def resolve(
        self, game: EvoGame, orders: Mapping[str, Sequence[evo_orders.AnyOrder]], rng: GameRandom
    ) -> tuple[RiscBoard, list[Told]]:
        if game.board.phase is Phase.PLACEMENT:
            return resolve_placement(game, orders, self.fogged)
        if game.board.phase is Phase.ORDERS:
            return resolve_turn(game, orders, rng, self.fogged)
        return game.board, []

    def view(self, game: EvoGame, viewer: str | None) -> EvoView:
        return evo_view(game, viewer, self.fogged)

    # Evolution 1 makes its values and standings from its board alone, which knows nothing of levels or fog: an
    # evolution makes them from its view, as every rule set does.
    view_values = RuleSet.view_values
    standings = RuleSet.standings

    def resign(self, game: EvoGame, player: str, rng: GameRandom) -> tuple[RiscBoard, list[Told]]:
        """As in Evolution 1 (their territories neutral, with their units by level); their spies go home too."""
        board, events = super().resign(game, player, rng)
        evo = evo_checker.state(board)
        if player in evo.spies:
            board = board.evolve(evo=evo.evolve(spies={p: spies for p, spies in evo.spies.items() if p != player}))
        return board, events

    def legal_orders(self, game: EvoGame, player: str, tally: Any) -> list[Legal[Any]]:
        """Every order `player` could issue now, each with its count at the most (E7 included: what food and
        technology allow)."""
        board, game_map = game.board, game.game_map
        if board.phase is Phase.PLACEMENT:
            if tally.pool_left <= 0:
                return []
            return [Legal(PlaceOrder(t, tally.pool_left), "units") for t in game_map.names if board.owner[t] == player]
        if board.phase is not Phase.ORDERS:
            return []
        evo = evo_checker.state(board)
        legal: list[Legal[Any]] = []
        paths = evo_checker.paths_of(game, player, tally)
        most = evo.tech_level.get(player, FIRST_TECH_LEVEL)
        own = [name for name in game_map.names if board.owner[name] == player]
        for source in own:
            left = levels_left(board, tally, source)
            floor = levels_floor(board, tally, source)
            costs = paths.from_source(source)
            for level in range(LEVELS):
                if left[level] > 0:
                    attack = min(left[level], tally.food)
                    if attack > 0:
                        legal += [
                            Legal(evo_orders.LevelAttackOrder(attack, level, source, t), "units")
                            for t in game_map.neighbours_in_order(source)
                            if board.owner[t] != player
                        ]
                    for target in own:
                        if target != source and target in costs:
                            units = min(left[level], tally.food // costs[target])
                            if units > 0:
                                legal.append(Legal(evo_orders.LevelMoveOrder(units, level, source, target), "units"))
                if floor[level] > 0:
                    for to_level in range(level + 1, min(most, TOP_LEVEL) + 1):
                        units = min(floor[level], tally.technology // (TOTAL[to_level] - TOTAL[level]))
                        if units > 0:
                            legal.append(Legal(evo_orders.UpgradeOrder(units, source, level, to_level), "units"))
            legal += self.legal_on(game, player, tally, source, floor)
        cost = research_cost(most)
        if not tally.researched and cost is not None and cost <= tally.technology:
            legal.append(Legal(evo_orders.ResearchOrder()))
        return legal + self.legal_beyond(game, player, tally, paths)

    def legal_on(self, game: EvoGame, player: str, tally: EvoTally, source: str, floor: Levels) -> list[Legal[Any]]:
        """What a later evolution adds to the legal orders on one of the player's territories."""
        return []

    def legal_beyond(self, game: EvoGame, player: str, tally: EvoTally, paths: PathCosts) -> list[Legal[Any]]:
        """What a later evolution adds to the legal orders after research."""
        return []


class Evolution3(Evolution2):
    """RISC Evolution 3 (E12-E15): Evolution 2 under fog of war, with spies and cloaking."""

    evolution = 3
    presentation_type = Evolution3Presentation
    fogged = True
    later_orders = ()

    def setup(
        self,
        game_map: GameMap,
        players: Sequence[str],
        options: RiscOptions,
        rng: GameRandom,
        choices: Mapping[str, int],
    ) -> RiscBoard:
        """E12: every player starts remembering what they see."""
        board = super().setup(game_map, players, options, rng, choices)
        evo = evo_checker.state(board)
        return board.evolve(evo=evo.evolve(memory=fog.remember(game_map, board, players)))

    def reveals_orders(self, options: RiscOptions) -> bool:
        """E12, E15: under fog of war a player's orders would say where their units are."""
        return False

    def may_follow(self, game: EvoGame, seat: str | None, followed: str) -> bool:
        """E12: a player who is out may follow the sight of a player still in. A spectator may not: a seat's
        holder could otherwise watch an opponent's sight from a second connection. Once the game is over everyone
        sees everything, so nobody needs to follow."""
        status = self.status(game)
        return (
            not status.finished
            and seat is not None
            and seat in status.eliminated
            and followed in game.players
            and followed not in status.eliminated
        )

    def follow_refusal(self, game: EvoGame, seat: str | None, followed: str) -> str:
        status = self.status(game)
        if status.finished:
            return super().follow_refusal(game, seat, followed)
        if seat is None:
            return (
                "under fog of war a spectator sees what is public; only a player who is out may follow a player "
                "still in (E12)"
            )
        if seat not in status.eliminated:
            return "only a player who is out may follow another's sight (E12)"
        return f"{followed} is out of the game" if followed != seat else "you are out of the game"

    def public_map(self, game_map: GameMap, options: RiscOptions) -> GameMap:
        """E12: under fog a territory's production shows once seen, so the map sent leaves every territory's out
        (the view gives it where it may be known); its size stays, as the rules show it from the start."""
        return replace(
            game_map, territories=tuple(replace(t, food=None, technology=None) for t in game_map.territories)
        )

    def follow_view(self, game: EvoGame, followed: str) -> EvoView:
        return evo_view(game, None, self.fogged, following=followed)

    def replay_view(self, game: EvoGame, sight: str | None) -> EvoView:
        """E12: once the game is over everybody sees everything, so a replay seen by nobody's eyes in particular
        shows every turn's board whole."""
        return evo_view(game, sight, self.fogged, unveiled=sight is None)

    def legal_on(self, game: EvoGame, player: str, tally: EvoTally, source: str, floor: Levels) -> list[Legal[Any]]:
        """E13, E14: spies trained on the territory, and a cloak over it."""
        legal: list[Legal[Any]] = []
        if floor[0] > 0 and tally.technology >= SPY_COST:
            legal.append(Legal(evo_orders.SpyOrder(min(floor[0], tally.technology // SPY_COST), source), "units"))
        cloaking = evo_checker.state(game.board).cloaking
        if player in cloaking and source not in tally.cloaks and tally.technology >= CLOAK_COST:
            legal.append(Legal(evo_orders.CloakOrder(source)))
        return legal

    def legal_beyond(self, game: EvoGame, player: str, tally: EvoTally, paths: PathCosts) -> list[Legal[Any]]:
        """E14: researching cloaking; E13: every move of the player's spies."""
        board, game_map = game.board, game.game_map
        evo = evo_checker.state(board)
        legal: list[Legal[Any]] = []
        if (
            not tally.researched
            and player not in evo.cloaking
            and evo.tech_level.get(player, FIRST_TECH_LEVEL) >= CLOAKING_MIN_TECH_LEVEL
            and tally.technology >= CLOAKING_RESEARCH_COST
        ):
            legal.append(Legal(evo_orders.CloakingResearchOrder()))
        places = set(evo.spies_of(player)) | set(tally.spies)
        for source in (n for n in game_map.names if n in places):
            spies = spies_left(board, tally, player, source)
            if spies <= 0:
                continue
            for target in game_map.names:
                if target == source:
                    continue
                per_spy = paths.cost_into(source, target)
                if per_spy is not None and tally.food >= per_spy:
                    legal.append(
                        Legal(evo_orders.SpyMoveOrder(min(spies, tally.food // per_spy), source, target), "units")
                    )
        return legal
