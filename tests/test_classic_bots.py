"""C10: classic Risk's computer players, each seeing only its own seat's view and asked for one action at a time;
in-process tournaments on real Domination maps; the project's own strongest player against the others."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from shared.bots.tournament import GameSpec, make_strategy, play_game, play_spec
from shared.game import turns
from shared.game.game import Game
from shared.game.random import SETUP_STEP, GameRandom, dice_of
from shared.maps import load_map
from shared.rulesets import game_ruleset
from shared.rulesets.classic.board import Phase
from shared.rulesets.classic.bots.aggressive import AggressiveStrategy
from shared.rulesets.classic.bots.benevolent import BenevolentStrategy
from shared.rulesets.classic.bots.cheater import CheaterStrategy
from shared.rulesets.classic.bots.random_strategy import RandomStrategy
from shared.rulesets.classic.events import Cheated, DiceRolled
from shared.rulesets.classic.missions import fulfilled
from shared.rulesets.classic.orders import AllOut, Cheat, Fortify, NoAttack, Reinforce
from shared.rulesets.classic.rules import legal_orders
from tests.classic_support import CLASSIC, MAPS, TINY, act, game_at, real_map, refused

WORLD, RISK = real_map("world"), real_map("risk")
OTHERS = ["aggressive", "benevolent", "random"]


def decide(strategy: object, game: object, player: str = "ann") -> list[object]:
    return strategy.decide(CLASSIC.view(game, player), TINY, player, random.Random(0))  # type: ignore[attr-defined]


def test_C10_the_computer_players() -> None:
    assert set(CLASSIC.strategies) == {"aggressive", "benevolent", "random", "cheater", "strategist"}
    assert CLASSIC.default_strategy == "strategist"
    assert [name for name, cls in CLASSIC.strategies.items() if cls.cheats] == ["cheater"]


def test_C10_aggressive_reinforces_its_strongest_country_attacks_from_it_until_it_cannot_and_fortifies_it() -> None:
    game = game_at("aaaabbb", [2, 1, 1, 5, 3, 1, 1], phase=Phase.REINFORCEMENT, reinforcements=4)
    aggressive = AggressiveStrategy(CLASSIC)
    assert decide(aggressive, game) == [Reinforce("D", 4)]
    game = game_at("aaaabbb", [2, 1, 2, 9, 3, 1, 1])
    assert decide(aggressive, game) == [AllOut("D", "E")]
    game = game_at("aaaabbb", [2, 1, 2, 1, 3, 1, 1])
    assert decide(aggressive, game) == [AllOut("C", "F")]  # D has 1 army now: C is the strongest that attacks
    game = game_at("aaaabbb", [1, 1, 1, 1, 3, 1, 1])
    assert decide(aggressive, game) == [NoAttack()]
    game = game_at("aaaabbb", [6, 3, 1, 9, 3, 1, 1], phase=Phase.FORTIFICATION)
    assert decide(aggressive, game) == [Fortify("A", "D", 5)]


def test_C10_benevolent_reinforces_its_weakest_never_attacks_and_fortifies_its_weakest() -> None:
    game = game_at("aaaabbb", [3, 1, 2, 5, 3, 1, 1], phase=Phase.REINFORCEMENT, reinforcements=3)
    benevolent = BenevolentStrategy(CLASSIC)
    assert decide(benevolent, game) == [Reinforce("B", 2), Reinforce("C", 1)]
    game = game_at("aaaabbb", [3, 1, 2, 9, 1, 1, 1])
    assert decide(benevolent, game) == [NoAttack()]
    game = game_at("aaaabbb", [3, 1, 2, 9, 1, 1, 1], phase=Phase.FORTIFICATION)
    assert decide(benevolent, game) == [Fortify("D", "B", 4)]


def test_C10_benevolent_never_attacks_in_a_whole_game() -> None:
    game = CLASSIC.new_game(WORLD, ("ann", "bob"), CLASSIC.options({}), GameRandom("kind", SETUP_STEP))
    bots = {"ann": BenevolentStrategy(CLASSIC), "bob": RandomStrategy(CLASSIC)}
    for step in range(600):
        status = CLASSIC.status(game)
        if status.finished:
            break
        (player,) = status.acting
        for order in bots[player].decide(CLASSIC.view(game, player), WORLD, player, random.Random(step)):
            game, events = act(game, order, player=player)
            assert not any(isinstance(e, DiceRolled) and e.player == "ann" for e in events)
            if player not in CLASSIC.status(game).acting:
                break


def test_C10_random_takes_random_legal_actions() -> None:
    game = game_at("aaaabbb", [4, 1, 3, 5, 3, 1, 1])
    legal = {entry.order for entry in legal_orders(game, "ann")}
    seen: Counter[str] = Counter()
    for seed in range(60):
        (order,) = RandomStrategy(CLASSIC).decide(CLASSIC.view(game, "ann"), TINY, "ann", random.Random(seed))
        assert turns.check(CLASSIC, game, "ann", order) is None
        seen[type(order).__name__] += 1
    assert seen["Attack"] and seen["AllOut"] and seen["NoAttack"]
    assert legal


def test_C10_the_cheater_is_refused_unless_the_game_allows_cheating() -> None:
    game = game_at("aaaabbb", [2, 1, 1, 5, 3, 1, 1], phase=Phase.REINFORCEMENT, reinforcements=3)
    assert refused(game, Cheat()).code == "cheating-not-allowed"
    # Where it is not allowed, the cheater plays as aggressive does.
    assert decide(CheaterStrategy(CLASSIC), game) == [Reinforce("D", 3)]


def test_C10_the_cheater_doubles_its_armies_conquers_every_neighbour_and_doubles_its_borders() -> None:
    game = game_at(
        "aabbbbb", [2, 1, 1, 3, 3, 1, 1], phase=Phase.REINFORCEMENT, reinforcements=3, options={"cheaters": True}
    )
    assert decide(CheaterStrategy(CLASSIC), game) == [Cheat()]
    game, events = act(game, Cheat())
    assert events[0] == Cheated("ann", "reinforcement", ("A", "B"))
    assert (game.board.armies["A"], game.board.armies["B"]) == (4, 2)
    assert game.board.phase is Phase.ATTACK
    game, events = act(game, Cheat())
    assert events[0] == Cheated("ann", "attack", ("C", "D"))  # A's and B's neighbours
    assert game.board.owner["C"] == game.board.owner["D"] == "ann"
    assert game.board.phase is Phase.FORTIFICATION and game.board.conquered
    game, events = act(game, Cheat())
    assert events[0] == Cheated("ann", "fortification", ("C", "D"))  # the countries next to bob's
    assert (game.board.armies["C"], game.board.armies["D"]) == (2, 6)
    assert game.board.active == "bob"


@pytest.mark.parametrize("game_map", [WORLD, RISK], ids=["world", "risk"])
def test_C10_every_strategy_plays_whole_games_on_real_maps_without_a_refused_action(game_map: object) -> None:
    for seed in range(3):
        result = play_game(
            game_map,
            ["strategist", "aggressive", "benevolent", "random"],
            f"whole/{seed}",
            200,
            ruleset_name="classic",
            strict=True,
        )  # type: ignore[arg-type]
        assert result.refused == 0
        assert result.winner is not None and result.territories[result.players.index(result.winner)] == 42


@pytest.mark.parametrize("name", ["World.map", "Z__1_way_relationship.map", "Africa.map"])
def test_C10_whole_games_on_conquest_maps(name: str) -> None:
    """C8: by domination the winner holds every country, and everyone else none."""
    game_map = load_map(MAPS / "conquest" / name)
    result = play_game(
        game_map, ["strategist", "aggressive", "random"], "conquest", 200, ruleset_name="classic", strict=True
    )
    assert result.refused == 0 and result.winner is not None and result.turns <= 200
    assert dict(zip(result.players, result.territories, strict=True)) == {
        p: len(game_map.names) if p == result.winner else 0 for p in result.players
    }


def played_out(options: dict[str, object], seed: str) -> Game[Any, Any]:
    """A game of three computer players on the Risk map, each seat played as every computer seat is
    (turns.play_seat), to its end: nothing refused."""
    ruleset, chosen = game_ruleset("classic", options)
    players = ("strategist", "aggressive", "random")
    game = ruleset.new_game(RISK, players, chosen, GameRandom(seed, SETUP_STEP))
    bots = {p: make_strategy(ruleset, p) for p in players}
    rngs = {p: random.Random(f"{seed}:{p}") for p in players}
    for _ in range(20_000):
        if turns.status_of(ruleset, game).finished:
            return game
        (player,) = turns.awaiting(ruleset, game)
        orders = bots[player].decide(ruleset.view(game, player), RISK, player, rngs[player])
        played = turns.play_seat(ruleset, game, player, orders, dice_of(seed))
        assert played.refused == [] and not played.timed_out, (player, orders, played.refused)
        game = played.game
    raise AssertionError("no end in 20,000 actions")


@pytest.mark.parametrize(
    "options",
    [
        {"mode": "capital"},
        {"mode": "mission"},
        {"card_schedule": "increasing"},
        {"card_schedule": "fixed", "fortify": "adjacent"},
    ],
)
def test_C10_games_in_every_mode_and_option_are_won_as_their_mode_says(options: dict[str, object]) -> None:
    """C8 and C11: a capital game is won by holding every capital, a mission game by a fulfilled mission, any other
    by holding every country."""
    game = played_out(options, "modes")
    board = game.board
    winner = board.winner
    assert board.phase is Phase.FINISHED and winner is not None
    if options.get("mode") == "capital":
        assert board.capitals and all(board.owner[c] == winner for c in board.capitals.values())
    elif options.get("mode") == "mission":
        assert fulfilled(board.missions[winner], winner, RISK, board.owner, board.armies, board.eliminated_by) or set(
            board.owner.values()
        ) == {winner}
    else:
        assert set(board.owner.values()) == {winner}


def test_C10_the_cheater_wins_where_allowed() -> None:
    wins = Counter(
        play_game(
            WORLD,
            ["cheater", "aggressive", "strategist"],
            f"cheat/{seed}",
            100,
            options={"cheaters": True},
            ruleset_name="classic",
            strict=True,
        ).winner_strategy
        for seed in range(5)
    )
    assert wins["cheater"] == 5


def test_C10_a_tournament_game_replays_from_its_seed() -> None:
    spec = GameSpec(WORLD, ("strategist", "random", "aggressive"), "replay", 100, ruleset="classic")
    assert play_spec(spec) == play_spec(spec)


def test_C10_the_strongest_player_wins_a_clear_majority_of_fixed_seed_games() -> None:
    """The figures in docs/rules-classic.md come from bench/classic_strength.py; this is a smaller sample."""
    four: Counter[str | None] = Counter()
    duel: Counter[str | None] = Counter()
    for game_map in (WORLD, RISK):
        for seed in range(10):
            four[
                play_game(
                    game_map, ["strategist", *OTHERS], f"fig/{game_map.name}/{seed}", 100, ruleset_name="classic"
                ).winner_strategy
            ] += 1
            duel[
                play_game(
                    game_map, ["strategist", "aggressive"], f"fig/{game_map.name}/{seed}", 100, ruleset_name="classic"
                ).winner_strategy
            ] += 1
    assert four["strategist"] >= 12, four  # of 20, against aggressive, benevolent and random together
    assert duel["strategist"] >= 12, duel  # of 20, head to head against aggressive
