"""What storage, the protocol and replays keep of a Warzone game goes to JSON values and comes back the same:
orders, events (Private ones' events too), views and boards, through the rule set's own adapters."""

from __future__ import annotations

import json

from shared.bots.tournament import make_strategy
from shared.game import turns
from shared.game.game import Game
from shared.game.random import SETUP_STEP, GameRandom, dice_of
from shared.game.ruleset import Private
from shared.maps import load_map
from tests.warzone_support import EUROPE, WZ


def test_a_whole_game_s_orders_events_views_and_boards_round_trip_through_json() -> None:
    import random

    game_map = load_map(EUROPE)
    seats = ("strategist", "aggressive", "random")
    game = WZ.new_game(game_map, seats, WZ.options({"max_turns": 12}), GameRandom("enc", SETUP_STEP))
    bots = {p: make_strategy(WZ, p) for p in seats}
    rng = random.Random(0)
    kinds: set[str] = set()
    while not WZ.status(game).finished:
        for p in sorted(turns.awaiting(WZ, game)):
            for order in bots[p].decide(WZ.view(game, p), game_map, p, rng):
                issued = turns.issue(WZ, game, p, order)
                assert isinstance(issued, Game), issued
                game = issued
            for order in game.orders_of(p):
                assert WZ.load_order(json.loads(json.dumps(WZ.dump_order(order)))) == order
            for viewer in (*seats, None):
                view = WZ.view(game, viewer)
                assert WZ.load_view(json.loads(json.dumps(WZ.dump_view(view)))) == view
            committed = turns.commit(WZ, game, p)
            assert isinstance(committed, Game), committed
            game = committed
        game, resolved = turns.advance(WZ, game, dice_of("enc"))
        for event in resolved.events:
            told = event.event if isinstance(event, Private) else event
            data = json.loads(json.dumps(WZ.dump_event(told)))
            kinds.add(data["kind"])
            assert WZ.load_event(data) == told
        assert WZ.load_board(json.loads(json.dumps(WZ.dump_board(game.board)))) == game.board
    final = WZ.view(game, None)
    assert WZ.load_view(json.loads(json.dumps(WZ.dump_view(final)))) == final
    assert {"turn_order", "deployed", "battle", "card_drawn", "turn_stats", "reinforcements"} <= kinds
    assert kinds & {"game_won", "game_drawn"}
    assert set(WZ.order_kinds()) == {
        "deploy",
        "advance",
        "bomb",
        "blockade",
        "airlift",
        "negotiate",
        "reinforce",
        "cheat",
    }
