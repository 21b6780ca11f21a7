"""E12 and E15: fog of war in views, reports, following, orders told and refusals."""

from __future__ import annotations

from typing import Any

from shared.game import turns
from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.ruleset import Private
from shared.rulesets.risc.board import Phase, RiscBoard
from shared.rulesets.risc.checker import Code
from shared.rulesets.risc.events import UnitsReceived
from shared.rulesets.risc.evo_events import Battle, LevelMoved, StocksReport, UnitsUpgraded
from shared.rulesets.risc.evo_orders import LevelAttackOrder, LevelMoveOrder, UpgradeOrder
from shared.rulesets.risc.evo_view import EvoView
from shared.rulesets.risc.levels import NO_UNITS
from shared.rulesets.risc.resources import Land
from tests.evolution_support import (
    RISC,
    LoadedDice,
    issued,
    levels,
    line_map,
    make_game,
    play_turn,
    rules,
    seed_game,
    told_to,
)

GREEN_SEES = {"Narnia", "Midkemia", "Oz", "Elantris", "Scadrial", "Gondor", "Mordor"}


def evo_view(game: Game[RiscBoard, Any], viewer: str | None) -> EvoView:
    seen = rules(game).view(game, viewer)
    assert isinstance(seen, EvoView)
    return seen


def test_E12_a_player_sees_their_own_territories_and_every_territory_next_to_one_now() -> None:
    seen = evo_view(seed_game(3), "green")
    assert {n for n, t in seen.territories.items() if t.fog == "clear"} == GREEN_SEES
    assert seen.territories["Mordor"].owner == "red"
    assert seen.territories["Mordor"].levels == levels((0, 14))


def test_E12_a_territory_never_seen_shows_only_its_name_its_borders_and_its_size() -> None:
    game = seed_game(3, land={"Hogwarts": Land(3, 9, 9)})
    hogwarts = evo_view(game, "green").territories["Hogwarts"]
    assert (hogwarts.fog, hogwarts.owner, hogwarts.units, hogwarts.levels) == ("unknown", None, 0, NO_UNITS)
    assert (hogwarts.size, hogwarts.food, hogwarts.technology, hogwarts.seen) == (3, None, None, None)


def test_E12_a_territory_seen_before_shows_what_was_last_seen_marked_with_that_turn() -> None:
    game = seed_game(3)
    # Green leaves Oz; red walks in. From turn 2 green no longer borders Mordor or Gondor.
    game, _ = play_turn(
        game,
        {
            "green": [LevelMoveOrder(8, 0, "Oz", "Midkemia")],
            "red": [LevelMoveOrder(10, 0, "Gondor", "Mordor"), LevelAttackOrder(1, 0, "Gondor", "Oz")],
        },
    )
    assert game.board.owner["Oz"] == "red"
    seen = evo_view(game, "green")
    mordor = seen.territories["Mordor"]
    assert (mordor.fog, mordor.seen, mordor.owner, mordor.units) == ("memory", 1, "red", 14)
    assert game.board.units["Mordor"] == 14 + 10 + 1  # the truth, which green does not see
    assert seen.territories["Oz"].fog == "clear"  # next to Midkemia


def test_E12_a_player_remembers_their_lost_land_as_they_saw_it_fall() -> None:
    # p holds A and X, apart; q takes X from Z. Afterwards p sees A and Y only, and remembers X as q's, with the
    # units they saw win it (and the unit q received at the end of the turn: every territory gets one).
    game = make_game(
        line_map("A", "Y", "X", "Z"),
        {"A": "p", "Y": "q", "X": "p", "Z": "q"},
        {"A": 1, "Y": 1, "X": 1, "Z": 3},
        evolution=3,
    )
    game, _ = play_turn(game, {"q": [LevelAttackOrder(3, 0, "Z", "X")]}, rng=LoadedDice([(20, 1)]))
    x = evo_view(game, "p").territories["X"]
    assert (x.fog, x.seen, x.owner, x.units) == ("memory", 2, "q", 4)


def test_E12_spectators_see_public_information_only_until_the_game_is_over() -> None:
    game = seed_game(3, tech={"blue": 2})
    seen = evo_view(game, None)
    assert all(t.fog == "unknown" and t.owner is None and t.units == 0 for t in seen.territories.values())
    assert {p: (s.tech_level, s.territories) for p, s in seen.players.items()} == {
        "green": (1, None),
        "blue": (2, None),
        "red": (1, None),
    }
    over = game.evolve(board=game.board.evolve(phase=Phase.FINISHED, winner="green"))
    for viewer in (None, "blue"):
        final = evo_view(over, viewer)
        assert all(t.fog == "clear" for t in final.territories.values())
        assert final.territories["Hogwarts"].units == 3


def test_E12_others_territory_and_unit_counts_are_not_told_under_fog() -> None:
    seen = evo_view(seed_game(3), "green")
    assert (seen.players["green"].territories, seen.players["green"].units) == (3, 30)
    assert all(seen.players[p].territories is None and seen.players[p].units is None for p in ("blue", "red"))


