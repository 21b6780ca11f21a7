"""E12 in the text client: the board shows what a player last saw, marked with its turn, and what they never saw."""

from __future__ import annotations

from shared.game.presentation import Palette
from shared.rulesets.risc.evo_orders import LevelAttackOrder, LevelMoveOrder
from tests.evolution_support import play_turn, rules, seed_game


def test_E12_the_board_marks_what_was_last_seen_with_its_turn_and_lists_what_was_never_seen() -> None:
    game, _ = play_turn(
        seed_game(3),
        {"green": [LevelMoveOrder(8, 0, "Oz", "Midkemia")], "red": [LevelAttackOrder(1, 0, "Gondor", "Oz")]},
    )
    shown = "".join(
        t
        for _, t in rules(game).presentation.board(
            rules(game).view(game, "green"), game.game_map, Palette(game.players), "green"
        )
    )
    assert "  Mordor   14 C size 1 +0f +0t seen t1 | Oz 2 C, Sca 6 B, Gon 13 C, Hog ?\n" in shown
    assert "  Roshar    ? ? size 1 | Ela 7 B, Sca 6 B, Hog ?\n" in shown
    assert "  Hogwarts  ? ? size 1 | " in shown
    assert "when last seen (seen t3; ?: never seen)" in shown


def test_E12_the_summary_says_the_game_is_under_fog_and_hides_others_counts() -> None:
    game = seed_game(3)
    shown = "".join(
        t
        for _, t in rules(game).presentation.summary(
            rules(game).view(game, "green"), game.game_map, Palette(game.players), "green"
        )
    )
    assert "Evolution 3 (fog of war)" in shown
    assert "green (you)  3 territories; 30 units; technology level 1; 100 food, 100 technology" in shown
    assert "blue         technology level 1" in shown
