"""Issuing, withdrawing and committing orders, and resolving: the same for every rule set.

Each function is pure: it returns a new game (with the events of a resolution), or a RuleError and no change.
Simultaneous games record orders until every awaited player has committed, then `advance` resolves them all. In a
turn-by-turn game `act` checks one action of the player whose turn it is and resolves it at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shared.game.errors import Refused, RuleError
from shared.game.game import CACHED, Game
from shared.game.random import Dice
from shared.game.ruleset import AnyRuleSet, Legal, Status, Told, check_variant

MAX_TIMEOUT_ACTIONS = 10_000
"""A turn-by-turn player whose time ran out is played for by the rule set one action at a time; this many without
the turn passing on means the rule set never lets it, which is a bug to report, not a loop to run for ever."""


@dataclass(frozen=True)
class Resolved:
    """One resolution: the orders it carried out (revealed afterwards, for replays) and what happened."""

    step: int
    turn: int
    orders: dict[str, tuple[Any, ...]]
    events: list[Told]


def status_of(ruleset: AnyRuleSet, game: Game[Any, Any]) -> Status:
    """The rule set's status of a game, worked out once per game. Every turn's step asks it, so it is where a game
    played by another variant than the one its options choose is stopped before anything of it is decided."""
    values = game.__dict__.get(CACHED)  # Game.cached's store, read first: asked dozens of times a turn
    found: Status | None = values.get("_status") if values is not None else None
    if found is None:
        found = game.cached("_status", lambda: _status(ruleset, game))
    return found


def _status(ruleset: AnyRuleSet, game: Game[Any, Any]) -> Status:
    check_variant(ruleset, game.options)
    return ruleset.status(game)


def awaiting(ruleset: AnyRuleSet, game: Game[Any, Any], status: Status | None = None) -> frozenset[str]:
    """Who the game waits for now: the acting players who have not committed."""
    status = status or status_of(ruleset, game)
    if status.finished:
        return frozenset()
    if not ruleset.simultaneous:
        return status.acting
    return status.acting - game.committed


def gate(ruleset: AnyRuleSet, game: Game[Any, Any], player: str) -> RuleError | None:
    """Who may act at all: the game runs, the player sits at it, is still in, is awaited."""
    status = status_of(ruleset, game)
    if (out := _out_of_play(status, game, player, "you have been eliminated and can only watch")) is not None:
        return out
    if ruleset.simultaneous:
        if player in game.committed:
            return RuleError(Refused.ALREADY_COMMITTED, "you have already committed this turn; wait for the others")
        if player not in status.acting:
            return RuleError(Refused.NOT_YOUR_TURN, "the game does not wait for you now")
    elif player not in status.acting:
        who = ", ".join(sorted(status.acting)) or "nobody"
        return RuleError(Refused.NOT_YOUR_TURN, f"it is not your turn: the game waits for {who}")
    return None


def _out_of_play(status: Status, game: Game[Any, Any], player: str, eliminated: str) -> RuleError | None:
    """Why a player cannot act in the game at all: it is over, they do not sit at it, or they are out
    (`eliminated`: the words for that)."""
    if status.finished:
        return RuleError(Refused.GAME_OVER, "the game is over")
    if player not in game.players:
        return RuleError(Refused.NOT_A_PLAYER, f"{player} is not a player of this game")
    if player in status.eliminated:
        return RuleError(Refused.ELIMINATED, eliminated)
    return None


def tally(ruleset: AnyRuleSet, game: Game[Any, Any], player: str) -> Any:
    """What the player's issued orders use up: kept with the game, rebuilt from its orders when it is not."""
    if player in game.tallies:
        return game.tallies[player]
    counted = ruleset.start_tally(game, player)
    for order in game.orders_of(player):
        counted = ruleset.account(game, player, counted, order)
    return counted


def legal_orders(ruleset: AnyRuleSet, game: Game[Any, Any], player: str) -> list[Legal[Any]]:
    """Every order `player` could issue now (for bots, completion and the web page): none unless the game waits for
    them, else what the rule set lists after the orders they issued already."""
    if gate(ruleset, game, player) is not None:
        return []
    return ruleset.legal_orders(game, player, tally(ruleset, game, player))


def left(ruleset: AnyRuleSet, game: Game[Any, Any], player: str) -> dict[str, int] | None:
    """What `player`'s issued orders leave them, as fields of their view (the rule set's `left`)."""
    return ruleset.left(game, player, tally(ruleset, game, player))


