"""C12: the SOEN 6441 command grammar in the text client, each command only in its phase, with completion offering
what the phase allows; the board shows the phase, the active player and one's own cards; every roll reads well."""

from __future__ import annotations

import pytest

from shared.game import turns
from shared.game.grammar import ParseError, tokens
from shared.game.presentation import ArgKind, Context, OrderCommand, Palette
from shared.maps import load_map
from shared.rulesets.classic.board import Conquest, Phase
from shared.rulesets.classic.cards import Card, Symbol
from shared.rulesets.classic.events import DiceRolled
from shared.rulesets.classic.orders import (
    AllOut,
    Attack,
    AttackMove,
    AttackUntil,
    Cheat,
    ChooseCapital,
    ExchangeCards,
    Fortify,
    KeepCards,
    NoAttack,
    NoFortify,
    PlaceAll,
    PlaceArmy,
    Reinforce,
)
from tests.classic_support import CLASSIC, MAPS, TINY, act, game_at, loaded, real_map

PRESENTATION = CLASSIC.presentation
WORLD = real_map("world")
COMMANDS = {c.name: c for c in PRESENTATION.commands}


def parse(text: str, view: object = None, you: str | None = "ann") -> list[object] | ParseError:
    name, *args = text.split()
    return PRESENTATION.parse(COMMANDS[name], args, Context(WORLD, view, you))


@pytest.mark.parametrize(
    ("typed", "orders"),
    [
        ("placearmy alaska", [PlaceArmy("Alaska")]),
        ("placeall", [PlaceAll()]),
        ("capital braz", [ChooseCapital("Brazil")]),
        ("exchangecards 1 2 3", [ExchangeCards((1, 2, 3))]),
        ("exchangecards -none", [KeepCards()]),
        ("reinforce Alaska 3", [Reinforce("Alaska", 3)]),
        ("reinforce western-united 2", [Reinforce("Western-United-States", 2)]),
        ("attack alaska kamch 3", [Attack("Alaska", "Kamchatka", 3)]),
        ("attack Alaska Kamchatka -allout", [AllOut("Alaska", "Kamchatka")]),
        ("attack Alaska kamch -until 3", [AttackUntil("Alaska", "Kamchatka", 3)]),
        ("attack -noattack", [NoAttack()]),
        ("attackmove 4", [AttackMove(4)]),
        ("fortify Alaska Alberta 5", [Fortify("Alaska", "Alberta", 5)]),
        ("fortify -none", [NoFortify()]),
        ("cheat", [Cheat()]),
    ],
)
def test_C12_the_soen_6441_grammar(typed: str, orders: list[object]) -> None:
    assert parse(typed) == orders


@pytest.mark.parametrize(
    "typed",
    [
        "placearmy",
        "placearmy Atlantis",
        "reinforce Alaska",
        "reinforce Alaska many",
        "exchangecards 1 2",
        "exchangecards a b c",
        "attack Alaska",
        "attack Alaska Kamchatka four",
        "attack -allout",
        "attackmove",
        "fortify Alaska 3",
        "fortify -all",
        "placeall now",
        "capital",
    ],
)
def test_C12_what_does_not_parse_says_how_to_say_it(typed: str) -> None:
    result = parse(typed)
    assert isinstance(result, ParseError) and str(result)


def test_C5_the_dice_are_the_attackers_choice_by_default_the_most() -> None:
    game = game_at("aaaabbb", [3, 1, 1, 9, 3, 1, 1])
    view = CLASSIC.view(game, "ann")
    command = COMMANDS["attack"]
    assert PRESENTATION.parse(command, ["D", "E"], Context(TINY, view, "ann")) == [Attack("D", "E", 3)]
    game = game_at("aaaabbb", [3, 1, 1, 3, 3, 1, 1])
    view = CLASSIC.view(game, "ann")
    assert PRESENTATION.parse(command, ["D", "E"], Context(TINY, view, "ann")) == [Attack("D", "E", 2)]
    assert PRESENTATION.parse(command, ["D", "E", "1"], Context(TINY, view, "ann")) == [Attack("D", "E", 1)]


