"""E3, E11 in the text client: commands that name levels (or take the lowest first), upgrade, research, spy and cloak;
the board with unit levels, stocks and technology levels; the reports."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shared.game.game import Game
from shared.game.grammar import ParseError
from shared.game.presentation import Context, OrderCommand, Palette
from shared.rulesets.risc.board import Phase, RiscBoard
from shared.rulesets.risc.evo_events import Battle
from shared.rulesets.risc.evo_orders import (
    CloakingResearchOrder,
    CloakOrder,
    LevelAttackOrder,
    LevelMoveOrder,
    ResearchOrder,
    SpyMoveOrder,
    SpyOrder,
    UpgradeOrder,
)
from shared.rulesets.risc.options import RiscOptions
from shared.rulesets.risc.resources import Land
from tests.evolution_support import (
    RISC,
    SEED_OWNERS,
    SEED_UNITS,
    issued,
    levels,
    make_game,
    refusal,
    rules,
    seed_game,
    seed_map,
)

PRESENTATION = RISC.variant(RiscOptions(evolution=2)).presentation
COMMANDS = {c.name: c for c in PRESENTATION.commands}


def game_with_narnia(evolution: int = 2) -> Any:
    base = seed_game(evolution)
    return make_game(
        base.game_map,
        dict(base.board.owner),
        {**base.board.units, "Narnia": levels((0, 3), (1, 4), (3, 2))},
        evolution,
        players=("green", "blue", "red"),
        tech={"green": 3},
        land={n: Land(2, 7, 5) for n in base.game_map.names},
    )


def parse(text: str, game: Any = None, orders: Sequence[Any] = (), you: str = "green") -> Any:
    game = game if game is not None else game_with_narnia()
    name, *args = text.split()
    command: OrderCommand = COMMANDS[name]
    return rules(game).presentation.parse(
        command, args, Context(game.game_map, rules(game).view(game, you), you, tuple(orders))
    )


def text(fragments: list[tuple[str, str]]) -> str:
    return "".join(t for _, t in fragments)


def test_E3_a_move_that_leaves_the_levels_out_takes_the_lowest_levels_first() -> None:
    assert parse("move 5 Narnia Oz") == [LevelMoveOrder(3, 0, "Narnia", "Oz"), LevelMoveOrder(2, 1, "Narnia", "Oz")]
    assert parse("attack 8 Nar Elantris") == [
        LevelAttackOrder(3, 0, "Narnia", "Elantris"),
        LevelAttackOrder(4, 1, "Narnia", "Elantris"),
        LevelAttackOrder(1, 3, "Narnia", "Elantris"),
    ]


def test_E3_the_lowest_levels_are_those_the_earlier_orders_leave() -> None:
    earlier = [LevelMoveOrder(2, 0, "Narnia", "Midkemia"), UpgradeOrder(1, "Narnia", 0, 3)]
    assert parse("move 3 Narnia Oz", orders=earlier) == [LevelMoveOrder(3, 1, "Narnia", "Oz")]


def test_E3_counts_may_name_their_levels() -> None:
    assert parse("move 2@3 Narnia Oz") == [LevelMoveOrder(2, 3, "Narnia", "Oz")]
    assert parse("attack 3@0,2@1 Narnia Elantris") == [
        LevelAttackOrder(3, 0, "Narnia", "Elantris"),
        LevelAttackOrder(2, 1, "Narnia", "Elantris"),
    ]
    for wrong in ("move 2@9 Narnia Oz", "move 3,2@1 Narnia Oz", "move two Narnia Oz"):
        assert isinstance(parse(wrong), ParseError), wrong


def test_E3_asking_for_more_units_than_are_left_is_left_to_the_rules_to_refuse() -> None:
    """The client decides no rule: it sends the order, and the server's refusal says what is wrong."""
    (order,) = parse("move 50 Narnia Oz")
    assert order == LevelMoveOrder(50, 0, "Narnia", "Oz")
    assert (
        refusal(game_with_narnia(), "green", order).message
        == "Narnia has 3 level-0 units left to send, the order asks for 50"
    )
    (order,) = parse("move 5 Elantris Oz")  # not green's: the rules say so
    assert order == LevelMoveOrder(5, 0, "Elantris", "Oz")


