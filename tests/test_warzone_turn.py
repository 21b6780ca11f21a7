"""W3, W5-W14: reinforcements, the order of execution, orders checked again when they execute, the battle, the
cards, neutral territories, elimination, the end of the game and its statistics."""

from __future__ import annotations

from collections import Counter
from typing import Any

from shared.game import turns
from shared.game.game import Game
from shared.game.random import GameRandom
from shared.game.ruleset import Private
from shared.rulesets.warzone.board import Phase
from shared.rulesets.warzone.cards import Card
from shared.rulesets.warzone.checker import Code
from shared.rulesets.warzone.events import (
    Battle,
    Blockaded,
    Bombed,
    CardDrawn,
    CardReceived,
    DeckEmpty,
    Deployed,
    GameDrawn,
    GameWon,
    Moved,
    PlayerEliminated,
    ReinforcementCardPlayed,
    ReinforcementsReceived,
    Skipped,
    TruceMade,
    TurnOrderDrawn,
    TurnStats,
)
from shared.rulesets.warzone.orders import (
    AdvanceOrder,
    AirliftOrder,
    BlockadeOrder,
    BombOrder,
    DeployOrder,
    NegotiateOrder,
    ReinforceOrder,
)
from tests.warzone_support import WZ, line_map, make_game, of_type, play_scripted, play_turn, public, star_map


def two_fronts(**kwargs: Any) -> Game[Any, Any]:
    """A - B - C - D - E: ann holds A B, bob holds C D, E is neutral."""
    units = kwargs.pop("units", {"A": 5, "B": 5, "C": 4, "D": 2, "E": 6})
    return make_game(
        line_map("A", "B", "C", "D", "E"), {"A": "ann", "B": "ann", "C": "bob", "D": "bob", "E": None}, units, **kwargs
    )


# ---- W3 ---------------------------------------------------------------------------------------------------------


def test_W3_reinforcement_is_territories_over_3_at_least_3_plus_every_continent_held_whole() -> None:
    game_map = line_map("A", "B", "C", "D", continents={"North": (2, ["A", "B"]), "South": (5, ["C", "D"])})
    game = make_game(game_map, {"A": "ann", "B": "ann", "C": "bob", "D": None})
    game, events = play_turn(game)
    received = {e.player: e for e in of_type(events, ReinforcementsReceived)}
    assert (received["ann"].units, received["ann"].base, received["ann"].continents) == (5, 3, ("North",))
    assert (received["bob"].units, received["bob"].continents) == (3, ())
    assert dict(game.board.pools) == {"ann": 5, "bob": 3}
    assert game.board.turn == 2


def test_W3_twelve_territories_give_4_and_a_continent_of_bonus_0_adds_nothing() -> None:
    names = [f"T{i}" for i in range(14)]
    game_map = line_map(*names, continents={"Big": (0, names[:12]), "Small": (1, names[12:])})
    game = make_game(game_map, {n: ("ann" if i < 12 else "bob") for i, n in enumerate(names)})
    _, events = play_turn(game)
    received = {e.player: (e.units, e.base) for e in of_type(events, ReinforcementsReceived)}
    assert received == {"ann": (4, 4), "bob": (3 + 1, 3)}


def test_W3_a_pool_not_deployed_carries_over() -> None:
    # A commit needs the whole pool (W4); a batch resolved as it stands (e.g. stored before) keeps the rest.
    game = two_fronts(pools={"ann": 10, "bob": 0})
    board, _ = WZ.resolve(game, {"ann": [DeployOrder("A", 4)], "bob": []}, GameRandom(1))
    assert board.pools["ann"] == 6 + 3


# ---- W5 ---------------------------------------------------------------------------------------------------------


def test_W5_every_deploy_executes_before_any_advance_whoever_goes_first() -> None:
    for order in (["ann", "bob"], ["bob", "ann"]):
        game = two_fronts(pools={"bob": 5})
        _, events = play_scripted(game, {"ann": [AdvanceOrder(5, "B", "C")], "bob": [DeployOrder("C", 5)]}, order)
        (battle,) = of_type(events, Battle)
        assert battle.defending_units == 4 + 5


