"""Classic Risk (../shared/spec/classic.md C1-C12) on Domination and Conquest maps: one player acts at a time, and
each action is resolved at once with fresh dice (GameRandom(seed, step)), so everyone sees every roll as it falls.

The pieces: cards.py (C4's deck, sets, schedules), dice.py (C5's roll), missions.py (C11), checker.py (is an action
legal now), resolve.py (what it does, and what follows by itself), view.py (what each viewer sees),
presentation.py (the SOEN 6441 grammar, C12) and bots/ (C10).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, cast

from pydantic import TypeAdapter

from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.random import GameRandom
from shared.game.ruleset import Legal
from shared.game.shares import even_shares
from shared.game.statistics import TurnFacts
from shared.maps.model import GameMap
from shared.rulesets.classic import checker, geography, orders, statistics
from shared.rulesets.classic.board import ClassicBoard, Phase
from shared.rulesets.classic.bots import STRATEGIES
from shared.rulesets.classic.cards import MUST_TRADE_AT, best_set, make_deck, sets_in
from shared.rulesets.classic.dice import most_attack_dice
from shared.rulesets.classic.events import Event
from shared.rulesets.classic.missions import mission_deck
from shared.rulesets.classic.options import ClassicOptions, FortifyRule, Mode
from shared.rulesets.classic.presentation import ClassicPresentation
from shared.rulesets.classic.resolve import Play
from shared.rulesets.classic.view import VIEW, ClassicView, view
from shared.rulesets.turn_by_turn.rules import TurnByTurnRuleSet

ClassicGame = Game[ClassicBoard, orders.ClassicOrder]


class ClassicRuleSet(TurnByTurnRuleSet):
    name = "classic"
    title = "Classic Risk"
    blurb = "classic Risk on Domination maps: one player at a time, dice for every attack, cards, continents"
    options_type = ClassicOptions
    default_strategy = "strategist"
    play_type = Play
    presentation_type = ClassicPresentation
    strategies = STRATEGIES

    def __init__(self) -> None:
        self.order_type = TypeAdapter[orders.ClassicOrder](cast(Any, orders.Order))
        self.event_type = TypeAdapter[Any](cast(Any, Event))
        self.view_type = VIEW
        self.board_type = TypeAdapter(ClassicBoard)

    # ---- creating ------------------------------------------------------------------------------------------------

    def player_counts(self, options: ClassicOptions) -> tuple[int, int]:
        return 2, options.max_players

    def map_problem(self, game_map: GameMap, options: ClassicOptions, players: int) -> str | None:
        if len(game_map.names) < players:
            return (
                f"{game_map.name} has {len(game_map.names)} countries: too few to deal one to each of {players} players"
            )
        return None

    def setup(
        self,
        game_map: GameMap,
        players: Sequence[str],
        options: ClassicOptions,
        rng: GameRandom,
        choices: Mapping[str, int],
    ) -> ClassicBoard:
        """C1: seats drawn at random; countries dealt round-robin over a shuffled list, one army on each; the
        rest of each player's armies to place. C4: the deck shuffled. C11: missions dealt."""
        self.check_seats(game_map, players, options)
        seats = list(players)
        rng.shuffle(seats)
        countries = list(game_map.names)
        rng.shuffle(countries)
        owner = {name: seats[i % len(seats)] for i, name in enumerate(countries)}
        owner = {name: owner[name] for name in game_map.names}
        armies = dict.fromkeys(game_map.names, 1)
        start = options.starting_armies(len(seats))
        unplaced = {p: max(0, start - sum(1 for held in owner.values() if held == p)) for p in seats}
        deck = make_deck(game_map.names)
        rng.shuffle(deck)
        missions = {}
        if options.mode is Mode.MISSION:
            cards = mission_deck(game_map, seats)
            rng.shuffle(cards)
            missions = dict(zip(seats, cards, strict=False))
        board = ClassicBoard(
            phase=Phase.STARTUP,
            turn=0,
            seats=tuple(seats),
            active=seats[0],
            owner=owner,
            armies=armies,
            unplaced=unplaced,
            hands={p: () for p in seats},
            deck=tuple(deck),
            missions=missions,
        )
        if unplaced[seats[0]] > 0:
            return board
        # A map with more countries than starting armies: nothing to place, the game starts at once.
        play = Play(Game(self.name, game_map, tuple(players), options, board), rng)
        play.next_placer(seats[-1])
        return play.finish()

    # ---- acting --------------------------------------------------------------------------------------------------

    def check_order(self, game: ClassicGame, player: str, tally: None, order: orders.ClassicOrder) -> RuleError | None:
        return checker.check(game, player, order)

    def timeout_orders(self, game: ClassicGame, player: str, tally: None) -> list[orders.ClassicOrder]:
        """C9: the rest of an absent player's turn as the defaults: a forced trade if 5 cards or more are held,
        reinforcements spread over the countries next to an enemy, no attack (a pending move-in moves the least
        it may), no fortification. Startup: the rest of their armies placed at random (`placeall`), so one absent
        player does not hold the table up for every army; capital mode: their strongest country."""
        board, game_map, options = game.board, game.game_map, game.options
        phase = board.phase
        if phase is Phase.STARTUP:
            return [orders.PlaceAll()]
        if phase is Phase.CAPITAL:
            own = [n for n in game_map.names if board.owner[n] == player]
            return [orders.ChooseCapital(max(own, key=lambda n: board.armies[n]))]
        if phase is Phase.REINFORCEMENT:
            hand = board.hand(player)
            if len(hand) >= MUST_TRADE_AT:
                chosen = best_set(hand, options.card_schedule, board.trades)
                assert chosen is not None
                return [orders.ExchangeCards(chosen)]
            return list(spread_reinforcements(game, player))
        if phase is Phase.ATTACK:
            return [orders.NoAttack()]
        if phase is Phase.MOVE_IN:
            assert board.conquest is not None
            return [orders.AttackMove(board.conquest.least)]
        if phase is Phase.FORTIFICATION:
            return [orders.NoFortify()]
        return []

    # ---- telling -------------------------------------------------------------------------------------------------

    def holdings(self, game: ClassicGame) -> Mapping[str, tuple[str | None, int]]:
        return statistics.holdings(game)

    def turn_facts(self, events: Sequence[Any]) -> TurnFacts:
        return statistics.turn_facts(events)

    def final_standing(self, game: ClassicGame) -> Mapping[str, tuple[int, ...]]:
        """Countries, then armies; in capital Risk the capitals held come first (C11: holding them all wins)."""
        counted = super().final_standing(game)
        if game.options.mode is not Mode.CAPITAL:
            return counted
        capitals = Counter(game.board.owner[c] for c in game.board.capitals.values())
        return {p: (capitals[p], *counted.get(p, (0, 0))) for p in game.players}

    def view(self, game: ClassicGame, viewer: str | None) -> ClassicView:
        return view(game, viewer)

    def legal_orders(self, game: ClassicGame, player: str, tally: None) -> list[Legal[orders.ClassicOrder]]:
        return legal_orders(game, player)


