"""Issuing, withdrawing and committing orders, and resolving once nobody is awaited: the same for every ruleset.

Each function is pure: it returns a new state, or a RuleError and no change.
"""

from __future__ import annotations

from shared.rules.errors import RuleCode, RuleError
from shared.rules.events import Event
from shared.rules.orders import Order
from shared.rules.random import GameRandom
from shared.rules.ruleset import Ruleset
from shared.rules.state import GameState


def issue(ruleset: Ruleset, state: GameState, player: str, order: Order) -> GameState | RuleError:
    problem = ruleset.check_order(state, player, order)
    if problem is not None:
        return problem
    state = state.evolve(orders={**state.orders, player: (*state.orders_of(player), order)})
    if ruleset.resolves_each_order:
        return commit(ruleset, state, player)
    return state


def withdraw(ruleset: Ruleset, state: GameState, player: str, index: int) -> GameState | RuleError:
    """Take back the order at `index` (0-based) — and only if the orders after it still hold without it (R15)."""
    if player in state.committed:
        return RuleError(RuleCode.ALREADY_COMMITTED, "you have already committed this turn: orders are final")
    orders = state.orders_of(player)
    if not 0 <= index < len(orders):
        return RuleError(RuleCode.NO_SUCH_ORDER, f"there is no order number {index + 1}; you have {len(orders)}")
    remaining = orders[:index] + orders[index + 1:]
    trial = state.evolve(orders={**state.orders, player: ()})
    for later in remaining:
        problem = ruleset.check_order(trial, player, later)
        if problem is not None:
            return RuleError(problem.code, f"withdrawing it would break a later order: {problem.message}")
        trial = trial.evolve(orders={**trial.orders, player: (*trial.orders_of(player), later)})
    return state.evolve(orders={**state.orders, player: remaining})


def commit(ruleset: Ruleset, state: GameState, player: str) -> GameState | RuleError:
    problem = ruleset.check_commit(state, player)
    if problem is not None:
        return problem
    return state.evolve(committed=state.committed | {player})


def commit_for_timeout(ruleset: Ruleset, state: GameState) -> GameState:
    """D3: when the turn's time runs out, everyone still awaited is committed with what they issued."""
    for player in sorted(ruleset.awaiting(state)):
        state = ruleset.complete_for_timeout(state, player)
        committed = commit(ruleset, state, player)
        if isinstance(committed, RuleError):  # an unusable batch is dropped rather than blocking the game
            state = state.evolve(orders={**state.orders, player: ()})
            committed = commit(ruleset, ruleset.complete_for_timeout(state, player), player)
        if isinstance(committed, GameState):
            state = committed
    return state


def ready(ruleset: Ruleset, state: GameState) -> bool:
    return not ruleset.awaiting(state) and bool(state.alive)


def advance(ruleset: Ruleset, state: GameState, rng: GameRandom) -> tuple[GameState, list[Event]]:
    """Resolve the committed orders of every player still in the game (empty batches included)."""
    batches: dict[str, tuple[Order, ...]] = {p: state.orders_of(p) for p in state.alive}
    return ruleset.resolve(state, batches, rng)