def costs(ruleset: AnyRuleSet, game: Game[Any, Any], player: str, orders: Sequence[Any]) -> list[dict[str, int] | None]:
    """What issuing each of `orders` (each legal now) would take from what the player's orders leave them, in the
    rule set's words ({"technology": 75}; a negative amount is a gain); None where orders use nothing up. The
    player's tally is counted once for them all."""
    counted = tally(ruleset, game, player)
    before = ruleset.left(game, player, counted)
    if before is None:
        return [None] * len(orders)
    words = ruleset.resource_words
    found: list[dict[str, int] | None] = []
    for order in orders:
        after = ruleset.left(game, player, ruleset.account(game, player, counted, order)) or {}
        found.append({words.get(k, k): before[k] - after.get(k, 0) for k in before if before[k] != after.get(k, 0)})
    return found


def check(ruleset: AnyRuleSet, game: Game[Any, Any], player: str, order: Any) -> RuleError | None:
    """Would `order` be accepted from `player` now? (What bots and clients ask before they issue.)"""
    problem = gate(ruleset, game, player)
    if problem is not None:
        return problem
    return ruleset.check_order(game, player, tally(ruleset, game, player), order)


def issue(ruleset: AnyRuleSet, game: Game[Any, Any], player: str, order: Any) -> Game[Any, Any] | RuleError:
    """A simultaneous game: record one more order, checked against what the earlier ones left (R15)."""
    if not ruleset.simultaneous:
        raise ValueError(f"{ruleset.name} resolves each action at once: use act()")
    problem = gate(ruleset, game, player)
    if problem is not None:
        return problem
    counted = tally(ruleset, game, player)
    problem = ruleset.check_order(game, player, counted, order)
    if problem is not None:
        return problem
    counted = ruleset.account(game, player, counted, order)
    return game.evolve(
        orders={**game.orders, player: (*game.orders_of(player), order)}, tallies={**game.tallies, player: counted}
    )


def withdraw(ruleset: AnyRuleSet, game: Game[Any, Any], player: str, index: int) -> Game[Any, Any] | RuleError:
    """Take back the order at `index` (0-based), and only if the orders after it still hold without it (R15): only
    those are checked again (each order before it was checked against the orders before it, which stay as they
    were), so withdrawing the last order checks nothing again."""
    problem = gate(ruleset, game, player)
    if problem is not None:
        return problem
    orders = game.orders_of(player)
    if not 0 <= index < len(orders):
        return RuleError(Refused.NO_SUCH_ORDER, f"there is no order number {index + 1}; you have {len(orders)}")
    counted = ruleset.start_tally(game, player)
    for earlier in orders[:index]:  # checked against these same orders before them when issued: counted only
        counted = ruleset.account(game, player, counted, earlier)
    for later in orders[index + 1 :]:
        problem = ruleset.check_order(game, player, counted, later)
        if problem is not None:
            return RuleError(problem.code, f"withdrawing it would break a later order: {problem.message}")
        counted = ruleset.account(game, player, counted, later)
    remaining = orders[:index] + orders[index + 1 :]
    return game.evolve(orders={**game.orders, player: remaining}, tallies={**game.tallies, player: counted})


def move(ruleset: AnyRuleSet, game: Game[Any, Any], player: str, index: int, to: int) -> Game[Any, Any] | RuleError:
    """Put the order at `index` (0-based) at place `to` among the player's orders, the others keeping their order:
    a simultaneous game carries out each player's orders in the order given (Warzone), so their order is the
    player's to choose. Every order is checked again in the new order, as each was when issued (R15): a move that
    would put an order before what it needs is refused, and changes nothing."""
    if not ruleset.simultaneous:
        return RuleError(Refused.NO_SUCH_ORDER, "in this game each action takes effect at once: no order waits")
    problem = gate(ruleset, game, player)
    if problem is not None:
        return problem
    orders = game.orders_of(player)
    for place in (index, to):
        if not 0 <= place < len(orders):
            return RuleError(Refused.NO_SUCH_ORDER, f"there is no order number {place + 1}; you have {len(orders)}")
    moved = [*orders[:index], *orders[index + 1 :]]
    moved.insert(to, orders[index])
    counted = ruleset.start_tally(game, player)
    for place, order in enumerate(moved):
        problem = ruleset.check_order(game, player, counted, order)
        if problem is not None:
            return RuleError(problem.code, f"in that order, order {place + 1} would not hold: {problem.message}")
        counted = ruleset.account(game, player, counted, order)
    return game.evolve(orders={**game.orders, player: tuple(moved)}, tallies={**game.tallies, player: counted})


