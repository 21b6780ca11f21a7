"""What the client prints, compared with the text a player should read: the seed's board, the summary, combat lines."""

from __future__ import annotations

from typing import Any

from client import render
from shared.game.game import Game
from shared.game.presentation import Fragments, Palette
from shared.game.turns import issue
from shared.rulesets.risc.events import Combat, GameWon, PlayerEliminated, TurnStarted, UnitsMoved, UnitsReceived
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, PlaceOrder
from shared.rulesets.risc.presentation import combat_line
from tests.engine_support import RISC, SEED_OWNERS, SEED_UNITS, RiscGame, make_state, play_turn, seed_map, setup, view

NAMES = {"green": "Green", "blue": "Blue", "red": "Red"}
PLAYERS = ("Green", "Blue", "Red")
RULES = RISC
SHOW = RISC.presentation
PALETTE = Palette(PLAYERS)


def board(state: RiscGame, viewer: str | None) -> Fragments:
    return SHOW.board(view(state, viewer), state.game_map, PALETTE, viewer, state.orders_of(viewer or ""))


def events(found: list[Any], you: str | None) -> Fragments:
    return SHOW.events(found, PALETTE, you)


def seed_state() -> RiscGame:
    """The seed's first picture, with the players named by their colour."""
    return make_state(seed_map(), {t: NAMES[o] for t, o in SEED_OWNERS.items()}, SEED_UNITS, players=PLAYERS)


def styled(text: Fragments, words: str) -> set[str]:
    """The styles of the fragments that read `words`."""
    return {fragment[0] for fragment in text if fragment[1] == words}


def test_the_board_lists_each_player_s_territories_as_the_seed_does_own_first() -> None:
    assert render.plain(board(seed_state(), "Blue")) == (
        "Blue (you):\n"
        "  6 units in Elantris (next to: Narnia, Midkemia, Roshar, Scadrial)\n"
        "  3 units in Roshar (next to: Elantris, Scadrial, Hogwarts)\n"
        "  5 units in Scadrial (next to: Midkemia, Oz, Elantris, Roshar, Mordor, Hogwarts)\n"
        "\n"
        "Green:\n"
        "  10 units in Narnia (next to: Midkemia, Elantris)\n"
        "  12 units in Midkemia (next to: Narnia, Oz, Elantris, Scadrial)\n"
        "  8 units in Oz (next to: Midkemia, Scadrial, Gondor, Mordor)\n"
        "\n"
        "Red:\n"
        "  13 units in Gondor (next to: Oz, Mordor)\n"
        "  14 units in Mordor (next to: Oz, Scadrial, Gondor, Hogwarts)\n"
        "  3 units in Hogwarts (next to: Roshar, Scadrial, Mordor)\n")


def test_each_player_has_their_own_colour_the_same_for_every_viewer() -> None:
    state = seed_state()
    for viewer in (*PLAYERS, None):
        shown_board = board(state, viewer)
        for seat, name in enumerate(PLAYERS):
            shown = f"{name} (you)" if name == viewer else name
            assert styled(shown_board, shown) == {f"class:player.{seat}"}
    colours = {render.STYLE.get_attrs_for_style_str(f"class:player.{seat}").color for seat in range(3)}
    assert len(colours) == 3


def test_a_spectator_s_board_follows_the_seat_order_and_shows_neutral_territories_last() -> None:
    owners = {t: NAMES[o] for t, o in SEED_OWNERS.items()}
    owners["Gondor"] = None  # type: ignore[assignment]
    state = make_state(seed_map(), owners, {**SEED_UNITS, "Gondor": 3, "Roshar": 1}, players=PLAYERS)
    text = render.plain(board(state, None))
    assert [line for line in text.splitlines() if line.endswith(":")] == ["Green:", "Blue:", "Red:", "neutral:"]
    assert text.endswith("neutral:\n  3 units in Gondor (next to: Oz, Mordor)\n")
    assert "  1 unit in Roshar (next to: Elantris, Scadrial, Hogwarts)\n" in text


def test_the_summary_counts_territories_and_units() -> None:
    state = seed_state()
    assert render.plain(SHOW.summary(view(state, "Blue"), state.game_map, PALETTE, "Blue")) == (
        "Seed example, turn 1\n"
        "  Green       3 territories  30 units\n"
        "  Blue (you)  3 territories  14 units\n"
        "  Red         3 territories  30 units\n")


