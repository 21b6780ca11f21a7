"""What a viewer sees of a grid game: everything (nothing is secret in it), keyed by name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import TypeAdapter

from shared.game.game import Game
from shared.rulesets.grid.board import Conquest, GridBoard, Phase
from shared.rulesets.grid.cells import letter
from shared.rulesets.grid.options import GridOptions


@dataclass(frozen=True)
class CellState:
    owner: str | None = None
    troops: int = 0


@dataclass(frozen=True)
class PlayerState:
    letter: str = "-"
    territories: int = 0
    troops: int = 0
    to_deploy: int = 0
    """G2: troops still to deploy in the deployment stage."""
    eliminated: bool = False


@dataclass(frozen=True)
class GridView:
    phase: Phase
    turn: int
    seats: list[str]
    territories: dict[str, CellState]
    players: dict[str, PlayerState]
    active: str | None = None
    troops_each: int = 15
    """G2: what each player deploys in all."""
    new_troops: int = 0
    conquest: Conquest | None = None
    winner: str | None = None
    kind: Literal["grid"] = "grid"


VIEW: TypeAdapter[GridView] = TypeAdapter(GridView)


def view(game: Game[GridBoard, Any], viewer: str | None) -> GridView:
    board, options = game.board, game.options
    assert isinstance(options, GridOptions)
    cells = {n: CellState(board.owner[n], board.troops[n]) for n in game.game_map.names}
    players = {}
    for p in game.players:
        own = [n for n in game.game_map.names if board.owner[n] == p]
        to_deploy = options.troops - board.deployed.get(p, options.troops) if board.phase is Phase.DEPLOYMENT else 0
        players[p] = PlayerState(
            letter(game.players, p), len(own), sum(board.troops[n] for n in own), to_deploy, p in board.eliminated
        )
    finished = board.phase is Phase.FINISHED
    return GridView(
        board.phase,
        board.turn,
        list(game.players),
        cells,
        players,
        None if finished else board.active,
        options.troops,
        board.new_troops,
        board.conquest,
        board.winner,
    )


def game_from_view(view: GridView, game_map: Any) -> Game[GridBoard, Any]:
    """The game as the view tells it (all of it: nothing is hidden), for the computer players to ask the rules."""
    board = GridBoard(
        phase=view.phase,
        turn=view.turn,
        active=view.active or view.seats[0],
        owner={n: c.owner or "" for n, c in view.territories.items()},
        troops={n: c.troops for n, c in view.territories.items()},
        deployed={p: view.troops_each - s.to_deploy for p, s in view.players.items()},
        new_troops=view.new_troops,
        conquest=view.conquest,
        eliminated=tuple(p for p, s in view.players.items() if s.eliminated),
        winner=view.winner,
    )
    return Game("grid", game_map, tuple(view.seats), GridOptions(troops=view.troops_each), board)
