"""Properties over random grid games played with random legal actions (Hypothesis): troops change only by deployment
and combat, every cell holds at least one troop of a player still in (but a taken cell awaiting its move-in), and a
game replays exactly from its seed and actions."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.game import turns
from shared.game.errors import RuleError
from shared.game.random import SETUP_STEP, GameRandom, dice_of
from shared.rulesets.grid.events import Battle, NewTroopsDeployed, TroopDeployed
from tests.grid_support import BOARD, GRID

SEATS = ("ann", "bob", "cat", "dan", "eve")


def troops_added(events: list[Any]) -> int:
    added = 0
    for event in events:
        if isinstance(event, TroopDeployed):
            added += 1
        elif isinstance(event, NewTroopsDeployed):
            added += event.troops
        elif isinstance(event, Battle):
            added -= event.attacker_losses + event.defender_losses
    return added


@settings(max_examples=30, deadline=None)
@given(st.data(), st.integers(3, 5), st.integers(0, 10**9), st.integers(9, 20))
def test_random_legal_grid_games_keep_the_rules_and_replay_exactly(
    data: st.DataObject, players: int, seed: int, troops: int
) -> None:
    start = GRID.new_game(BOARD, SEATS[:players], GRID.options({"troops": troops}), GameRandom(seed, SETUP_STEP))
    dice = dice_of(seed)
    game, log, boards = start, [], []
    for _ in range(200):
        status = GRID.status(game)
        if status.finished:
            break
        (player,) = status.acting
        legal = turns.legal_orders(GRID, game, player)
        entry = legal[data.draw(st.integers(0, len(legal) - 1))]
        order = entry.order
        if entry.count_field is not None:
            changes = {entry.count_field: data.draw(st.integers(entry.least, getattr(order, entry.count_field)))}
            order = replace(order, **changes)
        before = sum(game.board.troops.values())
        done = turns.act(GRID, game, player, order, dice)
        assert not isinstance(done, RuleError), f"a legal order was refused: {order}: {done}"
        game, resolved = done
        assert sum(game.board.troops.values()) == before + troops_added(resolved.events)
        board = game.board
        alive = set(SEATS[:players]) - set(board.eliminated)
        for name, owner in board.owner.items():
            assert owner in alive
            pending = board.conquest is not None and board.conquest.target == name
            assert board.troops[name] >= (0 if pending else 1)
        log.append((player, order))
        boards.append(board)
    replayed = start
    for (player, order), board in zip(log, boards, strict=True):
        done = turns.replay_orders(GRID, replayed, {player: [order]}, dice)
        assert not isinstance(done, RuleError)
        replayed, _ = done
        assert replayed.board == board
    assert GRID.load_board(GRID.dump_board(game.board)) == game.board
    view = GRID.view(game, None)
    assert GRID.load_view(GRID.dump_view(view)) == view
