"""A player's view turned back into a game, so that computer players check their orders with the rules' own checker.

A view holds everything the issuing rules read (W4): owners, units, the viewer's pool, hand and issued orders, and
the options that matter (allow_cheaters). Rebuilding a game from it lets a strategy run the very checker the server
runs instead of a second copy of the rules that could drift from the first. What a view hides (the other players'
hands and orders, the deck) plays no part in checking one's own orders.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from shared.game.game import Game
from shared.game.ruleset import AnyRuleSet
from shared.game.strategy import legal_only as keep_legal
from shared.maps.model import GameMap
from shared.rulesets.warzone.board import WarzoneBoard
from shared.rulesets.warzone.cards import Card
from shared.rulesets.warzone.options import WarzoneOptions
from shared.rulesets.warzone.view import WarzoneView


def game_from_view(view: WarzoneView, game_map: GameMap, me: str | None) -> Game[WarzoneBoard, Any]:
    if list(view.territories) != list(game_map.names):
        raise ValueError(f'the view\'s territories differ from those of the map "{game_map.name}"')
    hands: dict[str, tuple[Card, ...]] = {}
    orders: dict[str, tuple[Any, ...]] = {}
    if me is not None and view.hand is not None:
        hands[me] = tuple(Card(name) for name, n in view.hand.items() for _ in range(n))
        if view.your_orders:
            orders[me] = tuple(view.your_orders)
    board = WarzoneBoard(
        phase=view.phase,
        turn=view.turn,
        owner={name: t.owner for name, t in view.territories.items()},
        units={name: t.units for name, t in view.territories.items()},
        pools={p: s.pool for p, s in view.players.items()},
        hands=hands,
        deck=(),
        eliminated=tuple(p for p, s in view.players.items() if s.eliminated),
        winner=view.winner,
    )
    options = WarzoneOptions(
        max_turns=view.max_turns, blockade_multiplier=view.blockade_multiplier, allow_cheaters=view.allow_cheaters
    )
    return Game("warzone", game_map, tuple(view.players), options, board, orders=orders)


def legal_only(ruleset: AnyRuleSet, view: WarzoneView, game_map: GameMap, me: str, orders: Iterable[Any]) -> list[Any]:
    """The orders the rules would accept, in order, each judged after those kept before it (W4)."""
    return keep_legal(ruleset, game_from_view(view, game_map, me), me, orders)
