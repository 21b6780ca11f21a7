"""A rule set whose events are plain dataclasses (`plain_events`) has them written by orjson rather than pydantic
(every change's log entries are encoded once, and a resolution logs a dozen): the text must be pydantic's, byte for
byte, for every kind of event the rule set has and every event its games make."""

from __future__ import annotations

import dataclasses
import random
import typing
from typing import Any

import pytest
from pydantic import BaseModel

from shared.game import turns
from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.random import SETUP_STEP, GameRandom, dice_of
from shared.maps import load_map
from shared.rulesets import RULESETS, game_ruleset
from shared.rulesets.risc.evo_events import AllEvents

PLAYERS = ("ann", "bob", "cyd")
PLAIN = [
    (name, options)
    for name, options in [("risc", {}), ("risc", {"evolution": 2}), ("risc", {"evolution": 3}), ("warzone", {})]
    if RULESETS[name].plain_events
]


def test_risc_says_its_events_are_plain_and_every_kind_of_them_is_a_plain_dataclass() -> None:
    assert RULESETS["risc"].plain_events  # what the server's most played rule set encodes with orjson
    union, _ = typing.get_args(AllEvents)  # the union, and its discriminator
    for kind in typing.get_args(union):
        assert dataclasses.is_dataclass(kind) and not issubclass(kind, BaseModel), kind
        assert all(not f.metadata for f in dataclasses.fields(kind)), f"{kind}: a field with settings of its own"


@pytest.mark.parametrize(("name", "options"), PLAIN)
def test_the_events_of_played_games_are_written_as_pydantic_writes_them(name: str, options: dict[str, Any]) -> None:
    ruleset, chosen = game_ruleset(name, options)
    game_map = ruleset.make_map(chosen) if ruleset.own_map else load_map(ruleset.default_map)
    seen: set[str] = set()
    for seed in range(3):
        game: Game[Any, Any] = ruleset.new_game(game_map, PLAYERS, chosen, GameRandom(seed, SETUP_STEP))
        strategy = ruleset.strategies[ruleset.default_strategy](ruleset)
        rng = random.Random(seed)
        events: list[Any] = []
        for turn in range(40):
            if turns.status_of(ruleset, game).finished:
                break
            if turn == 2 and seed == 0:  # a player gives up: the events of that too
                resigned = turns.resign(ruleset, game, "bob", dice_of(seed))
                assert not isinstance(resigned, RuleError), resigned
                game = resigned[0]
                events += resigned[1].events
            for player in sorted(turns.awaiting(ruleset, game)):
                decided = strategy.decide(ruleset.view(game, player), game_map, player, rng)
                game = turns.play_seat(ruleset, game, player, decided, dice_of(seed)).game
            if turns.ready(ruleset, game):
                game, resolved = turns.advance(ruleset, game, dice_of(seed))
                events += resolved.events
        for told in events:
            event = getattr(told, "event", told)  # a private event's own
            assert ruleset.dump_event_json(event) == ruleset.event_type.dump_json(event).decode()
            seen.add(event.kind)
    assert len(seen) >= 5, seen
