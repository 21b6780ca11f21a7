"""Properties over random maps, random players and random legal turns (Hypothesis).

Units appear only by deploys (from pools, which grow only by reinforcements and reinforcement cards) and by the
blockade's multiplication (W9), and disappear only in battles and under bombs; a skipped order changes nothing at
all; a game's seed and orders replay it exactly; no view holds another player's orders or hand, and every Private
event is told to its player alone.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.game import turns
from shared.game.game import Game
from shared.game.random import SETUP_STEP, GameRandom, dice_of
from shared.game.ruleset import Legal, Private
from shared.maps import GameMap, Territory, build_map
from shared.maps.model import Continent
from shared.rulesets.warzone.cards import COPIES, Card
from shared.rulesets.warzone.events import (
    Battle,
    Blockaded,
    Bombed,
    CardDrawn,
    Deployed,
    PlayerEliminated,
    ReinforcementCardPlayed,
    ReinforcementsReceived,
    Skipped,
)
from shared.rulesets.warzone.execution import TurnInProgress
from shared.rulesets.warzone.orders import (
    AdvanceOrder,
    AirliftOrder,
    BlockadeOrder,
    BombOrder,
    CheatOrder,
    DeployOrder,
    NegotiateOrder,
    ReinforceOrder,
)
from tests.warzone_support import WZ

PLAYERS = ("ann", "bob", "cy", "dee")


def random_map(rng: random.Random, size: int) -> GameMap:
    """A random connected map (a random spanning tree and a few more borders) in up to 3 continents."""
    names = [f"T{i}" for i in range(size)]
    borders: dict[str, set[str]] = {n: set() for n in names}
    for i in range(1, size):
        other = names[rng.randrange(i)]
        borders[names[i]].add(other)
        borders[other].add(names[i])
    for _ in range(rng.randrange(size + 1)):
        a, b = rng.sample(names, 2)
        borders[a].add(b)
        borders[b].add(a)
    parts = rng.randint(0, 3)
    continents = [Continent(f"C{i}", rng.randint(0, 5)) for i in range(parts)]
    territories = [Territory(n, f"C{rng.randrange(parts)}" if parts else None) for n in names]
    return build_map("random", territories, borders, continents)


def random_turn(game: Game[Any, Any], player: str, rng: random.Random) -> Game[Any, Any]:
    """Random legal orders from the rules' own list, the whole pool deployed, then a commit."""
    for _ in range(rng.randint(0, 8)):
        legal = turns.legal_orders(WZ, game, player)
        if game.options.allow_cheaters and rng.random() < 0.1:
            legal.append(Legal(CheatOrder()))
        if not legal:
            break
        entry = rng.choice(legal)
        order = entry.order
        if entry.count_field is not None:
            order = replace(order, **{entry.count_field: rng.randint(entry.least, getattr(order, entry.count_field))})
        issued = turns.issue(WZ, game, player, order)
        if isinstance(issued, Game):
            game = issued
    for order in WZ.timeout_orders(game, player, turns.tally(WZ, game, player)):
        issued = turns.issue(WZ, game, player, order)
        assert isinstance(issued, Game), issued
        game = issued
    committed = turns.commit(WZ, game, player)
    assert isinstance(committed, Game), committed
    return committed


GAMES = st.builds(
    lambda seed, size, players, multiplier, neutral, cheat: (
        seed,
        size,
        players,
        {
            "blockade_multiplier": multiplier,
            "neutral_remainder": neutral,
            "allow_cheaters": cheat,
            "initial_units": 12,
            "initial_cards": 3,
        },
    ),
    st.integers(0, 10**6),
    st.integers(4, 12),
    st.integers(2, 4),
    st.sampled_from([1, 2, 3]),
    st.booleans(),
    st.booleans(),
)


def new_game(seed: int, size: int, players: int, options: dict[str, Any]) -> Game[Any, Any]:
    game_map = random_map(random.Random(seed), size)
    return WZ.new_game(game_map, PLAYERS[:players], WZ.options(options), GameRandom(seed, SETUP_STEP))


def play(seed: int, size: int, players: int, options: dict[str, Any], turns_played: int = 6):
    """Yield (game before, batches, game after, events) turn after turn."""
    game = new_game(seed, size, players, options)
    rng = random.Random(seed)
    dice = dice_of(seed)
    for _ in range(turns_played):
        if WZ.status(game).finished:
            return
        before = game
        for player in sorted(turns.awaiting(WZ, game)):
            game = random_turn(game, player, rng)
        batches = {p: game.orders_of(p) for p in game.players}
        game, resolved = turns.advance(WZ, game, dice)
        yield before, batches, game, resolved.events


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(GAMES)
def test_W4_W9_units_appear_only_by_deploys_and_blockades_and_pools_grow_only_by_reinforcements(spec: Any) -> None:
    for before, _, after, events in play(*spec):
        told = [e.event if isinstance(e, Private) else e for e in events]
        deployed = Counter[str]()
        for e in told:
            if isinstance(e, Deployed):
                deployed[e.player] += e.units
        lost = sum(e.attacker_losses + e.defender_losses for e in told if isinstance(e, Battle))
        bombed = sum(e.before - e.after for e in told if isinstance(e, Bombed))
        blockaded = sum(e.after - e.before for e in told if isinstance(e, Blockaded))
        assert sum(after.board.units.values()) == (
            sum(before.board.units.values()) + sum(deployed.values()) - lost - bombed + blockaded
        )
        if before.options.blockade_multiplier == 1:
            assert sum(after.board.units.values()) <= sum(before.board.units.values()) + sum(deployed.values())
        cards = Counter[str](e.player for e in told if isinstance(e, ReinforcementCardPlayed))
        received = {e.player: e.units for e in told if isinstance(e, ReinforcementsReceived)}
        out = {e.player for e in told if isinstance(e, PlayerEliminated)}
        for p in before.board.alive(before.players):
            expected = before.board.pools[p] + 5 * cards[p] - deployed[p] + received.get(p, 0)
            assert after.board.pools[p] == (0 if p in out else expected)
        assert min(after.board.units.values()) >= 0
        assert set(after.board.owner.values()) <= {*after.players, None}
        everything = Counter([*after.board.deck, *(c for h in after.board.hands.values() for c in h)])
        assert everything == dict.fromkeys(Card, COPIES)


