"""E12-E15 over random games (hypothesis): every view a player gets and every event told to them holds nothing about
a territory the fog hides from them, checked against the true board at that moment.

The test keeps its own account of what each player may know, from the rules' words: their sight (own territories,
every territory bordering one of them unless another player has cloaked it, every territory holding one of their
spies), and their memory (what they saw, with the turn; and the land they lost, which they saw lost). A view must
show the truth exactly on the sight, the remembered state on what is remembered, and nothing else.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.game import turns
from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.random import dice_of
from shared.game.ruleset import Private
from shared.rulesets.risc.board import Phase, RiscBoard
from shared.rulesets.risc.events import GameWon, PlayerEliminated, TurnStarted, UnitsPlaced, UnitsReceived
from shared.rulesets.risc.evo_events import (
    Battle,
    CloakingResearched,
    LevelMoved,
    SpiesMoved,
    SpiesTrained,
    StocksReport,
    TechnologyResearched,
    TerritoryCloaked,
    UnitsUpgraded,
)
from shared.rulesets.risc.evo_view import EvoView
from tests.evolution_support import new_game, place_all, random_legal_orders, rules
from tests.test_evolution2_properties import board_for, maps

Known = dict[str, dict[str, tuple[int, str | None, tuple[int, ...]]]]
PUBLIC = (TurnStarted, PlayerEliminated, GameWon, TechnologyResearched)
OWN_ONLY = (SpiesTrained, SpiesMoved, StocksReport, UnitsReceived, CloakingResearched, TerritoryCloaked)


def sight(game: Game[RiscBoard, Any], player: str) -> set[str]:
    board, evo = game.board, game.board.evo
    assert evo is not None
    own = {n for n in game.game_map.names if board.owner[n] == player}
    seen = set(own)
    for name in game.game_map.names:
        touches = any(name in game.game_map.neighbours(o) or o in game.game_map.neighbours(name) for o in own)
        hidden = evo.cloaked.get(name, -1) >= board.turn and board.owner[name] != player
        if touches and not hidden:
            seen.add(name)
    seen.update(n for n, count in evo.spies_of(player).items() if count > 0)
    return seen


def learn(game: Game[RiscBoard, Any], known: Known, lost: dict[str, set[str]]) -> None:
    evo = game.board.evo
    assert evo is not None
    for player in game.players:
        for name in sight(game, player) | lost.get(player, set()):
            known[player][name] = (game.board.turn, game.board.owner[name], tuple(evo.levels[name]))


def check_views(game: Game[RiscBoard, Any], known: Known) -> None:
    board, evo = game.board, game.board.evo
    assert evo is not None
    for player in game.players:
        seen = rules(game).view(game, player)
        assert isinstance(seen, EvoView)
        sees = sight(game, player)
        for name, shown in seen.territories.items():
            if name in sees:
                assert (shown.fog, shown.owner, shown.levels) == ("clear", board.owner[name], evo.levels[name])
                assert shown.spies == evo.spies_of(player).get(name, 0)
            elif name in known[player]:
                turn, owner, levels = known[player][name]
                assert (shown.fog, shown.seen, shown.owner, shown.levels) == ("memory", turn, owner, levels)
            else:
                assert (shown.fog, shown.owner, shown.units, shown.food, shown.seen) == ("unknown", None, 0, None, None)
                assert not any(shown.levels)
            if shown.cloaked_until is not None:
                assert board.owner[name] == player
        for other, about in seen.players.items():
            if other != player:
                assert (about.territories, about.units, about.food, about.technology, about.cloaking) == (
                    None,
                    None,
                    None,
                    None,
                    None,
                )
    spectator = rules(game).view(game, None)
    assert isinstance(spectator, EvoView)
    assert all(t.fog == "unknown" and t.owner is None for t in spectator.territories.values())
    for follower in game.board.eliminated:
        for followed in game.players:
            if rules(game).may_follow(game, follower, followed):
                shown = rules(game).follow_view(game, followed)
                assert isinstance(shown, EvoView)
                assert {n for n, t in shown.territories.items() if t.fog == "clear"} == sight(game, followed)
                assert all(t.spies == 0 and t.cloaked_until is None for t in shown.territories.values())
                assert shown.your_orders == [] and shown.players[followed].food is None


def check_events(events: list[Any], seen_before: dict[str, set[str]]) -> None:
    for told in events:
        if not isinstance(told, Private):
            assert isinstance(told, PUBLIC), f"{told} is told to everyone"
            continue
        event = told.event
        for listener in told.audience:
            sees = seen_before[listener]
            if isinstance(event, OWN_ONLY):
                assert told.audience == {event.player}
            elif isinstance(event, LevelMoved):
                assert listener == event.player or {event.source, event.target} <= sees
            elif isinstance(event, UnitsUpgraded | UnitsPlaced):
                assert listener == event.player or event.territory in sees
            elif isinstance(event, Battle):
                assert listener in (event.attacker, event.defender) or event.territory in sees
                if listener != event.attacker:
                    assert {name for name, _ in event.sources} <= sees
            else:
                raise AssertionError(f"{event} is not expected to be private")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=10**6),
    choice=maps,
    players=st.integers(min_value=2, max_value=4),
    technology=st.sampled_from([100, 800]),
)
def test_E12_E13_E14_E15_nothing_a_player_is_sent_holds_what_the_fog_hides_from_them(
    seed: int, choice: str | int, players: int, technology: int
) -> None:
    game_map = board_for(choice, seed)
    names = [f"p{i}" for i in range(players)]
    if len(game_map.names) < players:
        players = 2
        names = names[:2]
    game = new_game(game_map, names, seed, evolution=3, technology=technology, neutral_units=1)
    rng = random.Random(seed)
    dice = dice_of(seed)
    known: Known = {p: {} for p in names}
    learn(game, known, {})
    check_views(game, known)
    game = place_all(game, rng)
    for _ in range(14):
        if rules(game).status(game).finished:
            break
        if game.board.phase is Phase.ORDERS:
            for player in names:
                if player in turns.awaiting(rules(game), game):
                    game = random_legal_orders(game, player, rng, most=6)
                    committed = turns.commit(rules(game), game, player)
                    assert not isinstance(committed, RuleError)
                    game = committed
            check_views(game, known)
        seen_before = {p: sight(game, p) for p in names}
        owned_before = dict(game.board.owner)
        game, resolved = turns.advance(rules(game), game, dice)
        check_events(resolved.events, seen_before)
        lost = {p: {n for n, o in owned_before.items() if o == p and game.board.owner[n] != p} for p in names}
        if game.board.phase is not Phase.FINISHED:
            learn(game, known, lost)
            check_views(game, known)
    if rules(game).status(game).finished:
        final = rules(game).view(game, None)
        assert isinstance(final, EvoView) and all(t.fog == "clear" for t in final.territories.values())