def commit(ruleset: AnyRuleSet, game: Game[Any, Any], player: str) -> Game[Any, Any] | RuleError:
    if not ruleset.simultaneous:
        return RuleError(
            Refused.NOTHING_TO_COMMIT, "in this game each action takes effect at once: there is nothing to commit"
        )
    problem = gate(ruleset, game, player)
    if problem is not None:
        return problem
    problem = ruleset.check_commit(game, player, tally(ruleset, game, player))
    if problem is not None:
        return problem
    return game.evolve(committed=game.committed | {player})


def ready(ruleset: AnyRuleSet, game: Game[Any, Any]) -> bool:
    """A simultaneous game whose every awaited player has committed: it resolves now."""
    if not ruleset.simultaneous:
        return False
    status = status_of(ruleset, game)
    return not status.finished and bool(status.acting) and not awaiting(ruleset, game, status)


def advance(ruleset: AnyRuleSet, game: Game[Any, Any], dice: Dice) -> tuple[Game[Any, Any], Resolved]:
    """Resolve the committed orders of every player the game waited for (an empty batch where they issued none)."""
    status = status_of(ruleset, game)
    batches = {p: game.orders_of(p) for p in game.players if p in status.acting}
    board, events = ruleset.resolve(game, batches, dice(game.step))
    resolved = Resolved(game.step, status.turn, batches, events)
    return game.evolve(board=board, step=game.step + 1, orders={}, committed=frozenset(), tallies={}), resolved


def act(
    ruleset: AnyRuleSet, game: Game[Any, Any], player: str, order: Any, dice: Dice
) -> tuple[Game[Any, Any], Resolved] | RuleError:
    """A turn-by-turn game: check one action of the player whose turn it is, and carry it out at once."""
    if ruleset.simultaneous:
        raise ValueError(f"{ruleset.name} resolves a turn once everyone has committed: use issue()")
    problem = check(ruleset, game, player, order)
    if problem is not None:
        return problem
    status = status_of(ruleset, game)
    board, events = ruleset.resolve(game, {player: (order,)}, dice(game.step))
    resolved = Resolved(game.step, status.turn, {player: (order,)}, events)
    return game.evolve(board=board, step=game.step + 1, orders={}, committed=frozenset(), tallies={}), resolved


def time_out(
    ruleset: AnyRuleSet, game: Game[Any, Any], dice: Dice, players: Sequence[str] | None = None
) -> tuple[Game[Any, Any], list[str], list[Resolved]]:
    """D3, C9: the turn's time ran out. Returns the game after playing for everyone awaited (or those of `players`
    the game awaits: each player's time may run out at another moment, their banks and vacations counted), who they
    were, and the resolutions that followed.

    Simultaneous: each awaited player is committed with what they issued and what the rule set adds for them; a
    batch that cannot be committed is dropped for one the rule set makes from nothing. Turn-by-turn: the rule set
    plays the awaited player's turn out, one action at a time.
    """
    late = sorted(p for p in awaiting(ruleset, game) if players is None or p in players)
    resolutions: list[Resolved] = []
    if ruleset.simultaneous:
        for player in late:
            game = _complete(ruleset, game, player)
        if ready(ruleset, game):
            game, resolved = advance(ruleset, game, dice)
            resolutions.append(resolved)
        return game, late, resolutions
    for player in late:
        for _ in range(MAX_TIMEOUT_ACTIONS):
            if player not in awaiting(ruleset, game):
                break
            actions = ruleset.timeout_orders(game, player, tally(ruleset, game, player))
            if not actions:
                raise RuntimeError(f"{ruleset.name}: nothing to play for {player} whose time ran out")
            for order in actions:
                done = act(ruleset, game, player, order, dice)
                if isinstance(done, RuleError):
                    raise RuntimeError(f"{ruleset.name}: its own move for {player} was refused: {done.message}")
                game, resolved = done
                resolutions.append(resolved)
                if player not in awaiting(ruleset, game):
                    break
        else:
            raise RuntimeError(f"{ruleset.name}: {player}'s turn never passed on")
    return game, late, resolutions


def _complete(ruleset: AnyRuleSet, game: Game[Any, Any], player: str) -> Game[Any, Any]:
    for attempt in range(2):
        trial = (
            game
            if attempt == 0
            else game.evolve(
                orders={**game.orders, player: ()}, tallies={k: v for k, v in game.tallies.items() if k != player}
            )
        )
        for order in ruleset.timeout_orders(trial, player, tally(ruleset, trial, player)):
            issued = issue(ruleset, trial, player, order)
            if isinstance(issued, Game):
                trial = issued
        committed = commit(ruleset, trial, player)
        if isinstance(committed, Game):
            return committed
    raise RuntimeError(f"{ruleset.name}: {player} cannot commit even the orders made for them")


