"""C4: cards. The deck, what a set is, what a set is worth on each schedule, trading (forced at 5 cards), the card
drawn after a turn with a conquest, cards taken with a player's last country, the discard pile reshuffled, and hands
kept secret (views and Private events)."""

from __future__ import annotations

from collections import Counter

import pytest

from shared.game import turns
from shared.game.random import SETUP_STEP, GameRandom
from shared.game.ruleset import Private
from shared.rulesets.classic.board import Phase
from shared.rulesets.classic.cards import Card, Symbol, fixed_value, is_set, make_deck, schedule_value, sets_in
from shared.rulesets.classic.events import (
    CardDrawn,
    CardReceived,
    CardsCaptured,
    CardsHandedOver,
    CardsKept,
    CardsTraded,
    DeckReshuffled,
)
from shared.rulesets.classic.options import CardSchedule
from shared.rulesets.classic.orders import (
    Attack,
    AttackMove,
    ExchangeCards,
    KeepCards,
    NoAttack,
    NoFortify,
    Reinforce,
)
from tests.classic_support import CLASSIC, act, game_at, loaded, real_map, refused

INF, CAV, ART, WILD = Symbol.INFANTRY, Symbol.CAVALRY, Symbol.ARTILLERY, Symbol.WILDCARD
WORLD = real_map("world")


def cards(*symbols: Symbol) -> tuple[Card, ...]:
    return tuple(Card(s, None if s is WILD else f"C{i}") for i, s in enumerate(symbols))


def test_C4_one_card_per_country_in_equal_shares_by_map_order_plus_two_wildcards() -> None:
    deck = make_deck(WORLD.names)
    assert len(deck) == 42 + 2
    assert Counter(c.symbol for c in deck) == {INF: 14, CAV: 14, ART: 14, WILD: 2}
    assert [c.country for c in deck[:42]] == list(WORLD.names)
    assert [c.symbol for c in deck[:4]] == [INF, CAV, ART, INF]


def test_C4_the_deck_is_shuffled_by_the_games_generator() -> None:
    def deck(seed: str) -> tuple[Card, ...]:
        return CLASSIC.new_game(WORLD, ("ann", "bob"), CLASSIC.options({}), GameRandom(seed, SETUP_STEP)).board.deck

    assert deck("one") == deck("one")
    assert deck("one") != deck("two")
    assert Counter(deck("one")) == Counter(make_deck(WORLD.names))


@pytest.mark.parametrize(
    ("hand", "a_set"),
    [
        ((INF, INF, INF), True),
        ((CAV, CAV, CAV), True),
        ((INF, CAV, ART), True),
        ((INF, INF, CAV), False),
        ((ART, ART, INF), False),
        ((INF, INF, WILD), True),
        ((INF, CAV, WILD), True),
        ((INF, WILD, WILD), True),
        ((INF, CAV), False),
    ],
)
def test_C4_a_set_is_three_of_a_kind_or_one_of_each_or_either_completed_by_wildcards(
    hand: tuple[Symbol, ...], a_set: bool
) -> None:
    assert is_set(cards(*hand)) is a_set


def test_C4_five_cards_always_hold_a_set() -> None:
    from itertools import product

    for symbols in product((INF, CAV, ART, WILD), repeat=5):
        assert sets_in(cards(*symbols)), symbols


def test_C4_the_seed_schedule_is_5_then_5_more_each_time_anyone_trades() -> None:
    assert [schedule_value(CardSchedule.SEED, k) for k in range(6)] == [5, 10, 15, 20, 25, 30]


def test_C4_dominations_increasing_schedule() -> None:
    assert [schedule_value(CardSchedule.INCREASING, k) for k in range(10)] == [4, 6, 8, 10, 12, 15, 20, 25, 30, 35]


@pytest.mark.parametrize(
    ("hand", "armies"),
    [
        ((INF, INF, INF), 4),
        ((CAV, CAV, CAV), 6),
        ((ART, ART, ART), 8),
        ((INF, CAV, ART), 10),
        ((CAV, CAV, WILD), 6),  # a wildcard completes three of a kind
        ((ART, WILD, ART), 8),
        ((INF, ART, WILD), 10),  # ... or one of each
        ((WILD, WILD, CAV), 10),
    ],
)
def test_C4_dominations_fixed_schedule(hand: tuple[Symbol, ...], armies: int) -> None:
    assert fixed_value(cards(*hand)) == armies