def test_E12_a_player_learns_only_of_the_combats_and_moves_they_could_see() -> None:
    game = seed_game(3)
    _, events = play_turn(
        game,
        {
            "blue": [LevelAttackOrder(3, 0, "Roshar", "Hogwarts")],  # green sees neither
            "red": [
                LevelMoveOrder(5, 0, "Gondor", "Mordor"),  # green sees both
                LevelMoveOrder(1, 0, "Hogwarts", "Mordor"),  # green does not see Hogwarts
                UpgradeOrder(2, "Mordor", 0, 1),
            ],  # green sees Mordor
        },
    )
    green = told_to(events, "green")
    assert not [e for e in green if isinstance(e, Battle)]
    assert [(e.source, e.target) for e in green if isinstance(e, LevelMoved)] == [("Gondor", "Mordor")]
    assert [e.territory for e in green if isinstance(e, UnitsUpgraded)] == ["Mordor"]
    red = told_to(events, "red")
    assert [e.territory for e in red if isinstance(e, Battle)] == ["Hogwarts"]
    assert len([e for e in red if isinstance(e, LevelMoved)]) == 2
    movers = [
        (e.event.player, e.audience) for e in events if isinstance(e, Private) and isinstance(e.event, LevelMoved)
    ]
    assert all(player in audience for player, audience in movers)


def test_E12_a_combat_s_sources_are_told_only_as_far_as_each_listener_could_see() -> None:
    # p sees B (next to A), not C; q attacks B from C.
    game = make_game(
        line_map("A", "B", "C", "D"),
        {"A": "p", "B": "r", "C": "q", "D": "q"},
        {"A": 1, "B": 0, "C": 3, "D": 3},
        evolution=3,
    )
    _, events = play_turn(game, {"q": [LevelAttackOrder(3, 0, "C", "B")]})
    (to_p,) = [e for e in told_to(events, "p") if isinstance(e, Battle)]
    (to_q,) = [e for e in told_to(events, "q") if isinstance(e, Battle)]
    assert to_p.sources == () and to_q.sources == (("C", 3),)
    assert sum(to_p.attacking) == 3


def test_E12_an_eliminated_player_may_follow_a_surviving_player_s_sight() -> None:
    game = seed_game(3)
    out = game.evolve(board=game.board.evolve(eliminated=("red",)))
    assert rules(out).may_follow(out, "red", "green")
    assert not rules(out).may_follow(out, "red", "red")
    assert not rules(out).may_follow(out, "blue", "green")  # still in: no borrowed sight
    assert not rules(out).may_follow(out, None, "green")  # a spectator: public information only
    followed = rules(out).follow_view(out, "green")
    assert isinstance(followed, EvoView)
    assert followed.following == "green"
    assert {n for n, t in followed.territories.items() if t.fog == "clear"} == GREEN_SEES
    assert followed.your_orders == [] and followed.food_left is None
    assert followed.players["green"].food is None and followed.players["green"].technology is None


def test_E12_following_is_for_fog_only() -> None:
    game = seed_game(2)
    out = game.evolve(board=game.board.evolve(eliminated=("red",)))
    assert not rules(out).may_follow(out, "red", "green")


def test_E12_memory_is_kept_in_the_board_and_survives_storage() -> None:
    game, _ = play_turn(seed_game(3), {"green": [LevelMoveOrder(8, 0, "Oz", "Midkemia")]})
    board = game.board
    assert RISC.load_board(RISC.dump_board(board)) == board
    assert board.evo is not None and set(board.evo.memory["green"]) >= GREEN_SEES


def test_E15_resolved_orders_are_not_told_under_fog() -> None:
    assert RISC.variant(RISC.options({"evolution": 3})).reveals_orders(RISC.options({"evolution": 3})) is False
    assert RISC.variant(RISC.options({"evolution": 2})).reveals_orders(RISC.options({"evolution": 2})) is True
    assert RISC.variant(RISC.options({})).reveals_orders(RISC.options({})) is True


def test_E15_new_units_and_stocks_are_told_to_their_owner_alone() -> None:
    _, events = play_turn(seed_game(3), {})
    for e in events:
        if isinstance(e, UnitsReceived | StocksReport):
            raise AssertionError(f"{e} is told to everyone")
        if isinstance(e, Private) and isinstance(e.event, UnitsReceived | StocksReport):
            assert e.audience == {e.event.player}


def test_E15_a_refusal_says_nothing_of_a_hidden_territory() -> None:
    # Red's Hogwarts is cloaked: blue cannot see it. Whatever holds it and however many, blue's orders against it
    # are judged alike, and the words are the same.
    def refusals(owner: str | None, units: int) -> list[str]:
        game = seed_game(3, cloaking=("red",), cloaked={"Hogwarts": 5})
        game = make_game(
            game.game_map,
            {**game.board.owner, "Hogwarts": owner},
            {**game.board.units, "Hogwarts": units},
            evolution=3,
            players=("green", "blue", "red"),
            cloaking=("red",),
            cloaked={"Hogwarts": 5},
        )
        assert evo_view(game, "blue").territories["Hogwarts"].fog != "clear"
        said = []
        for order in (
            LevelAttackOrder(4, 0, "Roshar", "Hogwarts"),
            LevelAttackOrder(3, 0, "Roshar", "Hogwarts"),
            LevelMoveOrder(1, 0, "Roshar", "Hogwarts"),
            LevelAttackOrder(1, 0, "Elantris", "Hogwarts"),
        ):
            result = turns.issue(rules(game), game, "blue", order)
            said.append(result.message if isinstance(result, RuleError) else "accepted")
        return said

    first = refusals("red", 3)
    assert first == refusals("red", 40) == refusals(None, 0) == refusals("green", 7)
    assert first[1] == "accepted"
    assert first[0] == "Roshar has 3 level-0 units left to send, the order asks for 4"


def test_E15_a_move_into_a_fogged_territory_is_refused_as_not_yours_without_saying_whose() -> None:
    game = seed_game(3)
    result = turns.issue(rules(game), game, "green", LevelMoveOrder(1, 0, "Oz", "Hogwarts"))
    assert isinstance(result, RuleError) and result.code == Code.TARGET_NOT_YOURS
    assert "red" not in result.message
    issued(game, "green", LevelMoveOrder(1, 0, "Oz", "Narnia"))
