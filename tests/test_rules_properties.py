"""Properties over random maps and random legal order batches, many turns (hypothesis).

Units are created only by R19 and lost only in combat; no count goes negative; every territory has one owner;
the game ends only when one owner holds everything; the same seed and orders give the same result.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.turns import commit, issue, tally
from shared.maps import GameMap, Territory, build_map
from shared.rulesets.risc.board import Phase
from shared.rulesets.risc.events import Combat
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, PlaceOrder
from tests.engine_support import RISC, RiscGame, options, resolve, setup


def random_map(rng: random.Random, size: int) -> GameMap:
    """A random connected map: a random spanning tree plus a few extra borders."""
    names = [f"T{i}" for i in range(size)]
    borders: dict[str, set[str]] = {n: set() for n in names}
    for i in range(1, size):
        other = names[rng.randrange(i)]
        borders[names[i]].add(other)
        borders[other].add(names[i])
    for _ in range(rng.randrange(size + 1)):
        a, b = rng.sample(names, 2)
        borders[a].add(b)
        borders[b].add(a)
    return build_map("random", [Territory(n) for n in names], borders)


def random_orders(state: RiscGame, player: str, rng: random.Random, tries: int = 12) -> list[Any]:
    """Random candidate orders, keeping those the engine accepts: legal batches of every shape."""
    accepted: list[Any] = []
    own = state.board.territories_of(player)
    names = state.game_map.names
    for _ in range(tries):
        source = rng.choice(own)
        if state.board.phase is Phase.PLACEMENT:
            candidate: Any = PlaceOrder(source, rng.randint(1, max(1, state.board.pools[player] // 2)))
        elif rng.random() < 0.5:
            candidate = MoveOrder(rng.randint(1, 8), source, rng.choice(own))
        else:
            neighbours = sorted(state.game_map.neighbours(source)) or list(names)
            candidate = AttackOrder(rng.randint(1, 12), source, rng.choice(neighbours))
        result = issue(RISC, state, player, candidate)
        if isinstance(result, Game):
            state = result
            accepted.append(candidate)
    return accepted


def run_turn(state: RiscGame, batches: Mapping[str, Sequence[Any]], seed: int) -> tuple[RiscGame, list[object]]:
    for player, orders in batches.items():
        for order in orders:
            result = issue(RISC, state, player, order)
            assert isinstance(result, Game), result
            state = result
        if state.board.phase is Phase.PLACEMENT:  # the rest of the pool goes round, as when time runs out (D3)
            for order in RISC.timeout_orders(state, player, tally(RISC, state, player)):
                result = issue(RISC, state, player, order)
                assert isinstance(result, Game), result
                state = result
        committed = commit(RISC, state, player)
        assert not isinstance(committed, RuleError), committed
        state = committed
    return resolve(state, seed=seed)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), size=st.integers(3, 14), players=st.integers(2, 4), turns=st.integers(5, 40))
def test_units_territories_and_victory_stay_consistent(seed: int, size: int, players: int, turns: int) -> None:
    rng = random.Random(seed)
    game_map = random_map(rng, max(size, players))
    names = [f"P{i}" for i in range(players)]
    state = setup(game_map, names, options(initial_units=rng.randint(1, 40), neutral_units=2, max_players=8), seed=seed)
    for _ in range(turns):
        if state.board.phase is Phase.FINISHED:
            break
        batches = {p: random_orders(state, p, rng) for p in RISC.status(state).acting}
        before = state
        state, events = run_turn(state, batches, seed)
        again, again_events = run_turn(before, batches, seed)
        assert (again, again_events) == (state, events)  # D1

        assert set(state.board.owner) == set(game_map.names)
        assert all(owner is None or owner in names for owner in state.board.owner.values())
        assert all(units >= 0 for units in state.board.units.values())
        if before.board.phase is Phase.PLACEMENT:
            placed = sum(before.board.pools.values())
            assert sum(state.board.units.values()) == sum(before.board.units.values()) + placed
            continue
        losses = sum(e.attacker_losses + e.defender_losses for e in events if isinstance(e, Combat))
        received = sum(1 for t in game_map.names if state.board.owner[t] is not None)
        assert sum(state.board.units.values()) == sum(before.board.units.values()) - losses + received
        holders = set(state.board.owner.values())
        if state.board.phase is Phase.FINISHED:
            assert holders == {state.board.winner}
        else:
            assert state.board.winner is None and (len(holders) > 1 or None in holders)
        for player in state.board.eliminated:
            assert player not in holders
