"""W4 and the issue-time side of W8-W11: every order is checked when issued, against what the player's earlier
orders of the turn leave; an illegal one is refused at once, with the reason, and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from shared.game import turns
from shared.game.errors import Refused, RuleError
from shared.game.game import Game
from shared.rulesets.warzone.cards import Card
from shared.rulesets.warzone.checker import Code, units_left
from shared.rulesets.warzone.orders import (
    AdvanceOrder,
    AirliftOrder,
    BlockadeOrder,
    BombOrder,
    CheatOrder,
    DeployOrder,
    NegotiateOrder,
    ReinforceOrder,
)
from tests.warzone_support import WZ, issued, line_map, make_game, refused

ALL_CARDS = (Card.BOMB, Card.AIRLIFT, Card.BLOCKADE, Card.DIPLOMACY, Card.REINFORCEMENT)


def board(**options: Any) -> Game[Any, Any]:
    """A - B - C - D - E - F: ann holds A B, bob C D, E is neutral, cy holds F."""
    return make_game(
        line_map("A", "B", "C", "D", "E", "F"),
        {"A": "ann", "B": "ann", "C": "bob", "D": "bob", "E": None, "F": "cy"},
        {"A": 5, "B": 3, "C": 4, "D": 2, "E": 6, "F": 1},
        pools={"ann": 10, "bob": 10, "cy": 3},
        hands={"ann": ALL_CARDS, "bob": (Card.BOMB,)},
        **options,
    )


# Each illegal order, the code it is refused with and words of its reason: a table reads better than 30 tests.
REFUSALS: list[tuple[str, list[Any], Any, str, str]] = [
    ("W4 deploy more than the pool", [], DeployOrder("A", 11), Code.POOL_EXCEEDED, "10 units left"),
    (
        "W4 deploy more than what earlier deploys leave",
        [DeployOrder("A", 8)],
        DeployOrder("B", 3),
        Code.POOL_EXCEEDED,
        "2 units left",
    ),
    ("W4 deploy on someone else's territory", [], DeployOrder("C", 1), Code.NOT_YOUR_TERRITORY, "not yours"),
    ("W4 deploy no units", [], DeployOrder("A", 0), Code.NON_POSITIVE_UNITS, "at least 1"),
    (
        "W4 deploy on a territory that does not exist",
        [],
        DeployOrder("Atlantis", 1),
        Refused.UNKNOWN_TERRITORY,
        "Atlantis",
    ),
    (
        "W4 advance to a territory that is not adjacent",
        [],
        AdvanceOrder(1, "A", "C"),
        Code.NOT_ADJACENT,
        "not adjacent",
    ),
    ("W4 advance from someone else's territory", [], AdvanceOrder(1, "C", "B"), Code.NOT_YOUR_TERRITORY, "not yours"),
    (
        "W4 advance more units than the source holds",
        [],
        AdvanceOrder(6, "A", "B"),
        Code.NOT_ENOUGH_UNITS,
        "5 units left",
    ),
    (
        "W4 no unit sent twice",
        [AdvanceOrder(3, "B", "C")],
        AdvanceOrder(1, "B", "C"),
        Code.NOT_ENOUGH_UNITS,
        "0 units left",
    ),
    ("W4 advance to the source itself", [], AdvanceOrder(1, "A", "A"), Code.SAME_TERRITORY, "both"),
    ("W4 a card played more often than held", [BombOrder("C")], BombOrder("D"), Code.CARD_NOT_HELD, "bomb card"),
    ("W8 bomb without a bomb card (cy holds none)", [], BombOrder("E"), Code.CARD_NOT_HELD, "bomb card"),
    ("W8 bomb an own territory", [], BombOrder("B"), Code.OWN_TERRITORY, "is yours"),
    ("W8 bomb a territory adjacent to none of the player's", [], BombOrder("D"), Code.NOT_ADJACENT, "not adjacent"),
    ("W9 blockade someone else's territory", [], BlockadeOrder("C"), Code.NOT_YOUR_TERRITORY, "not yours"),
    (
        "W9 blockade the same territory twice",
        [BlockadeOrder("A")],
        BlockadeOrder("A"),
        Code.CARD_NOT_HELD,
        "blockade card",
    ),
    (
        "W9 advance from a territory blockaded earlier",
        [BlockadeOrder("B")],
        AdvanceOrder(1, "B", "C"),
        Code.BLOCKADED,
        "neutral",
    ),
    (
        "W9 advance into a territory blockaded earlier",
        [BlockadeOrder("B")],
        AdvanceOrder(1, "A", "B"),
        Code.BLOCKADED,
        "neutral",
    ),
    ("W10 airlift to someone else's territory", [], AirliftOrder(1, "A", "D"), Code.TARGET_NOT_YOURS, "not yours"),
    ("W10 airlift more than the source holds", [], AirliftOrder(9, "B", "A"), Code.NOT_ENOUGH_UNITS, "3 units left"),
    ("W10 airlift from someone else's territory", [], AirliftOrder(1, "C", "A"), Code.NOT_YOUR_TERRITORY, "not yours"),
    ("W11 negotiate with oneself", [], NegotiateOrder("ann"), Code.NEGOTIATE_WITH_SELF, "yourself"),
    ("W11 negotiate with nobody", [], NegotiateOrder("zed"), Refused.UNKNOWN_PLAYER, "zed"),
    (
        "W11 a second truce with the same player",
        [NegotiateOrder("cy")],
        NegotiateOrder("cy"),
        Code.CARD_NOT_HELD,
        "diplomacy",
    ),
    (
        "W4 reinforce without a reinforcement card (bob holds none)",
        [],
        ReinforceOrder(),
        Code.CARD_NOT_HELD,
        "reinforcement card",
    ),
    (
        "W15 the cheater's order where cheaters are not allowed",
        [],
        CheatOrder(),
        Code.CHEATING_NOT_ALLOWED,
        "allow_cheaters",
    ),
]


@pytest.mark.parametrize(("case", "before", "order", "code", "words"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_W4_an_illegal_order_is_refused_with_its_reason_and_changes_nothing(
    case: str, before: list[Any], order: Any, code: str, words: str
) -> None:
    player = "cy" if "cy holds" in case else "bob" if "bob holds" in case else "ann"
    game = issued(board(), player, *before)
    problem = refused(game, player, order)
    assert problem.code == code
    assert words in problem.message
    assert "Input should" not in problem.message
    # Nothing changed: the same orders, the same view, and the next legal order is judged as before.
    assert game.orders_of(player) == tuple(before)
    assert WZ.view(game, player) == WZ.view(issued(board(), player, *before), player)


def test_W4_deployed_units_can_advance_the_same_turn() -> None:
    game = issued(board(), "ann", DeployOrder("B", 4), AdvanceOrder(7, "B", "C"))
    assert game.orders_of("ann") == (DeployOrder("B", 4), AdvanceOrder(7, "B", "C"))
    counted = turns.tally(WZ, game, "ann")
    assert counted.pool_left == 6, "10 in the pool, 4 deployed"
    assert units_left(game.board, counted, "B") == 0, "B's 3 and the 4 deployed there, all 7 advancing"
    assert refused(game, "ann", AdvanceOrder(1, "B", "A")).code == Code.NOT_ENOUGH_UNITS


def test_W4_units_moved_into_an_own_territory_can_be_sent_on() -> None:
    game = issued(board(), "ann", AdvanceOrder(5, "A", "B"))
    assert [units_left(game.board, turns.tally(WZ, game, "ann"), t) for t in "AB"] == [0, 8], "A's 5 into B's 3"
    game = issued(game, "ann", AdvanceOrder(8, "B", "C"))
    assert units_left(game.board, turns.tally(WZ, game, "ann"), "B") == 0
    assert refused(game, "ann", AdvanceOrder(1, "B", "C")).code == Code.NOT_ENOUGH_UNITS


def test_W4_a_reinforcement_card_adds_5_units_that_later_deploys_can_use() -> None:
    game = issued(board(), "ann", DeployOrder("A", 10))
    assert refused(game, "ann", DeployOrder("A", 1)).code == Code.POOL_EXCEEDED
    game = issued(game, "ann", ReinforceOrder(), DeployOrder("A", 5))
    assert WZ.view(game, "ann").pool_left == 0


def test_W4_a_commit_needs_the_whole_pool_deployed() -> None:
    game = issued(board(), "ann", DeployOrder("A", 6))
    problem = turns.commit(WZ, game, "ann")
    assert isinstance(problem, RuleError) and problem.code == Code.UNITS_NOT_DEPLOYED
    assert "4 units" in problem.message
    done = turns.commit(WZ, issued(game, "ann", DeployOrder("B", 4)), "ann")
    assert isinstance(done, Game) and "ann" in done.committed


def test_W4_orders_can_be_withdrawn_unless_a_later_one_needs_them() -> None:
    game = issued(board(), "ann", DeployOrder("B", 4), AdvanceOrder(7, "B", "C"))
    problem = turns.withdraw(WZ, game, "ann", 0)
    assert isinstance(problem, RuleError) and "later order" in problem.message
    withdrawn = turns.withdraw(WZ, game, "ann", 1)
    assert isinstance(withdrawn, Game) and withdrawn.orders_of("ann") == (DeployOrder("B", 4),)


def test_W4_the_same_card_may_be_played_as_often_as_it_is_held() -> None:
    game = make_game(
        line_map("A", "B", "C"),
        {"A": "ann", "B": "bob", "C": "bob"},
        {"B": 8, "C": 8},
        hands={"ann": (Card.BOMB, Card.BOMB)},
    )
    once = issued(game, "ann", BombOrder("B"))
    assert turns.tally(WZ, once, "ann").cards.get(Card.BOMB, 0) == 1, "one bomb card of two played"
    twice = issued(once, "ann", BombOrder("B"))
    assert turns.tally(WZ, twice, "ann").cards.get(Card.BOMB, 0) == 0
    third = refused(twice, "ann", BombOrder("B"))
    assert third.code == Code.CARD_NOT_HELD and "bomb card" in third.message


def test_W4_an_eliminated_player_issues_nothing() -> None:
    game = make_game(
        line_map("A", "B"),
        {"A": "ann", "B": "bob"},
        players=("ann", "bob", "cy"),
        eliminated=("cy",),
        hands={"ann": (Card.DIPLOMACY,)},
    )
    assert refused(game, "cy", DeployOrder("A", 1)).code == Refused.ELIMINATED
    assert refused(game, "ann", NegotiateOrder("cy")).code == Code.PLAYER_OUT


def test_W11_a_truce_with_another_player_is_accepted_before_an_attack_on_a_third() -> None:
    issued(board(), "ann", NegotiateOrder("cy"), AdvanceOrder(3, "B", "C"))


@pytest.mark.parametrize(
    "orders",
    [
        [NegotiateOrder("bob"), AdvanceOrder(1, "B", "C"), BombOrder("C")],
        [AdvanceOrder(1, "B", "C"), BombOrder("C"), NegotiateOrder("bob")],
    ],
    ids=["the truce first", "the truce last"],
)
def test_W11_orders_against_the_partner_of_ones_own_truce_are_accepted_at_issue_and_judged_when_they_execute(
    orders: list[Any],
) -> None:
    """W4 checks at issue what the earlier orders use up; W6 and W11 skip, when it executes, an order a truce forbids
    (tests/test_warzone_turn.py), whoever offered the truce."""
    game = issued(board(), "ann", *orders)
    assert game.orders_of("ann") == tuple(orders)


def test_W15_the_cheater_s_order_is_accepted_once_a_turn_where_the_creator_allows_it() -> None:
    game = issued(board(allow_cheaters=True), "ann", CheatOrder())
    assert refused(game, "ann", CheatOrder()).code == Code.ALREADY_CHEATED


def test_W4_legal_orders_lists_only_what_the_rules_accept() -> None:
    game = issued(board(), "ann", DeployOrder("A", 2))
    legal = turns.legal_orders(WZ, game, "ann")
    kinds = {entry.order.kind for entry in legal}
    assert kinds == {"deploy", "advance", "bomb", "blockade", "airlift", "negotiate", "reinforce"}
    for entry in legal:
        assert WZ.check_order(game, "ann", turns.tally(WZ, game, "ann"), entry.order) is None
    deploys = [e for e in legal if e.order.kind == "deploy"]
    assert {(e.order.territory, e.order.units, e.count_field) for e in deploys} == {
        ("A", 8, "units"),
        ("B", 8, "units"),
    }
    assert not any(e.order.kind == "cheat" for e in turns.legal_orders(WZ, board(allow_cheaters=True), "ann"))
    bob = {e.order.kind for e in turns.legal_orders(WZ, board(), "bob")}
    assert bob == {"deploy", "advance", "bomb"}


def test_W4_no_one_sees_another_player_s_orders_before_the_turn_executes() -> None:
    game = issued(board(), "ann", DeployOrder("A", 10), BombOrder("C"))
    committed = turns.commit(WZ, game, "ann")
    assert isinstance(committed, Game)
    assert WZ.view(committed, "ann").your_orders == [DeployOrder("A", 10), BombOrder("C")]
    for viewer in ("bob", "cy", None):
        seen = WZ.view(committed, viewer)
        assert seen.your_orders == []
        assert seen.players["ann"].cards == 5 and seen.players["ann"].pool == 10