def test_W5_players_go_round_robin_one_order_each_in_the_order_they_issued_them() -> None:
    game = make_game(
        line_map("A", "B", "C", "D"), {"A": "ann", "B": "ann", "C": "bob", "D": "bob"}, {"A": 5, "B": 5, "C": 5, "D": 5}
    )
    orders = {
        "ann": [AdvanceOrder(1, "A", "B"), AdvanceOrder(2, "B", "A"), AdvanceOrder(3, "A", "B")],
        "bob": [AdvanceOrder(1, "D", "C"), AdvanceOrder(2, "C", "D")],
    }
    _, events = play_scripted(game, orders, ["bob", "ann"])
    assert [(m.player, m.units) for m in of_type(events, Moved)] == [
        ("bob", 1),
        ("ann", 1),
        ("bob", 2),
        ("ann", 2),
        ("ann", 3),
    ]


def test_W5_the_player_order_is_drawn_each_turn_by_the_seeded_generator_never_seat_order() -> None:
    game = make_game(
        line_map("A", "B", "C", "D"), {"A": "ann", "B": "ann", "C": "bob", "D": "bob"}, {"A": 5, "B": 5, "C": 5, "D": 5}
    )
    orders = {"ann": [AdvanceOrder(1, "A", "B")], "bob": [AdvanceOrder(1, "D", "C")]}
    first = Counter()
    for seed in range(40):
        _, events = play_turn(game, orders, seed=seed)
        (drawn,) = of_type(events, TurnOrderDrawn)
        assert [m.player for m in of_type(events, Moved)] == list(drawn.players)
        first[drawn.players[0]] += 1
        assert play_turn(game, orders, seed=seed)[1] == events  # the same seed draws the same order
    assert 8 <= first["ann"] <= 32 and first["ann"] + first["bob"] == 40


def test_W5_negotiations_take_effect_before_anything_else_executes() -> None:
    game = two_fronts(hands={"bob": (Card.DIPLOMACY,)}, pools={"bob": 3})
    orders = {"ann": [AdvanceOrder(5, "B", "C")], "bob": [DeployOrder("D", 3), NegotiateOrder("ann")]}
    _, events = play_scripted(game, orders, ["ann", "bob"])
    assert isinstance(public(events)[1], TruceMade)
    (skipped,) = of_type(events, Skipped)
    assert (skipped.player, skipped.code) == ("ann", Code.TRUCE)
    assert not of_type(events, Battle)


def test_W5_a_reinforcement_card_executes_with_the_deploys_so_theirs_can_use_it() -> None:
    game = two_fronts(pools={"ann": 10}, hands={"ann": (Card.REINFORCEMENT,)})
    game, events = play_scripted(game, {"ann": [ReinforceOrder(), DeployOrder("A", 15)]}, ["ann", "bob"])
    assert [type(e) for e in public(events)[1:3]] == [ReinforcementCardPlayed, Deployed]
    assert game.board.units["A"] == 5 + 15


# ---- W6 ---------------------------------------------------------------------------------------------------------


def test_W6_an_order_whose_source_changed_hands_is_skipped_with_the_reason() -> None:
    game = two_fronts(units={"A": 5, "B": 0, "C": 10, "D": 2, "E": 6}, pools={"ann": 2})
    orders = {"ann": [DeployOrder("B", 2), AdvanceOrder(2, "B", "A")], "bob": [AdvanceOrder(10, "C", "B")]}
    game, events = play_scripted(game, orders, ["bob", "ann"], binomials=[2, 0])
    (skipped,) = of_type(events, Skipped)
    assert (skipped.player, skipped.order, skipped.code) == ("ann", AdvanceOrder(2, "B", "A"), Code.NOT_YOUR_TERRITORY)
    assert "no longer ann's" in skipped.reason
    assert (game.board.owner["B"], game.board.units["A"]) == ("bob", 5)


def test_W6_an_advance_whose_source_holds_fewer_units_sends_what_is_left() -> None:
    game = two_fronts(units={"A": 0, "B": 4, "C": 4, "D": 2, "E": 6}, hands={"bob": (Card.BOMB,)})
    game, events = play_scripted(game, {"ann": [AdvanceOrder(4, "B", "A")], "bob": [BombOrder("B")]}, ["bob", "ann"])
    (moved,) = of_type(events, Moved)
    assert (moved.units, moved.ordered) == (2, 4)
    assert (game.board.units["A"], game.board.units["B"]) == (2, 0)


