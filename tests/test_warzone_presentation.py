"""How Warzone reads in the text client: the order grammar, the board (continents with bonus and holder, pools, card
counts, one's own hand), the turn's report, completion that offers only legal names, the statistics at the end."""

from __future__ import annotations

from typing import Any

import pytest

from shared.game.grammar import ParseError
from shared.game.presentation import ArgKind, Context, Fragments, Palette
from shared.game.ruleset import Private
from shared.rulesets.warzone.cards import Card
from shared.rulesets.warzone.events import (
    Battle,
    CardDrawn,
    CardReceived,
    GameWon,
    Moved,
    PlayerTurnStats,
    Skipped,
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
from shared.rulesets.warzone.presentation import CARDS_FOCUS
from tests.warzone_support import WZ, issued, line_map, make_game, refused

SHOW = WZ.presentation
PALETTE = Palette(("Ann", "Bob"))


def text(fragments: Fragments) -> str:
    return "".join(t for _, t in fragments)


def game() -> Any:
    game_map = line_map(
        "Quebec",
        "Ontario",
        "Alberta",
        "Yukon",
        continents={"East": (3, ["Quebec", "Ontario"]), "West": (2, ["Alberta", "Yukon"])},
    )
    return make_game(
        game_map,
        {"Quebec": "Ann", "Ontario": "Ann", "Alberta": "Bob", "Yukon": "Bob"},
        {"Quebec": 5, "Ontario": 2, "Alberta": 4, "Yukon": 1},
        pools={"Ann": 7, "Bob": 3},
        hands={"Ann": (Card.BOMB, Card.AIRLIFT, Card.AIRLIFT), "Bob": (Card.DIPLOMACY,)},
    )


def parse(line: str, viewer: str = "Ann") -> list[Any] | ParseError:
    g = game()
    words = line.split()
    command = next(c for c in SHOW.commands if words[0] in (c.name, *c.aliases))
    return SHOW.parse(command, words[1:], Context(g.game_map, WZ.view(g, viewer), viewer))


@pytest.mark.parametrize(
    ("line", "order"),
    [
        ("deploy 5 Quebec", DeployOrder("Quebec", 5)),
        ("deploy 5 queb", DeployOrder("Quebec", 5)),
        ("advance 3 Quebec Ontario", AdvanceOrder(3, "Quebec", "Ontario")),
        ("adv 3 q o", AdvanceOrder(3, "Quebec", "Ontario")),
        ("bomb Alberta", BombOrder("Alberta")),
        ("blockade Quebec", BlockadeOrder("Quebec")),
        ("airlift 4 Quebec Ontario", AirliftOrder(4, "Quebec", "Ontario")),
        ("negotiate Bob", NegotiateOrder("Bob")),
        ("negotiate b", NegotiateOrder("Bob")),
        ("reinforce", ReinforceOrder()),
    ],
)
def test_each_order_reads_as_the_handout_writes_it(line: str, order: Any) -> None:
    assert parse(line) == [order]
    assert parse(SHOW.describe(order)) == [order]  # an order is described as it is typed


@pytest.mark.parametrize(
    ("line", "orders"),
    [
        ("deploy 7 *", [DeployOrder("Quebec", 4), DeployOrder("Ontario", 3)]),  # all one's own: the first get the odd
        ("deploy 6 Ontario Quebec", [DeployOrder("Ontario", 3), DeployOrder("Quebec", 3)]),
        ("dep 1 *", [DeployOrder("Quebec", 1)]),
    ],
)
def test_deploy_spreads_a_count_over_several_territories_or_all_one_s_own(line: str, orders: list[Any]) -> None:
    assert parse(line) == orders


def test_deploy_star_is_the_territories_of_whoever_types_it() -> None:
    assert parse("deploy 3 *", viewer="Bob") == [DeployOrder("Alberta", 2), DeployOrder("Yukon", 1)]


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("deploy Quebec", "a number of units"),
        ("deploy 5 Quebec Atlantis", "Atlantis"),
        ("deploy x Quebec", "whole number"),
        ("deploy 5 Atlantis", "Atlantis"),
        ("advance 3 Quebec", "where from and where to"),
        ("advance 3 Quebec Narnia", "to:"),
        ("bomb", "needs a territory"),
        ("negotiate", "player"),
        ("negotiate Zed", "Zed"),
        ("reinforce now", "nothing more"),
    ],
)
def test_a_mistyped_order_says_how_to_type_it(line: str, words: str) -> None:
    problem = parse(line)
    assert isinstance(problem, ParseError)
    assert words in problem.message