@dataclass(frozen=True)
class SeatPlayed:
    """What became of a computer player's decision: the game after it, the orders the rules kept, the ones they
    refused (with why; None for a refused commit), and what resolved on the way."""

    game: Game[Any, Any]
    issued: list[Any]
    refused: list[tuple[Any | None, RuleError]]
    resolved: list[Resolved]
    timed_out: bool = False
    """A turn-by-turn player whose choice was refused: their turn was played out as when time runs out."""


def play_seat(ruleset: AnyRuleSet, game: Game[Any, Any], player: str, orders: Sequence[Any], dice: Dice) -> SeatPlayed:
    """One way for every seat a computer plays (the server's, a tournament's, the console's): its decision carried
    out so that the game never stalls on it. Simultaneous: each order issued that the rules accept, the rest
    refused, then the commit; a commit the rules refuse is completed as when time runs out. Turn-by-turn: the
    actions carried out at once, in turn, while the player is awaited and the rules accept them (a refused one ends
    them: the board has moved on since the decision; a caller that decides again after each action passes one);
    when none was carried out, the turn is played out as when time runs out. A player the game does not wait for
    plays nothing."""
    if player not in awaiting(ruleset, game):
        return SeatPlayed(game, [], [], [])
    issued: list[Any] = []
    refused: list[tuple[Any | None, RuleError]] = []
    if ruleset.simultaneous:
        for order in orders:
            done = issue(ruleset, game, player, order)
            if isinstance(done, RuleError):
                refused.append((order, done))
            else:
                game = done
                issued.append(order)
        committed = commit(ruleset, game, player)
        if isinstance(committed, RuleError):
            refused.append((None, committed))
            committed = _complete(ruleset, game, player)
        return SeatPlayed(committed, issued, refused, [])
    step = game.step
    resolved: list[Resolved] = []
    for order in orders:
        if player not in awaiting(ruleset, game):
            break
        acted = act(ruleset, game, player, order, dice)
        if isinstance(acted, RuleError):
            refused.append((order, acted))
            break
        game, one = acted
        issued.append(order)
        resolved.append(one)
    if game.step != step or player not in awaiting(ruleset, game):
        return SeatPlayed(game, issued, refused, resolved)
    game, _, resolutions = time_out(ruleset, game, dice)
    return SeatPlayed(game, issued, refused, resolved + resolutions, timed_out=True)


def resign(
    ruleset: AnyRuleSet, game: Game[Any, Any], player: str, dice: Dice
) -> tuple[Game[Any, Any], Resolved] | RuleError:
    """A player still in gives up: the rule set decides what becomes of what they held. Their orders of the turn go;
    the others' orders and commits stay, and the step stays too (the dice, where the rule set needs any, are the
    step's, as the next resolution's are), so nobody's turn starts again because someone resigned. A simultaneous
    turn that waited only for them resolves (the caller sees to it: `ready`)."""
    status = status_of(ruleset, game)
    if (out := _out_of_play(status, game, player, "you are out of the game already")) is not None:
        return out
    board, events = ruleset.resign(game, player, dice(game.step))
    orders = {p: batch for p, batch in game.orders.items() if p != player}
    resolved = Resolved(game.step, status.turn, {}, events)
    return game.evolve(board=board, orders=orders, committed=game.committed - {player}, tallies={}), resolved


def reveal(orders: dict[str, tuple[Any, ...]], ruleset: AnyRuleSet) -> dict[str, list[dict[str, Any]]]:
    """Resolved orders as JSON values, for the log."""
    return {player: [ruleset.dump_order(o) for o in batch] for player, batch in orders.items()}


def replay_orders(
    ruleset: AnyRuleSet, game: Game[Any, Any], orders: dict[str, Sequence[Any]], dice: Dice
) -> tuple[Game[Any, Any], Resolved] | RuleError:
    """Carry out a logged resolution again: issue and commit each batch (simultaneous) or act (turn-by-turn)."""
    if not ruleset.simultaneous:
        ((player, batch),) = orders.items()
        (order,) = batch
        return act(ruleset, game, player, order, dice)
    for player, batch in orders.items():
        for order in batch:
            issued = issue(ruleset, game, player, order)
            if isinstance(issued, RuleError):
                return RuleError(issued.code, f"{player}'s order is refused: {issued.message}")
            game = issued
    for player in sorted(awaiting(ruleset, game)):
        committed = commit(ruleset, game, player)
        if isinstance(committed, RuleError):
            return RuleError(committed.code, f"{player} cannot commit: {committed.message}")
        game = committed
    return advance(ruleset, game, dice)