def test_C12_names_with_spaces_on_a_conquest_map() -> None:
    conquest = load_map(MAPS / "conquest" / "World.map")
    command = COMMANDS["attack"]
    read = PRESENTATION.parse(command, ["northwest", "territory", "alberta", "2"], Context(conquest, None, "ann"))
    assert read == [Attack("Northwest Territory", "Alberta", 2)]
    read = PRESENTATION.parse(
        COMMANDS["fortify"], tokens('"Western United States" central 4'), Context(conquest, None, "ann")
    )
    assert read == [Fortify("Western United States", "Central America", 4)]


def test_C12_names_as_typed_any_case_a_unique_prefix() -> None:
    assert parse("reinforce ALASKA 1") == [Reinforce("Alaska", 1)]
    ambiguous = parse("reinforce a 1")  # Alaska, Alberta, Argentina, ...
    assert isinstance(ambiguous, ParseError) and "could be any of" in str(ambiguous)


def test_C12_each_order_reads_back_as_the_grammar_writes_it() -> None:
    for order in (
        PlaceArmy("Alaska"),
        PlaceAll(),
        ChooseCapital("Peru"),
        ExchangeCards((1, 3, 4)),
        KeepCards(),
        Reinforce("Alaska", 3),
        Attack("Alaska", "Kamchatka", 2),
        AllOut("Alaska", "Kamchatka"),
        AttackUntil("Alaska", "Kamchatka", 4),
        NoAttack(),
        AttackMove(3),
        Fortify("Alaska", "Alberta", 2),
        NoFortify(),
        Cheat(),
    ):
        assert parse(PRESENTATION.describe(order)) == [order]


PHASE_OF = {
    "placearmy": {"startup"},
    "placeall": {"startup"},
    "capital": {"capital"},
    "exchangecards": {"reinforcement"},
    "reinforce": {"reinforcement"},
    "attack": {"attack"},
    "attackmove": {"move-in"},
    "fortify": {"fortification"},
    "cheat": {"reinforcement", "attack", "fortification"},
}


def test_C12_each_command_is_offered_only_in_its_phase() -> None:
    assert {c.name: set(c.phases) for c in PRESENTATION.commands} == PHASE_OF
    assert {phase for c in PRESENTATION.commands for phase in c.phases} <= {p.value for p in Phase}


@pytest.mark.parametrize(
    ("phase", "fields", "kinds"),
    [
        (Phase.STARTUP, {"unplaced": {"ann": 3, "bob": 3}}, {"placearmy", "placeall"}),
        (Phase.REINFORCEMENT, {"reinforcements": 3}, {"reinforce"}),
        (Phase.ATTACK, {}, {"attack", "allout", "attackuntil", "noattack"}),
        (Phase.MOVE_IN, {"conquest": Conquest("D", "E", 1, 2)}, {"attackmove"}),
        (Phase.FORTIFICATION, {}, {"fortify", "nofortify"}),
    ],
)
def test_C12_the_commands_of_a_phase_match_what_the_rules_allow_in_it(
    phase: Phase, fields: dict[str, object], kinds: set[str]
) -> None:
    game = game_at("aaaabbb", [3, 1, 1, 3, 3, 1, 1], phase=phase, **fields)
    legal = {entry.order.kind for entry in turns.legal_orders(CLASSIC, game, "ann")}
    assert legal == kinds
    names = {c.name for c in PRESENTATION.commands if phase.value in c.phases} - {"cheat"}
    readable = {
        "placearmy": "placearmy",
        "placeall": "placeall",
        "reinforce": "reinforce",
        "attack": "attack",
        "allout": "attack",
        "attackuntil": "attack",
        "noattack": "attack",
        "attackmove": "attackmove",
        "fortify": "fortify",
        "nofortify": "fortify",
        "exchangecards": "exchangecards",
        "keepcards": "exchangecards",
    }
    assert {readable[k] for k in legal} <= names


