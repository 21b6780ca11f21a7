"""Is one action legal now? Every refusal is a value with a stable code and a sentence that says what to do instead.

The framework has already checked that the game runs and that the player is the one it waits for; here the phase,
the countries, the numbers. Execution (resolve.py) may then assume the action is legal.
"""

from __future__ import annotations

from typing import Any

from shared.game.errors import Refused, RuleError, count_problem
from shared.game.game import Game
from shared.game.presentation import plural
from shared.rulesets.classic import geography, orders
from shared.rulesets.classic.board import ClassicBoard, Phase
from shared.rulesets.classic.cards import MUST_TRADE_AT, SET_SIZE, is_set
from shared.rulesets.classic.dice import most_attack_dice
from shared.rulesets.classic.options import ClassicOptions, FortifyRule


class Code:
    """Classic Risk's own refusal codes (beside the framework's, shared.game.errors.Refused)."""

    NOT_YOUR_COUNTRY = "not-your-country"
    OWN_COUNTRY = "own-country"
    NOT_ADJACENT = "not-adjacent"
    NO_PATH = "no-path"
    SAME_COUNTRY = "same-country"
    BAD_NUMBER = Refused.BAD_NUMBER
    TOO_MANY = Refused.TOO_MANY
    TOO_FEW = Refused.TOO_FEW
    NOT_ENOUGH_ARMIES = "not-enough-armies"
    BAD_DICE = "bad-dice"
    BAD_CARDS = "bad-cards"
    NOT_A_SET = "not-a-set"
    MUST_TRADE = "must-trade"
    TRADING_CLOSED = "trading-closed"
    CHEATING_NOT_ALLOWED = "cheating-not-allowed"


PHASE_WORDS = {
    Phase.STARTUP: "placing the starting armies (placearmy COUNTRY, or placeall)",
    Phase.CAPITAL: "choosing capitals (capital COUNTRY)",
    Phase.REINFORCEMENT: "reinforcement (exchangecards, reinforce COUNTRY NUM)",
    Phase.ATTACK: "attack (attack FROM TO NUMDICE, attack FROM TO -allout, attack -noattack)",
    Phase.MOVE_IN: "the move-in after a conquest (attackmove NUM)",
    Phase.FORTIFICATION: "fortification (fortify FROM TO NUM, fortify -none)",
    Phase.FINISHED: "the end of the game",
}

ORDER_PHASES: dict[type[Any], tuple[Phase, ...]] = {
    orders.PlaceArmy: (Phase.STARTUP,),
    orders.PlaceAll: (Phase.STARTUP,),
    orders.ChooseCapital: (Phase.CAPITAL,),
    orders.ExchangeCards: (Phase.REINFORCEMENT,),
    orders.KeepCards: (Phase.REINFORCEMENT,),
    orders.Reinforce: (Phase.REINFORCEMENT,),
    orders.Attack: (Phase.ATTACK,),
    orders.AllOut: (Phase.ATTACK,),
    orders.AttackUntil: (Phase.ATTACK,),
    orders.NoAttack: (Phase.ATTACK,),
    orders.AttackMove: (Phase.MOVE_IN,),
    orders.Fortify: (Phase.FORTIFICATION,),
    orders.NoFortify: (Phase.FORTIFICATION,),
}

CHEAT_PHASES = (Phase.REINFORCEMENT, Phase.ATTACK, Phase.FORTIFICATION)


def _number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _own(game: Game[ClassicBoard, Any], player: str, country: str, what: str) -> RuleError | None:
    if country not in game.game_map:
        return RuleError(Refused.UNKNOWN_TERRITORY, f'there is no country called "{country}"')
    if game.board.owner[country] != player:
        return RuleError(Code.NOT_YOUR_COUNTRY, f"{country} is not yours: {what}")
    return None


