"""Whole games with random legal orders, checked against the rules' invariants after every resolution.

`play_random_game` drives the engine exactly as the server does (setup, issue, commit, advance with the turn's
GameRandom) and fails with an AssertionError as soon as:
- an order built to be legal is refused (the engine and the rules disagree),
- a territory has no single owner among the players or neutral (R3), or negative units,
- units appear or vanish other than by the events that say so: placement, moves, attacks leaving, combat losses
  and the one unit per owned territory each turn (R9, R17-R19).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from shared.game.errors import RuleError
from shared.game.random import GameRandom
from shared.game.ruleset import MOST_TURNS
from shared.game.turns import awaiting, commit, issue
from shared.maps.model import GameMap
from shared.rulesets.risc.board import Phase
from shared.rulesets.risc.events import Combat, UnitsMoved, UnitsPlaced, UnitsReceived
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, PlaceOrder
from tests.engine_support import RISC, RiscGame, resolve

GameState = RiscGame
Order = Any
Event = Any
MAX_ORDERS_PER_TURN = 12

Observer = Callable[[GameState, GameState, list[Event]], None]


def play_random_game(
    game_map: GameMap, players: int, seed: int, max_turns: int, observe: Observer | None = None
) -> GameState:
    """Set up a game of `players` on `game_map` and play up to `max_turns` turns of random legal orders.

    `observe(before, after, events)` is called after every resolution (placement included), once the invariants
    have been checked. Returns the last state: finished with a winner, or after `max_turns` turns.
    """
    names = [f"P{i + 1}" for i in range(players)]
    chooser = random.Random(f"orders:{seed}")
    # The rules' own turn limit as far off as it goes: `max_turns` here is where the caller stops looking.
    options = RISC.options({"max_players": 8, "max_turns": MOST_TURNS})
    state = RISC.new_game(game_map, names, options, GameRandom(seed, 0))
    check_board(state)

    for player in names:
        for order in _placement(state, player, chooser):
            state = _issued(state, player, order)
        state = _committed(state, player)
    state = _resolved(state, seed, observe)

    while state.board.phase is Phase.ORDERS and state.board.turn <= max_turns:
        for player in sorted(RISC.status(state).acting, key=names.index):
            for order in _random_orders(state, player, chooser):
                state = _issued(state, player, order)
            state = _committed(state, player)
        state = _resolved(state, seed, observe)
    return state


def _issued(state: GameState, player: str, order: Order) -> GameState:
    result = issue(RISC, state, player, order)
    if isinstance(result, RuleError):
        raise AssertionError(f"turn {state.board.turn}: legal order {order} of {player} refused: {result}")
    return result


def _committed(state: GameState, player: str) -> GameState:
    result = commit(RISC, state, player)
    if isinstance(result, RuleError):
        raise AssertionError(f"turn {state.board.turn}: {player} could not commit: {result}")
    return result


def _resolved(state: GameState, seed: int, observe: Observer | None) -> GameState:
    assert not awaiting(RISC, state), f"turn {state.board.turn}: still awaiting {sorted(awaiting(RISC, state))}"
    after, events = resolve(state, seed=seed)
    check_board(after)
    check_resolution(state, after, events)
    if observe is not None:
        observe(state, after, events)
    return after


def _placement(state: GameState, player: str, chooser: random.Random) -> list[Order]:
    """The whole pool, split at random over the player's territories (R9)."""
    own = state.board.territories_of(player)
    pool = state.board.pools.get(player, 0)
    if not own or pool <= 0:
        return []
    shares = Counter(chooser.choice(own) for _ in range(pool))
    return [PlaceOrder(territory, units) for territory, units in shares.items()]