def test_combat_lines_the_seed_s_pictured_outcome() -> None:
    palette = PALETTE
    scadrial = Combat("Scadrial", "Green", "Blue", 10, 1, 1, 1, "Green", (("Midkemia", 10),))
    hogwarts = Combat("Hogwarts", "Blue", "Red", 4, 9, 4, 5, "Red", (("Scadrial", 4),))
    assert render.plain(combat_line(scadrial, palette)) == (
        "Green attacked Scadrial (Blue) with 10 from Midkemia against 1: Green lost 1, Blue lost 1. "
        "Green takes Scadrial, 9 units left.")
    assert render.plain(combat_line(hogwarts, palette)) == (
        "Blue attacked Hogwarts (Red) with 4 from Scadrial against 9: Blue lost 4, Red lost 5. "
        "Red holds Hogwarts, 4 units left.")
    assert styled(combat_line(hogwarts, palette), "Red") == {"class:player.2"}


def test_combat_lines_a_combined_force_against_neutral_and_against_nobody() -> None:
    palette = PALETTE
    combined = Combat("Gondor", "Green", None, 7, 3, 2, 3, "Green", (("Oz", 4), ("Mordor", 3)))
    assert render.plain(combat_line(combined, palette)) == (
        "Green attacked Gondor (neutral) with 7 from Oz 4, Mordor 3 against 3: Green lost 2, neutral lost 3. "
        "Green takes Gondor, 5 units left.")
    empty = Combat("Roshar", "Red", "Blue", 1, 0, 0, 0, "Red", (("Hogwarts", 1),))
    assert render.plain(combat_line(empty, palette)).endswith("Red takes Roshar, 1 unit left.")


def test_the_example_turn_reads_one_line_per_happening() -> None:
    """Each combat of the seed's example turn gets one line that agrees with the engine's own account of it."""
    orders = {"Green": [MoveOrder(3, "Narnia", "Oz"), AttackOrder(10, "Midkemia", "Scadrial")],
              "Blue": [AttackOrder(4, "Scadrial", "Hogwarts")],
              "Red": [MoveOrder(6, "Mordor", "Hogwarts")]}
    _, happened = play_turn(seed_state(), orders, seed=7)
    lines = render.plain(events(happened, "Green")).splitlines()
    moves = [e for e in happened if isinstance(e, UnitsMoved)]
    combats = [e for e in happened if isinstance(e, Combat)]
    received = [e for e in happened if isinstance(e, UnitsReceived)]
    assert lines[:len(moves)] == [f"{m.player} moved {m.units} from {m.source} to {m.target}."
                                  for m in moves]
    for combat, line in zip(combats, lines[len(moves):], strict=False):
        assert line == render.plain(combat_line(combat, PALETTE))
        assert f"{combat.attacker} lost {combat.attacker_losses}" in line
    assert lines[len(moves) + len(combats)] == "New units: " + ", ".join(
        f"{r.player} +{r.units}" for r in received) + "."
    assert lines[-1].strip() == "Turn 2"


def test_eliminations_and_victory_speak_to_the_player_concerned() -> None:
    entries = [PlayerEliminated("Blue"), GameWon("Green"), TurnStarted(4)]
    assert render.plain(events(entries, "Blue")) == (
        "You have lost: you hold no territory any more.\nGreen wins the game!\n Turn 4 \n")
    assert render.plain(events(entries, "Green")) == (
        "Blue is eliminated.\nYou win: the whole map is yours!\n Turn 4 \n")


def test_the_history_table_shows_territories_and_units_per_turn() -> None:
    history = {"1": {"Green": (3, 30), "Blue": (3, 14), "Red": (3, 30)},
               "2": {"Green": (4, 33), "Blue": (2, 9), "Red": (3, 30)},
               "end": {"Green": (9, 60), "Blue": (0, 0), "Red": (0, 0)}}
    assert render.plain(render.history_table(history, PLAYERS, PALETTE)) == (
        "Territories/units per turn:\n"
        "  turn      Green       Blue        Red\n"
        "     1       3/30       3/14       3/30\n"
        "     2       4/33        2/9       3/30\n"
        "   end       9/60        0/0        0/0\n")


def test_during_placement_the_board_shows_what_you_have_placed_and_nobody_else_s() -> None:
    game_map = seed_map()
    state = setup(game_map, PLAYERS, seed=3)
    green = state.board.territories_of("Green")
    for order in (PlaceOrder(green[0], 4), PlaceOrder(green[1], 2), PlaceOrder(green[0], 1)):
        placed = issue(RULES, state, "Green", order)
        assert isinstance(placed, Game)
        state = placed
    mine = render.plain(board(state, "Green"))
    assert f"(+5 to place) in {green[0]} " in mine and f"(+2 to place) in {green[1]} " in mine
    assert mine.count("to place") == 2
    for viewer in ("Blue", None):  # R10: the others learn nothing of it
        assert "to place" not in render.plain(board(state, viewer))