def test_C12_completion_offers_own_countries_then_enemy_neighbours_of_the_source() -> None:
    game = game_at("aaaabbb", [3, 1, 1, 3, 3, 1, 1])
    view = CLASSIC.view(game, "ann")
    context = Context(TINY, view, "ann")
    assert PRESENTATION.candidates(ArgKind.OWN, ["attack"], context) == ["A", "B", "C", "D"]
    assert PRESENTATION.candidates(ArgKind.ENEMY, ["attack", "D"], context) == ["E"]
    assert PRESENTATION.candidates(ArgKind.ENEMY, ["attack", "C"], context) == ["F"]
    attack: OrderCommand = COMMANDS["attack"]
    assert "-allout" in attack.options and "-noattack" in attack.options


def test_C12_the_board_shows_the_phase_the_active_player_and_ones_own_cards() -> None:
    hand = (Card(Symbol.INFANTRY, "A"), Card(Symbol.WILDCARD))
    game = game_at(
        "aaaabbb",
        [3, 1, 1, 3, 3, 1, 1],
        phase=Phase.REINFORCEMENT,
        reinforcements=4,
        hands={"ann": hand, "bob": (Card(Symbol.CAVALRY, "G"),)},
    )
    palette = Palette(("ann", "bob"))

    def text(viewer: str | None) -> str:
        fragments = PRESENTATION.board(CLASSIC.view(game, viewer), TINY, palette, viewer)
        return "".join(t for _, t in fragments)

    mine = text("ann")
    assert "reinforcement phase" in mine and "ann (you)" in mine and "4 armies to place" in mine
    assert "1. A (infantry)" in mine and "2. wildcard" in mine
    assert "G (cavalry)" not in mine
    theirs = text("bob")
    assert "ann" in theirs and "A (infantry)" not in theirs and "G (cavalry)" in theirs
    assert "A (infantry)" not in text(None)
    summary = "".join(t for _, t in PRESENTATION.summary(CLASSIC.view(game, "bob"), TINY, palette, "bob"))
    assert "2 cards" in summary and "1 card" in summary


def test_C12_a_roll_reads_with_every_die_and_the_armies_left() -> None:
    game = game_at("aaaabbb", [3, 1, 1, 4, 3, 1, 1])
    _, events = act(game, Attack("D", "E", 3), loaded(6, 3, 1, 5, 3))
    (rolled,) = [e for e in events if isinstance(e, DiceRolled)]
    text = "".join(t for _, t in PRESENTATION.events([rolled], Palette(("ann", "bob")), None))
    assert text == "ann D -> E (bob): [6 3 1] vs [5 3]  attacker -1, defender -1; D 3, E 2\n"


@pytest.mark.parametrize(("phase", "said"), [(Phase.ATTACK, ""), (Phase.FORTIFICATION, "")])
def test_the_status_adds_nothing_the_phase_already_says(phase: Phase, said: str) -> None:
    # the status bar reads "turn 1, attack | ..." already: "attack | attack" said it twice
    game = game_at("aabbbab", [3] * 7, phase=phase)
    assert PRESENTATION.status(CLASSIC.view(game, "ann"), "ann", []) == said


@pytest.mark.parametrize(
    ("order", "said"),
    [
        (PlaceArmy("Alaska"), "place an army on Alaska"),
        (PlaceAll(), "place all the rest at random"),
        (ExchangeCards((1, 2, 3)), "trade cards 1, 2 and 3"),
        (KeepCards(), "keep your cards"),
        (Reinforce("Alaska", 3), "place 3 armies on Alaska"),
        (Attack("Alaska", "Alberta", 2), "attack Alberta from Alaska with 2 dice"),
        (NoAttack(), "end the attack phase"),
        (AttackMove(4), "move 4 armies in"),
        (NoFortify(), "skip fortifying: end your turn"),
    ],
)
def test_each_order_is_offered_in_a_person_s_words_and_typed_as_the_console_s_command(order: object, said: str) -> None:
    assert PRESENTATION.words(order) == said
    assert parse(PRESENTATION.describe(order)) == [order]
    assert PRESENTATION.describe_offer(Reinforce("Alaska", 3), "armies") == "place N armies on Alaska"
