"""RISC Evolution 1 (../shared/spec/risc.md): secret placement, simultaneous turns, d20 combat, +1 per territory."""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Mapping, Sequence

from shared.maps.groups import neutral_territories, starting_groups
from shared.maps.model import GameMap
from shared.rules.combat import fight
from shared.rules.errors import RuleCode, RuleError
from shared.rules.events import (
    Combat,
    Event,
    GameWon,
    PlayerEliminated,
    TurnStarted,
    UnitsMoved,
    UnitsPlaced,
    UnitsReceived,
)
from shared.rules.orders import AttackOrder, MoveOrder, Order, PlaceOrder
from shared.rules.random import GameRandom
from shared.rules.ruleset import GameOptions
from shared.rules.state import GameState, Phase

UNITS_PER_GROUP_TERRITORY = 10
"""Default starting pool per territory of a group: the seed's example has 30 units on 3 territories."""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class OwnPaths:
    """Which own territories a player's units can walk to (R13), each source searched at most once per batch."""

    def __init__(self, state: GameState, player: str) -> None:
        self._state = state
        self._player = player
        self._reach: dict[str, set[str]] = {}

    def connected(self, source: str, target: str) -> bool:
        reach = self._reach.get(source)
        if reach is None:
            owner, game_map = self._state.owner, self._state.game_map
            reach = {source}
            queue = deque([source])
            while queue:
                for nxt in game_map.neighbours(queue.popleft()):
                    if nxt not in reach and owner.get(nxt) == self._player:
                        reach.add(nxt)
                        queue.append(nxt)
            self._reach[source] = reach
        return target in reach


class OrderChecker:
    """R12-R15: checks one player's orders in the order issued, against what earlier orders left (R15)."""

    def __init__(self, state: GameState, player: str) -> None:
        self.state = state
        self.player = player
        self.paths = OwnPaths(state, player)
        self.left: dict[str, int] = {}
        self.pool_left = state.pools.get(player, 0)

    def _units_left(self, territory: str) -> int:
        return self.left.get(territory, self.state.units[territory])

    def check(self, order: Order) -> RuleError | None:
        """Check `order` and, when legal, account for it so that later orders see what it used."""
        problem = self._problem(order)
        if problem is None:
            self.account(order)
        return problem

    def account(self, order: Order) -> None:
        """Record what an order uses, without checking it again."""
        if isinstance(order, PlaceOrder):
            self.pool_left -= order.units
            return
        self.left[order.source] = self._units_left(order.source) - order.units
        if isinstance(order, MoveOrder):
            self.left[order.target] = self._units_left(order.target) + order.units

    def _problem(self, order: Order) -> RuleError | None:
        state, player, game_map = self.state, self.player, self.state.game_map
        if isinstance(order.units, bool) or not isinstance(order.units, int) or order.units < 1:
            return RuleError(RuleCode.NON_POSITIVE_UNITS,
                             f"an order must name at least 1 unit, this one names {order.units}")
        if isinstance(order, PlaceOrder):
            if state.phase is not Phase.PLACEMENT:
                return RuleError(RuleCode.WRONG_PHASE, "units are placed only before the first turn")
            if order.territory not in game_map:
                return RuleError(RuleCode.UNKNOWN_TERRITORY, f'there is no territory called "{order.territory}"')
            if state.owner[order.territory] != player:
                return RuleError(RuleCode.NOT_YOUR_TERRITORY,
                                 f"{order.territory} is not yours: units go only on your own territories")
            if order.units > self.pool_left:
                return RuleError(RuleCode.POOL_EXCEEDED,
                                 f"you have {_plural(self.pool_left, 'unit')} left to place, "
                                 f"the order asks for {order.units}")
            return None
        if state.phase is not Phase.ORDERS:
            return RuleError(RuleCode.WRONG_PHASE, "moves and attacks start after placement")
        for name in (order.source, order.target):
            if name not in game_map:
                return RuleError(RuleCode.UNKNOWN_TERRITORY, f'there is no territory called "{name}"')
        if state.owner[order.source] != player:
            return RuleError(RuleCode.NOT_YOUR_TERRITORY, f"{order.source} is not yours: orders start from your "
                                                          "own territories")
        if order.source == order.target:
            return RuleError(RuleCode.SAME_TERRITORY, f"{order.source} is both the source and the destination")
        if isinstance(order, MoveOrder):
            if state.owner[order.target] != player:
                return RuleError(RuleCode.TARGET_NOT_YOURS,
                                 f"{order.target} is not yours: a move goes between your own territories "
                                 "(attack it instead)")
            if not self.paths.connected(order.source, order.target):
                return RuleError(RuleCode.NO_PATH, f"no path of your own territories leads from {order.source} "
                                                   f"to {order.target}")
        else:
            if state.owner[order.target] == player:
                return RuleError(RuleCode.ATTACK_ON_OWN,
                                 f"{order.target} is already yours: move units there instead")
            if order.target not in game_map.neighbours(order.source):
                return RuleError(RuleCode.NOT_ADJACENT, f"{order.target} is not adjacent to {order.source}: "
                                                        "attacks go only to a neighbouring territory")
        left = self._units_left(order.source)
        if order.units > left:
            return RuleError(RuleCode.NOT_ENOUGH_UNITS,
                             f"{order.source} has {_plural(left, 'unit')} left to send, "
                             f"the order asks for {order.units}")
        return None


