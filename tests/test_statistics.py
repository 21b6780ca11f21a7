"""A finished game's statistics (shared/game/statistics.py), as the rules count them: a turn of RISC played with
loaded dice, battles from runs of rolls in the turn-by-turn games, who put whom out, and the text client's table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from client import render
from shared.game import turns
from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.presentation import Palette
from shared.game.random import GameRandom
from shared.game.statistics import Battle, PlayedTurn, Roll, TurnFacts, battles_of_rolls, game_statistics
from shared.rulesets.grid.board import Phase as GridPhase
from shared.rulesets.grid.orders import Attack, Deploy, End, MoveIn
from shared.rulesets.risc.orders import AttackOrder
from tests.engine_support import RISC, LoadedDice, commit_all, issued, line_map, make_state, resolve
from tests.grid_support import GRID, act, game_at, loaded


def test_a_risc_turn_counts_the_battle_the_income_and_who_put_whom_out() -> None:
    # Green attacks Blue's only territory with 9 and wins every round (R20: the higher d20 kills a unit).
    start = make_state(
        line_map("A", "B", "C"),
        {"A": "Green", "B": "Blue", "C": "Green"},
        {"A": 10, "B": 2, "C": 1},
        players=("Green", "Blue"),
    )
    state = issued(start, "Green", AttackOrder(9, "A", "B"))
    after, events = resolve(commit_all(state), rng=LoadedDice([(20, 1), (20, 1)]))
    statistics = game_statistics(RISC, start, [PlayedTurn(1, events, after)], winner="Green")
    (line,) = statistics.turns
    green, blue = line.players["Green"], line.players["Blue"]
    # R23: the survivors stay in B; R19: every territory a player owns gains a unit after execution
    assert (green.territories, green.units) == (3, (1 + 1) + (9 + 1) + (1 + 1))
    assert green.income == 3 and blue.income == 0
    assert (green.battles_won, green.battles_lost, blue.battles_won, blue.battles_lost) == (1, 0, 0, 1)
    assert (blue.territories, blue.units) == (0, 0)
    assert [(e.player, e.by, e.turn) for e in statistics.eliminations] == [("Blue", "Green", 1)]
    totals = statistics.totals
    assert totals["Green"].eliminated == ["Blue"] and totals["Blue"].eliminated_by == "Green"
    assert (totals["Blue"].most_territories, totals["Blue"].most_units) == (1, 2)  # as the game was set up
    assert totals["Green"].most_units == 14


ROLLS = [
    # one attack rolled until the territory fell: one battle, won
    ([Roll("Ann", "Bob", "A", "B"), Roll("Ann", "Bob", "A", "B", taken=True)], [Battle("Ann", "Bob", True)]),
    # rolls on B, then on C from the same territory: B held, C held (the turn ended)
    (
        [Roll("Ann", "Bob", "A", "B"), Roll("Ann", "Bob", "A", "C")],
        [Battle("Ann", "Bob", False), Battle("Ann", "Bob", False)],
    ),
    # a territory taken, then attacked from again at once: a new battle each
    (
        [Roll("Ann", "Bob", "A", "B", taken=True), Roll("Ann", "Cy", "B", "C"), Roll("Ann", "Cy", "B", "C")],
        [Battle("Ann", "Bob", True), Battle("Ann", "Cy", False)],
    ),
    # another player's rolls end Ann's attack
    (
        [Roll("Ann", "Bob", "A", "B"), Roll("Bob", "Ann", "B", "A", taken=True)],
        [Battle("Ann", "Bob", False), Battle("Bob", "Ann", True)],
    ),
    ([], []),
]


@pytest.mark.parametrize(("rolls", "battles"), ROLLS)
def test_a_battle_of_a_turn_by_turn_game_is_a_run_of_rolls_on_one_territory(
    rolls: list[Roll], battles: list[Battle]
) -> None:
    assert battles_of_rolls(rolls) == battles


@dataclass
class Scripted:
    """A rule set as the statistics see it: boards as holdings, and each turn's facts given as they are."""

    boards: Mapping[int, Mapping[str, tuple[str | None, int]]]
    facts: Mapping[int, TurnFacts]

    def holdings(self, game: Any) -> Mapping[str, tuple[str | None, int]]:
        return self.boards[game.step]

    def turn_facts(self, events: Sequence[Any]) -> TurnFacts:
        return self.facts[events[0]]


@dataclass
class Board:
    step: int
    players: tuple[str, ...] = ("Ann", "Bob", "Cy")


def test_a_player_out_with_no_taker_named_is_put_out_by_who_holds_most_of_what_they_had() -> None:
    boards = {
        0: {"A": ("Ann", 3), "B": ("Bob", 2), "C": ("Bob", 2), "D": ("Cy", 5)},
        1: {"A": ("Ann", 4), "B": ("Cy", 2), "C": ("Cy", 1), "D": (None, 5)},
    }
    facts = {1: TurnFacts(battles=[Battle("Ann", None, False)], eliminated=[("Bob", None)], cards_played={"Cy": 2})}
    statistics = game_statistics(
        Scripted(boards, facts),
        Board(0),
        [PlayedTurn(1, [1], Board(1))],  # type: ignore[arg-type]
        winner=None,
    )
    assert [(e.player, e.by) for e in statistics.eliminations] == [("Bob", "Cy")]
    line = statistics.turns[0].players
    # an attack on a neutral territory counts for the attacker alone
    assert (line["Ann"].battles_won, line["Ann"].battles_lost) == (0, 1)
    assert line["Cy"].cards_played == 2 and (line["Cy"].territories, line["Cy"].units) == (2, 3)
    assert statistics.totals["Cy"].eliminated == ["Bob"]


