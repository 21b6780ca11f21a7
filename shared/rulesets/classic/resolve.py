"""Carrying out one action of the active player (checked already), with fresh dice, and what follows from it by
itself: the next phase when nothing is left to do in this one, the card at the end of a turn, the next player's turn,
eliminations and victory.

A `Play` holds working copies of what an action changes and the events it tells; `finish` makes the new board.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from shared.game.game import Game
from shared.game.random import GameRandom
from shared.game.ruleset import Private
from shared.maps.model import GameMap
from shared.rulesets.classic import events, geography, orders
from shared.rulesets.classic.board import ClassicBoard, Conquest, Phase
from shared.rulesets.classic.cards import trade_value
from shared.rulesets.classic.dice import defence_dice, most_attack_dice, roll
from shared.rulesets.classic.missions import effective, fulfilled
from shared.rulesets.classic.options import ClassicOptions, Mode
from shared.rulesets.turn_by_turn.play import TurnPlay

LEAST_REINFORCEMENT = 3
COUNTRIES_PER_ARMY = 3


def reinforcement(game_map: GameMap, owner: Mapping[str, str], player: str) -> tuple[int, int, list[tuple[str, int]]]:
    """C3: (total, from countries, [(continent, bonus)]): floor(countries / 3) but at least 3, plus every continent
    the player owns entirely."""
    own = sum(1 for held in owner.values() if held == player)
    from_countries = max(LEAST_REINFORCEMENT, own // COUNTRIES_PER_ARMY)
    continents = []
    members = game_map.continent_members()
    for continent in game_map.continents:
        names = members.get(continent.name, [])
        if names and all(owner[n] == player for n in names):
            continents.append((continent.name, continent.bonus))
    return from_countries + sum(b for _, b in continents), from_countries, continents


class Play(TurnPlay):
    """One action under way: working copies of the board's changing parts, and the events told so far."""

    board: ClassicBoard
    finished = Phase.FINISHED

    def __init__(self, game: Game[ClassicBoard, Any], rng: GameRandom) -> None:
        super().__init__(game, rng)
        board = self.board
        self.options: ClassicOptions = game.options
        self.armies = dict(board.armies)
        self.unplaced = dict(board.unplaced)
        self.reinforcements = board.reinforcements
        self.hands = {p: list(h) for p, h in board.hands.items()}
        self.deck = list(board.deck)
        self.discard = list(board.discard)
        self.trades = board.trades
        self.trading_closed = board.trading_closed
        self.conquered = board.conquered
        self.capitals = dict(board.capitals)
        self.eliminated_by = dict(board.eliminated_by)

    def seat_order(self, game: Game[Any, Any]) -> tuple[str, ...]:
        """C1: the seat order drawn at setup."""
        seats: tuple[str, ...] = game.board.seats
        return seats

    def finish(self) -> ClassicBoard:
        return self.board.evolve(
            phase=self.phase,
            turn=self.turn,
            active=self.active,
            owner=self.owner,
            armies=self.armies,
            unplaced=self.unplaced,
            reinforcements=self.reinforcements,
            hands={p: tuple(h) for p, h in self.hands.items()},
            deck=tuple(self.deck),
            discard=tuple(self.discard),
            trades=self.trades,
            trading_closed=self.trading_closed,
            conquered=self.conquered,
            conquest=self.conquest,
            capitals=self.capitals,
            eliminated=tuple(self.eliminated),
            eliminated_by=self.eliminated_by,
            winner=self.winner,
        )

    # ---- helpers -----------------------------------------------------------------------------------------------

    @property
    def alive(self) -> list[str]:
        return [p for p in self.seats if p not in self.eliminated]

    # ---- the actions -------------------------------------------------------------------------------------------

    def act(self, player: str, order: orders.ClassicOrder) -> None:
        if isinstance(order, orders.PlaceArmy):
            self.armies[order.country] += 1
            self.unplaced[player] -= 1
            self.events.append(events.ArmyPlaced(player, order.country))
            self.next_placer(player)
        elif isinstance(order, orders.PlaceAll):
            own = self.own(player)
            placed: Counter[str] = Counter(self.rng.choice(own) for _ in range(self.unplaced.get(player, 0)))
            for name, n in placed.items():
                self.armies[name] += n
            self.unplaced[player] = 0
            self.events.append(events.ArmiesPlaced(player, tuple((n, placed[n]) for n in own if placed[n])))
            self.next_placer(player)
        elif isinstance(order, orders.ChooseCapital):
            self.capitals[player] = order.country
            self.events.append(events.CapitalChosen(player, order.country))
            chooser = self.next_seat(player, lambda p: p not in self.capitals)
            if chooser is None:
                self.start_turn(self.alive[0], 1)
            else:
                self.active = chooser
        elif isinstance(order, orders.ExchangeCards):
            self.exchange(player, order.positions)
        elif isinstance(order, orders.KeepCards):
            self.trading_closed = True
            self.events.append(events.CardsKept(player))
        elif isinstance(order, orders.Reinforce):
            self.armies[order.country] += order.armies
            self.reinforcements -= order.armies
            self.events.append(events.Reinforced(player, order.country, order.armies, self.reinforcements))
            if not self.check_victory(player) and self.reinforcements == 0:
                self.enter_attack(player)
        elif isinstance(order, orders.Attack):
            self.roll(player, order.source, order.target, order.dice)
            self.after_attack(player, order.source, order.target, order.dice)
        elif isinstance(order, orders.AllOut | orders.AttackUntil):
            remain = order.remain if isinstance(order, orders.AttackUntil) else 1
            dice = 0
            while self.armies[order.target] > 0 and self.armies[order.source] > remain:
                dice = most_attack_dice(self.armies[order.source])
                self.roll(player, order.source, order.target, dice)
            self.after_attack(player, order.source, order.target, dice)
        elif isinstance(order, orders.AttackMove):
            conquest = self.conquest
            assert conquest is not None
            self.move_in(player, conquest, order.armies, automatic=False)
        elif isinstance(order, orders.NoAttack):
            self.events.append(events.AttacksEnded(player))
            self.enter_fortification(player)
        elif isinstance(order, orders.Fortify):
            self.armies[order.source] -= order.armies
            self.armies[order.target] += order.armies
            self.events.append(events.Fortified(player, order.source, order.target, order.armies))
            if not self.check_victory(player):
                self.end_turn(player)
        elif isinstance(order, orders.NoFortify):
            self.events.append(events.FortificationSkipped(player))
            self.end_turn(player)
        elif isinstance(order, orders.Cheat):
            self.cheat(player)

    # ---- startup -----------------------------------------------------------------------------------------------

    def next_placer(self, player: str) -> None:
        """C1: the next seat with armies left to place; once nobody has any, capitals (C11) or the first turn."""
        placer = self.next_seat(player, lambda p: self.unplaced.get(p, 0) > 0)
        if placer is not None:
            self.active = placer
        elif self.options.mode is Mode.CAPITAL:
            self.phase = Phase.CAPITAL
            self.active = next(p for p in self.board.seats if p not in self.capitals)  # one who resigned chose
        else:
            self.start_turn(self.alive[0], 1)

    # ---- a turn ------------------------------------------------------------------------------------------------

    def start_turn(self, player: str, turn: int) -> None:
        total, from_countries, continents = reinforcement(self.game_map, self.owner, player)
        self.phase, self.turn, self.active = Phase.REINFORCEMENT, turn, player
        self.reinforcements = total
        self.trading_closed = False
        self.conquered = False
        self.conquest = None
        self.events.append(events.TurnStarted(turn, player, total, from_countries, tuple(continents)))
        self.check_victory(player)

    def exchange(self, player: str, positions: tuple[int, ...]) -> None:
        hand = self.hands.setdefault(player, [])
        cards = tuple(hand[p - 1] for p in positions)
        armies = trade_value(self.options.card_schedule, self.trades, cards)
        for index in sorted((p - 1 for p in positions), reverse=True):
            del hand[index]
        self.discard.extend(cards)
        self.trades += 1
        self.reinforcements += armies
        self.events.append(events.CardsTraded(player, cards, armies))

    def enter_attack(self, player: str) -> None:
        self.phase = Phase.ATTACK
        if not geography.can_attack(self.game_map, self.owner, self.armies, player):
            self.events.append(events.AttacksEnded(player, automatic=True))
            self.enter_fortification(player)

    def enter_fortification(self, player: str) -> None:
        self.phase = Phase.FORTIFICATION
        if not geography.can_fortify(self.game_map, self.owner, self.armies, player):
            self.events.append(events.FortificationSkipped(player, automatic=True))
            self.end_turn(player)

    def end_turn(self, player: str) -> None:
        """C4: a card for a turn with a conquest; then the next player still in, in seat order (C2)."""
        if self.conquered:
            self.draw_card(player)
        self.pass_turn(player)

    def draw_card(self, player: str) -> None:
        if not self.deck and self.discard:
            self.deck = self.discard
            self.discard = []
            self.rng.shuffle(self.deck)
            self.events.append(events.DeckReshuffled(len(self.deck)))
        if not self.deck:
            return  # every card is in someone's hand
        card = self.deck.pop(0)
        hand = self.hands.setdefault(player, [])
        hand.append(card)
        self.events.append(events.CardDrawn(player, len(hand)))
        self.events.append(Private(events.CardReceived(player, card), frozenset({player})))

    # ---- attacks -----------------------------------------------------------------------------------------------

    def roll(self, player: str, source: str, target: str, dice: int) -> None:
        defender = self.owner[target]
        attack, defence, attacker_losses, defender_losses = roll(self.rng, dice, defence_dice(self.armies[target]))
        self.armies[source] -= attacker_losses
        self.armies[target] -= defender_losses
        self.events.append(
            events.DiceRolled(
                player,
                source,
                target,
                defender,
                attack,
                defence,
                attacker_losses,
                defender_losses,
                self.armies[source],
                self.armies[target],
            )
        )

    def after_attack(self, player: str, source: str, target: str, dice: int) -> None:
        if self.armies[target] == 0:
            self.conquer(player, source, target, dice)
        elif not geography.can_attack(self.game_map, self.owner, self.armies, player):
            self.events.append(events.AttacksEnded(player, automatic=True))
            self.enter_fortification(player)

    def conquer(self, player: str, source: str, target: str, dice: int) -> None:
        """C6: the country changes hands; its move-in waits for the attacker unless there is only one choice."""
        loser = self.owner[target]
        self.owner[target] = player
        self.conquered = True
        conquest = Conquest(source, target, dice, self.armies[source] - 1)
        self.events.append(events.CountryConquered(player, source, target, loser, conquest.least, conquest.most))
        self.eliminate_if_out(loser, player)
        if self.check_victory(player, conquest):
            return
        if conquest.least == conquest.most:
            self.move_in(player, conquest, conquest.least, automatic=True)
        else:
            self.phase = Phase.MOVE_IN
            self.conquest = conquest

    def move_in(self, player: str, conquest: Conquest, armies: int, automatic: bool) -> None:
        self.armies[conquest.source] -= armies
        self.armies[conquest.target] += armies
        self.events.append(events.ArmiesMovedIn(player, conquest.source, conquest.target, armies, automatic))
        self.conquest = None
        if self.phase is Phase.FINISHED:
            return
        self.phase = Phase.ATTACK
        if not self.check_victory(player):
            self.enter_attack(player)

    def eliminate_if_out(self, loser: str, by: str) -> None:
        """C8: a player with no country is out; C4: the conqueror takes their cards."""
        if any(held == loser for held in self.owner.values()) or loser in self.eliminated:
            return  # still in, or out already (having resigned)
        self.eliminated.append(loser)
        self.eliminated_by[loser] = by
        cards = self.hands.pop(loser, [])
        self.hands.setdefault(by, []).extend(cards)
        self.events.append(events.PlayerEliminated(loser, by))
        if cards:
            self.events.append(events.CardsCaptured(by, loser, len(cards)))
            self.events.append(Private(events.CardsHandedOver(by, loser, tuple(cards)), frozenset({by, loser})))
        missions = self.board.missions
        for holder, mission in missions.items():
            if holder in self.eliminated or mission.player != loser or by == holder:
                continue
            self.events.append(
                Private(
                    events.MissionChanged(holder, effective(mission, holder, self.eliminated_by)), frozenset({holder})
                )
            )

    def resign(self, player: str) -> None:
        """A player gives up: out at once. Their countries stay theirs with their armies, and they never act again
        (the others take them as any player's); what they still had to place goes on at random and, in capital
        Risk, their strongest country is their capital, so that the others' startup goes on as the rules say. Their
        cards go to the discard pile. The last player left in wins."""
        own = self.own(player)
        if self.unplaced.get(player, 0) and own:
            placed: Counter[str] = Counter(self.rng.choice(own) for _ in range(self.unplaced[player]))
            for name, n in placed.items():
                self.armies[name] += n
            self.events.append(events.ArmiesPlaced(player, tuple((n, placed[n]) for n in own if placed[n])))
        self.unplaced[player] = 0
        if self.options.mode is Mode.CAPITAL and player not in self.capitals and own:
            self.capitals[player] = max(own, key=lambda n: self.armies[n])
            self.events.append(events.CapitalChosen(player, self.capitals[player]))
        self.eliminated.append(player)
        self.eliminated_by[player] = player
        self.discard.extend(self.hands.pop(player, []))
        for holder, mission in self.board.missions.items():
            if holder not in self.eliminated and mission.player == player:
                self.events.append(
                    Private(
                        events.MissionChanged(holder, effective(mission, holder, self.eliminated_by)),
                        frozenset({holder}),
                    )
                )
        alive = self.alive
        if len(alive) == 1:
            self.phase, self.winner, self.conquest = Phase.FINISHED, alive[0], None
            self.events.append(events.GameWon(alive[0], "last player"))
        elif self.active == player:
            if self.phase is Phase.STARTUP:
                self.next_placer(player)
            elif self.phase is Phase.CAPITAL:
                chooser = self.next_seat(player, lambda p: p not in self.capitals)
                if chooser is None:
                    self.start_turn(alive[0], 1)
                else:
                    self.active = chooser
            else:
                self.conquest, self.conquered = None, False
                self.end_turn(player)

    # ---- victory -----------------------------------------------------------------------------------------------

    def check_victory(self, player: str, conquest: Conquest | None = None) -> bool:
        """C8, C11: has `player` won? If so, the game ends here (a pending move-in moves the least it may)."""
        how = self.victory(player)
        if how is None:
            return False
        if conquest is not None:
            self.phase = Phase.FINISHED
            self.move_in(player, conquest, conquest.least, automatic=True)
        self.phase = Phase.FINISHED
        self.conquest = None
        self.winner = player
        self.events.append(events.GameWon(player, how))
        return True

    def victory(self, player: str) -> str | None:
        if self.alive == [player]:
            return "domination"
        mode = self.options.mode
        if (
            mode is Mode.CAPITAL
            and len(self.capitals) == len(self.board.seats)
            and all(self.owner[c] == player for c in self.capitals.values())
        ):
            return "capital"
        if mode is Mode.MISSION and player in self.board.missions:
            mission = self.board.missions[player]
            if fulfilled(mission, player, self.game_map, self.owner, self.armies, self.eliminated_by):
                return f"mission: {effective(mission, player, self.eliminated_by)}"
        return None

    # ---- the cheater (C10) -------------------------------------------------------------------------------------

    def cheat(self, player: str) -> None:
        if self.phase is Phase.REINFORCEMENT:
            own = self.own(player)
            for name in own:
                self.armies[name] *= 2
            self.reinforcements = 0
            self.events.append(events.Cheated(player, Phase.REINFORCEMENT.value, tuple(own)))
            if not self.check_victory(player):
                self.enter_attack(player)
        elif self.phase is Phase.ATTACK:
            reached = {n for c in self.own(player) for n in self.game_map.neighbours(c) if self.owner[n] != player}
            taken = [name for name in self.game_map.names if name in reached]
            losers = {self.owner[name] for name in taken}
            for name in taken:
                self.owner[name] = player
            self.conquered = self.conquered or bool(taken)
            self.events.append(events.Cheated(player, Phase.ATTACK.value, tuple(taken)))
            for loser in sorted(losers, key=self.board.seats.index):
                self.eliminate_if_out(loser, player)
            if not self.check_victory(player):
                self.events.append(events.AttacksEnded(player))
                self.enter_fortification(player)
        else:
            doubled = geography.borders(self.game_map, self.owner, player)
            for name in doubled:
                self.armies[name] *= 2
            self.events.append(events.Cheated(player, Phase.FORTIFICATION.value, tuple(doubled)))
            if not self.check_victory(player):
                self.end_turn(player)
