"""Computer players: they see only a player's view, issue only orders the engine accepts (R12-R15), place their
whole pool (R9), play games to the end, and the strategist beats the simple strategies."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from shared.bots.tournament import make_strategy as make_any_strategy
from shared.bots.tournament import play_game, player_names
from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.random import GameRandom
from shared.game.strategy import Strategy
from shared.game.turns import awaiting, commit, issue
from shared.maps import GameMap, load_map
from shared.rulesets.risc.board import Phase
from shared.rulesets.risc.bots import STRATEGIES
from shared.rulesets.risc.bots.base import spread
from shared.rulesets.risc.bots.odds import attackers_needed, win_probability
from shared.rulesets.risc.bots.random_strategy import RandomStrategy
from shared.rulesets.risc.bots.viewstate import game_from_view, legal_only
from shared.rulesets.risc.combat import P_ATTACKER_WINS_ROUND
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, PlaceOrder
from shared.rulesets.risc.view import RiscView
from tests.engine_support import RISC, RiscGame, resolve, view

RULES = RISC
GameState = RiscGame
Order = Any


def make_strategy(name: str) -> Strategy:
    return make_any_strategy(RISC, name)


def setup(game_map: GameMap, players: Sequence[str], seed: Any) -> RiscGame:
    return RISC.new_game(game_map, list(players), RISC.options({}), GameRandom(seed, 0))


MAPS = ("seed", "twin-keeps", "cataract", "saltreach")
"""The 9-territory map of the seed, an 8-territory duel map, a 24-territory map with one-way borders and a
42-territory archipelago."""


@pytest.fixture(scope="module")
def maps() -> dict[str, GameMap]:
    return {name: load_map(name) for name in MAPS}


def play_checked(game_map: GameMap, strategies: Sequence[str], seed: str, max_turns: int) -> GameState:
    """A game in which every order a strategy returns must be accepted when issued and every batch must commit."""
    players = player_names(strategies)
    bots = {p: make_strategy(s) for p, s in zip(players, strategies, strict=True)}
    rngs = {p: random.Random(f"{seed}:{p}") for p in players}
    state = setup(game_map, players, seed)
    while state.board.phase is not Phase.FINISHED and state.board.turn <= max_turns:
        for player in players:
            if player not in awaiting(RULES, state):
                continue
            pool = state.board.pools.get(player, 0)
            orders = bots[player].decide(view(state, player), game_map, player, rngs[player])
            if state.board.phase is Phase.PLACEMENT:
                assert all(isinstance(o, PlaceOrder) for o in orders)
                assert sum(o.units for o in orders if isinstance(o, PlaceOrder)) == pool, "R9: the whole pool"
            else:
                assert all(isinstance(o, MoveOrder | AttackOrder) for o in orders)
            for order in orders:
                issued = issue(RULES, state, player, order)
                assert not isinstance(issued, RuleError), f"turn {state.board.turn}, {player}: {order}: {issued}"
                state = issued
            committed = commit(RULES, state, player)
            assert not isinstance(committed, RuleError), f"turn {state.board.turn}, {player} cannot commit: {committed}"
            state = committed
        state, _ = resolve(state, seed=seed)  # type: ignore[arg-type]
        assert all(n >= 0 for n in state.board.units.values())
    return state


@pytest.mark.parametrize("map_name", MAPS)
@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_each_strategy_plays_legal_duels_to_a_win(maps: dict[str, GameMap], map_name: str, strategy: str) -> None:
    opponent = "aggressive" if strategy == "strategist" else "strategist"
    for seed in ("duel-1", "duel-2"):
        state = play_checked(maps[map_name], [strategy, opponent], seed, max_turns=150)
        assert state.board.phase is Phase.FINISHED and state.board.winner is not None
        held = {state.board.owner[t] for t in maps[map_name].names}
        assert held == {state.board.winner}, "R26: the winner owns everything"


@pytest.mark.parametrize("map_name", MAPS)
def test_all_four_strategies_play_a_legal_free_for_all(maps: dict[str, GameMap], map_name: str) -> None:
    state = play_checked(maps[map_name], sorted(STRATEGIES), "ffa", max_turns=80)
    assert state.board.phase is Phase.FINISHED or state.board.turn == 81


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_a_strategy_plays_legally_against_itself(maps: dict[str, GameMap], strategy: str) -> None:
    """Same strategy in every seat: mirrored choices collide on the same territories."""
    play_checked(maps["seed"], [strategy] * 3, "mirror", max_turns=40)


@pytest.mark.parametrize("map_name", ["seed", "cataract"])
def test_strategist_beats_random_in_most_games(maps: dict[str, GameMap], map_name: str) -> None:
    wins = sum(
        play_game(maps[map_name], ["random", "strategist"], f"strong-{i}", 100).winner == "strategist"
        for i in range(20)
    )
    assert wins >= 16


@pytest.mark.parametrize("opponent", ["aggressive", "defensive"])
def test_strategist_beats_the_other_strategies_in_duels(maps: dict[str, GameMap], opponent: str) -> None:
    for map_name in ("seed", "cataract"):
        wins = sum(
            play_game(maps[map_name], [opponent, "strategist"], f"duel-{i}", 100).winner == "strategist"
            for i in range(40)
        )
        assert wins >= 34, map_name  # 85%; over 100 seeds it wins 96-100 of them


def test_strategist_wins_most_free_for_alls(maps: dict[str, GameMap]) -> None:
    winners = [
        play_game(maps["seed"], ["aggressive", "defensive", "strategist"], f"ffa-{i}", 60).winner for i in range(12)
    ]
    assert winners.count("strategist") > len(winners) // 2


def test_aggressive_players_alone_finish_their_games(maps: dict[str, GameMap]) -> None:
    """A surplus garrisons the front: a beaten foe can no longer slip into emptied land turn after turn."""
    for map_name in ("seed", "cataract"):
        results = [play_game(maps[map_name], ["aggressive", "aggressive"], f"mirror-{i}", 500) for i in range(6)]
        assert all(r.winner is not None for r in results), [(r.seed, r.turns) for r in results]


def test_strategies_are_registered_by_name() -> None:
    assert set(STRATEGIES) == {"random", "aggressive", "defensive", "strategist"}
    for name, cls in STRATEGIES.items():
        strategy = make_strategy(name)
        assert isinstance(strategy, cls) and strategy.name == name
    assert make_strategy("strategist") is not make_strategy("strategist"), "one fresh player per seat"


def test_an_unknown_strategy_is_refused_with_the_known_names() -> None:
    with pytest.raises(
        ValueError, match=r'unknown RISC strategy "cautious".*aggressive, defensive, random, strategist'
    ):
        make_strategy("cautious")


def test_a_strategy_chooses_the_same_orders_from_the_same_seed(maps: dict[str, GameMap]) -> None:
    game_map = maps["seed"]
    state = setup(game_map, ("a", "b", "c"), 1)
    for name in STRATEGIES:
        first = make_strategy(name).decide(view(state, "a"), game_map, "a", random.Random(9))
        again = make_strategy(name).decide(view(state, "a"), game_map, "a", random.Random(9))
        assert first == again


# --- the view turned back into a state, and the checker on it -------------------------------------------------


def _mid_game(game_map: GameMap) -> GameState:
    """The seed map after placement: a 10/10/10 spread, the game at turn 1."""
    state = setup(game_map, ("a", "b", "c"), 3)
    for player in state.players:
        own = state.board.territories_of(player)
        for name in own:
            placed = issue(RULES, state, player, PlaceOrder(name, 10))
            assert isinstance(placed, Game)
            state = placed
        committed = commit(RULES, state, player)
        assert isinstance(committed, Game)
        state = committed
    state, _ = resolve(state, seed=3)
    return state


def test_state_from_view_gives_back_the_same_view(maps: dict[str, GameMap]) -> None:
    game_map = maps["seed"]
    fresh = setup(game_map, ("a", "b", "c"), 3)
    placing = issue(RULES, fresh, "a", PlaceOrder(fresh.board.territories_of("a")[0], 4))
    assert isinstance(placing, Game)
    playing = _mid_game(game_map)
    for state in (placing, playing):
        for player in state.players:
            seen = view(state, player)
            assert view(game_from_view(seen, game_map, player), player) == seen


def test_state_from_view_refuses_a_view_of_another_map(maps: dict[str, GameMap]) -> None:
    seen = view(_mid_game(maps["seed"]), "a")
    with pytest.raises(ValueError, match="territories differ"):
        game_from_view(seen, maps["twin-keeps"], "a")


def test_legal_only_keeps_what_the_engine_accepts_in_order(maps: dict[str, GameMap]) -> None:
    game_map = maps["seed"]
    state = _mid_game(game_map)
    mine = state.board.territories_of("a")
    source = mine[0]
    own_next = next(n for n in game_map.neighbours_in_order(source) if state.board.owner[n] == "a")
    enemy_next = next(n for n in game_map.neighbours_in_order(source) if state.board.owner[n] not in ("a", None))
    far_enemy = next(
        n for n in game_map.names if state.board.owner[n] not in ("a", None) and n not in game_map.neighbours(own_next)
    )
    units = state.board.units[source]
    proposals: list[Order] = [
        MoveOrder(units, own_next, source),  # R15: brings units in for the attack below
        AttackOrder(units + state.board.units[own_next], source, enemy_next),
        AttackOrder(1, source, enemy_next),  # nothing left at the source (R15)
        AttackOrder(1, own_next, far_enemy),  # not adjacent (R14)
        MoveOrder(1, enemy_next, source),  # not theirs
        PlaceOrder(source, 1),  # wrong phase
        MoveOrder(0, own_next, source),  # no units
    ]
    kept = legal_only(RISC, view(state, "a"), game_map, "a", proposals)
    assert kept == proposals[:2]
    for order in kept:
        issued = issue(RULES, state, "a", order)
        assert isinstance(issued, Game)
        state = issued


def test_legal_only_gives_nothing_to_a_player_who_is_out(maps: dict[str, GameMap]) -> None:
    game_map = maps["seed"]
    state = _mid_game(game_map)
    order = MoveOrder(1, state.board.territories_of("a")[0], state.board.territories_of("a")[1])
    assert legal_only(RISC, view(state, "a"), game_map, "a", [order]) == [order]
    out = state.evolve(board=state.board.evolve(eliminated=("a",)))
    assert legal_only(RISC, view(out, "a"), game_map, "a", [order]) == []


def test_a_placement_short_of_the_pool_is_completed(maps: dict[str, GameMap]) -> None:
    """R9: whatever a proposal leaves in the pool is placed for it, so the batch always commits."""

    class Stingy(RandomStrategy):
        def propose_placement(self, view: RiscView, game_map: GameMap, me: str, rng: random.Random) -> list[PlaceOrder]:
            return []

    game_map = maps["seed"]
    state = setup(game_map, ("a", "b", "c"), 3)
    placed = Stingy(RISC).place(view(state, "a"), game_map, "a", random.Random(0))
    assert sum(o.units for o in placed) == state.board.pools["a"]
    assert all(state.board.owner[o.territory] == "a" for o in placed)


def test_spread_splits_units_exactly_by_weight() -> None:
    assert spread(10, ["x", "y"], [1.0, 1.0]) == [PlaceOrder("x", 5), PlaceOrder("y", 5)]
    assert sum(o.units for o in spread(7, ["x", "y", "z"], [3.0, 1.0, 0.0])) == 7
    assert spread(7, ["x", "y", "z"], [3.0, 1.0, 0.0])[-1].territory != "z"
    assert sum(o.units for o in spread(5, ["x", "y"], [0.0, 0.0])) == 5


# --- combat odds (R20) ---------------------------------------------------------------------------------------


def _odds_by_recurrence(limit: int) -> list[list[float]]:
    """P[a][d] from the round-by-round recurrence: the attacker wins a round with p = 190/400 (R20)."""
    p = P_ATTACKER_WINS_ROUND
    table = [[0.0] * (limit + 1) for _ in range(limit + 1)]
    for a in range(1, limit + 1):
        table[a][0] = 1.0
        for d in range(1, limit + 1):
            table[a][d] = p * table[a][d - 1] + (1 - p) * table[a - 1][d]
    return table


def test_win_probability_matches_the_round_by_round_recurrence() -> None:
    table = _odds_by_recurrence(40)
    for a in range(0, 41):
        for d in range(0, 41):
            expected = table[a][d] if a else 0.0
            assert win_probability(a, d) == pytest.approx(expected, abs=1e-12), (a, d)


def test_win_probability_stays_accurate_for_large_armies() -> None:
    table = _odds_by_recurrence(700)
    for a, d in ((700, 650), (650, 700), (400, 380), (300, 320), (700, 500)):
        assert win_probability(a, d) == pytest.approx(table[a][d], abs=1e-3), (a, d)


def test_one_against_one_is_the_chance_of_a_strictly_higher_roll() -> None:
    assert win_probability(1, 1) == pytest.approx(190 / 400)
    assert win_probability(5, 0) == 1.0 and win_probability(0, 5) == 0.0


def test_attackers_needed_is_the_fewest_that_reach_the_confidence() -> None:
    for defenders in (0, 1, 3, 10, 40):
        for confidence in (0.5, 0.8, 0.95):
            need = attackers_needed(defenders, confidence)
            assert win_probability(need, defenders) >= confidence
            assert need == 1 or win_probability(need - 1, defenders) < confidence
    with pytest.raises(ValueError):
        attackers_needed(3, 1.0)
