"""What the server sends its connections of a view is the rule set's `view_values`, which a rule set may make
without the view (RISC's first evolution does): for every rule set, every viewer and every stage of a game played
by its own computer players (orders issued, turns resolved, eliminations, the end), it must be `dump_view(view(...))`
key for key, in the same order, of the same JSON types; and the standings logged as each turn begins, what a
spectator's view shows."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from shared.game import turns
from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.random import SETUP_STEP, GameRandom, dice_of
from shared.maps import load_map
from shared.rulesets import game_ruleset

PLAYERS = ("ann", "bob", "cyd")


def same_values(ruleset: Any, game: Game[Any, Any]) -> None:
    for viewer in (*PLAYERS, None):
        made = ruleset.view_values(game, viewer)
        dumped = ruleset.dump_view(ruleset.view(game, viewer))
        assert json.dumps(made) == json.dumps(dumped), f"{viewer} at step {game.step}"
    # The standings logged as a turn begins: a spectator's view's, however the rule set works them out.
    assert ruleset.standings(game) == (ruleset.presentation.standings(ruleset.view(game, None)) or None)


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("risc", {}),
        ("risc", {"evolution": 2}),
        ("risc", {"evolution": 3}),
        ("warzone", {}),
        ("classic", {}),
        ("grid", {}),
    ],
)
def test_the_values_a_connection_is_sent_are_the_view_dumped(name: str, options: dict[str, Any]) -> None:
    ruleset, chosen = game_ruleset(name, options)
    game_map = ruleset.make_map(chosen) if ruleset.own_map else load_map(ruleset.default_map)
    game: Game[Any, Any] = ruleset.new_game(game_map, PLAYERS, chosen, GameRandom(11, SETUP_STEP))
    strategy = ruleset.strategies[ruleset.default_strategy](ruleset)
    rng = random.Random(11)
    stages = 0
    for turn in range(60):
        same_values(ruleset, game)
        stages += 1
        if turns.status_of(ruleset, game).finished:
            break
        if turn == 3:  # a player gives up: what they held is nobody's, where the rules say so
            resigned = turns.resign(ruleset, game, "bob", dice_of(11))
            assert not isinstance(resigned, RuleError), resigned
            game = resigned[0]
            same_values(ruleset, game)
        for player in sorted(turns.awaiting(ruleset, game)):
            played = turns.play_seat(
                ruleset, game, player, strategy.decide(ruleset.view(game, player), game_map, player, rng), dice_of(11)
            )
            if ruleset.simultaneous:
                issued = played.game.evolve(committed=game.committed)  # its orders held, not yet committed
                same_values(ruleset, issued)
            game = played.game
        if ruleset.simultaneous and turns.ready(ruleset, game):
            game, _ = turns.advance(ruleset, game, dice_of(11))
    assert stages >= 5