def test_W6_an_advance_with_nothing_left_to_send_is_skipped() -> None:
    game = two_fronts(units={"A": 0, "B": 1, "C": 4, "D": 2, "E": 6}, hands={"bob": (Card.BOMB,)})
    _, events = play_scripted(game, {"ann": [AdvanceOrder(1, "B", "A")], "bob": [BombOrder("B")]}, ["bob", "ann"])
    (skipped,) = of_type(events, Skipped)
    assert skipped.code == Code.NOTHING_LEFT


# ---- W7 ---------------------------------------------------------------------------------------------------------


def test_W7_an_advance_into_an_own_territory_moves_the_units() -> None:
    game, events = play_turn(two_fronts(), {"ann": [AdvanceOrder(3, "A", "B")]})
    assert of_type(events, Moved) == [Moved("ann", 3, "A", "B", 3)]
    assert (game.board.units["A"], game.board.units["B"]) == (2, 8)


def test_W7_a_territory_conquered_earlier_in_the_turn_counts_as_own() -> None:
    game = two_fronts(units={"A": 5, "B": 5, "C": 0, "D": 2, "E": 6})
    game, events = play_turn(game, {"ann": [AdvanceOrder(3, "B", "C"), AdvanceOrder(2, "B", "C")]})
    (battle,) = of_type(events, Battle)
    assert battle.conquered
    assert of_type(events, Moved) == [Moved("ann", 2, "B", "C", 2)]
    assert (game.board.owner["C"], game.board.units["C"]) == ("ann", 5)


def test_W7_no_defender_left_and_an_attacker_left_conquers_and_the_survivors_move_in() -> None:
    game = two_fronts(units={"A": 5, "B": 8, "C": 4, "D": 2, "E": 6})
    # 8 attackers destroy 6 defenders (capped at the 4 there); 4 defenders destroy 3 attackers.
    game, events = play_scripted(game, {"ann": [AdvanceOrder(8, "B", "C")]}, ["ann", "bob"], binomials=[6, 3])
    (battle,) = of_type(events, Battle)
    assert (battle.attacking_units, battle.defending_units) == (8, 4)
    assert (battle.attacker_losses, battle.defender_losses) == (3, 4)
    assert (battle.holder, battle.units_left) == ("ann", 5)
    assert (game.board.owner["C"], game.board.units["C"], game.board.units["B"]) == ("ann", 5, 0)


def test_W7_otherwise_the_survivors_return_and_the_defender_keeps_what_is_left() -> None:
    game = two_fronts(units={"A": 5, "B": 7, "C": 4, "D": 2, "E": 6})
    game, events = play_scripted(game, {"ann": [AdvanceOrder(5, "B", "C")]}, ["ann", "bob"], binomials=[3, 2])
    (battle,) = of_type(events, Battle)
    assert (battle.holder, battle.units_left) == ("bob", 1)
    assert (game.board.units["B"], game.board.units["C"]) == (2 + 3, 1)


def test_W7_when_both_sides_are_destroyed_the_defender_keeps_the_territory_with_0() -> None:
    game = two_fronts(units={"A": 5, "B": 3, "C": 4, "D": 2, "E": 6})
    game, _ = play_scripted(game, {"ann": [AdvanceOrder(3, "B", "C")]}, ["ann", "bob"], binomials=[4, 3])
    assert (game.board.owner["C"], game.board.units["C"], game.board.units["B"]) == ("bob", 0, 0)


def test_W7_the_losses_are_capped_at_each_side_s_size() -> None:
    game = two_fronts(units={"A": 5, "B": 2, "C": 9, "D": 2, "E": 6})
    _, events = play_scripted(game, {"ann": [AdvanceOrder(2, "B", "C")]}, ["ann", "bob"], binomials=[2, 7])
    (battle,) = of_type(events, Battle)
    assert (battle.attacker_losses, battle.defender_losses) == (2, 2)


def test_W7_a_territory_with_0_units_is_taken_without_losses() -> None:
    game = two_fronts(units={"A": 5, "B": 5, "C": 0, "D": 2, "E": 6})
    for seed in range(10):
        _, events = play_turn(game, {"ann": [AdvanceOrder(1, "B", "C")]}, seed=seed)
        (battle,) = of_type(events, Battle)
        assert (battle.attacker_losses, battle.defender_losses, battle.holder) == (0, 0, "ann")


# ---- W8-W10 -----------------------------------------------------------------------------------------------------


