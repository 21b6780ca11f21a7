"""G1's board drawn as the seed draws it, the grid game's commands (each in its phase), and every die shown (G4)."""

from __future__ import annotations

import pytest

from shared.game.grammar import ParseError
from shared.game.presentation import ArgKind, Context, Palette
from shared.rulesets.grid.board import Phase
from shared.rulesets.grid.events import Battle
from shared.rulesets.grid.orders import Attack, Deploy, End, Move, MoveIn
from tests.grid_support import BOARD, GRID, SEATS, act, game_at, loaded

PRESENTATION = GRID.presentation
COMMANDS = {c.name: c for c in PRESENTATION.commands}


def parse(text: str) -> list[object] | ParseError:
    name, *args = text.split()
    return PRESENTATION.parse(COMMANDS[name], args, Context(BOARD, None, "ann"))


@pytest.mark.parametrize(
    ("typed", "orders"),
    [
        ("deploy 2,3", [Deploy("2,3")]),
        ("deploy 2 3", [Deploy("2,3")]),
        ("deploy (2, 3)", [Deploy("2,3")]),
        ("attack 2,3 2,4 3", [Attack("2,3", "2,4", 3)]),
        ("attack 2 3 2 4 1", [Attack("2,3", "2,4", 1)]),
        ("movein 4", [MoveIn(4)]),
        ("move 0,0 4,4 2", [Move("0,0", "4,4", 2)]),
        ("end", [End()]),
    ],
)
def test_G1_commands_in_a_vg101_players_words_cells_typed_as_row_and_column(typed: str, orders: list[object]) -> None:
    assert parse(typed) == orders


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("deploy 2", "usage: deploy ROW,COL, e.g. deploy 2,3"),
        ("deploy 5,0", "there is no cell (5, 0): rows and columns go from 0 to 4"),
        ("deploy -1,0", "there is no cell (-1, 0): rows and columns go from 0 to 4"),
        ("attack 2,3 2,4", "usage: attack FROM TO M, e.g. attack 2,3 2,4 3"),
        ("movein", "usage: movein P, e.g. movein 3"),
        ("move 1,1 2", "usage: move FROM TO P, e.g. move 1,1 2,3 4"),
        ("end now", "usage: end, e.g. end"),
    ],
)
def test_G1_what_does_not_parse_says_how_to_say_it(typed: str, said: str) -> None:
    """A cell off the board is named with the board's bounds; a command short of its parts shows its usage."""
    problem = parse(typed)
    assert isinstance(problem, ParseError) and problem.message == said


def test_G1_each_order_reads_back_as_typed() -> None:
    for order in (Deploy("1,2"), Attack("0,0", "0,1", 2), MoveIn(3), Move("4,4", "0,0", 1), End()):
        assert parse(PRESENTATION.describe(order)) == [order]


def test_G1_each_command_in_its_phase() -> None:
    phases = {c.name: set(c.phases) for c in PRESENTATION.commands}
    assert phases == {
        "deploy": {"deployment", "new troops"},
        "attack": {"attack"},
        "movein": {"move-in"},
        "move": {"attack"},
        "end": {"attack"},
    }
    assert {p for ps in phases.values() for p in ps} <= {p.value for p in Phase}


def test_G1_the_board_is_drawn_as_the_seeds_table() -> None:
    rows = "CBAEE DBACC CAAAC BBACC BDACE"
    troops = [2, 1, 10, 12, 5, 2, 4, 3, 8, 5, 2, 1, 2, 8, 4, 6, 19, 5, 8, 4, 2, 1, 5, 7, 5]
    seats = ("ann", "bob", "cat", "dan", "eve")
    game = game_at(rows, troops, seats=seats)
    text = "".join(t for _, t in PRESENTATION.board(GRID.view(game, "bob"), BOARD, Palette(seats), "bob"))
    lines = text.splitlines()
    assert lines[2] == "| RISK |  0   |  1   |  2   |  3   |  4   |"
    assert lines[3] == "|  0   | C 2  | B 1  | A 10 | E 12 | E 5  |"
    assert lines[7] == "|  4   | B 2  | D 1  | A 5  | C 7  | E 5  |"
    assert "B bob (you)" in text and "A ann" in text


def test_G1_completion_offers_own_cells_then_enemy_neighbours() -> None:
    game = game_at("ABBBB ABBBB CCCCC CCCCC CCCCC", [3] * 25)
    context = Context(BOARD, GRID.view(game, "ann"), "ann")
    assert PRESENTATION.candidates(ArgKind.OWN, ["attack"], context) == ["0,0", "1,0"]
    assert PRESENTATION.candidates(ArgKind.ENEMY, ["attack", "1,0"], context) == ["1,1", "2,0"]


def test_G4_every_die_is_shown() -> None:
    game = game_at("ABCCC CCCCC CCCCC CCCCC CCCCB", [5, 2] + [1] * 23)
    _, events = act(game, Attack("0,0", "0,1", 3), loaded(6, 2, 2, 5, 2))
    battle = events[0]
    assert isinstance(battle, Battle)
    text = "".join(t for _, t in PRESENTATION.events([battle], Palette(SEATS), None))
    assert (
        text == "A (ann) (0,0) attacks (0,1) of B (bob): rolls 6 2 2 against 5 2: attacker loses 1, defender "
        "loses 1; (0,0) 4, (0,1) 1\n"
    )


def test_G1_the_board_and_the_summary_count_one_territory_as_one_territory() -> None:
    game = game_at("ABBBB BBBBB CCCCC CCCCC CCCCC", [2] + [1] * 24)
    view = GRID.view(game, "ann")
    for drawn in (
        PRESENTATION.board(view, BOARD, Palette(SEATS), "ann"),
        PRESENTATION.summary(view, BOARD, Palette(SEATS), "ann"),
    ):
        text = "".join(t for _, t in drawn)
        assert "A ann (you): 1 territory, 2 troops" in text, text
        assert "B bob: 9 territories, 9 troops" in text, text


def test_the_status_adds_nothing_the_phase_already_says() -> None:
    for phase in (Phase.ATTACK, Phase.MOVE_IN):
        game = game_at("ABBBB ABBBB CCCCC CCCCC CCCCC", [3] * 25, phase=phase)
        assert PRESENTATION.status(GRID.view(game, "ann"), "ann", []) == ""