def spread_reinforcements(game: ClassicGame, player: str) -> list[orders.Reinforce]:
    """C9: the armies left to place, spread evenly over the player's countries next to an enemy (map order first)."""
    board = game.board
    fronts = geography.borders(game.game_map, board.owner, player) or board.countries_of(player)
    return [orders.Reinforce(name, armies) for name, armies in even_shares(board.reinforcements, fronts)]


def legal_orders(game: ClassicGame, player: str) -> list[Legal[orders.ClassicOrder]]:
    """Every action the active player may take now, in map order (each with its count at the most)."""
    board, game_map, options = game.board, game.game_map, game.options
    phase = board.phase
    own = [n for n in game_map.names if board.owner[n] == player]
    legal: list[Legal[orders.ClassicOrder]] = []
    if phase is Phase.STARTUP:
        legal += [Legal(orders.PlaceArmy(n)) for n in own]
        legal.append(Legal(orders.PlaceAll()))
    elif phase is Phase.CAPITAL:
        legal += [Legal(orders.ChooseCapital(n)) for n in own]
    elif phase is Phase.REINFORCEMENT:
        hand = board.hand(player)
        if not board.trading_closed:
            sets = sets_in(hand)
            legal += [Legal(orders.ExchangeCards(s)) for s in sets]
            if sets and len(hand) < MUST_TRADE_AT:
                legal.append(Legal(orders.KeepCards()))
        if len(hand) < MUST_TRADE_AT:
            legal += [Legal(orders.Reinforce(n, board.reinforcements), "armies") for n in own]
    elif phase is Phase.ATTACK:
        for source, target in geography.attacks(game_map, board.owner, board.armies, player):
            legal.append(Legal(orders.Attack(source, target, most_attack_dice(board.armies[source])), "dice"))
            legal.append(Legal(orders.AllOut(source, target)))
            if board.armies[source] > 2:  # an all-out attack that stops with armies to spare
                legal.append(Legal(orders.AttackUntil(source, target, board.armies[source] - 1), "remain"))
        legal.append(Legal(orders.NoAttack()))
    elif phase is Phase.MOVE_IN:
        conquest = board.conquest
        assert conquest is not None
        legal.append(Legal(orders.AttackMove(conquest.most), "armies", conquest.least))
    elif phase is Phase.FORTIFICATION:
        adjacent = options.fortify is FortifyRule.ADJACENT
        for source in own:
            if board.armies[source] > 1:
                legal += [
                    Legal(orders.Fortify(source, target, board.armies[source] - 1), "armies")
                    for target in geography.fortify_targets(game_map, board.owner, source, adjacent)
                ]
        legal.append(Legal(orders.NoFortify()))
    if options.cheaters and phase in checker.CHEAT_PHASES:
        legal.append(Legal(orders.Cheat()))
    return legal