def test_W8_a_bomb_halves_the_target_s_units_rounding_down() -> None:
    game = two_fronts(units={"A": 5, "B": 5, "C": 7, "D": 2, "E": 6}, hands={"ann": (Card.BOMB,)})
    game, events = play_turn(game, {"ann": [BombOrder("C")]})
    assert of_type(events, Bombed) == [Bombed("ann", "C", "bob", 7, 3)]
    assert game.board.units["C"] == 3
    assert game.board.history[-1].players["bob"].losses == 4


def test_W8_a_bomb_whose_target_is_no_longer_next_to_the_player_is_skipped_and_the_card_kept() -> None:
    game = two_fronts(units={"A": 5, "B": 0, "C": 10, "D": 2, "E": 6}, hands={"ann": (Card.BOMB,)})
    orders = {"ann": [BombOrder("C")], "bob": [AdvanceOrder(10, "C", "B")]}
    game, events = play_scripted(game, orders, ["bob", "ann"])
    (skipped,) = of_type(events, Skipped)
    assert skipped.code == Code.NOT_ADJACENT
    assert game.board.hands["ann"] == (Card.BOMB,)


def test_W9_a_blockade_multiplies_the_units_and_makes_the_territory_neutral() -> None:
    for multiplier, after in ((3, 12), (2, 8)):
        game = two_fronts(
            units={"A": 5, "B": 4, "C": 4, "D": 2, "E": 6},
            hands={"ann": (Card.BLOCKADE,)},
            blockade_multiplier=multiplier,
        )
        game, events = play_turn(game, {"ann": [BlockadeOrder("B")]})
        assert of_type(events, Blockaded) == [Blockaded("ann", "B", 4, after)]
        assert (game.board.owner["B"], game.board.units["B"]) == (None, after)


def test_W10_an_airlift_moves_units_between_own_territories_at_any_distance() -> None:
    game = make_game(
        line_map("A", "B", "C", "D"),
        {"A": "ann", "B": "bob", "C": "bob", "D": "ann"},
        {"A": 6, "B": 1, "C": 1, "D": 0},
        hands={"ann": (Card.AIRLIFT,)},
    )
    game, events = play_turn(game, {"ann": [AirliftOrder(4, "A", "D")]})
    assert of_type(events, Moved) == [Moved("ann", 4, "A", "D", 4, airlift=True)]
    assert (game.board.units["A"], game.board.units["D"]) == (2, 4)
    assert game.board.hands["ann"] == ()


def test_W10_an_airlift_to_a_territory_lost_earlier_in_the_turn_is_skipped() -> None:
    game = make_game(
        line_map("A", "B", "C", "D"),
        {"A": "ann", "B": "bob", "C": "bob", "D": "ann"},
        {"A": 6, "B": 1, "C": 3, "D": 0},
        hands={"ann": (Card.AIRLIFT,)},
    )
    orders = {"ann": [AirliftOrder(4, "A", "D")], "bob": [AdvanceOrder(3, "C", "D")]}
    game, events = play_scripted(game, orders, ["bob", "ann"])
    (skipped,) = of_type(events, Skipped)
    assert skipped.code == Code.NOT_YOUR_TERRITORY
    assert game.board.units["A"] == 6


# ---- W11 --------------------------------------------------------------------------------------------------------


def test_W11_a_truce_skips_advances_and_bombs_between_the_two_players_this_turn_only() -> None:
    game = two_fronts(hands={"ann": (Card.DIPLOMACY,), "bob": (Card.BOMB,)})
    orders = {"ann": [NegotiateOrder("bob")], "bob": [AdvanceOrder(4, "C", "B"), BombOrder("B")]}
    game, events = play_turn(game, orders)
    assert [s.code for s in of_type(events, Skipped)] == [Code.TRUCE, Code.TRUCE]
    assert not of_type(events, Battle) and not of_type(events, Bombed)
    assert game.board.hands["bob"] == (Card.BOMB,)
    game, events = play_turn(game, {"bob": [AdvanceOrder(4, "C", "B")]})
    assert of_type(events, Battle)