def reinforcing(hand: tuple[Card, ...], trades: int = 0, options: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return game_at(
        "aaaabbb",
        [2, 1, 1, 2, 3, 1, 1],
        phase=Phase.REINFORCEMENT,
        reinforcements=5,
        hands={"ann": hand, "bob": ()},
        trades=trades,
        options=options,
    )


def test_C4_trading_a_set_adds_its_armies_and_counts_for_every_player() -> None:
    hand = cards(INF, CAV, INF, ART)
    game = reinforcing(hand, trades=2)
    game, events = act(game, ExchangeCards((1, 2, 4)))
    assert events == [CardsTraded("ann", (hand[0], hand[1], hand[3]), 15)]
    assert game.board.reinforcements == 5 + 15
    assert game.board.hand("ann") == (hand[2],)
    assert game.board.discard == (hand[0], hand[1], hand[3])
    assert game.board.trades == 3


@pytest.mark.parametrize(
    ("positions", "code"),
    [
        ((1, 2, 3), "not-a-set"),  # infantry, infantry, cavalry
        ((1, 1, 2), "bad-cards"),
        ((1, 2, 9), "bad-cards"),
        ((0, 1, 2), "bad-cards"),
    ],
)
def test_C4_only_a_set_in_ones_own_hand_is_traded(positions: tuple[int, int, int], code: str) -> None:
    game = reinforcing(cards(INF, INF, CAV, ART))
    assert refused(game, ExchangeCards(positions)).code == code


def test_C4_trades_are_for_the_reinforcement_phase() -> None:
    game = game_at("aaaabbb", [2, 1, 1, 2, 3, 1, 1], hands={"ann": cards(INF, INF, INF), "bob": ()})
    assert refused(game, ExchangeCards((1, 2, 3))).code == "wrong-phase"


def test_C4_five_cards_or_more_must_be_traded_until_fewer_than_five_remain() -> None:
    hand = cards(INF, INF, INF, CAV, CAV, CAV, ART, ART)
    game = reinforcing(hand)
    assert refused(game, Reinforce("A", 1)).code == "must-trade"
    assert refused(game, KeepCards()).code == "must-trade"
    game, _ = act(game, ExchangeCards((1, 2, 3)))
    assert len(game.board.hand("ann")) == 5
    assert refused(game, Reinforce("A", 1)).code == "must-trade"
    game, _ = act(game, ExchangeCards((1, 2, 3)))
    assert len(game.board.hand("ann")) == 2
    game, _ = act(game, Reinforce("A", game.board.reinforcements))
    assert game.board.reinforcements == 0 and game.board.phase is Phase.ATTACK
    assert game.board.armies["A"] == 2 + 5 + 5 + 10


def test_C4_exchangecards_none_keeps_the_cards_this_turn() -> None:
    game = reinforcing(cards(INF, INF, INF))
    game, events = act(game, KeepCards())
    assert events == [CardsKept("ann")]
    assert refused(game, ExchangeCards((1, 2, 3))).code == "trading-closed"
    assert not any(isinstance(e.order, ExchangeCards | KeepCards) for e in turns.legal_orders(CLASSIC, game, "ann"))


def test_C4_a_turn_with_a_conquest_ends_with_one_card_drawn_told_to_the_drawer_alone() -> None:
    deck = cards(CAV, ART)
    game = game_at("aaaabbb", [3, 1, 1, 4, 1, 2, 1], deck=deck)
    game, _ = act(game, Attack("D", "E", 2), loaded(6, 6, 1))
    game, _ = act(game, AttackMove(2))
    game, _ = act(game, NoAttack())
    done = turns.act(CLASSIC, game, "ann", NoFortify(), loaded())
    game, resolved = done  # type: ignore[misc]
    assert game.board.hand("ann") == (deck[0],)
    assert game.board.deck == (deck[1],)
    assert CardDrawn("ann", 1) in resolved.events
    (private,) = [e for e in resolved.events if isinstance(e, Private)]
    assert private.event == CardReceived("ann", deck[0]) and private.audience == frozenset({"ann"})


def test_C4_no_card_for_a_turn_without_a_conquest() -> None:
    game = game_at("aaaabbb", [3, 1, 1, 3, 1, 2, 1], deck=cards(CAV, ART), phase=Phase.FORTIFICATION)
    game, events = act(game, NoFortify())
    assert game.board.hand("ann") == () and not any(isinstance(e, CardDrawn) for e in events)


def test_C4_the_discard_pile_is_shuffled_back_when_the_deck_runs_out() -> None:
    pile = cards(INF, CAV, ART, WILD)
    game = game_at("aaaabbb", [3, 1, 1, 3, 1, 2, 1], deck=(), discard=pile, phase=Phase.FORTIFICATION, conquered=True)
    game, events = act(game, NoFortify())
    assert DeckReshuffled(4) in events
    assert len(game.board.hand("ann")) == 1 and len(game.board.deck) == 3 and game.board.discard == ()
    assert Counter(game.board.hand("ann") + game.board.deck) == Counter(pile)


def test_C4_conquering_a_players_last_country_takes_all_their_cards() -> None:
    theirs = cards(INF, CAV)
    # cat's last country is G; bob takes it from F.
    game = game_at(
        "aaaaabc",
        [3, 1, 1, 3, 1, 4, 1],
        seats=("ann", "bob", "cat"),
        active="bob",
        hands={"ann": (), "bob": cards(ART), "cat": theirs},
    )
    done = turns.act(CLASSIC, game, "bob", Attack("F", "G", 3), loaded(6, 6, 6, 1))
    game, resolved = done  # type: ignore[misc]
    assert game.board.hand("bob") == (cards(ART)[0], *theirs)
    assert "cat" not in game.board.hands or game.board.hand("cat") == ()
    assert CardsCaptured("bob", "cat", 2) in resolved.events
    (private,) = [e for e in resolved.events if isinstance(e, Private)]
    assert private.event == CardsHandedOver("bob", "cat", theirs)
    assert private.audience == frozenset({"bob", "cat"})


def test_C4_a_hand_is_secret_others_see_how_many_cards_it_holds() -> None:
    hand = cards(INF, CAV, WILD)
    game = game_at("aaaabbb", [3, 1, 1, 3, 1, 2, 1], hands={"ann": hand, "bob": cards(ART)})
    mine = CLASSIC.view(game, "ann")
    assert mine.your_hand == list(hand)
    theirs = CLASSIC.view(game, "bob")
    assert theirs.your_hand == list(cards(ART)) and theirs.players["ann"].cards == 3
    spectator = CLASSIC.view(game, None)
    assert spectator.your_hand == [] and spectator.players["ann"].cards == 3
    dumped = str(CLASSIC.dump_view(theirs)) + str(CLASSIC.dump_view(spectator))
    assert "wildcard" not in dumped and "C1" not in dumped
