"""Carrying out one grid action (checked already) with fresh dice, and what follows by itself: the next player in
the deployment stage, the next step of a turn, the next turn, eliminations and victory."""

from __future__ import annotations

from typing import Any

from shared.game.game import Game
from shared.game.random import GameRandom
from shared.rulesets.grid import events
from shared.rulesets.grid.board import Conquest, GridBoard, Phase
from shared.rulesets.grid.dice import defending, roll
from shared.rulesets.grid.options import GridOptions
from shared.rulesets.grid.orders import Attack, Deploy, End, GridOrder, Move, MoveIn
from shared.rulesets.turn_by_turn.play import TurnPlay

MOST_NEW_TROOPS = 3


def new_troops(territories: int) -> int:
    """G3: min(floor(t / 2), 3)."""
    return min(territories // 2, MOST_NEW_TROOPS)


class Play(TurnPlay):
    """One grid action under way: working copies of the board's changing parts, and the events told so far."""

    board: GridBoard
    finished = Phase.FINISHED

    def __init__(self, game: Game[GridBoard, Any], rng: GameRandom) -> None:
        super().__init__(game, rng)
        board = self.board
        self.options: GridOptions = game.options
        self.troops = dict(board.troops)
        self.deployed = dict(board.deployed)
        self.new_troops = board.new_troops

    def finish(self) -> GridBoard:
        return self.board.evolve(
            phase=self.phase,
            turn=self.turn,
            active=self.active,
            owner=self.owner,
            troops=self.troops,
            deployed=self.deployed,
            new_troops=self.new_troops,
            conquest=self.conquest,
            eliminated=tuple(self.eliminated),
            winner=self.winner,
        )

    def count(self, player: str) -> int:
        return sum(1 for held in self.owner.values() if held == player)

    def act(self, player: str, order: GridOrder) -> None:
        if isinstance(order, Deploy) and self.phase is Phase.DEPLOYMENT:
            self.troops[order.cell] += 1
            self.deployed[player] += 1
            self.events.append(events.TroopDeployed(player, order.cell, self.deployed[player]))
            self.next_deployer(player)
        elif isinstance(order, Deploy):
            self.troops[order.cell] += self.new_troops
            self.events.append(events.NewTroopsDeployed(player, order.cell, self.new_troops))
            self.new_troops = 0
            self.enter_attack(player)
        elif isinstance(order, Attack):
            self.attack(player, order)
        elif isinstance(order, MoveIn):
            conquest = self.conquest
            assert conquest is not None
            self.move_in(player, conquest, order.troops, automatic=False)
        elif isinstance(order, Move):
            self.troops[order.source] -= order.troops
            self.troops[order.target] += order.troops
            self.events.append(events.TroopsMoved(player, order.source, order.target, order.troops))
            self.end_turn(player)
        elif isinstance(order, End):
            self.events.append(events.TurnEnded(player))
            self.end_turn(player)

    def next_deployer(self, player: str) -> None:
        """G2: the next player, in turn, who has troops left to deploy; once nobody has, A's first turn."""
        total = self.options.troops
        following = self.next_seat(player, lambda p: self.deployed.get(p, total) < total)
        if following is not None:
            self.active = following
        else:
            self.start_turn(next(p for p in self.seats if p not in self.eliminated), 1)

    def start_turn(self, player: str, turn: int) -> None:
        held = self.count(player)
        self.phase, self.turn, self.active = Phase.NEW_TROOPS, turn, player
        self.new_troops = new_troops(held)
        self.conquest = None
        self.events.append(events.TurnStarted(turn, player, self.new_troops, held))
        if self.new_troops == 0:
            self.enter_attack(player)

    def can_act(self, player: str) -> bool:
        """Is any attack or any move possible? (Otherwise the turn ends by itself.)"""
        # Every cell has a neighbour: one with 2 troops or more can attack it (an enemy's) or move to it (one's own).
        return any(self.owner[n] == player and self.troops[n] >= 2 for n in self.game_map.names)

    def enter_attack(self, player: str) -> None:
        self.phase = Phase.ATTACK
        if not self.can_act(player):
            self.events.append(events.TurnEnded(player, automatic=True))
            self.end_turn(player)

    def end_turn(self, player: str) -> None:
        """G3: the next player still in, in turn (G6: the order of the others unchanged)."""
        self.pass_turn(player)

    def attack(self, player: str, order: Attack) -> None:
        defender = self.owner[order.target]
        attack, defence, attacker_losses, defender_losses = roll(
            self.rng, order.troops, defending(self.troops[order.target])
        )
        self.troops[order.source] -= attacker_losses
        self.troops[order.target] -= defender_losses
        self.events.append(
            events.Battle(
                player,
                order.source,
                order.target,
                defender,
                attack,
                defence,
                attacker_losses,
                defender_losses,
                self.troops[order.source],
                self.troops[order.target],
            )
        )
        if self.troops[order.target] > 0:
            if not self.can_act(player):
                self.events.append(events.TurnEnded(player, automatic=True))
                self.end_turn(player)
            return
        # G4: the territory is emptied; the attacker moves p in, m <= p < s.
        self.owner[order.target] = player
        conquest = Conquest(order.source, order.target, order.troops, self.troops[order.source] - 1)
        self.events.append(
            events.CellTaken(player, order.source, order.target, defender, conquest.least, conquest.most)
        )
        if self.count(defender) == 0 and defender not in self.eliminated:  # one who resigned is out already
            self.eliminated.append(defender)
            self.events.append(events.PlayerEliminated(defender, player))
        if self.count(player) == len(self.game_map.names) or self.alone(player):
            self.phase = Phase.FINISHED
            self.move_in(player, conquest, conquest.least, automatic=True)
            self.winner = player
            self.events.append(events.GameWon(player))
        elif conquest.least == conquest.most:
            self.move_in(player, conquest, conquest.least, automatic=True)
        else:
            self.phase = Phase.MOVE_IN
            self.conquest = conquest

    def alone(self, player: str) -> bool:
        """Is `player` the last one left in? They win then, whatever cells those who resigned still hold."""
        return all(p == player or p in self.eliminated for p in self.seats)

    def resign(self, player: str) -> None:
        """A player gives up: out at once, their cells stay theirs with their troops but they never act again (the
        others take them as any player's); the last player left in wins."""
        self.eliminated.append(player)
        self.deployed[player] = self.options.troops  # nothing more to deploy: the deployment stage passes them by
        alive = [p for p in self.seats if p not in self.eliminated]
        if len(alive) == 1:
            self.phase, self.winner, self.conquest = Phase.FINISHED, alive[0], None
            self.events.append(events.GameWon(alive[0]))
        elif self.active == player:
            if self.phase is Phase.DEPLOYMENT:
                self.next_deployer(player)
            else:
                self.conquest = None
                self.end_turn(player)

    def move_in(self, player: str, conquest: Conquest, troops: int, automatic: bool) -> None:
        self.troops[conquest.source] -= troops
        self.troops[conquest.target] += troops
        self.events.append(events.TroopsMovedIn(player, conquest.source, conquest.target, troops, automatic))
        self.conquest = None
        if self.phase is not Phase.FINISHED:
            self.enter_attack(player)
