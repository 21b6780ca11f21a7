"""What the client prints, compared with the text a player should read: the seed's board, the summary, combat lines."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from client import render, terminal
from shared.game.game import Game
from shared.game.presentation import Fragments, Palette
from shared.game.reports import Fight, Move, brief
from shared.game.turns import issue
from shared.maps import load_map
from shared.protocol.log import PlayerResigned
from shared.rulesets import get_ruleset
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


def test_the_board_is_a_territory_a_line_with_its_neighbours_short_and_every_holder_s_mark() -> None:
    assert render.plain(board(seed_state(), "Blue")) == (
        "A Green  B Blue (you)  C Red\n"
        "  Narnia   10 A | Mid 12 A, Ela 6 B\n"
        "  Midkemia 12 A | Nar 10 A, Oz 8 A, Ela 6 B, Sca 5 B\n"
        "  Oz        8 A | Mid 12 A, Sca 5 B, Gon 13 C, Mor 14 C\n"
        "  Elantris  6 B | Nar 10 A, Mid 12 A, Ros 3 B, Sca 5 B\n"
        "  Roshar    3 B | Ela 6 B, Sca 5 B, Hog 3 C\n"
        "  Scadrial  5 B | Mid 12 A, Oz 8 A, Ela 6 B, Ros 3 B, Mor 14 C, Hog 3 C\n"
        "  Gondor   13 C | Oz 8 A, Mor 14 C\n"
        "  Mordor   14 C | Oz 8 A, Sca 5 B, Gon 13 C, Hog 3 C\n"
        "  Hogwarts  3 C | Ros 3 B, Sca 5 B, Mor 14 C\n"
    )


def test_board_name_shows_one_territory_with_its_neighbours_one_player_or_one_continent() -> None:
    state = seed_state()
    shown = render.plain(SHOW.board(view(state, "Blue"), state.game_map, PALETTE, "Blue", focus="Oz"))
    assert [row.split()[0] for row in shown.splitlines()[1:]] == ["Midkemia", "Oz", "Scadrial", "Gondor", "Mordor"]
    shown = render.plain(SHOW.board(view(state, "Blue"), state.game_map, PALETTE, "Blue", focus="Red"))
    assert [row.split()[0] for row in shown.splitlines()[1:]] == ["Gondor", "Mordor", "Hogwarts"]
    world = load_map("meridian")
    big = setup(world, PLAYERS, seed=3)
    shown = render.plain(SHOW.board(view(big, "Blue"), world, PALETTE, "Blue", focus="Rime"))
    assert shown.splitlines()[1].startswith("Rime  A ") and len(shown.splitlines()) == 12


def test_a_large_map_is_grouped_by_continent_and_a_stage_says_where_the_player_stands_and_board_front_lists_it() -> (
    None
):
    world = load_map("meridian")
    state = setup(world, PLAYERS, seed=3)
    whole = render.plain(SHOW.board(view(state, "Green"), world, PALETTE, "Green"))
    assert [row for row in whole.splitlines() if not row.startswith(" ")][1:] == [
        f"{c.name}  " + "  ".join(f"{m} {n}" for m, n in counts) for c, counts in continent_counts(state, world)
    ]
    assert len(whole.splitlines()) == 1 + 6 + 60
    mine = [n for n in world.names if state.board.owner[n] == "Green"]
    fronting = [n for n in mine if any(state.board.owner[m] != "Green" for m in world.neighbours(n))]
    assert fronting and set(fronting) < set(mine)
    stage = render.plain(SHOW.stage_board(view(state, "Green"), world, PALETTE, "Green"))
    assert stage.startswith(render.plain(SHOW.summary(view(state, "Green"), world, PALETTE, "Green")))
    units = sum(state.board.units[n] for n in mine)
    # "of them": the territories, told right after them rather than after the units
    assert (
        f"You hold {units} units on {len(mine)} territories, {len(fronting)} of them next to others' "
        "(board front: those" in stage
    )
    assert len(stage.splitlines()) < 10
    front = render.plain(SHOW.board(view(state, "Green"), world, PALETTE, "Green", focus="front"))
    assert [row.split()[0] for row in front.splitlines() if row.startswith("  ")] == fronting
    assert render.plain(SHOW.standing(view(state, "Green"), world, PALETTE, "Green")) == stage.splitlines()[-1] + "\n"
    spectator = render.plain(SHOW.standing(view(state, None), world, PALETTE, None))
    assert spectator.startswith(render.plain(SHOW.summary(view(state, None), world, PALETTE, None)))
    assert "You hold" not in spectator


def continent_counts(state: RiscGame, world: Any) -> list[tuple[Any, list[tuple[str, int]]]]:
    found = []
    for continent in world.continents:
        members = [t.name for t in world.territories if t.continent == continent.name]
        owners = [state.board.owner[n] for n in members]
        found.append((continent, [(PALETTE.mark(p), owners.count(p)) for p in PLAYERS if owners.count(p)]))
    return found


def test_the_map_is_drawn_from_its_coordinates_with_marks_and_units_or_not_at_all() -> None:
    world = load_map("meridian")
    state = setup(world, PLAYERS, seed=3)
    screens = SHOW.picture(view(state, "Green"), world, PALETTE, "Green", 79, 22)
    assert screens is not None and len(screens) == 1, "Meridian fits one screen of 80 by 24"
    picture = screens[0]
    rows = render.plain(picture).splitlines()
    assert len(rows) <= 22 and all(len(row) <= 79 for row in rows)
    grid = rows[:-2]
    cells = [cell for row in grid for cell in re.findall(r"[A-Z][A-Za-z0-9]{2,} [ABC-]\d+", row)]
    assert len(cells) == 60, "every territory has its place"
    top, bottom = grid[0], [row for row in grid if row.strip()][-1]
    assert "Fro " in top and "Southw " in bottom, "the Rime is drawn at the top, the Austral ice at the bottom"
    assert styled(picture, "Fro C0") == {PALETTE.style(state.board.owner["Frostgate"])}
    unplaced = dataclasses.replace(
        seed_map(), territories=tuple(dataclasses.replace(t, x=None, y=None) for t in seed_map().territories)
    )
    assert SHOW.picture(view(seed_state(), "Green"), unplaced, PALETTE, "Green", 79, 22) is None


def test_each_player_has_their_own_colour_the_same_for_every_viewer() -> None:
    state = seed_state()
    for viewer in (*PLAYERS, None):
        shown_board = board(state, viewer)
        for seat, name in enumerate(PLAYERS):
            shown = f"{name} (you)" if name == viewer else name
            assert styled(shown_board, shown) == {f"class:player.{seat}"}
    colours = {terminal.STYLE.get_attrs_for_style_str(f"class:player.{seat}").color for seat in range(3)}
    assert len(colours) == 3


def test_a_spectator_s_board_marks_neutral_territories_too() -> None:
    owners = {t: NAMES[o] for t, o in SEED_OWNERS.items()}
    owners["Gondor"] = None  # type: ignore[assignment]
    state = make_state(seed_map(), owners, {**SEED_UNITS, "Gondor": 3, "Roshar": 1}, players=PLAYERS)
    text = render.plain(board(state, None))
    assert text.splitlines()[0] == "A Green  B Blue  C Red  - neutral"
    assert "  Gondor    3 - | Oz 8 A, Mor 14 C\n" in text
    assert "  Roshar    1 B | Ela 6 B, Sca 5 B, Hog 3 C\n" in text


def test_the_summary_counts_territories_and_units() -> None:
    state = seed_state()
    assert render.plain(SHOW.summary(view(state, "Blue"), state.game_map, PALETTE, "Blue")) == (
        "Seed example, turn 1\n"
        "  Green       3 territories  30 units\n"
        "  Blue (you)  3 territories  14 units\n"
        "  Red         3 territories  30 units\n"
    )


def test_combat_lines_the_seed_s_pictured_outcome() -> None:
    palette = PALETTE
    scadrial = Combat("Scadrial", "Green", "Blue", 10, 1, 1, 1, "Green", (("Midkemia", 10),))
    hogwarts = Combat("Hogwarts", "Blue", "Red", 4, 9, 4, 5, "Red", (("Scadrial", 4),))
    assert render.plain(combat_line(scadrial, palette)) == (
        "Green attacked Scadrial (Blue) with 10 from Midkemia against 1: Green lost 1, Blue lost 1. "
        "Green takes Scadrial, 9 units left."
    )
    assert render.plain(combat_line(hogwarts, palette)) == (
        "Blue attacked Hogwarts (Red) with 4 from Scadrial against 9: Blue lost 4, Red lost 5. "
        "Red holds Hogwarts, 4 units left."
    )
    assert styled(combat_line(hogwarts, palette), "Red") == {"class:player.2"}


def test_combat_lines_a_combined_force_against_neutral_and_against_nobody() -> None:
    palette = PALETTE
    combined = Combat("Gondor", "Green", None, 7, 3, 2, 3, "Green", (("Oz", 4), ("Mordor", 3)))
    assert render.plain(combat_line(combined, palette)) == (
        "Green attacked Gondor (neutral) with 7 from Oz 4, Mordor 3 against 3: Green lost 2, neutral lost 3. "
        "Green takes Gondor, 5 units left."
    )
    empty = Combat("Roshar", "Red", "Blue", 1, 0, 0, 0, "Red", (("Hogwarts", 1),))
    assert render.plain(combat_line(empty, palette)).endswith("Red takes Roshar, 1 unit left.")


def test_the_example_turn_reads_one_line_per_happening_for_a_spectator() -> None:
    """Each combat of the seed's example turn gets one line that agrees with the engine's own account of it."""
    _, happened = example_turn()
    lines = render.plain(events(happened, None)).splitlines()
    moves = [e for e in happened if isinstance(e, UnitsMoved)]
    combats = [e for e in happened if isinstance(e, Combat)]
    received = [e for e in happened if isinstance(e, UnitsReceived)]
    assert lines[: len(moves)] == [f"{m.player} moved {m.units} from {m.source} to {m.target}." for m in moves]
    for combat, line in zip(combats, lines[len(moves) :], strict=False):
        assert line == render.plain(combat_line(combat, PALETTE))
        assert f"{combat.attacker} lost {combat.attacker_losses}" in line
    assert (
        lines[len(moves) + len(combats)] == "New units: " + ", ".join(f"{r.player} +{r.units}" for r in received) + "."
    )
    assert lines[-1].strip() == "Turn 2"


def example_turn() -> tuple[RiscGame, list[Any]]:
    orders = {
        "Green": [MoveOrder(3, "Narnia", "Oz"), AttackOrder(10, "Midkemia", "Scadrial")],
        "Blue": [AttackOrder(4, "Scadrial", "Hogwarts")],
        "Red": [MoveOrder(6, "Mordor", "Hogwarts")],
    }
    return play_turn(seed_state(), orders, seed=7)


def test_a_player_s_turn_report_leads_with_what_they_won_and_lost() -> None:
    _, happened = example_turn()
    scadrial = next(e for e in happened if isinstance(e, Combat) and e.territory == "Scadrial")
    hogwarts = next(e for e in happened if isinstance(e, Combat) and e.territory == "Hogwarts")
    blue = render.plain(events(happened, "Blue")).splitlines()
    took = "took" if scadrial.attacker_won else "held"
    assert blue[0].startswith("This turn ")
    assert ("you lost Scadrial to Green" if scadrial.attacker_won else "you held Scadrial against Green") in blue[0]
    assert ("you took Hogwarts (Red)" if hogwarts.attacker_won else "your attack failed at Hogwarts") in blue[0]
    assert blue[1:3] == [f"  {render.plain(combat_line(c, PALETTE))}" for c in (scadrial, hogwarts)]
    assert blue[3] == "Others moved: Green 3 from Narnia to Oz; Red 6 from Mordor to Hogwarts."
    assert blue[4].startswith("New units: ")
    green = render.plain(events(happened, "Green")).splitlines()
    assert green[2] == "You moved 3 from Narnia to Oz."
    assert green[3].startswith(
        f"Elsewhere: Blue {'took' if hogwarts.attacker_won else 'failed to take'} Hogwarts from Red (4 against "
    )
    assert took


def test_a_turn_told_as_it_comes_leads_with_the_player_s_fights_a_few_words_each_and_counts_the_rest() -> None:
    _, happened = example_turn()
    scadrial = next(e for e in happened if isinstance(e, Combat) and e.territory == "Scadrial")
    hogwarts = next(e for e in happened if isinstance(e, Combat) and e.territory == "Hogwarts")
    assert scadrial.attacker_won and not hogwarts.attacker_won, "the turn this test reads"
    took = scadrial.attacking_units - scadrial.attacker_losses
    held = hogwarts.defending_units - hogwarts.defender_losses
    blue = render.plain(SHOW.brief(happened, PALETTE, "Blue")).splitlines()
    assert blue[0] == f"You lost 1 territory, to Green: Scadrial (10 from Midkemia against 1, {took} left)."
    assert blue[1] == f"1 attack of yours failed, against Red: Hogwarts (4 from Scadrial against 9, {held} left)."
    assert blue[2] == "Elsewhere: 2 moves, 9 units in all (report tells every one)."
    assert blue[3].startswith("New units: ") and blue[4].strip() == "Turn 2"
    green = render.plain(SHOW.brief(happened, PALETTE, "Green")).splitlines()
    assert green[:3] == [
        f"You took 1 territory, from Blue: Scadrial (10 from Midkemia against 1, {took} left).",
        "You moved 3 from Narnia to Oz.",
        "Elsewhere: 1 attack failed; 1 move, 6 units in all (report tells every one).",
    ]
    red = render.plain(SHOW.brief(happened, PALETTE, "Red")).splitlines()
    assert red[0] == f"You held 1 territory, against Blue: Hogwarts (4 from Scadrial against 9, {held} left)."
    assert red[2] == "Elsewhere: Green took 1 from Blue; 1 move, 3 units in all (report tells every one)."
    spectator = render.plain(SHOW.brief(happened, PALETTE, None)).splitlines()
    assert (
        spectator[0] == "Fights: Green took 1 from Blue; 1 attack failed; 2 moves, 9 units in all (report tells "
        "every one)."
    )
    assert styled(SHOW.brief(happened, PALETTE, "Blue"), "Green") == {"class:player.0"}


def test_a_brief_report_names_each_side_once_and_counts_what_each_took_from_whom() -> None:
    fights = [
        Fight("s4", "Bob", "Ann", 19, 10, True, 1, ("s3",)),
        Fight("e10", "Cy", "Ann", 18, 10, True, 7, ("e9",)),
        Fight("e11", "Cy", "Ann", 18, 10, True, 5, ("e9",)),
        Fight("t2", "Cy", "Ann", 17, 10, False, 2, ("t3",)),
        Fight("b9", "Cy", "Bob", 27, 0, True, 27, ("b8",)),
        Fight("f5", "Cy", None, 27, 3, True, 25, ("f4",)),
        Fight("f14", "Bob", "Cy", 32, 35, False, 3, ("f13",)),
    ]
    palette = Palette(("Ann", "Bob", "Cy"))
    shown = render.plain(brief(fights, [Move("Bob", 5, "s3", "s2")], palette, "Ann")).splitlines()
    assert shown == [
        "You lost 3 territories, to Bob: s4 (19 from s3 against 10, 1 left); to Cy: e10 (18 from e9 against 10, 7 "
        "left), e11 (18 from e9 against 10, 5 left).",
        "You held 1 territory, against Cy: t2 (17 from t3 against 10, 2 left).",
        "Elsewhere: Cy took 2 (1 from Bob, 1 from neutral); 1 attack failed; 1 move, 5 units in all (report tells "
        "every one).",
    ]


def test_eliminations_and_victory_speak_to_the_player_concerned() -> None:
    entries = [PlayerEliminated("Blue"), GameWon("Green"), TurnStarted(4)]
    assert render.plain(events(entries, "Blue")) == (
        "You have lost: you hold no territory any more.\nGreen wins the game!\n Turn 4 \n"
    )
    assert render.plain(events(entries, "Green")) == (
        "Blue is eliminated.\nYou win: the whole map is yours!\n Turn 4 \n"
    )


def test_the_history_table_shows_territories_and_units_per_turn() -> None:
    history = {
        "1": {"Green": (3, 30), "Blue": (3, 14), "Red": (3, 30)},
        "2": {"Green": (4, 33), "Blue": (2, 9), "Red": (3, 30)},
        "end": {"Green": (9, 60), "Blue": (0, 0), "Red": (0, 0)},
    }
    assert render.plain(render.history_table(history, PLAYERS, PALETTE)) == (
        "Territories/units per turn:\n"
        "  turn      Green       Blue        Red\n"
        "     1       3/30       3/14       3/30\n"
        "     2       4/33        2/9       3/30\n"
        "   end       9/60        0/0        0/0\n"
    )


def test_during_placement_the_board_shows_what_you_have_placed_and_nobody_else_s() -> None:
    game_map = seed_map()
    state = setup(game_map, PLAYERS, seed=3)
    green = state.board.territories_of("Green")
    for order in (PlaceOrder(green[0], 4), PlaceOrder(green[1], 2), PlaceOrder(green[0], 1)):
        placed = issue(RULES, state, "Green", order)
        assert isinstance(placed, Game)
        state = placed
    mine = render.plain(board(state, "Green"))
    rows = {row.split()[0]: row for row in mine.splitlines()[1:]}
    assert " 0 (+5 to place) A |" in rows[green[0]] and " 0 (+2 to place) A |" in rows[green[1]]
    assert mine.count("to place") == 2
    for viewer in ("Blue", None):  # R10: the others learn nothing of it
        assert "to place" not in render.plain(board(state, viewer))


def test_a_resignation_reads_of_the_player_to_the_others_and_of_you_to_the_one_who_resigned() -> None:
    presentation = get_ruleset("classic").presentation
    entry = PlayerResigned(player="Ann", turn=2, step=5)
    palette = Palette(("Ann", "Bob"))
    assert render.plain(render.entries([entry], presentation, palette, "Bob")) == (
        "Ann resigned: their countries stay theirs with their armies, for the others to take, and their cards are "
        "discarded.\n"
    )
    assert render.plain(render.entries([entry], presentation, palette, "Ann")).startswith(
        "Ann (you) resigned: your countries stay yours with your armies, for the others to take, and your cards "
    )


def test_a_brief_report_tells_a_territory_taken_before_it_is_held_against_a_later_attack() -> None:
    # Alice took Hogwarts with 11 against nobody, then held it against 3 from Scadrial: took, then held
    fights = [
        Fight("Hogwarts", "Alice", "Bob", 11, 0, True, 11, ("Mordor",)),
        Fight("Hogwarts", "Cy", "Alice", 3, 11, False, 7, ("Scadrial",)),
    ]
    shown = render.plain(brief(fights, [], Palette(("Alice", "Bob", "Cy")), "Alice")).splitlines()
    assert shown == [
        "You took 1 territory, from Bob: Hogwarts (11 from Mordor against 0, 11 left).",
        "You held 1 territory, against Cy: Hogwarts (3 from Scadrial against 11, 7 left).",
    ]
