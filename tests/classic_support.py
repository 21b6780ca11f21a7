"""Small classic Risk games set up by hand, and dice loaded with chosen faces, for the tests of C1-C12."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from shared.game import turns
from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.random import GameRandom
from shared.game.ruleset import Private
from shared.maps import Continent, GameMap, Territory, build_map, load_map
from shared.rulesets import get_ruleset
from shared.rulesets.classic.board import ClassicBoard, Phase
from shared.rulesets.classic.options import ClassicOptions

CLASSIC = get_ruleset("classic")

MAPS = Path(__file__).resolve().parents[1].parent / "shared" / "maps"
"""The real map files (../shared/maps from the project root), read in place."""


def real_map(name: str) -> GameMap:
    """A real Domination map, e.g. "world" (domination/world.map); missing, a failure that says where it was looked
    for (the real-map tests must not pass by skipping)."""
    assert MAPS.is_dir(), f"the real map files are missing: {MAPS} (../shared/maps from the project root)"
    return load_map(MAPS / "domination" / f"{name}.map")


#   A - B - C        North: A B C (bonus 2)
#   |       |        South: D E F G (bonus 3)
#   D - E - F - G
BORDERS = {"A": "BD", "B": "AC", "C": "BF", "D": "AE", "E": "DF", "F": "CEG", "G": "F"}
TINY: GameMap = build_map(
    "tiny",
    [Territory(n, "North" if n in "ABC" else "South") for n in "ABCDEFG"],
    {n: list(ns) for n, ns in BORDERS.items()},
    [Continent("North", 2), Continent("South", 3)],
)


class LoadedDice(GameRandom):
    """A generator whose d6 gives the faces asked for, in order (and fails loudly when they run out)."""

    def __init__(self, faces: Iterable[int], seed: str = "loaded") -> None:
        super().__init__(seed, 0)
        self.faces = list(faces)

    def d6(self) -> int:
        if not self.faces:
            raise AssertionError("the test's dice ran out")
        return self.faces.pop(0)


def loaded(*faces: int) -> Any:
    """Dice (turns.Dice) that roll `faces` whatever the step."""
    shared = LoadedDice(faces)
    return lambda step: shared


def game_at(
    owner: Mapping[str, str] | str,
    armies: Mapping[str, int] | Iterable[int],
    *,
    phase: Phase = Phase.ATTACK,
    active: str = "ann",
    seats: tuple[str, ...] = ("ann", "bob"),
    game_map: GameMap = TINY,
    options: Mapping[str, Any] | None = None,
    turn: int = 1,
    **fields: Any,
) -> Game[ClassicBoard, Any]:
    """A game at the given position. `owner` may be a string of seat initials in map order ("aabbbab");
    `armies` a sequence in map order."""
    names = game_map.names
    if isinstance(owner, str):
        initials = {p[0]: p for p in seats}
        owner = {n: initials[c] for n, c in zip(names, owner, strict=True)}
    if not isinstance(armies, Mapping):
        armies = dict(zip(names, armies, strict=True))
    chosen = ClassicOptions(**(options or {}))
    fields.setdefault("hands", {p: () for p in seats})
    board = ClassicBoard(
        phase=phase, turn=turn, seats=seats, active=active, owner=dict(owner), armies=dict(armies), **fields
    )
    return Game("classic", game_map, seats, chosen, board)


def act(
    game: Game[ClassicBoard, Any], order: Any, dice: Any = None, player: str | None = None
) -> tuple[Game[ClassicBoard, Any], list[Any]]:
    """The active player's action carried out; fails the test if it is refused. Returns the game and every event
    (Private ones unwrapped)."""
    who = player or game.board.active
    done = turns.act(CLASSIC, game, who, order, dice or (lambda step: GameRandom("test", step)))
    assert not isinstance(done, RuleError), f"{order} refused: {done}"
    game, resolved = done
    return game, [e.event if isinstance(e, Private) else e for e in resolved.events]


def refused(game: Game[ClassicBoard, Any], order: Any, player: str | None = None) -> RuleError:
    problem = turns.check(CLASSIC, game, player or game.board.active, order)
    assert problem is not None, f"{order} was accepted"
    return problem


def total_armies(game: Game[ClassicBoard, Any]) -> int:
    return sum(game.board.armies.values())
