"""W4: a player's orders checked when issued, each against what the earlier ones of the turn leave (as R15).

What a player's issued orders use up is a `Tally`, kept by the framework beside the orders: the pool left to deploy,
the units each touched territory has left to send, the cards not yet played, the truces the player has offered, the
territories they blockade. A tally is never changed: accounting for an
order makes a new one.

Issue-time checks see the board as it stands before the turn executes, and the player's own earlier orders; they
cannot see the other players' orders (W4). What those change is checked again when each order executes (W6, in
execution.py). Decisions taken here (docs/rules-warzone.md):

- A truce is checked when the turn executes, never at issue, whoever offered it (W6, W11): an advance or a bomb on
  the land of a player one offers a truce to is accepted, and skipped when its time comes with the report saying
  why, as one on the land of a player who offers one a truce in secret is. A second truce with the same player is
  refused: it could only spend a second card on the same truce.
- Orders from or to a territory the player blockades earlier in the turn are refused: it will be neutral by then.
- Units moved into an own territory by an earlier advance or airlift count as there for later orders (the player's
  orders execute in the order issued); units that attack do not come back to be counted.
- The source of an advance or an airlift is an own territory on the board as it stands: a territory the player
  hopes to conquer this turn cannot be named as a source.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from shared.game.errors import Refused, RuleError, too_few_to_send
from shared.game.game import Game
from shared.game.presentation import plural
from shared.rulesets.warzone import orders
from shared.rulesets.warzone.board import Phase, WarzoneBoard
from shared.rulesets.warzone.cards import REINFORCEMENT_UNITS, Card, a_card, count


class Code:
    """Warzone's own refusal codes (beside the framework's, shared.game.errors.Refused), also the codes of the
    reasons an order is skipped when it executes (W6)."""

    NON_POSITIVE_UNITS = "non-positive-units"
    NOT_YOUR_TERRITORY = "not-your-territory"
    POOL_EXCEEDED = "pool-exceeded"
    NOT_ENOUGH_UNITS = "not-enough-units"
    NOTHING_LEFT = "no-units-left"
    SAME_TERRITORY = "same-territory"
    NOT_ADJACENT = "not-adjacent"
    CARD_NOT_HELD = "card-not-held"
    OWN_TERRITORY = "own-territory"
    TARGET_NOT_YOURS = "target-not-yours"
    TRUCE = "truce"
    NEGOTIATE_WITH_SELF = "negotiate-with-self"
    ALREADY_NEGOTIATING = "already-negotiating"
    PLAYER_OUT = "player-out"
    BLOCKADED = "blockaded-this-turn"
    UNITS_NOT_DEPLOYED = "units-not-deployed"
    CHEATING_NOT_ALLOWED = "cheating-not-allowed"
    ALREADY_CHEATED = "already-cheated"


@dataclass(frozen=True)
class Tally:
    pool_left: int
    left: Mapping[str, int] = field(default_factory=dict)
    """Units left to send from each territory an order touched (others have what the board says)."""
    cards: Mapping[Card, int] = field(default_factory=dict)
    """Cards in the hand not yet played by an issued order."""
    truces: frozenset[str] = frozenset()
    """The players the issued orders offer a truce to."""
    blockaded: frozenset[str] = frozenset()
    cheated: bool = False


def start_tally(board: WarzoneBoard, player: str) -> Tally:
    return Tally(board.pools.get(player, 0), {}, count(board.hands.get(player, ())))


def units_left(board: WarzoneBoard, tally: Tally, territory: str) -> int:
    return tally.left.get(territory, board.units[territory])


def account(board: WarzoneBoard, tally: Tally, order: orders.AnyOrder) -> Tally:
    """The tally once `order` (checked already) is issued too."""
    card = orders.card_of(order)
    cards = tally.cards if card is None else {**tally.cards, card: tally.cards.get(card, 0) - 1}
    tally = replace(tally, cards=cards)
    if isinstance(order, orders.DeployOrder):
        left = {**tally.left, order.territory: units_left(board, tally, order.territory) + order.units}
        return replace(tally, pool_left=tally.pool_left - order.units, left=left)
    if isinstance(order, orders.ReinforceOrder):
        return replace(tally, pool_left=tally.pool_left + REINFORCEMENT_UNITS)
    if isinstance(order, orders.AdvanceOrder | orders.AirliftOrder):
        left = dict(tally.left)
        left[order.source] = units_left(board, tally, order.source) - order.units
        if isinstance(order, orders.AirliftOrder) or board.owner[order.target] == board.owner[order.source]:
            left[order.target] = units_left(board, tally, order.target) + order.units
        return replace(tally, left=left)
    if isinstance(order, orders.BlockadeOrder):
        return replace(tally, blockaded=tally.blockaded | {order.territory})
    if isinstance(order, orders.NegotiateOrder):
        return replace(tally, truces=tally.truces | {order.player})
    return replace(tally, cheated=True)


def _units(order: orders.DeployOrder | orders.AdvanceOrder | orders.AirliftOrder) -> RuleError | None:
    if isinstance(order.units, bool) or not isinstance(order.units, int) or order.units < 1:
        return RuleError(Code.NON_POSITIVE_UNITS, f"an order must name at least 1 unit, this one names {order.units}")
    return None


def _known(game: Game[WarzoneBoard, Any], *names: str) -> RuleError | None:
    for name in names:
        if name not in game.game_map:
            return RuleError(Refused.UNKNOWN_TERRITORY, f'there is no territory called "{name}"')
    return None


def _own(board: WarzoneBoard, player: str, territory: str, what: str) -> RuleError | None:
    if board.owner[territory] != player:
        return RuleError(Code.NOT_YOUR_TERRITORY, f"{territory} is not yours: {what}")
    return None


def _card(tally: Tally, card: Card, order: str) -> RuleError | None:
    if tally.cards.get(card, 0) < 1:
        return RuleError(
            Code.CARD_NOT_HELD,
            f"{order} needs {a_card(card)}, and you hold none that your orders of this turn do not play already",
        )
    return None


def _blockaded(tally: Tally, *names: str) -> RuleError | None:
    for name in names:
        if name in tally.blockaded:
            return RuleError(Code.BLOCKADED, f"you blockade {name} earlier this turn: it will be neutral by then")
    return None


def _enough(board: WarzoneBoard, tally: Tally, order: orders.AdvanceOrder | orders.AirliftOrder) -> RuleError | None:
    return too_few_to_send(Code.NOT_ENOUGH_UNITS, order.source, units_left(board, tally, order.source), order.units)


def check(game: Game[WarzoneBoard, Any], player: str, tally: Tally, order: orders.AnyOrder) -> RuleError | None:
    """Is `order` legal after the player's earlier orders (that made `tally`)? None when it is."""
    board, game_map = game.board, game.game_map
    if board.phase is not Phase.ORDERS:
        return RuleError(Refused.WRONG_PHASE, "the game is over")
    if isinstance(order, orders.DeployOrder):
        problem = (
            _units(order)
            or _known(game, order.territory)
            or _own(board, player, order.territory, "units are deployed only on your own territories")
        )
        if problem is None and order.units > tally.pool_left:
            problem = RuleError(
                Code.POOL_EXCEEDED,
                f"your pool has {plural(tally.pool_left, 'unit')} left to deploy, the order asks for {order.units}",
            )
        return problem
    if isinstance(order, orders.AdvanceOrder):
        problem = (
            _units(order)
            or _known(game, order.source, order.target)
            or _own(board, player, order.source, "an advance starts from one of your territories")
            or _blockaded(tally, order.source, order.target)
        )
        if problem is not None:
            return problem
        if order.source == order.target:
            return RuleError(Code.SAME_TERRITORY, f"{order.source} is both the source and the target")
        if order.target not in game_map.neighbours(order.source):
            return RuleError(
                Code.NOT_ADJACENT,
                f"{order.target} is not adjacent to {order.source}: an advance "
                "goes only to a neighbouring territory (airlift goes further)",
            )
        return _enough(board, tally, order)
    if isinstance(order, orders.AirliftOrder):
        problem = (
            _card(tally, Card.AIRLIFT, "an airlift")
            or _units(order)
            or _known(game, order.source, order.target)
            or _own(board, player, order.source, "an airlift starts from one of your territories")
            or _blockaded(tally, order.source, order.target)
        )
        if problem is not None:
            return problem
        if order.source == order.target:
            return RuleError(Code.SAME_TERRITORY, f"{order.source} is both the source and the target")
        if board.owner[order.target] != player:
            return RuleError(
                Code.TARGET_NOT_YOURS, f"{order.target} is not yours: an airlift goes between your own territories"
            )
        return _enough(board, tally, order)
    if isinstance(order, orders.BombOrder):
        problem = _card(tally, Card.BOMB, "a bomb") or _known(game, order.target)
        if problem is not None:
            return problem
        owner = board.owner[order.target]
        if owner == player:
            return RuleError(Code.OWN_TERRITORY, f"{order.target} is yours: a bomb goes on someone else's territory")
        if not any(board.owner[s] == player for s in game_map.names if order.target in game_map.neighbours(s)):
            return RuleError(Code.NOT_ADJACENT, f"{order.target} is not adjacent to any of your territories")
        return None
    if isinstance(order, orders.BlockadeOrder):
        return (
            _card(tally, Card.BLOCKADE, "a blockade")
            or _known(game, order.territory)
            or _own(board, player, order.territory, "a blockade goes on one of your own territories")
            or _blockaded(tally, order.territory)
        )
    if isinstance(order, orders.NegotiateOrder):
        problem = _card(tally, Card.DIPLOMACY, "a truce")
        if problem is not None:
            return problem
        if order.player == player:
            return RuleError(Code.NEGOTIATE_WITH_SELF, "you cannot negotiate with yourself")
        if order.player not in game.players:
            return RuleError(Refused.UNKNOWN_PLAYER, f'there is no player called "{order.player}" in this game')
        if order.player in board.eliminated:
            return RuleError(Code.PLAYER_OUT, f"{order.player} is out of the game")
        if order.player in tally.truces:
            return RuleError(Code.ALREADY_NEGOTIATING, f"you already offer {order.player} a truce this turn")
        return None
    if isinstance(order, orders.ReinforceOrder):
        return _card(tally, Card.REINFORCEMENT, "reinforce")
    if isinstance(order, orders.CheatOrder):
        if not game.options.allow_cheaters:
            return RuleError(
                Code.CHEATING_NOT_ALLOWED, "this game does not allow cheaters (its creator did not set allow_cheaters)"
            )
        if tally.cheated:
            return RuleError(Code.ALREADY_CHEATED, "the cheater's conquest is issued once a turn")
        return None
    return RuleError(Refused.WRONG_PHASE, f"unknown order {order!r}")


def check_commit(tally: Tally) -> RuleError | None:
    """W4: a commit needs the whole pool deployed."""
    if tally.pool_left > 0:
        return RuleError(
            Code.UNITS_NOT_DEPLOYED,
            f"{plural(tally.pool_left, 'unit')} of your pool still to deploy: "
            "a turn is committed with the whole pool deployed",
        )
    return None