@SETTINGS
@given(GAMES, st.integers(0, 10**6))
def test_W6_a_skipped_order_changes_nothing(spec: Any, salt: int) -> None:
    """Orders legal when issued, executed against a board that others changed since (owners moved, units
    removed): whenever one is skipped, nothing about the turn changes, not even the dice."""
    rng = random.Random(salt)
    skipped = 0
    for before, batches, _, _ in play(*spec, turns_played=4):
        for player, batch in batches.items():
            for order in batch:
                turn = TurnInProgress.start(before, GameRandom(salt))
                for name in rng.sample(turn.game_map.names, k=rng.randint(0, len(turn.game_map.names))):
                    turn.owner[name] = rng.choice([*before.players, None])
                    turn.units[name] = rng.randint(0, 3)
                if rng.random() < 0.3:
                    turn.truces.add(frozenset(rng.sample(before.players, 2)))
                state = copy.deepcopy(
                    (
                        turn.owner,
                        turn.units,
                        turn.pools,
                        turn.hands,
                        turn.deck,
                        turn.truces,
                        turn.conquests,
                        turn.losses,
                        turn.cards_played,
                    )
                )
                dice = turn.rng._random.getstate()
                turn.execute(player, order)
                if isinstance(turn.events[-1], Skipped):
                    skipped += 1
                    assert turn.events[-1].order == order
                    assert (
                        turn.owner,
                        turn.units,
                        turn.pools,
                        turn.hands,
                        turn.deck,
                        turn.truces,
                        turn.conquests,
                        turn.losses,
                        turn.cards_played,
                    ) == state
                    assert turn.rng._random.getstate() == dice
                    assert len(turn.events) == 1


def test_W6_orders_of_every_kind_can_be_skipped_by_the_property_above() -> None:
    """The property is not vacuous: each kind of order meets a board on which it is skipped."""
    kinds = {
        o.kind
        for o in (
            DeployOrder("T0", 1),
            AdvanceOrder(1, "T0", "T1"),
            AirliftOrder(1, "T0", "T1"),
            BombOrder("T1"),
            BlockadeOrder("T0"),
            NegotiateOrder("bob"),
            ReinforceOrder(),
        )
    }
    assert kinds == {"deploy", "advance", "airlift", "bomb", "blockade", "negotiate", "reinforce"}
    game_map = build_map("pair", [Territory("T0"), Territory("T1")], {"T0": {"T1"}, "T1": {"T0"}})
    game = WZ.new_game(game_map, ("ann", "bob"), WZ.options({}), GameRandom(0, SETUP_STEP))
    turn = TurnInProgress.start(game, GameRandom(0))
    turn.owner.update({"T0": "bob", "T1": "ann"})
    turn.hands["ann"] = []
    for order in (
        DeployOrder("T0", 1),
        AdvanceOrder(1, "T0", "T1"),
        BlockadeOrder("T0"),
        BombOrder("T1"),
        NegotiateOrder("bob"),
        ReinforceOrder(),
        AirliftOrder(1, "T0", "T1"),
    ):
        turn.execute("ann", order)
    assert [type(e) for e in turn.events] == [Skipped] * 7


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES)
def test_a_game_s_seed_and_orders_replay_it_exactly(spec: Any) -> None:
    seed, size, players, options = spec
    replayed = new_game(seed, size, players, options)
    for _, batches, after, events in play(*spec, turns_played=8):
        done = turns.replay_orders(WZ, replayed, dict(batches), dice_of(seed))
        assert not hasattr(done, "code"), done
        replayed, resolved = done
        assert replayed.board == after.board
        assert resolved.events == events


@SETTINGS
@given(GAMES)
def test_W4_W13_no_view_holds_another_s_orders_or_hand_and_private_events_go_to_their_player(spec: Any) -> None:
    seed, size, players, options = spec
    game = new_game(seed, size, players, options)
    rng = random.Random(seed)
    for _ in range(5):
        if WZ.status(game).finished:
            break
        for player in sorted(turns.awaiting(WZ, game)):
            game = random_turn(game, player, rng)
        for viewer in (*game.players, None):
            seen = WZ.view(game, viewer)
            assert seen.your_orders == (list(game.orders_of(viewer)) if viewer else [])
            if viewer is None:
                assert seen.hand is None
            else:
                assert sum(seen.hand.values()) == len(game.board.hands[viewer])
                assert Counter({Card(c): n for c, n in seen.hand.items() if n}) == Counter(game.board.hands[viewer])
            for p, state in seen.players.items():
                assert state.cards == len(game.board.hands[p])
        game, resolved = turns.advance(WZ, game, dice_of(seed))
        for event in resolved.events:
            if isinstance(event, Private):
                assert isinstance(event.event, CardDrawn)
                assert event.audience == frozenset({event.event.player})
            else:
                assert not isinstance(event, CardDrawn)
