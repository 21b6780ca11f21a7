"""Every event's words, as a spectator reads them and as each player does: a line that speaks of the reader speaks to
them ("You place ..."), one that does not is the same for all, and what everyone may read (a spectator, a replay with
everyone's eyes) says whose every private line is, never "you". Checked on whole games of every rule set, every
event of them, every player as the reader; and the framework's entries in the text client's words."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from shared.bots.tournament import make_strategy
from shared.game import turns
from shared.game.log_words import framework_text
from shared.game.random import SETUP_STEP, GameRandom, dice_of
from shared.game.ruleset import AnyRuleSet, Private
from shared.game.told import second_person, told_to
from shared.maps.loader import load_map
from shared.protocol.log import PlayerCommitted, PlayerJoined, PlayerResigned, SeatHandedOver
from shared.rulesets import game_ruleset

GAMES = {
    "classic": ("classic", "meridian", ("aggressive", "strategist"), {"mode": "mission"}),
    "warzone": ("warzone", "saltreach", ("aggressive", "strategist"), {}),
    "grid": ("grid", None, ("aggressive", "strategist", "random"), {}),
    "risc": ("risc", "seed", ("aggressive", "strategist", "random"), {}),
    "evolution 2": ("risc", "seed", ("aggressive", "strategist", "random"), {"evolution": 2}),
    "evolution 3": ("risc", "cataract", ("aggressive", "strategist", "random"), {"evolution": 3}),
}


def played(name: str) -> tuple[AnyRuleSet, tuple[str, ...], list[Any]]:
    """A whole game of computer players (or 40 turns of it), and every event it told, public or private."""
    ruleset_name, map_name, strategies, options = GAMES[name]
    ruleset, chosen = game_ruleset(ruleset_name, options)
    game_map = load_map(map_name) if map_name else ruleset.make_map(chosen)
    players = tuple(f"{s.capitalize()} Player" for s in strategies)  # names with a space, as people choose them
    bots = {p: make_strategy(ruleset, s) for p, s in zip(players, strategies, strict=True)}
    rngs = {p: random.Random(f"words:{p}") for p in players}
    game = ruleset.new_game(game_map, players, chosen, GameRandom("words", SETUP_STEP))
    dice = dice_of("words")
    told: list[Any] = []
    while not ruleset.status(game).finished and ruleset.status(game).turn <= 40:
        for player in players:
            if player in turns.awaiting(ruleset, game):
                orders = bots[player].decide(ruleset.view(game, player), game_map, player, rngs[player])
                seat = turns.play_seat(ruleset, game, player, orders, dice)
                told += [event for resolved in seat.resolved for event in resolved.events]
                game = seat.game
        if turns.ready(ruleset, game):
            game, resolved = turns.advance(ruleset, game, dice)
            told += resolved.events
    return ruleset, players, [e.event if isinstance(e, Private) else e for e in told]


@pytest.mark.parametrize("name", list(GAMES))
def test_each_event_is_told_to_its_reader_and_to_everyone_by_name(name: str) -> None:
    ruleset, players, events = played(name)
    kinds = {getattr(e, "kind", "") for e in events}
    assert len(kinds) >= 6, kinds
    for event in events:
        spectator = ruleset.presentation.event_text(event, players)
        assert not re.search(r"\byou\b", spectator, re.IGNORECASE), (event, spectator)  # whose, for everyone
        for reader in players:
            read = ruleset.presentation.event_text(event, players, reader)
            if reader not in spectator:
                assert read == spectator, (reader, spectator, read)
                continue
            # no sentence of theirs still says their name and a verb of the present tense of them
            assert not re.search(rf"(?:^|[.!?]\s){re.escape(reader)} [a-z]+s\b", read), (reader, spectator, read)
            opens = re.match(rf"(?:Turn \d+\s+)?(?:[A-Z] \()?{re.escape(reader)}\)? ([a-z]+)", spectator)
            if opens and second_person(opens.group(1)) is not None:
                assert re.match(r"(?:Turn \d+\s+)?You\b", read), (reader, spectator, read)


@pytest.mark.parametrize(
    ("text", "reader", "read"),
    [
        ("Wes places the rest of their armies: 3 on Oz.", "Wes", "You place the rest of your armies: 3 on Oz."),
        ("Turn 2  Wes reinforces with 4 armies.", "Wes", "Turn 2  You reinforce with 4 armies."),
        (
            "Ann conquers Oz from Wes. 3 to 5 armies may move in.",
            "Wes",
            "Ann conquers Oz from you. 3 to 5 armies may move in.",
        ),
        ("Wes's new card: Oz (infantry).", "Wes", "Your new card: Oz (infantry)."),
        ("Wes is eliminated by Ann.", "Wes", "You are eliminated by Ann."),
        (
            "Ann attacked Oz (Wes) with 3 against 2: Ann lost 1, Wes lost 2. Wes holds Oz.",
            "Wes",
            "Ann attacked Oz (you) with 3 against 2: Ann lost 1, you lost 2. You hold Oz.",
        ),
        (
            "C (Wes) moves 2 troops from (4,0) to (3,1) and ends the turn.",
            "Wes",
            "You (C) move 2 troops from (4,0) to (3,1) and end the turn.",
        ),
        ("Wes fortifies Oz with 3 armies from Gondor.", "Wes", "You fortify Oz with 3 armies from Gondor."),
        ("Wes Oz -> Gondor (Ann): [6 5] vs [1]", "Wes", "Wes Oz -> Gondor (Ann): [6 5] vs [1]"),  # no verb: as it is
        ("Wesley joined.", "Wes", "Wesley joined."),  # another name that begins with the reader's
        ("Ann drew a card.", "Wes", "Ann drew a card."),
    ],
)
def test_a_line_that_speaks_of_the_reader_speaks_to_them(text: str, reader: str, read: str) -> None:
    assert told_to(text, reader) == read


def test_the_frameworks_entries_are_worded_as_the_text_client_words_them() -> None:
    players = ["Ann", "Wes"]
    assert framework_text(PlayerJoined(player="Wes"), None, players) == "Wes joined."
    assert framework_text(PlayerCommitted(player="Ann", turn=2), None, players) == "Ann committed."
    handed = SeatHandedOver(player="Wes", strategy="strategist", by=["Ann"])
    assert framework_text(handed, None, players) == (
        "Wes's seat is played by the computer (strategist) until they come back."
    )
    presentation = game_ruleset("risc", {})[0].presentation
    resigned = framework_text(PlayerResigned(player="Wes", turn=3, step=3), presentation, players)
    assert resigned.startswith("Wes resigned")
    assert told_to(resigned, "Wes").startswith("You resigned")
