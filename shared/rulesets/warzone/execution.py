"""W5-W14: one turn executed, order by order, and the end of the turn.

W5: negotiations take effect first; then every deploy (and every reinforcement card, so that the deploys issued after
one can use its units); then every other order. Within each stage the players go round-robin, one order of each per
pass, each player's orders in the order they issued them; the player order of the passes is drawn once a turn by
the game's seeded generator and told to everyone (`TurnOrderDrawn`).

W6: each order is checked again when its time comes, against the board as it then stands. An order that no longer
holds is skipped with the reason and changes nothing at all (a card it would play stays in the hand); an advance or
an airlift whose source holds fewer units than ordered sends what is left.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from shared.game.errors import RuleError
from shared.game.events import turn_limit_reached
from shared.game.game import Game
from shared.game.random import GameRandom
from shared.game.ruleset import Private, Told
from shared.maps.model import GameMap
from shared.rulesets.warzone.battle import volley
from shared.rulesets.warzone.board import Phase, WarzoneBoard
from shared.rulesets.warzone.cards import REINFORCEMENT_UNITS, Card
from shared.rulesets.warzone.checker import Code
from shared.rulesets.warzone.continents import reinforcement
from shared.rulesets.warzone.events import (
    Battle,
    Blockaded,
    Bombed,
    CardDrawn,
    CardReceived,
    CheatConquered,
    DeckEmpty,
    Deployed,
    GameDrawn,
    GameWon,
    Moved,
    PlayerEliminated,
    PlayerTurnStats,
    ReinforcementCardPlayed,
    ReinforcementsReceived,
    Skipped,
    TruceMade,
    TurnOrderDrawn,
    TurnStarted,
    TurnStats,
)
from shared.rulesets.warzone.options import WarzoneOptions
from shared.rulesets.warzone.orders import (
    AdvanceOrder,
    AirliftOrder,
    AnyOrder,
    BlockadeOrder,
    BombOrder,
    CheatOrder,
    DeployOrder,
    NegotiateOrder,
    ReinforceOrder,
    card_of,
)

T = TypeVar("T")


def round_robin(players: Sequence[str], batches: Mapping[str, Sequence[T]]) -> Iterator[tuple[str, T]]:
    """W5: one order of each player per pass, in `players`' order, each player's in the order issued."""
    queues = {p: deque(batches.get(p, ())) for p in players}
    while any(queues.values()):
        for player in players:
            if queues[player]:
                yield player, queues[player].popleft()


def stage_of(order: AnyOrder) -> int:
    """W5: 0 negotiations, 1 deploys and reinforcement cards, 2 everything else."""
    if isinstance(order, NegotiateOrder):
        return 0
    if isinstance(order, DeployOrder | ReinforceOrder):
        return 1
    return 2


@dataclass
class TurnInProgress:
    """The board while one turn executes: copies, changed order by order."""

    game_map: GameMap
    options: WarzoneOptions
    owner: dict[str, str | None]
    units: dict[str, int]
    pools: dict[str, int]
    hands: dict[str, list[Card]]
    deck: list[Card]
    rng: GameRandom
    truces: set[frozenset[str]] = field(default_factory=set)
    conquests: Counter[str] = field(default_factory=Counter)
    losses: Counter[str] = field(default_factory=Counter)
    cards_played: Counter[str] = field(default_factory=Counter)
    events: list[Told] = field(default_factory=list)

    @classmethod
    def start(cls, game: Game[WarzoneBoard, Any], rng: GameRandom) -> TurnInProgress:
        board = game.board
        return cls(
            game.game_map,
            game.options,
            dict(board.owner),
            dict(board.units),
            dict(board.pools),
            {p: list(h) for p, h in board.hands.items()},
            list(board.deck),
            rng,
        )

    # ---- what the board says now ----------------------------------------------------------------------------------

    def in_truce(self, player: str, other: str | None) -> bool:
        return other is not None and frozenset((player, other)) in self.truces

    def borders_own(self, player: str, target: str) -> bool:
        game_map = self.game_map
        return any(self.owner[s] == player for s in game_map.names if target in game_map.neighbours(s))

    # ---- each order ------------------------------------------------------------------------------------------------

    def execute(self, player: str, order: AnyOrder) -> None:
        """Carry out one order, or skip it with the reason (W6)."""
        card = card_of(order)
        problem = None
        if card is not None and card not in self.hands.get(player, []):
            problem = RuleError(Code.CARD_NOT_HELD, f"{player} holds no {card.value} card")
        problem = problem or self._run(player, order)
        if problem is not None:
            self.events.append(Skipped(player, order, problem.code, problem.message))
            return
        if card is not None:  # W13: a played card goes back into the deck
            self.hands[player].remove(card)
            self.deck.append(card)
            self.cards_played[player] += 1

    def _run(self, player: str, order: AnyOrder) -> RuleError | None:
        if isinstance(order, NegotiateOrder):
            self.truces.add(frozenset((player, order.player)))
            self.events.append(TruceMade(player, order.player))
            return None
        if isinstance(order, DeployOrder):
            return self._deploy(player, order)
        if isinstance(order, ReinforceOrder):
            self.pools[player] = self.pools.get(player, 0) + REINFORCEMENT_UNITS
            self.events.append(ReinforcementCardPlayed(player, REINFORCEMENT_UNITS))
            return None
        if isinstance(order, AdvanceOrder):
            return self._advance(player, order)
        if isinstance(order, AirliftOrder):
            return self._airlift(player, order)
        if isinstance(order, BombOrder):
            return self._bomb(player, order)
        if isinstance(order, BlockadeOrder):
            return self._blockade(player, order)
        if isinstance(order, CheatOrder):
            return self._cheat(player)
        return RuleError(Code.NOT_YOUR_TERRITORY, f"unknown order {order!r}")

    def _no_longer_yours(self, player: str, territory: str) -> RuleError | None:
        if self.owner[territory] != player:
            holder = self.owner[territory] or "the neutral owner"
            return RuleError(Code.NOT_YOUR_TERRITORY, f"{territory} is no longer {player}'s (held by {holder})")
        return None

    def _deploy(self, player: str, order: DeployOrder) -> RuleError | None:
        problem = self._no_longer_yours(player, order.territory)
        if problem is not None:
            return problem
        pool = self.pools.get(player, 0)
        if order.units > pool:
            return RuleError(Code.POOL_EXCEEDED, f"{player}'s pool holds {pool}, the deploy asks for {order.units}")
        self.pools[player] = pool - order.units
        self.units[order.territory] += order.units
        self.events.append(Deployed(player, order.territory, order.units))
        return None

    def _sending(self, player: str, source: str, ordered: int) -> int | RuleError:
        """W6: the units an advance or an airlift sends: what was ordered, or what is left."""
        problem = self._no_longer_yours(player, source)
        if problem is not None:
            return problem
        if self.units[source] <= 0:
            return RuleError(Code.NOTHING_LEFT, f"{source} has no units left to send")
        return min(ordered, self.units[source])

    def _advance(self, player: str, order: AdvanceOrder) -> RuleError | None:
        sending = self._sending(player, order.source, order.units)
        if isinstance(sending, RuleError):
            return sending
        defender = self.owner[order.target]
        if defender == player:  # W7: a transfer, also into a territory conquered earlier this turn
            self.units[order.source] -= sending
            self.units[order.target] += sending
            self.events.append(Moved(player, sending, order.source, order.target, order.units))
            return None
        if self.in_truce(player, defender):
            return RuleError(Code.TRUCE, f"{player} and {defender} are in a truce this turn")
        self._battle(player, order, sending, defender)
        return None

    def _battle(self, player: str, order: AdvanceOrder, attacking: int, defender: str | None) -> None:
        """W7: one volley each way; survivors move in if no defender is left, or go back to the source."""
        target = order.target
        defending = self.units[target]
        attacker_losses, defender_losses = volley(attacking, defending, self.rng)
        attackers_left, defenders_left = attacking - attacker_losses, defending - defender_losses
        self.units[order.source] -= attacking
        if defenders_left == 0 and attackers_left > 0:
            self.owner[target] = player
            self.units[target] = attackers_left
            self.conquests[player] += 1
        else:
            self.units[order.source] += attackers_left
            self.units[target] = defenders_left
        self.losses[player] += attacker_losses
        if defender is not None:
            self.losses[defender] += defender_losses
        self.events.append(
            Battle(
                player,
                order.source,
                target,
                defender,
                attacking,
                defending,
                attacker_losses,
                defender_losses,
                self.owner[target],
                self.units[target],
                order.units,
            )
        )

    def _airlift(self, player: str, order: AirliftOrder) -> RuleError | None:
        sending = self._sending(player, order.source, order.units)
        if isinstance(sending, RuleError):
            return sending
        problem = self._no_longer_yours(player, order.target)
        if problem is not None:
            return problem
        self.units[order.source] -= sending
        self.units[order.target] += sending
        self.events.append(Moved(player, sending, order.source, order.target, order.units, airlift=True))
        return None

    def _bomb(self, player: str, order: BombOrder) -> RuleError | None:
        target = order.target
        owner = self.owner[target]
        if owner == player:
            return RuleError(Code.OWN_TERRITORY, f"{target} is {player}'s own now")
        if self.in_truce(player, owner):
            return RuleError(Code.TRUCE, f"{player} and {owner} are in a truce this turn")
        if not self.borders_own(player, target):
            return RuleError(Code.NOT_ADJACENT, f"{target} is no longer adjacent to any of {player}'s territories")
        before = self.units[target]
        self.units[target] = before // 2
        if owner is not None:
            self.losses[owner] += before - before // 2
        self.events.append(Bombed(player, target, owner, before, before // 2))
        return None

    def _blockade(self, player: str, order: BlockadeOrder) -> RuleError | None:
        problem = self._no_longer_yours(player, order.territory)
        if problem is not None:
            return problem
        before = self.units[order.territory]
        self.units[order.territory] = before * self.options.blockade_multiplier
        self.owner[order.territory] = None
        self.events.append(Blockaded(player, order.territory, before, self.units[order.territory]))
        return None

    def _cheat(self, player: str) -> RuleError | None:
        """W15: every territory next to one of the cheater's (as they stand now) changes hands with its units.
        Truces hold even for the cheater: its one rule break is to conquer without a battle."""
        if not self.options.allow_cheaters:
            return RuleError(Code.CHEATING_NOT_ALLOWED, "this game does not allow cheaters")
        game_map = self.game_map
        own = [t for t in game_map.names if self.owner[t] == player]
        taken: list[str] = []
        for target in game_map.names:
            holder = self.owner[target]
            if holder == player or self.in_truce(player, holder):
                continue
            if any(target in game_map.neighbours(s) for s in own):
                taken.append(target)
        for target in taken:
            holder = self.owner[target]
            if holder is not None:
                self.losses[holder] += self.units[target]
            self.owner[target] = player
            self.conquests[player] += 1
        self.events.append(CheatConquered(player, tuple(taken)))
        return None

    # ---- the end of the turn ---------------------------------------------------------------------------------------

    def held(self, player: str) -> int:
        return sum(1 for t in self.owner.values() if t == player)


def resolve_turn(
    game: Game[WarzoneBoard, Any], orders: Mapping[str, Sequence[AnyOrder]], rng: GameRandom
) -> tuple[WarzoneBoard, list[Told]]:
    board = game.board
    alive = board.alive(game.players)
    play_order = list(alive)
    rng.shuffle(play_order)
    turn = TurnInProgress.start(game, rng)
    turn.events.append(TurnOrderDrawn(board.turn, tuple(play_order)))
    for stage in (0, 1, 2):
        batches = {p: [o for o in orders.get(p, ()) if stage_of(o) == stage] for p in alive}
        for player, order in round_robin(play_order, batches):
            turn.execute(player, order)
    return end_of_turn(game, turn, alive, play_order)


def end_of_turn(
    game: Game[WarzoneBoard, Any], turn: TurnInProgress, alive: list[str], play_order: list[str]
) -> tuple[WarzoneBoard, list[Told]]:
    """W13, W14, W3: eliminations, cards for conquerors, the turn's statistics, then a winner, a draw or the next
    turn's reinforcements."""
    board, events = game.board, turn.events
    out = [p for p in alive if turn.held(p) == 0]
    for player in out:  # W14: cards go back to the deck
        returned = turn.hands.get(player, [])
        turn.deck.extend(returned)
        turn.hands[player] = []
        turn.pools[player] = 0
        events.append(PlayerEliminated(player, len(returned)))
    still = [p for p in alive if p not in out]
    for player in play_order:  # W13: one card a turn for a player who conquered, while the deck lasts
        if player not in still or not turn.conquests[player]:
            continue
        if not turn.deck:
            events.append(DeckEmpty(player))
            continue
        card = turn.deck.pop(0)
        turn.hands[player].append(card)
        events.append(Private(CardDrawn(player, card), frozenset({player})))
        events.append(CardReceived(player))
    stats = TurnStats(
        board.turn,
        {
            p: PlayerTurnStats(
                turn.held(p),
                sum(u for t, u in turn.units.items() if turn.owner[t] == p),
                turn.conquests[p],
                turn.losses[p],
                turn.cards_played[p],
            )
            for p in game.players
        },
    )
    events.append(stats)
    history = (*board.history, stats)
    eliminated = board.eliminated + tuple(out)
    common: dict[str, Any] = dict(
        owner=turn.owner,
        units=turn.units,
        hands={p: tuple(h) for p, h in turn.hands.items()},
        deck=tuple(turn.deck),
        eliminated=eliminated,
        history=history,
    )
    options: WarzoneOptions = game.options
    if len(still) == 1:
        events.append(GameWon(still[0], board.turn, history))
        return board.evolve(phase=Phase.FINISHED, winner=still[0], pools=turn.pools, **common), events
    if not still or board.turn >= options.max_turns:
        reason = "the last players went out together" if not still else turn_limit_reached(board.turn)
        events.append(GameDrawn(board.turn, reason, history))
        return board.evolve(phase=Phase.FINISHED, winner=None, pools=turn.pools, **common), events
    pools = dict(turn.pools)
    for player in still:  # W3, W12: players only; a pool not deployed carries over
        units, base, whole = reinforcement(game.game_map, turn.owner, player)
        pools[player] = pools.get(player, 0) + units
        events.append(ReinforcementsReceived(player, units, base, whole, pools[player]))
    events.append(TurnStarted(board.turn + 1))
    return board.evolve(turn=board.turn + 1, pools=pools, **common), events
