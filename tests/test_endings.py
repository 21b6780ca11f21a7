"""Every game ends: a game nobody can lose (computers alone, a stalemate) is a draw at its rule set's turn limit
(`max_turns`, docs/rules*.md), told to everyone as the rules say; and games of computers alone, of every rule set
and every strategy, reach an end within that limit whatever the seed."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from shared.bots.tournament import play_game
from shared.game import turns
from shared.game.events import GameDrawn, GameWon
from shared.game.game import Game
from shared.game.presentation import Palette
from shared.game.random import SETUP_STEP, GameRandom, dice_of
from shared.game.ruleset import MOST_TURNS, AnyRuleSet
from shared.maps import GameMap, load_map
from shared.rulesets import game_ruleset
from shared.rulesets.grid.orders import Attack, MoveIn
from tests.grid_support import GRID, act, game_at, loaded
from tests.server_support import FAST, Client, create_game, finished, running_server
from tests.test_server_replays import GAMES as SERVED

DOMINATION = Path(__file__).resolve().parents[2] / "shared" / "maps" / "domination"

RULES: dict[str, tuple[str, Mapping[str, Any], str | None, int]] = {
    # name: (rule set, options, map, players)
    "risc": ("risc", {}, "seed", 2),
    "risc-evolution-2": ("risc", {"evolution": 2}, "seed", 2),
    "risc-evolution-3": ("risc", {"evolution": 3}, "seed", 3),
    "warzone": ("warzone", {"allow_cheaters": True}, "twin-keeps", 2),
    "classic": ("classic", {"cheaters": True}, "seed", 3),
    "grid": ("grid", {}, None, 3),
}
PASSIVE = {"risc": "defensive", "warzone": "benevolent", "classic": "benevolent", "grid": "defensive"}
"""A computer player of each rule set that never attacks: two of them never end a game but by its turn limit."""


def board_of(name: str) -> GameMap | None:
    where = RULES[name][2]
    return None if where is None else load_map(where)


def play_to_the_end(
    name: str, strategy: str, seed: str, **options: Any
) -> tuple[AnyRuleSet, Game[Any, Any], list[Any]]:
    """A game of `strategy` in every seat played as a tournament plays it, to its end: the rule set, the game, and the
    events of its last resolution."""
    ruleset_name, chosen, _, players = RULES[name]
    ruleset, read = game_ruleset(ruleset_name, {**chosen, **options})
    game_map = board_of(name) or ruleset.make_map(read)
    seats = tuple(f"{strategy}-{i}" for i in range(1, players + 1))
    strategies = {p: ruleset.strategies[strategy](ruleset) for p in seats}
    game = ruleset.new_game(game_map, seats, read, GameRandom(seed, SETUP_STEP))
    dice = dice_of(seed)
    last: list[Any] = []
    rngs = {p: random.Random(f"{seed}:{p}") for p in seats}
    for _ in range(100_000):
        if ruleset.status(game).finished:
            return ruleset, game, last
        for player in seats:
            if player in turns.awaiting(ruleset, game):
                orders = strategies[player].decide(ruleset.view(game, player), game_map, player, rngs[player])
                played = turns.play_seat(ruleset, game, player, orders, dice)
                game = played.game
                if played.resolved:
                    last = list(played.resolved[-1].events)
        if turns.ready(ruleset, game):
            game, resolved = turns.advance(ruleset, game, dice)
            last = list(resolved.events)
    raise AssertionError("the game never ended")


@pytest.mark.parametrize("name", list(RULES))
def test_a_game_nobody_wins_is_a_draw_once_its_turn_limit_s_turn_is_over(name: str) -> None:
    ruleset, game, last = play_to_the_end(name, PASSIVE[RULES[name][0]], "limit", max_turns=3)
    status = ruleset.status(game)
    assert status.finished and status.winner is None and status.turn == 3
    assert status.acting == frozenset() and len(status.eliminated) == 0
    (drawn,) = [e for e in last if isinstance(e, GameDrawn)]
    assert drawn.kind == "game_drawn" and drawn.turn == 3
    assert drawn.reason == "3 turns played (max_turns) without a winner"
    said = "".join(text for _, text in ruleset.presentation.events([drawn], Palette(game.players), None))
    assert said.startswith("The game is a draw: 3 turns played (max_turns) without a winner."), said
    assert ruleset.load_event(ruleset.dump_event(drawn)) == drawn
    for player in game.players:  # nothing more is played
        assert turns.gate(ruleset, game, player) is not None


@pytest.mark.parametrize("name", list(RULES))
def test_every_rule_set_has_a_turn_limit_that_a_game_s_creator_may_set_within_bounds(name: str) -> None:
    ruleset_name, chosen, _, _ = RULES[name]
    _, options = game_ruleset(ruleset_name, chosen)
    assert options.max_turns == 100
    assert game_ruleset(ruleset_name, {**chosen, "max_turns": 7})[1].max_turns == 7
    assert game_ruleset(ruleset_name, {**chosen, "max_turns": 0})[1].max_turns == MOST_TURNS  # once "no limit"
    for bad in (-1, MOST_TURNS + 1, "many"):
        with pytest.raises(ValidationError, match="max_turns"):
            game_ruleset(ruleset_name, {**chosen, "max_turns": bad})


ALONE = [
    (name, strategy)
    for name, (ruleset_name, _, _, _) in RULES.items()
    for strategy in sorted(game_ruleset(ruleset_name, RULES[name][1])[0].strategies)
]


@pytest.mark.parametrize(("name", "strategy"), ALONE)
def test_games_of_computers_alone_end_within_the_turn_limit_whatever_the_seed(name: str, strategy: str) -> None:
    ruleset_name, chosen, _, players = RULES[name]
    for seed in range(6):
        result = play_game(
            board_of(name),
            [strategy] * players,
            f"alone/{seed}",
            30 + 50,  # the runner's own cut-off, far beyond the rules' limit: the rules end every game
            {**chosen, "max_turns": 30},
            strict=True,
            ruleset_name=ruleset_name,
        )
        assert result.finished, f"{name} {strategy} seed {seed}: still on at turn {result.turns}"
        assert result.turns <= 30
        assert result.winner is not None or result.turns == 30


@pytest.mark.parametrize("name", list(RULES))
def test_the_server_s_own_computers_finish_their_games_well_within_the_default_limit(name: str) -> None:
    ruleset_name, chosen, _, players = RULES[name]
    ruleset, _ = game_ruleset(ruleset_name, chosen)
    for seed in range(10):
        result = play_game(
            board_of(name),
            [ruleset.default_strategy] * players,
            f"server/{seed}",
            200,
            chosen,
            ruleset_name=ruleset_name,
        )
        assert result.finished and result.winner is not None and result.turns < 100, result


def test_G6_the_last_grid_player_in_wins_though_a_player_who_resigned_still_holds_cells() -> None:
    # Ann resigned earlier and still holds two cells with 12 troops; Bob takes Cy's last cell: Bob is the only one left
    # in, and wins, without having to take Ann's stacks (as when the second to last resigns).
    game = game_at(
        "AABBB BBBBB BBBBB BBBBB BBBBC",
        [6, 6] + [1] * 17 + [10] + [1] * 5,
        seats=("ann", "bob", "cy"),
        active="bob",
        eliminated=("ann",),
    )
    game, events = act(game, Attack("3,4", "4,4", 3), loaded(6, 6, 6, 1))
    if game.board.phase.value == "move-in":
        game, more = act(game, MoveIn(3))
        events += more
    status = GRID.status(game)
    assert status.finished and status.winner == "bob"
    assert [e.player for e in events if isinstance(e, GameWon)] == ["bob"]
    assert game.board.owner["0,0"] == "ann" and game.board.troops["0,0"] == 6


@pytest.mark.asyncio
@pytest.mark.parametrize("name", list(SERVED))
async def test_a_served_game_at_its_turn_limit_is_told_to_everyone_as_a_draw(name: str) -> None:
    """Computers that never attack play alone on a real server, a turn limit of 2: a watcher is told the draw in the
    rule set's words, and the game's summary says it is over, a draw, with no winner."""
    settings = {**SERVED[name], "options": {**SERVED[name].get("options", {}), "max_turns": 2}}
    passive = PASSIVE[settings["ruleset"]]
    async with running_server(seeds=lambda: 5, **FAST) as server:
        client = await Client.connect(server, words=True)
        game_id = await create_game(client, **settings, bots=settings["players"], bot_strategy=passive)
        await client.request(type="watch_game", game_id=game_id)
        await finished(client, game_id)
        summary = client.summaries[game_id]
        assert summary["draw"] is True and summary.get("winner") is None
        told = [e for f in client.frames if f["type"] == "update" for e in f.get("events", [])]
        (drawn,) = [e for e in told if e["event"]["kind"] == "game_drawn"]
        assert drawn["event"]["turn"] == 2
        assert drawn["text"].startswith("The game is a draw: 2 turns played (max_turns) without a winner."), drawn
        await client.close()