def check(game: Game[ClassicBoard, Any], player: str, order: orders.ClassicOrder) -> RuleError | None:
    board, options = game.board, game.options
    assert isinstance(options, ClassicOptions)
    phase = board.phase
    if order.kind == "cheat":
        if not options.cheaters:
            return RuleError(Code.CHEATING_NOT_ALLOWED, "this game's creator does not allow cheating")
        if phase not in CHEAT_PHASES:
            return RuleError(
                Refused.WRONG_PHASE,
                f"cheating is for the reinforcement, attack and fortification phases; now it is {PHASE_WORDS[phase]}",
            )
        return None
    allowed = ORDER_PHASES.get(type(order), ())
    if phase not in allowed:
        if phase is Phase.MOVE_IN:
            conquest = board.conquest
            assert conquest is not None
            return RuleError(
                Refused.WRONG_PHASE,
                f"first move armies into {conquest.target}: attackmove NUM ({conquest.least} to {conquest.most})",
            )
        return RuleError(Refused.WRONG_PHASE, f"that is not for this phase: now it is {PHASE_WORDS[phase]}")
    hand = board.hand(player)
    if isinstance(order, orders.PlaceArmy):
        return _own(game, player, order.country, "starting armies go on your own countries")
    if isinstance(order, orders.ChooseCapital):
        return _own(game, player, order.country, "your capital must be one of your countries")
    if isinstance(order, orders.ExchangeCards):
        positions = order.positions
        if len(positions) != SET_SIZE or not all(_number(p) for p in positions):
            return RuleError(
                Code.BAD_CARDS, "name three cards by their positions in your hand, e.g. exchangecards 1 2 3"
            )
        if board.trading_closed:
            return RuleError(Code.TRADING_CLOSED, "you chose not to trade cards this turn")
        if len(set(positions)) != SET_SIZE:
            return RuleError(Code.BAD_CARDS, "name three different cards")
        if any(not 1 <= p <= len(hand) for p in positions):
            return RuleError(
                Code.BAD_CARDS,
                f"you hold {plural(len(hand), 'card')}: positions go from 1 to {len(hand)}"
                if hand
                else "you hold no cards",
            )
        if not is_set([hand[p - 1] for p in positions]):
            return RuleError(
                Code.NOT_A_SET,
                "those cards are not a set: three of a kind, one of each, or either completed by a wildcard",
            )
        return None
    if isinstance(order, orders.KeepCards):
        if len(hand) >= MUST_TRADE_AT:
            return RuleError(
                Code.MUST_TRADE, f"you hold {len(hand)} cards: you must trade until you hold fewer than {MUST_TRADE_AT}"
            )
        if board.trading_closed:
            return RuleError(Code.TRADING_CLOSED, "you have already said you keep your cards this turn")
        return None
    if isinstance(order, orders.Reinforce):
        if len(hand) >= MUST_TRADE_AT:
            return RuleError(Code.MUST_TRADE, f"you hold {len(hand)} cards: trade a set first (exchangecards n n n)")
        return _own(game, player, order.country, "reinforcements go on your own countries") or count_problem(
            order.armies, 1, board.reinforcements, "the number of armies"
        )
    if isinstance(order, orders.Attack | orders.AllOut | orders.AttackUntil):
        problem = _check_attack(game, player, order)
        if problem is None and isinstance(order, orders.AttackUntil):
            armies = board.armies[order.source]
            return count_problem(order.remain, 1, armies - 1, f"the armies to leave in {order.source} ({armies} there)")
        return problem
    if isinstance(order, orders.AttackMove):
        conquest = board.conquest
        assert conquest is not None
        return count_problem(order.armies, conquest.least, conquest.most, f"the armies moving into {conquest.target}")
    if isinstance(order, orders.Fortify):
        return _check_fortify(game, player, order)
    return None


def _check_attack(
    game: Game[ClassicBoard, Any], player: str, order: orders.Attack | orders.AllOut | orders.AttackUntil
) -> RuleError | None:
    board, game_map = game.board, game.game_map
    problem = _own(game, player, order.source, "attacks start from your own countries")
    if problem is not None:
        return problem
    if order.target not in game_map:
        return RuleError(Refused.UNKNOWN_TERRITORY, f'there is no country called "{order.target}"')
    if board.owner[order.target] == player:
        return RuleError(Code.OWN_COUNTRY, f"{order.target} is yours already")
    if order.target not in game_map.neighbours(order.source):
        return RuleError(Code.NOT_ADJACENT, f"{order.target} is not next to {order.source}")
    armies = board.armies[order.source]
    if armies < 2:
        return RuleError(Code.NOT_ENOUGH_ARMIES, f"{order.source} has 1 army: an attack needs at least 2")
    dice = order.dice if isinstance(order, orders.Attack) else most_attack_dice(armies)
    if not _number(dice) or not 1 <= dice <= most_attack_dice(armies):
        return RuleError(
            Code.BAD_DICE,
            f"with {plural(armies, 'army', 'armies')} in {order.source} you may "
            f"roll 1 to {most_attack_dice(armies)} dice",
        )
    return None


def _check_fortify(game: Game[ClassicBoard, Any], player: str, order: orders.Fortify) -> RuleError | None:
    board, game_map, options = game.board, game.game_map, game.options
    problem = _own(game, player, order.source, "armies move from your own countries") or _own(
        game, player, order.target, "armies move to your own countries"
    )
    if problem is not None:
        return problem
    if order.source == order.target:
        return RuleError(Code.SAME_COUNTRY, "armies move between two different countries")
    adjacent_only = options.fortify is FortifyRule.ADJACENT
    if order.target not in geography.fortify_targets(game_map, board.owner, order.source, adjacent_only):
        if adjacent_only:
            return RuleError(
                Code.NOT_ADJACENT,
                f"{order.target} is not next to {order.source} (this game fortifies only between neighbours)",
            )
        return RuleError(Code.NO_PATH, f"no path of your own countries joins {order.source} to {order.target}")
    return count_problem(
        order.armies, 1, board.armies[order.source] - 1, f"the armies leaving {order.source} (one stays behind)"
    )