def test_W11_ones_own_advance_and_bomb_on_the_partner_of_ones_truce_are_skipped_when_they_execute() -> None:
    """Accepted at issue (W4), skipped at execution with the reason (W6): a truce forbids them, whoever offered it."""
    game = two_fronts(hands={"ann": (Card.DIPLOMACY, Card.BOMB)})
    orders = {"ann": [AdvanceOrder(4, "B", "C"), BombOrder("C"), NegotiateOrder("bob")]}
    game, events = play_turn(game, orders)
    skipped = of_type(events, Skipped)
    assert [(s.player, s.code) for s in skipped] == [("ann", Code.TRUCE), ("ann", Code.TRUCE)]
    assert all("truce" in s.reason for s in skipped)
    assert not of_type(events, Battle) and not of_type(events, Bombed)
    assert (game.board.owner["C"], game.board.units["C"]) == ("bob", 4)
    assert game.board.hands["ann"] == (Card.BOMB,)  # a skipped order plays no card


# ---- W12 --------------------------------------------------------------------------------------------------------


def test_W12_neutral_territories_never_act_never_receive_and_defend_like_anyone() -> None:
    game = two_fronts()
    assert WZ.status(game).acting == frozenset({"ann", "bob"})
    game, events = play_scripted(game, {"bob": [AdvanceOrder(2, "D", "E")]}, ["ann", "bob"], binomials=[1, 2])
    (battle,) = of_type(events, Battle)
    assert (battle.defender, battle.attacker_losses, battle.defender_losses) == (None, 2, 1)
    assert game.board.units["E"] == 6 - 1
    game, _ = play_turn(game)
    assert game.board.units["E"] == 5


# ---- W13 --------------------------------------------------------------------------------------------------------


def test_W13_the_deck_holds_50_cards_ten_of_each() -> None:
    from shared.rulesets.warzone.cards import new_deck

    assert Counter(new_deck(GameRandom(1))) == dict.fromkeys(Card, 10)


def test_W13_a_player_who_conquered_draws_one_card_however_many_territories_were_taken() -> None:
    game = make_game(
        star_map("Hub", "N", "S", "W", "X"),
        {"Hub": "ann", "N": "bob", "S": "bob", "W": "bob", "X": "cy"},
        {"Hub": 9, "X": 5},
        deck=(Card.AIRLIFT, Card.BOMB),
    )
    orders = {"ann": [AdvanceOrder(1, "Hub", "N"), AdvanceOrder(1, "Hub", "S")]}
    game, events = play_turn(game, orders)
    assert [b.conquered for b in of_type(events, Battle)] == [True, True]
    assert game.board.hands == {"ann": (Card.AIRLIFT,), "bob": (), "cy": ()}
    assert game.board.deck == (Card.BOMB,)
    private = [e for e in events if isinstance(e, Private)]
    assert private == [Private(CardDrawn("ann", Card.AIRLIFT), frozenset({"ann"}))]
    assert of_type(events, CardReceived) == [CardReceived("ann")]


def test_W13_no_conquest_no_card_and_an_empty_deck_gives_nothing() -> None:
    game, events = play_turn(two_fronts(deck=(Card.BOMB,)))
    assert not [e for e in events if isinstance(e, Private)] and game.board.deck == (Card.BOMB,)
    game = two_fronts(units={"A": 5, "B": 5, "C": 0, "D": 2, "E": 6})
    game, events = play_turn(game, {"ann": [AdvanceOrder(1, "B", "C")]})
    assert of_type(events, DeckEmpty) == [DeckEmpty("ann")]
    assert game.board.hands["ann"] == ()


def test_W13_a_played_card_goes_back_to_the_bottom_of_the_deck() -> None:
    game = two_fronts(hands={"ann": (Card.BOMB, Card.AIRLIFT)}, deck=(Card.DIPLOMACY,))
    game, _ = play_turn(game, {"ann": [BombOrder("C")]})
    assert game.board.hands["ann"] == (Card.AIRLIFT,)
    assert game.board.deck == (Card.DIPLOMACY, Card.BOMB)
    assert game.board.history[-1].players["ann"].cards_played == 1


def test_W13_a_hand_is_secret_only_its_size_is_public() -> None:
    game = two_fronts(hands={"ann": (Card.BOMB, Card.BOMB), "bob": (Card.AIRLIFT,)})
    assert WZ.view(game, "ann").hand == {"bomb": 2, "reinforcement": 0, "blockade": 0, "airlift": 0, "diplomacy": 0}
    assert WZ.view(game, "bob").hand == {"bomb": 0, "reinforcement": 0, "blockade": 0, "airlift": 1, "diplomacy": 0}
    assert WZ.view(game, None).hand is None
    for viewer in ("bob", None):
        seen = WZ.view(game, viewer)
        assert (seen.players["ann"].cards, seen.players["bob"].cards) == (2, 1)