def _gate(state: GameState, player: str) -> RuleError | None:
    """Who may act at all: the game runs, the player sits at it, is alive, and has not committed."""
    if state.phase is Phase.FINISHED:
        return RuleError(RuleCode.GAME_OVER, "the game is over")
    if player not in state.players:
        return RuleError(RuleCode.NOT_A_PLAYER, f"{player} is not a player of this game")
    if player in state.eliminated:
        return RuleError(RuleCode.ELIMINATED, "you have no territory left and can only watch")
    if player in state.committed:
        return RuleError(RuleCode.ALREADY_COMMITTED, "you have already committed this turn; wait for the others")
    return None


def check_orders(state: GameState, player: str, orders: Sequence[Order]) -> RuleError | None:
    """A whole batch, in the order issued (the server's second look at commit)."""
    checker = OrderChecker(state, player)
    for order in orders:
        problem = checker.check(order)
        if problem is not None:
            return problem
    return None


class RiscRuleset:
    name = "risc"
    resolves_each_order = False

    def setup(self, game_map: GameMap, players: Sequence[str], options: GameOptions, rng: GameRandom,
              chosen_groups: Mapping[str, int] | None = None) -> GameState:
        if len(set(players)) != len(players):
            raise ValueError("player names must be unique")
        groups = starting_groups(game_map, len(players))
        order = list(range(len(groups)))
        if options.random_groups:
            rng.shuffle(order)
        chosen = dict(chosen_groups or {})
        taken = set(chosen.values())
        free = [g for g in order if g not in taken]
        assignment = {p: chosen[p] if p in chosen else free.pop(0) for p in players}
        owner: dict[str, str | None] = {name: None for name in game_map.names}
        for player, index in assignment.items():
            for name in groups[index]:
                owner[name] = player
        neutral = set(neutral_territories(game_map, groups))
        units = {name: options.neutral_units if name in neutral else 0 for name in game_map.names}
        pool = options.initial_units
        if pool is None:
            pool = UNITS_PER_GROUP_TERRITORY * len(groups[0])
        return GameState(game_map=game_map, ruleset=self.name, players=tuple(players), phase=Phase.PLACEMENT,
                         turn=0, owner=owner, units=units, pools={p: pool for p in players})

    def check_order(self, state: GameState, player: str, order: Order) -> RuleError | None:
        gate = _gate(state, player)
        if gate is not None:
            return gate
        checker = OrderChecker(state, player)
        for earlier in state.orders_of(player):
            checker.account(earlier)  # accepted when issued, against this same board
        return checker.check(order)

    def check_commit(self, state: GameState, player: str) -> RuleError | None:
        gate = _gate(state, player)
        if gate is not None:
            return gate
        orders = state.orders_of(player)
        problem = check_orders(state, player, orders)
        if problem is not None:
            return problem
        if state.phase is Phase.PLACEMENT:
            left = state.pools.get(player, 0) - sum(o.units for o in orders if isinstance(o, PlaceOrder))
            if left > 0:
                return RuleError(RuleCode.UNITS_NOT_PLACED,
                                 f"{_plural(left, 'unit')} still to place: all must be placed (R9)")
        return None

    def awaiting(self, state: GameState) -> frozenset[str]:
        if state.phase is Phase.FINISHED:
            return frozenset()
        return frozenset(p for p in state.alive if p not in state.committed)

    def complete_for_timeout(self, state: GameState, player: str) -> GameState:
        """In placement, units the player left in the pool go round their territories one by one."""
        if state.phase is not Phase.PLACEMENT:
            return state
        orders = list(state.orders_of(player))
        left = state.pools.get(player, 0) - sum(o.units for o in orders if isinstance(o, PlaceOrder))
        own = state.territories_of(player)
        if left <= 0 or not own:
            return state
        share, extra = divmod(left, len(own))
        for i, name in enumerate(own):
            if share + (i < extra) > 0:
                orders.append(PlaceOrder(name, share + (i < extra)))
        return state.evolve(orders={**state.orders, player: tuple(orders)})

    def resolve(self, state: GameState, orders_by_player: Mapping[str, Sequence[Order]],
                rng: GameRandom) -> tuple[GameState, list[Event]]:
        if state.phase is Phase.PLACEMENT:
            return self._resolve_placement(state, orders_by_player)
        if state.phase is Phase.ORDERS:
            return self._resolve_turn(state, orders_by_player, rng)
        return state, []

    def _resolve_placement(self, state: GameState, orders_by_player: Mapping[str, Sequence[Order]],
                           ) -> tuple[GameState, list[Event]]:
        units = dict(state.units)
        events: list[Event] = []
        for player in state.players:
            for order in orders_by_player.get(player, ()):
                if isinstance(order, PlaceOrder):
                    units[order.territory] += order.units
                    events.append(UnitsPlaced(player, order.territory, order.units))
        events.append(TurnStarted(1))
        return state.evolve(phase=Phase.ORDERS, turn=1, units=units, pools={}, orders={},
                            committed=frozenset()), events

    def _resolve_turn(self, state: GameState, orders_by_player: Mapping[str, Sequence[Order]],
                      rng: GameRandom) -> tuple[GameState, list[Event]]:
        game_map = state.game_map
        units = dict(state.units)
        owner = dict(state.owner)
        events: list[Event] = []
        alive = state.alive

        # R17: every move first, each player's in the order issued.
        for player in alive:
            for order in orders_by_player.get(player, ()):
                if isinstance(order, MoveOrder):
                    units[order.source] -= order.units
                    units[order.target] += order.units
                    events.append(UnitsMoved(player, order.units, order.source, order.target))

        # R18, R21: every attacking unit leaves at once; one player's units against one target form one force.
        forces: dict[str, dict[str, int]] = defaultdict(dict)
        sources: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
        for player in alive:
            for order in orders_by_player.get(player, ()):
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
                events.append(Combat(target, attacker, defender, attacking, defending,
                                     attacking - attackers_left, defending - defenders_left, owner[target],
                                     tuple(sources[(target, attacker)].items())))

        # R19: one new unit on every territory a player owns.
        received: dict[str, int] = defaultdict(int)
        for name in game_map.names:
            holder = owner[name]
            if holder is not None:
                units[name] += 1
                received[holder] += 1
        events.extend(UnitsReceived(p, received[p]) for p in alive if received[p])

        # R25-R26: players with nothing left are out; one owner of everything wins.
        newly_out = [p for p in alive if received[p] == 0]
        events.extend(PlayerEliminated(p) for p in newly_out)
        eliminated = state.eliminated + tuple(newly_out)
        holders = set(owner.values())
        winner = None
        phase = Phase.ORDERS
        only_holder = holders.pop() if len(holders) == 1 else None
        if only_holder is not None:
            winner = only_holder
            phase = Phase.FINISHED
            events.append(GameWon(only_holder))
        else:
            events.append(TurnStarted(state.turn + 1))
        new_state = state.evolve(phase=phase, turn=state.turn + (0 if winner else 1), owner=owner, units=units,
                                 orders={}, committed=frozenset(), eliminated=eliminated, winner=winner)
        return new_state, events