def test_the_board_shows_continents_with_bonus_and_holder_pools_card_counts_and_one_s_own_hand() -> None:
    g = issued(game(), "Ann", DeployOrder("Ontario", 2))
    shown = text(SHOW.board(WZ.view(g, "Ann"), g.game_map, PALETTE, "Ann", g.orders_of("Ann")))
    assert "Continents (bonus, and the mark of who holds all of one): East 3 A, West 2 B\n" in shown
    assert "A Ann (you)  B Bob\n" in shown
    assert "pool 7, 3 cards" in shown and "pool 3, 1 card" in shown
    assert "Your cards: bomb, airlift x2" in shown
    assert "Your pool: 5 units to deploy" in shown
    assert "  Ontario 2 (+2 to deploy) A | Que 5 A, Alb 4 B\n" in shown
    watching = text(SHOW.board(WZ.view(g, None), g.game_map, PALETTE, None))
    assert "Your cards" not in watching and "bomb" not in watching and "pool 7, 3 cards" in watching
    bob = text(SHOW.board(WZ.view(g, "Bob"), g.game_map, PALETTE, "Bob"))
    assert "Your cards: diplomacy" in bob and "airlift" not in bob


def test_board_cards_shows_the_hand_alone() -> None:
    g = game()
    assert CARDS_FOCUS in SHOW.focus_names(WZ.view(g, "Ann"), g.game_map)
    shown = text(SHOW.board(WZ.view(g, "Ann"), g.game_map, PALETTE, "Ann", focus=CARDS_FOCUS))
    assert shown == "Your cards: bomb, airlift x2\n"
    assert "watching" in text(SHOW.board(WZ.view(g, None), g.game_map, PALETTE, None, focus=CARDS_FOCUS))


def test_completion_offers_only_names_the_order_can_take() -> None:
    g = game()
    context = Context(g.game_map, WZ.view(g, "Ann"), "Ann")
    assert list(SHOW.candidates(ArgKind.OWN, ["deploy", "5"], context)) == ["Quebec", "Ontario"]
    assert list(SHOW.candidates(ArgKind.TARGET, ["advance", "3", "Ontario"], context)) == ["Quebec", "Alberta"]
    assert list(SHOW.candidates(ArgKind.ENEMY, ["bomb"], context)) == ["Alberta"]
    assert list(SHOW.candidates(ArgKind.OWN, ["airlift", "3", "Quebec"], context)) == ["Ontario"]
    assert list(SHOW.candidates(ArgKind.PLAYER, ["negotiate"], context)) == ["Bob"]


def test_the_report_tells_each_event_and_the_holder_alone_sees_the_card() -> None:
    events = [
        Moved("Ann", 2, "Quebec", "Ontario", 5),
        Battle("Bob", "Alberta", "Ontario", "Ann", 4, 7, 3, 2, "Ann", 5, 4),
        Skipped("Ann", BombOrder("Alberta"), "truce", "Ann and Bob are in a truce this turn"),
        Private(CardDrawn("Ann", Card.BOMB), frozenset({"Ann"})),
        CardReceived("Ann"),
    ]
    ann = text(SHOW.events(events, PALETTE, "Ann"))
    assert "moved 2 from Quebec to Ontario (of 5 ordered: only 2 left)" in ann
    assert "Bob attacked Ontario (Ann) from Alberta with 4 against 7: Bob lost 3, Ann lost 2" in ann
    assert "Ann holds Ontario with 5 units" in ann
    assert "Skipped: Ann's bomb Alberta: Ann and Bob are in a truce this turn." in ann
    assert "You drew a bomb card." in ann and "Ann drew a card" not in ann
    bob = text(SHOW.events([e for e in events if not isinstance(e, Private)], PALETTE, "Bob"))
    assert "Ann drew a card." in bob and "bomb card" not in bob