def _random_orders(state: GameState, player: str, chooser: random.Random) -> list[Order]:
    """Attacks on enemy or neutral neighbours and moves to own neighbours, never more units than are left."""
    game_map = state.game_map
    left = {t: state.board.units[t] for t in state.board.territories_of(player)}
    orders: list[Order] = []
    wanted = chooser.randint(0, min(MAX_ORDERS_PER_TURN, len(left) // 2 + 2))
    for _ in range(wanted):
        sources = [t for t, n in left.items() if n > 0]
        if not sources:
            break
        source = chooser.choice(sources)
        neighbours = sorted(game_map.neighbours(source) - {source})
        enemies = [t for t in neighbours if state.board.owner[t] != player]
        friends = [t for t in neighbours if state.board.owner[t] == player]
        # Mostly strong attacks, so that games move on; some moves, so that R13 is exercised too.
        if enemies and (not friends or chooser.random() < 0.75):
            units = left[source] if chooser.random() < 0.6 else chooser.randint(1, left[source])
            target = chooser.choice(enemies)
            orders.append(AttackOrder(units, source, target))
            left[source] -= units
        elif friends:
            units = chooser.randint(1, left[source])
            target = chooser.choice(friends)
            orders.append(MoveOrder(units, source, target))
            left[source] -= units
            left[target] += units
    return orders


def check_board(state: GameState) -> None:
    names = set(state.game_map.names)
    turn = state.board.turn
    assert set(state.board.owner) == names, f"turn {turn}: owners are not given for exactly the map's territories"
    assert set(state.board.units) == names, f"turn {turn}: units are not given for exactly the map's territories"
    owners = set(state.players) | {None}
    strays = {t: o for t, o in state.board.owner.items() if o not in owners}
    assert not strays, f"turn {state.board.turn}: territories held by someone who is not playing: {strays}"
    negative = {t: n for t, n in state.board.units.items() if n < 0}
    assert not negative, f"turn {state.board.turn}: negative units {negative}"
    for player in state.board.eliminated:
        assert player not in state.board.owner.values(), f"turn {turn}: eliminated {player} still holds land"


def check_resolution(before: GameState, after: GameState, events: list[Event]) -> None:
    """Replay the events on the state before: they must account for every unit and every owner after."""
    units = dict(before.board.units)
    owner = dict(before.board.owner)
    received: Counter[str] = Counter()
    for event in events:
        if isinstance(event, UnitsPlaced):
            assert owner[event.territory] == event.player
            units[event.territory] += event.units
        elif isinstance(event, UnitsMoved):
            assert owner[event.source] == owner[event.target] == event.player
            units[event.source] -= event.units
            units[event.target] += event.units
        elif isinstance(event, UnitsReceived):
            received[event.player] += event.units
    for event in events:  # attackers leave all at once (R18), before any fight
        if isinstance(event, Combat):
            assert sum(n for _, n in event.sources) == event.attacking_units
            for source, sent in event.sources:
                assert owner[source] == event.attacker, f"{event.attacker} attacked from {source}, not theirs"
                units[source] -= sent
    for event in events:
        if not isinstance(event, Combat):
            continue
        target = event.territory
        assert (event.defender, event.defending_units) == (owner[target], units[target]), (
            f"turn {before.board.turn}: {target} fought with {event.defending_units} of {event.defender}, "
            f"held {units[target]} of {owner[target]}"
        )
        assert 0 <= event.attacker_losses <= event.attacking_units
        assert 0 <= event.defender_losses <= event.defending_units
        if event.attacker_won:
            assert event.defender_losses == event.defending_units, "the attacker won with defenders left"
            owner[target] = event.attacker
            units[target] = event.attacking_units - event.attacker_losses
        else:
            assert event.attacker_losses == event.attacking_units, "the defender held with attackers left"
            units[target] = event.defending_units - event.defender_losses
    if before.board.phase is Phase.ORDERS:  # R19: +1 on every territory a player holds after combat
        for name, holder in owner.items():
            if holder is not None:
                units[name] += 1
        gained = Counter(h for h in owner.values() if h is not None)
        assert received == gained, f"turn {before.board.turn}: units received {dict(received)}, held {dict(gained)}"
    assert owner == dict(after.board.owner), f"turn {before.board.turn}: owners differ from what the events say"
    changed = {t: (units[t], after.board.units[t]) for t in units if units[t] != after.board.units[t]}
    assert not changed, f"turn {before.board.turn}: units (expected, actual) not explained by the events: {changed}"