def test_E5_E6_upgrade_and_research_commands() -> None:
    assert parse("upgrade 4 Narnia 0 2") == [UpgradeOrder(4, "Narnia", 0, 2)]
    assert parse("research") == [ResearchOrder()]
    assert isinstance(parse("upgrade 4 Narnia 2"), ParseError)


def test_E13_E14_spy_and_cloak_commands() -> None:
    game = game_with_narnia(3)
    assert parse("spy 1 Narnia", game) == [SpyOrder(1, "Narnia")]
    assert parse("spy 2 Narnia Elantris", game) == [SpyMoveOrder(2, "Narnia", "Elantris")]
    assert parse("cloak Narnia", game) == [CloakOrder("Narnia")]
    assert parse("research cloaking", game) == [CloakingResearchOrder()]


def test_an_evolution_1_game_says_that_levels_and_upgrades_belong_to_the_evolutions() -> None:
    first: Game[RiscBoard, Any] = Game(
        "risc",
        seed_map(),
        ("green", "blue", "red"),
        RiscOptions(),
        RiscBoard(Phase.ORDERS, 1, dict(SEED_OWNERS), dict(SEED_UNITS)),
    )
    for typed in ("upgrade 1 Narnia 0 1", "move 2@1 Narnia Oz", "research"):
        result = parse(typed, first)
        assert isinstance(result, ParseError) and "Evolution" in result.message, typed


def test_E11_the_board_shows_levels_stocks_and_technology_levels() -> None:
    game = game_with_narnia()
    shown = text(PRESENTATION.board(rules(game).view(game, "green"), game.game_map, Palette(game.players), "green"))
    assert "You hold 100 food and 100 technology; maximum technology level 3" in shown
    assert "  Narnia    9 A (3 L0, 4 L1, 2 L3) size 2 +7f +5t | Mid 12 A, Ela 6 B\n" in shown
    assert "Technology levels: blue 1, red 1" in shown
    spectator = text(PRESENTATION.board(rules(game).view(game, None), game.game_map, Palette(game.players), None))
    assert "You hold" not in spectator


def test_E9_a_battle_reads_with_its_levels() -> None:
    battle = Battle(
        "Oz", "red", "green", levels((0, 2), (2, 1)), levels((0, 4)), levels((2, 1)), levels(), "red", (("Mordor", 3),)
    )
    line = text(PRESENTATION.events([battle], Palette(("green", "blue", "red")), "green"))
    assert line == (
        "red attacked Oz (green) with 3 (2 L0, 1 L2) from Mordor against 4: red lost 2, green lost 4. "
        "red takes Oz, 1 (1 L2) left.\n"
    )


def test_the_status_bar_says_what_the_orders_leave_of_the_stocks() -> None:
    game = game_with_narnia()
    game = issued(game, "green", LevelAttackOrder(3, 0, "Narnia", "Elantris"), UpgradeOrder(2, "Oz", 0, 1))
    assert PRESENTATION.status(rules(game).view(game, "green"), "green", []) == "97 food, 94 technology left"


def test_board_name_shows_one_territory_with_its_neighbours_or_one_player_as_evolution_1_does() -> None:
    game = game_with_narnia()
    view, palette = rules(game).view(game, "green"), Palette(game.players)
    whole = text(PRESENTATION.board(view, game.game_map, palette, "green"))
    around = text(PRESENTATION.board(view, game.game_map, palette, "green", focus="Narnia"))

    def rows(shown: str) -> list[str]:
        return [row.split()[0] for row in shown.splitlines() if row.startswith("  ")]

    assert rows(around) == [n for n in game.game_map.names if n in ("Narnia", *game.game_map.neighbours("Narnia"))]
    assert len(around.splitlines()) < len(whole.splitlines())
    assert "You hold" not in around
    blue = text(PRESENTATION.board(view, game.game_map, palette, "green", focus="blue"))
    assert rows(blue) == ["Elantris", "Roshar", "Scadrial"]
    assert "blue" in PRESENTATION.focus_names(view, game.game_map)