def test_the_text_client_prints_the_game_in_figures_as_one_table() -> None:
    start = make_state(
        line_map("A", "B", "C"),
        {"A": "Green", "B": "Blue", "C": "Green"},
        {"A": 10, "B": 2, "C": 1},
        players=("Green", "Blue"),
    )
    after, events = resolve(
        commit_all(issued(start, "Green", AttackOrder(9, "A", "B"))), rng=LoadedDice([(20, 1), (20, 1)])
    )
    statistics = game_statistics(RISC, start, [PlayedTurn(1, events, after)], winner="Green")
    assert render.plain(render.statistics_table(statistics, Palette(("Green", "Blue")))) == (
        "The game in figures (1 turn; at the end, the most in brackets):\n"
        "  player  territories    units  income  battles  cards  out\n"
        "  A Green       3 (3)  14 (14)       3      1-0      0  -\n"
        "  B Blue        0 (1)    0 (2)       0      0-1      0  turn 1, by Green\n"
    )


def test_a_player_who_resigned_went_out_by_their_own_hand_even_when_another_took_what_they_left() -> None:
    # Bob gives the game up in turn 1; his territory is left to the others, and Cy takes it that same turn.
    boards = {
        0: {"A": ("Ann", 3), "B": ("Bob", 2), "C": ("Cy", 5)},
        1: {"A": ("Ann", 4), "B": ("Cy", 2), "C": ("Cy", 4)},
    }
    facts = {1: TurnFacts(battles=[Battle("Cy", None, True)], eliminated=[("Bob", None)])}
    statistics = game_statistics(
        Scripted(boards, facts),
        Board(0),  # type: ignore[arg-type]
        [PlayedTurn(1, [1], Board(1), resigned=["Bob"])],
        winner=None,
    )
    assert [(e.player, e.by, e.resigned, e.turn) for e in statistics.eliminations] == [("Bob", None, True, 1)]
    bob = statistics.totals["Bob"]
    assert (bob.resigned, bob.eliminated_by, bob.eliminated_on) == (True, None, 1)
    assert statistics.totals["Cy"].eliminated == [] and not statistics.totals["Cy"].resigned
    table = render.plain(render.statistics_table(statistics, Palette(("Ann", "Bob", "Cy"))))
    assert "turn 1, resigned" in table and "by Cy" not in table


def test_the_game_in_figures_counts_the_turns_the_game_played_not_its_setup_as_one_more() -> None:
    # RISC's placement is turn 0 (R9): a game won after turn 2 played 2 turns, though it has three lines.
    boards = {
        0: {"A": ("Ann", 0), "B": ("Bob", 0)},
        1: {"A": ("Ann", 5), "B": ("Bob", 5)},
        2: {"A": ("Ann", 7), "B": ("Bob", 6)},
        3: {"A": ("Ann", 9), "B": ("Ann", 1)},
    }
    facts = {
        0: TurnFacts(),
        1: TurnFacts(),
        2: TurnFacts(battles=[Battle("Ann", "Bob", True)], eliminated=[("Bob", "Ann")]),
    }
    two = ("Ann", "Bob")
    played = [PlayedTurn(turn, [turn], Board(turn + 1, two)) for turn in range(3)]
    statistics = game_statistics(Scripted(boards, facts), Board(0, two), played, winner="Ann")  # type: ignore[arg-type]
    assert [line.turn for line in statistics.turns] == [0, 1, 2]
    table = render.plain(render.statistics_table(statistics, Palette(("Ann", "Bob"))))
    assert table.startswith("The game in figures (2 turns; "), table


def test_a_grid_player_who_resigned_holds_at_the_end_what_is_left_to_them_not_what_they_held_when_they_left() -> None:
    # Ann gives the game up on turn 1 holding two cells, which stay hers (the grid has no neutral cells); on turn 2
    # Bob takes them and Cy's last cell, and owns all 25. At the end Ann holds nothing: 25 cells in all, not 27.
    start = game_at(
        "AABBB BBBBB BBBBB BBBBB BBBBC",
        [1, 1, 10, 1, 1, 10, 10, 1, 1, 1] + [1] * 9 + [10] + [1] * 5,
        seats=("ann", "bob", "cy"),
        active="cy",
    )
    left, resigned = grid_resigned(start, "ann")
    ended, end_turn = act(left, End())
    game, taken = act(ended, Deploy("2,2"))
    for source, target in (("1,0", "0,0"), ("1,1", "0,1"), ("3,4", "4,4")):
        game, rolled = act(game, Attack(source, target, 3), loaded(6, 6, 6, 1))
        taken += rolled
        if game.board.phase is GridPhase.MOVE_IN:
            game, moved = act(game, MoveIn(3))
            taken += moved
    assert GRID.status(game).winner == "bob"
    played = [
        PlayedTurn(1, resigned + end_turn, ended, resigned=["ann"]),
        PlayedTurn(2, taken, game),
    ]
    statistics = game_statistics(GRID, start, played, winner="bob")
    totals = statistics.totals
    assert (totals["bob"].territories, totals["ann"].territories, totals["cy"].territories) == (25, 0, 0)
    assert (totals["ann"].units, totals["cy"].units) == (0, 0)
    assert totals["ann"].most_territories == 2 and totals["ann"].resigned
    table = render.plain(render.statistics_table(statistics, Palette(("ann", "bob", "cy"))))
    assert " 0 (2) " in table and "25 (25)" in table, table


def grid_resigned(game: Game[Any, Any], player: str) -> tuple[Game[Any, Any], list[Any]]:
    done = turns.resign(GRID, game, player, lambda step: GameRandom("resign", step))
    assert not isinstance(done, RuleError), done
    return done[0], list(done[1].events)
