"""Properties over random games of classic Risk played with random legal actions (Hypothesis): armies change only by
placement, reinforcement and combat; every country is held by one player still in the game with at least one army
(but a conquered country waiting for its move-in); cards are never made or lost; a hand is below 5 cards once
reinforcement is over; and a game replays exactly from its seed and its actions (turns.replay_orders)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.game import turns
from shared.game.errors import RuleError
from shared.game.random import SETUP_STEP, GameRandom, dice_of
from shared.game.ruleset import Private
from shared.rulesets.classic.board import ClassicBoard
from shared.rulesets.classic.cards import MUST_TRADE_AT
from shared.rulesets.classic.events import ArmiesPlaced, ArmyPlaced, DiceRolled, Reinforced
from tests.classic_support import CLASSIC, TINY

SEATS = ("ann", "bob", "cat", "dan")
OPTIONS = st.fixed_dictionaries(
    {
        "card_schedule": st.sampled_from(["seed", "increasing", "fixed"]),
        "fortify": st.sampled_from(["path", "adjacent"]),
        "mode": st.sampled_from(["domination", "capital", "mission"]),
        "initial_armies": st.integers(4, 9),
    }
)


def armies_added(events: list[Any]) -> int:
    added = 0
    for event in events:
        if isinstance(event, ArmyPlaced):
            added += 1
        elif isinstance(event, ArmiesPlaced):
            added += sum(n for _, n in event.placed)
        elif isinstance(event, Reinforced):
            added += event.armies
        elif isinstance(event, DiceRolled):
            added -= event.attacker_losses + event.defender_losses
    return added


def check_board(board: ClassicBoard) -> None:
    alive = set(board.seats) - set(board.eliminated)
    for name, owner in board.owner.items():
        assert owner in alive
        pending = board.conquest is not None and board.conquest.target == name
        assert board.armies[name] >= (0 if pending else 1)
    assert all(p in board.owner.values() for p in alive)
    cards = len(board.deck) + len(board.discard) + sum(len(h) for h in board.hands.values())
    assert cards == len(TINY.names) + 2


@settings(max_examples=40, deadline=None)
@given(st.data(), st.integers(2, 4), OPTIONS, st.integers(0, 10**9))
def test_random_legal_games_keep_the_rules_and_replay_exactly(
    data: st.DataObject, players: int, options: dict[str, Any], seed: int
) -> None:
    chosen = CLASSIC.options(options)
    start = CLASSIC.new_game(TINY, SEATS[:players], chosen, GameRandom(seed, SETUP_STEP))
    dice = dice_of(seed)
    game = start
    log: list[tuple[str, Any]] = []
    boards = []
    for _ in range(150):
        status = CLASSIC.status(game)
        if status.finished:
            break
        (player,) = status.acting
        legal = turns.legal_orders(CLASSIC, game, player)
        assert legal, f"nothing legal for {player} in {game.board.phase}"
        entry = legal[data.draw(st.integers(0, len(legal) - 1))]
        order = entry.order
        if entry.count_field is not None:
            most = getattr(order, entry.count_field)
            changes = {entry.count_field: data.draw(st.integers(entry.least, most))}
            order = replace(order, **changes)
        before = sum(game.board.armies.values())
        done = turns.act(CLASSIC, game, player, order, dice)
        assert not isinstance(done, RuleError), f"a legal order was refused: {order}: {done}"
        game, resolved = done
        events = [e.event if isinstance(e, Private) else e for e in resolved.events]
        assert sum(game.board.armies.values()) == before + armies_added(events)
        check_board(game.board)
        if (
            resolved.turn
            and CLASSIC.status(game).phase != "reinforcement"
            and not CLASSIC.status(game).finished
            and events
            and any(e.kind == "reinforced" for e in events)
        ):
            # Reinforcement is over: the player holds fewer than 5 cards (C4).
            assert len(game.board.hand(player)) < MUST_TRADE_AT
        log.append((player, order))
        boards.append(game.board)
    replayed = start
    for (player, order), board in zip(log, boards, strict=True):
        done = turns.replay_orders(CLASSIC, replayed, {player: [order]}, dice)
        assert not isinstance(done, RuleError)
        replayed, _ = done
        assert replayed.board == board
    # Boards and views survive storage and the wire.
    assert CLASSIC.load_board(CLASSIC.dump_board(game.board)) == game.board
    for viewer in (None, *SEATS[:players]):
        view = CLASSIC.view(game, viewer)
        assert CLASSIC.load_view(CLASSIC.dump_view(view)) == view
    for _, order in log:
        assert CLASSIC.load_order(CLASSIC.dump_order(order)) == order
