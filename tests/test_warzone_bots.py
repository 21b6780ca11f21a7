"""W15: the computer players (the COMP 345 strategies and the strategist), and tournaments between them in-process.

Each strategy is judged by what it issues from its seat's view, through the rules (a refused order would fail a
strict game), on real maps with fixed seeds.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from shared.bots.tournament import play_game
from shared.game import turns
from shared.game.random import SETUP_STEP, GameRandom, dice_of
from shared.maps import load_map
from shared.rulesets.warzone.cards import Card
from shared.rulesets.warzone.events import Battle, Bombed, CheatConquered
from shared.rulesets.warzone.orders import (
    AdvanceOrder,
    BlockadeOrder,
    BombOrder,
    CheatOrder,
    DeployOrder,
)
from tests.warzone_support import EUROPE, WORLD, WZ, line_map, make_game, of_type, play_turn, star_map

COMP345 = ("aggressive", "benevolent", "neutral", "cheater", "random")


def decide(strategy: str, game: Any, player: str, seed: int = 0) -> list[Any]:
    bot = WZ.strategies[strategy](WZ)
    return bot.decide(WZ.view(game, player), game.game_map, player, random.Random(seed))


def watch(seats: tuple[str, ...], seed: str, turns_played: int, game_map: Any = None, **options: Any):
    """Play a game as the tournament does, yielding each turn's orders and events."""
    game_map = game_map or load_map(EUROPE)
    players = tuple(f"{s}-{i}" for i, s in enumerate(seats))
    bots = {p: WZ.strategies[s](WZ) for p, s in zip(players, seats, strict=True)}
    game = WZ.new_game(game_map, players, WZ.options(options), GameRandom(seed, SETUP_STEP))
    rng = random.Random(seed)
    for _ in range(turns_played):
        if WZ.status(game).finished:
            return
        for p in sorted(turns.awaiting(WZ, game)):
            for order in bots[p].decide(WZ.view(game, p), game_map, p, rng):
                issued = turns.issue(WZ, game, p, order)
                assert not hasattr(issued, "code"), f"{p}: {order}: {issued}"
                game = issued
            committed = turns.commit(WZ, game, p)
            assert not hasattr(committed, "code"), committed
            game = committed
        batches = {p: game.orders_of(p) for p in players}
        game, resolved = turns.advance(WZ, game, dice_of(seed))
        yield batches, resolved.events


def test_W15_every_strategy_is_registered_and_only_the_cheater_cheats() -> None:
    assert set(WZ.strategies) == {*COMP345, "strategist"}
    assert WZ.default_strategy == "strategist"
    assert [name for name, cls in WZ.strategies.items() if cls.cheats] == ["cheater"]


def test_W15_aggressive_deploys_everything_on_its_strongest_territory_and_attacks_from_it() -> None:
    game = make_game(
        star_map("Hub", "N", "S", "W"),
        {"Hub": "ann", "N": "ann", "S": "bob", "W": "bob"},
        {"Hub": 4, "N": 9, "S": 1, "W": 3},
        pools={"ann": 6},
        hands={"ann": (Card.BOMB,)},
    )
    orders = decide("aggressive", game, "ann")
    deploys = [o for o in orders if isinstance(o, DeployOrder)]
    assert deploys == [DeployOrder("Hub", 6)]  # N holds more but faces nobody
    advances = [o for o in orders if isinstance(o, AdvanceOrder) and o.source == "Hub"]
    assert {o.target for o in advances} == {"S", "W"} and sum(o.units for o in advances) == 10
    assert any(isinstance(o, BombOrder) for o in orders)
    assert AdvanceOrder(9, "N", "Hub") in orders  # the rest gathers on the strongest


def test_W15_benevolent_never_attacks_never_harms_and_reinforces_its_weakest() -> None:
    game = make_game(
        line_map("A", "B", "C", "D"),
        {"A": "ann", "B": "ann", "C": "bob", "D": "bob"},
        {"A": 9, "B": 1, "C": 0, "D": 0},
        pools={"ann": 4},
        hands={"ann": (Card.BOMB, Card.BLOCKADE, Card.DIPLOMACY)},
    )
    orders = decide("benevolent", game, "ann")
    assert [o for o in orders if isinstance(o, DeployOrder)] == [DeployOrder("B", 4)]
    assert not any(isinstance(o, BombOrder | BlockadeOrder) for o in orders)
    assert all(game.board.owner[o.target] == "ann" for o in orders if isinstance(o, AdvanceOrder))
    for _, events in watch(("benevolent", "aggressive"), "kind", 30):
        assert not [b for b in of_type(events, Battle) if b.attacker.startswith("benevolent")]
        assert not [b for b in of_type(events, Bombed) if b.player.startswith("benevolent")]