def test_the_end_shows_each_player_s_statistics_turn_by_turn() -> None:
    stats = (
        TurnStats(1, {"Ann": PlayerTurnStats(3, 20, 1, 2, 0), "Bob": PlayerTurnStats(1, 5, 0, 4, 1)}),
        TurnStats(2, {"Ann": PlayerTurnStats(4, 24, 1, 1, 1), "Bob": PlayerTurnStats(0, 0, 0, 5, 0)}),
    )
    shown = text(SHOW.events([GameWon("Ann", 2, stats)], PALETTE, "Bob")).splitlines()
    assert shown[0] == "Ann wins the game after turn 2!"
    assert shown[1] == "Statistics, turn by turn:"
    ann = shown.index("  Ann")
    assert shown[ann + 1].split() == ["turn", "territories", "units", "conquests", "losses", "cards", "played"]
    assert shown[ann + 2].split() == ["1", "3", "20", "1", "2", "0"]
    assert shown[ann + 3].split() == ["2", "4", "24", "1", "1", "1"]
    assert shown[ann + 4].split() == ["all", "2", "3", "1"]
    bob = shown.index("  Bob")
    assert shown[bob + 4].split() == ["all", "0", "9", "1"]


def test_status_standings_and_hint() -> None:
    g = issued(game(), "Ann", DeployOrder("Quebec", 3))
    view = WZ.view(g, "Ann")
    assert SHOW.status(view, "Ann", g.orders_of("Ann")) == "4 units to deploy"
    assert SHOW.standings(view) == {"Ann": (2, 7), "Bob": (2, 5)}
    assert "deploy" in text(SHOW.hint(view, g.game_map, "Ann", True))
    assert SHOW.stage_key(view) == (view.phase, 1)


def test_cards_is_a_show_only_command_that_prints_the_hand_and_what_each_card_does() -> None:
    g = game()
    (cards,) = SHOW.shows
    assert (cards.name, cards.aliases) == ("cards", ("hand",))
    shown = text(SHOW.show(cards, WZ.view(g, "Ann"), g.game_map, PALETTE, "Ann")).splitlines()
    assert shown[0] == "Your cards: bomb, airlift x2"
    assert [line.split(":")[0].strip() for line in shown[1:]] == ["bomb", "airlift"]
    assert text(SHOW.show(cards, WZ.view(g, None), g.game_map, PALETTE, None)).startswith(
        "Your cards: no hand (you are watching)"
    )


def test_a_conquest_reads_as_the_attacker_taking_the_territory_and_cards_take_their_article() -> None:
    taken = Battle("Bob", "Alberta", "Ontario", "Ann", 8, 2, 1, 2, "Bob", 7, 8)
    told = text(SHOW.events([taken], PALETTE, "Ann"))
    assert told.endswith("Bob takes Ontario, 7 units left.\n"), told
    assert "holds" not in told
    drawn = text(SHOW.events([Private(CardDrawn("Ann", Card.AIRLIFT), frozenset({"Ann"}))], PALETTE, "Ann"))
    assert drawn == "You drew an airlift card.\n"
    g = game()
    refusal = refused(g, "Bob", AirliftOrder(1, "Alberta", "Yukon"))
    assert "needs an airlift card, and you hold none" in refusal.message, refusal.message


@pytest.mark.parametrize(
    ("order", "said"),
    [
        (DeployOrder("Quebec", 5), "deploy 5 on Quebec"),
        (AdvanceOrder(3, "Quebec", "Ontario"), "advance 3 from Quebec to Ontario"),
        (AirliftOrder(4, "Quebec", "Alberta"), "airlift 4 from Quebec to Alberta"),
        (BombOrder("Alberta"), "bomb Alberta: halve its units"),
        (BlockadeOrder("Quebec"), "blockade Quebec: multiply its units, and it turns neutral"),
        (NegotiateOrder("Bob"), "a truce with Bob for this turn"),
        (ReinforceOrder(), "play a reinforcement card"),
    ],
)
def test_each_order_is_offered_in_a_person_s_words_and_typed_as_the_handout_s_command(order: Any, said: str) -> None:
    assert SHOW.words(order) == said
    assert parse(SHOW.describe(order)) == [order]
