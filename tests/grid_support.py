"""Grid games set up by hand (owners as five rows of seat letters), for the tests of G1-G6."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.game import turns
from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.random import GameRandom
from shared.rulesets import get_ruleset
from shared.rulesets.grid.board import GridBoard, Phase
from shared.rulesets.grid.options import GridOptions
from tests.classic_support import LoadedDice, loaded

GRID = get_ruleset("grid")
BOARD = GRID.make_map(GRID.options({}))
SEATS = ("ann", "bob", "cat")

__all__ = ["BOARD", "GRID", "SEATS", "LoadedDice", "act", "game_at", "loaded", "refused"]


def game_at(
    rows: str,
    troops: list[int] | None = None,
    *,
    seats: tuple[str, ...] = SEATS,
    phase: Phase = Phase.ATTACK,
    active: str | None = None,
    turn: int = 1,
    options: Mapping[str, Any] | None = None,
    **fields: Any,
) -> Game[GridBoard, Any]:
    """`rows`: 25 seat letters (A = first seat), row by row, spaces ignored; `troops`: 25 numbers (default 1)."""
    letters = rows.replace(" ", "").replace("\n", "")
    assert len(letters) == 25
    names = BOARD.names
    owner = {n: seats["ABCDE".index(c)] for n, c in zip(names, letters, strict=True)}
    board = GridBoard(
        phase=phase,
        turn=turn,
        active=active or seats[0],
        owner=owner,
        troops=dict(zip(names, troops or [1] * 25, strict=True)),
        **fields,
    )
    return Game("grid", BOARD, seats, GridOptions(**(options or {})), board)


def act(
    game: Game[GridBoard, Any], order: Any, dice: Any = None, player: str | None = None
) -> tuple[Game[GridBoard, Any], list[Any]]:
    who = player or game.board.active
    done = turns.act(GRID, game, who, order, dice or (lambda step: GameRandom("grid-test", step)))
    assert not isinstance(done, RuleError), f"{order} refused: {done}"
    game, resolved = done
    return game, list(resolved.events)


def refused(game: Game[GridBoard, Any], order: Any, player: str | None = None) -> RuleError:
    problem = turns.check(GRID, game, player or game.board.active, order)
    assert problem is not None, f"{order} was accepted"
    return problem