def test_W15_neutral_issues_nothing_but_its_deploys_until_it_is_attacked() -> None:
    for batches, _ in watch(("neutral", "benevolent"), "calm", 12):
        assert {o.kind for o in batches["neutral-0"]} == {"deploy"}
    attacked_at = None
    for number, (batches, events) in enumerate(watch(("neutral", "aggressive"), "war", 30, load_map(WORLD))):
        kinds = {o.kind for o in batches["neutral-0"]}
        if attacked_at is None:
            assert kinds <= {"deploy"}
            if [b for b in of_type(events, Battle) if b.defender == "neutral-0"]:
                attacked_at = number
        elif kinds - {"deploy"}:
            break
    else:
        pytest.fail("the neutral player never played once attacked")
    assert attacked_at is not None


def test_W15_the_cheater_conquers_every_neighbour_where_allowed_and_only_deploys_elsewhere() -> None:
    game = make_game(
        star_map("Hub", "N", "S", "W"),
        {"Hub": "ann", "N": "bob", "S": "bob", "W": None},
        {"Hub": 1, "N": 5, "S": 7, "W": 3},
        pools={"ann": 3},
        allow_cheaters=True,
    )
    orders = decide("cheater", game, "ann")
    assert CheatOrder() in orders
    game, events = play_turn(game, {"ann": orders})
    assert of_type(events, CheatConquered) == [CheatConquered("ann", ("N", "S", "W"))]
    assert set(game.board.owner.values()) == {"ann"} and WZ.status(game).winner == "ann"
    honest = make_game(star_map("Hub", "N"), {"Hub": "ann", "N": "bob"}, pools={"ann": 3})
    assert {o.kind for o in decide("cheater", honest, "ann")} == {"deploy"}


def test_W15_random_issues_legal_orders_at_random() -> None:
    game = WZ.new_game(load_map(EUROPE), ("ann", "bob"), WZ.options({}), GameRandom(3, SETUP_STEP))
    turns_seen = {tuple(decide("random", game, "ann", seed)) for seed in range(10)}
    assert len(turns_seen) == 10
    kinds: Counter[str] = Counter()
    for batches, _ in watch(("random", "random"), "chaos", 15):
        kinds.update(o.kind for o in batches["random-0"])
    assert {"deploy", "advance"} <= set(kinds) and len(kinds) >= 4


@pytest.mark.parametrize(
    "seats",
    [
        ("strategist", "aggressive", "benevolent", "neutral", "random", "cheater"),
        ("random", "random", "random"),
        ("strategist", "strategist"),
    ],
)
def test_W15_a_tournament_between_the_strategies_finishes_with_fixed_seeds(seats: tuple[str, ...]) -> None:
    for game_map in (load_map(EUROPE), load_map(WORLD)):
        results = [
            play_game(
                game_map,
                list(seats),
                f"cup/{n}",
                50,
                strict=True,
                ruleset_name="warzone",
                options={"allow_cheaters": True},
            )
            for n in range(3)
        ]
        for result in results:
            assert result.refused == 0
            assert result.winner is None or result.territories[result.players.index(result.winner)] > 0
            assert result.turns <= 50
        again = play_game(
            game_map, list(seats), "cup/0", 50, strict=True, ruleset_name="warzone", options={"allow_cheaters": True}
        )
        assert again == results[0]


FIGURE_GAMES = 20
"""Games per opponent and map: the strongest-player figures test (bench/warzone_strength.py plays 100)."""


@pytest.mark.parametrize("opponent", ["aggressive", "benevolent", "neutral", "random"])
@pytest.mark.parametrize("map_file", [EUROPE, WORLD], ids=["europe", "world"])
def test_W15_the_strategist_beats_each_comp345_strategy_but_the_cheater_in_a_clear_majority(
    opponent: str, map_file: Any
) -> None:
    game_map = load_map(map_file)
    wins = 0
    for n in range(FIGURE_GAMES):
        seats = ["strategist", opponent] if n % 2 == 0 else [opponent, "strategist"]
        result = play_game(
            game_map, seats, f"strength/{map_file.stem}/{opponent}/{n}", 50, strict=True, ruleset_name="warzone"
        )
        wins += result.winner_strategy == "strategist"
    assert wins >= 0.75 * FIGURE_GAMES, f"{wins} wins in {FIGURE_GAMES}"