# ---- W14 --------------------------------------------------------------------------------------------------------


def test_W14_a_player_with_no_territory_is_out_and_their_cards_go_back_to_the_deck() -> None:
    game = make_game(
        line_map("A", "B", "C"),
        {"A": "ann", "B": "bob", "C": "cy"},
        {"A": 5, "B": 0, "C": 5},
        hands={"bob": (Card.BOMB, Card.AIRLIFT)},
        deck=(Card.DIPLOMACY,),
    )
    game, events = play_turn(game, {"ann": [AdvanceOrder(2, "A", "B")]})
    assert of_type(events, PlayerEliminated) == [PlayerEliminated("bob", 2)]
    assert game.board.hands["bob"] == () and game.board.deck[-2:] == (Card.BOMB, Card.AIRLIFT)
    assert game.board.eliminated == ("bob",)
    assert WZ.status(game).acting == frozenset({"ann", "cy"})
    assert not WZ.status(game).finished


def test_W14_the_last_player_standing_wins_and_neutral_territories_do_not_count() -> None:
    game = make_game(
        line_map("A", "B", "C", "D"), {"A": "ann", "B": "ann", "C": "bob", "D": None}, {"A": 5, "B": 9, "C": 0, "D": 6}
    )
    game, events = play_turn(game, {"ann": [AdvanceOrder(2, "B", "C")]})
    status = WZ.status(game)
    assert status.finished and status.winner == "ann" and status.turn == 1
    (won,) = of_type(events, GameWon)
    assert won.player == "ann" and won.statistics == game.board.history
    assert game.board.owner["D"] is None and game.board.phase is Phase.FINISHED
    assert WZ.status(game).acting == frozenset()


def test_W14_max_turns_ends_the_game_in_a_draw() -> None:
    game = two_fronts(max_turns=2)
    game, events = play_turn(game)
    assert not WZ.status(game).finished
    game, events = play_turn(game)
    status = WZ.status(game)
    assert status.finished and status.winner is None and status.turn == 2
    (drawn,) = of_type(events, GameDrawn)
    assert "2 turns" in drawn.reason and len(drawn.statistics) == 2
    problem = turns.issue(WZ, game, "ann", DeployOrder("A", 1))
    assert not isinstance(problem, Game)


def test_W14_when_the_last_players_go_out_together_the_game_is_a_draw() -> None:
    game = make_game(
        line_map("A", "B"),
        {"A": "ann", "B": "bob"},
        {"A": 1, "B": 1},
        hands={"ann": (Card.BLOCKADE,), "bob": (Card.BLOCKADE,)},
    )
    game, events = play_turn(game, {"ann": [BlockadeOrder("A")], "bob": [BlockadeOrder("B")]})
    status = WZ.status(game)
    assert status.finished and status.winner is None
    assert len(of_type(events, PlayerEliminated)) == 2 and of_type(events, GameDrawn)


def test_W14_each_turn_s_statistics_are_told_and_kept_for_the_end() -> None:
    game = two_fronts(
        units={"A": 5, "B": 9, "C": 4, "D": 0, "E": 6},
        pools={"ann": 3, "bob": 3},
        hands={"ann": (Card.BOMB,)},
        deck=(Card.AIRLIFT,),
    )
    orders = {"ann": [DeployOrder("B", 3), BombOrder("C"), AdvanceOrder(12, "B", "C")], "bob": [DeployOrder("D", 3)]}
    # The bomb leaves 2 of C's 4; the 12 attackers destroy both and lose 1.
    game, events = play_scripted(game, orders, ["ann", "bob"], binomials=[2, 1])
    (stats,) = of_type(events, TurnStats)
    assert stats.turn == 1
    ann, bob = stats.players["ann"], stats.players["bob"]
    assert (ann.territories, ann.units, ann.conquests, ann.losses, ann.cards_played) == (3, 5 + 11, 1, 1, 1)
    assert (bob.territories, bob.units, bob.conquests, bob.losses, bob.cards_played) == (1, 3, 0, 2 + 2, 0)
    assert game.board.history == (stats,)
    assert WZ.view(game, None).statistics is None
    game, _ = play_turn(game.evolve(options=game.options.model_copy(update={"max_turns": 2})))
    assert WZ.view(game, None).statistics == list(game.board.history)
    assert [s.turn for s in game.board.history] == [1, 2]
