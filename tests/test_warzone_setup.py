"""W1-W2: any valid map, 2 to 6 players, territories dealt evenly at random, the pools and cards of turn 1."""

from __future__ import annotations

from collections import Counter

import pytest
from pydantic import ValidationError

from shared.game.random import SETUP_STEP, GameRandom
from shared.maps import load_map
from shared.rulesets.warzone.cards import COPIES, Card
from shared.rulesets.warzone.continents import WHOLE_MAP, continents, reinforcement
from shared.rulesets.warzone.options import WarzoneOptions
from tests.warzone_support import EUROPE, MAPS, WORLD, WZ, line_map


def new_game(
    game_map_ref: object = EUROPE, players: tuple[str, ...] = ("ann", "bob", "cy"), seed: str = "s", **options: object
):
    game_map = load_map(game_map_ref) if not hasattr(game_map_ref, "names") else game_map_ref
    return WZ.new_game(game_map, players, WZ.options(options), GameRandom(seed, SETUP_STEP))


@pytest.mark.parametrize("ref", [EUROPE, WORLD, MAPS / "conquest" / "World.map", "seed", "saltreach"])
def test_W1_domination_conquest_and_native_maps_load_and_play(ref: object) -> None:
    game = new_game(ref)
    assert WZ.status(game).phase == "orders"
    view = WZ.view(game, "ann")
    assert set(view.territories) == set(game.game_map.names)
    assert sum(c.territories for c in view.continents.values()) == len(game.game_map.names)


def test_W1_each_continent_keeps_its_bonus() -> None:
    game_map = load_map(EUROPE)
    assert {c.name: c.bonus for c in continents(game_map)} == {c.name: c.bonus for c in game_map.continents}


def test_W1_a_map_without_continents_counts_as_one_continent_with_bonus_0() -> None:
    game_map = line_map("A", "B", "C", "D")
    (whole,) = continents(game_map)
    assert (whole.name, whole.bonus, whole.members) == (WHOLE_MAP, 0, ("A", "B", "C", "D"))
    owner = dict.fromkeys(game_map.names, "ann")
    assert reinforcement(game_map, owner, "ann") == (3, 3, (WHOLE_MAP,))


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_W2_two_to_six_players(count: int) -> None:
    players = tuple(f"p{i}" for i in range(count))
    assert WZ.player_counts(WZ.options({})) == (2, 6)
    game = new_game(EUROPE, players)
    assert WZ.status(game).acting == frozenset(players)


@pytest.mark.parametrize("count", [1, 7])
def test_W2_fewer_than_two_or_more_than_six_players_cannot_play(count: int) -> None:
    with pytest.raises(ValueError, match="2 to 6 players"):
        new_game(EUROPE, tuple(f"p{i}" for i in range(count)))


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_W2_every_territory_is_dealt_and_counts_differ_by_at_most_one(count: int) -> None:
    game = new_game(WORLD, tuple(f"p{i}" for i in range(count)))
    held = Counter(game.board.owner.values())
    assert None not in held
    assert sum(held.values()) == 42
    assert max(held.values()) - min(held.values()) <= 1


def test_W2_the_deal_is_random_and_repeats_with_the_seed() -> None:
    deals = {tuple(new_game(seed=str(s)).board.owner.items()) for s in range(20)}
    assert len(deals) == 20
    assert new_game(seed="x").board == new_game(seed="x").board


def test_W2_who_gets_the_extra_territory_is_left_to_chance() -> None:
    # 24 territories for 5 players: 4 players get 5 and one gets 4; over many seeds, every seat is the short one.
    short = Counter()
    for s in range(60):
        held = Counter(new_game(EUROPE, ("a", "b", "c", "d", "e"), seed=str(s)).board.owner.values())
        short.update(p for p, n in held.items() if n == 4)
    assert set(short) == {"a", "b", "c", "d", "e"}


def test_W2_neutral_remainder_leaves_the_leftover_territories_neutral() -> None:
    game = new_game(EUROPE, ("a", "b", "c", "d", "e"), neutral_remainder=True)
    held = Counter(game.board.owner.values())
    assert held[None] == 24 % 5
    assert {held[p] for p in "abcde"} == {24 // 5}


def test_W2_each_pool_is_50_units_and_every_territory_starts_empty() -> None:
    game = new_game()
    assert dict(game.board.pools) == {"ann": 50, "bob": 50, "cy": 50}
    assert set(game.board.units.values()) == {0}
    assert WZ.view(game, "ann").pool_left == 50
    assert new_game(initial_units=12).board.pools["bob"] == 12


def test_W2_each_player_draws_two_cards_from_a_deck_of_50() -> None:
    game = new_game()
    hands = game.board.hands
    assert all(len(hands[p]) == 2 for p in ("ann", "bob", "cy"))
    everything = Counter([*game.board.deck, *(c for h in hands.values() for c in h)])
    assert everything == {card: COPIES for card in Card}
    assert len(game.board.deck) == 50 - 6
    assert all(len(h) == 4 for h in new_game(initial_cards=4).board.hands.values())


def test_W2_the_deck_is_shuffled_by_the_game_s_generator() -> None:
    decks = {new_game(seed=str(s)).board.deck for s in range(10)}
    assert len(decks) == 10


def test_W2_options_have_the_spec_s_defaults_and_are_checked() -> None:
    options = WZ.options({})
    assert options == WarzoneOptions(
        initial_units=50,
        initial_cards=2,
        blockade_multiplier=3,
        neutral_remainder=False,
        max_turns=100,
        allow_cheaters=False,
    )
    for bad in ({"initial_units": -1}, {"blockade_multiplier": 0}, {"max_turns": -2}, {"nonsense": 1}):
        with pytest.raises(ValidationError):
            WZ.options(bad)


def test_W2_a_map_with_fewer_territories_than_players_is_refused() -> None:
    game_map = line_map("A", "B")
    assert WZ.map_problem(game_map, WZ.options({}), 3) is not None
    assert WZ.map_problem(game_map, WZ.options({}), 2) is None
