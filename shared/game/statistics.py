"""A finished game's statistics, whatever its rule set: territories, units, income, battles won and lost, cards
played, and who put whom out (or resigned), turn by turn and in total.

They are worked out from the game played again (server/replays/replay.py): the board after each turn, and the turn's
events as the rule set reads them. A rule set says two things through the seam: who holds what on a board (`holdings`),
and what a turn's events amount to (`turn_facts`: its battles, income, cards and eliminations). Everything else is
counted here, once, for every client: the web page draws it, the text client prints it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from shared.protocol.statistics import Elimination, GameStatistics, PlayerTotals, PlayerTurn, TurnLine

if TYPE_CHECKING:
    from shared.game.game import Game
    from shared.game.ruleset import AnyRuleSet


@dataclass(frozen=True)
class Battle:
    """One attack on one territory, fought to its end: taken by the attacker, or held."""

    attacker: str
    defender: str | None
    """None: the territory was neutral."""
    taken: bool


@dataclass(frozen=True)
class TurnFacts:
    """What a rule set reads in the events of one turn."""

    battles: Sequence[Battle] = ()
    income: Mapping[str, int] = field(default_factory=dict)
    """Units each player received at the start of a turn (reinforcements; not cards traded in)."""
    cards_played: Mapping[str, int] = field(default_factory=dict)
    eliminated: Sequence[tuple[str, str | None]] = ()
    """Who went out, and who put them out where the events say (None: ask the board)."""


@dataclass(frozen=True)
class Roll:
    """One roll of the dice in a turn-by-turn game, and whether it took the territory."""

    attacker: str
    defender: str
    source: str
    target: str
    taken: bool = False


def battles_of_rolls(rolls: Sequence[Roll]) -> list[Battle]:
    """Battles from a turn-by-turn game's rolls of the dice, in order. A battle is the rolls of one attacker from one
    territory on another, one after the other: it ends when the territory falls (won), or when the attacker turns
    to anything else (held)."""
    battles: list[Battle] = []
    current: Roll | None = None
    for roll in rolls:
        if current is not None and (current.attacker, current.source, current.target) != (
            roll.attacker,
            roll.source,
            roll.target,
        ):
            battles.append(Battle(current.attacker, current.defender, False))
        current = roll
        if roll.taken:
            battles.append(Battle(roll.attacker, roll.defender, True))
            current = None
    if current is not None:
        battles.append(Battle(current.attacker, current.defender, False))
    return battles


def holdings_of(
    names: Sequence[str], owner: Mapping[str, str | None], units: Mapping[str, int]
) -> dict[str, tuple[str | None, int]]:
    """Each territory's owner and units, from a board that keeps them by territory (as every built-in one does)."""
    return {name: (owner.get(name), units.get(name, 0)) for name in names}


class TurnTally:
    """What a rule set reads in a turn's events, told one event at a time: each battle fought to its end (or, in a
    turn-by-turn game, each roll of the dice and each territory taken: see battles_of_rolls), each player's income
    and cards played, and who went out, put out by whoever took their last territory that turn unless the events
    name someone."""

    def __init__(self) -> None:
        self.battles: list[Battle] = []
        self.rolls: list[Roll] = []
        self.income: Counter[str] = Counter()
        self.cards: Counter[str] = Counter()
        self.out: list[tuple[str, str | None]] = []
        self._took_last: dict[str, str] = {}

    def battle(self, attacker: str, defender: str | None, taken: bool) -> None:
        self.battles.append(Battle(attacker, defender, taken))
        if taken and defender is not None:
            self._took_last[defender] = attacker

    def roll(self, attacker: str, defender: str, source: str, target: str) -> None:
        self.rolls.append(Roll(attacker, defender, source, target))

    def taken(self, target: str) -> None:
        """The territory the last roll was on fell to it."""
        if self.rolls and self.rolls[-1].target == target:
            last = self.rolls[-1]
            self.rolls[-1] = Roll(last.attacker, last.defender, last.source, last.target, taken=True)
            self._took_last[last.defender] = last.attacker

    def received(self, player: str, units: int) -> None:
        self.income[player] += units

    def played(self, player: str, cards: int) -> None:
        self.cards[player] += cards

    def went_out(self, player: str, by: str | None = None) -> None:
        self.out.append((player, by or self._took_last.get(player)))

    def facts(self) -> TurnFacts:
        return TurnFacts(
            [*self.battles, *battles_of_rolls(self.rolls)], dict(self.income), dict(self.cards), list(self.out)
        )


@dataclass(frozen=True)
class PlayedTurn:
    """A turn of the game played again: its number, its events (the rule set's own), and the game at its end."""

    turn: int
    events: Sequence[Any]
    game: Game[Any, Any]
    resigned: Sequence[str] = ()
    """Who gave the game up during the turn: out by their own hand, whoever takes what they left."""


def standing_of(holdings: Mapping[str, tuple[str | None, int]]) -> dict[str, tuple[int, int]]:
    """Each owner's territories and units on a board, from its holdings (nobody's are left out)."""
    counts: dict[str, list[int]] = {}
    for owner, units in holdings.values():
        if owner is not None:
            held = counts.setdefault(owner, [0, 0])
            held[0] += 1
            held[1] += units
    return {owner: (n, units) for owner, (n, units) in counts.items()}


def _taker(
    player: str, before: Mapping[str, tuple[str | None, int]], after: Mapping[str, tuple[str | None, int]]
) -> str | None:
    """Who holds most of what `player` held when the turn began: the one who put them out, when the events do not
    say (a territory blockaded, or taken by a card)."""
    takers = Counter(
        after[name][0]
        for name, (owner, _) in before.items()
        if owner == player and name in after and after[name][0] not in (None, player)
    )
    return takers.most_common(1)[0][0] if takers else None


def game_statistics(
    ruleset: AnyRuleSet, start: Game[Any, Any], turns: Sequence[PlayedTurn], winner: str | None
) -> GameStatistics:
    """Every turn's line for every player still in when it began, the eliminations, and each player's totals."""
    players = list(start.players)
    out: set[str] = set()
    before = ruleset.holdings(start)
    first = standing_of(before)
    lines: list[TurnLine] = []
    eliminations: list[Elimination] = []
    for number, played in enumerate(turns, start=1):
        facts = ruleset.turn_facts(played.events)
        # a game that ends in a turn before its income comes (RISC's units arrive as a turn ends) had no income
        # then: none, rather than nothing for everyone
        paid = bool(facts.income) or number < len(turns) or winner is None
        after = ruleset.holdings(played.game)
        standing = standing_of(after)
        won: Counter[str] = Counter()
        lost: Counter[str] = Counter()
        for battle in facts.battles:
            (won if battle.taken else lost)[battle.attacker] += 1
            if battle.defender is not None:
                (lost if battle.taken else won)[battle.defender] += 1
        line = {
            player: PlayerTurn(
                territories=standing.get(player, (0, 0))[0],
                units=standing.get(player, (0, 0))[1],
                income=facts.income.get(player, 0) if paid else None,
                battles_won=won[player],
                battles_lost=lost[player],
                cards_played=facts.cards_played.get(player, 0),
            )
            for player in players
            if player not in out
        }
        lines.append(TurnLine(turn=played.turn, players=line))
        for player in played.resigned:
            if player not in out:
                out.add(player)
                eliminations.append(Elimination(player=player, by=None, turn=played.turn, resigned=True))
        for player, by in facts.eliminated:
            if player in out:
                continue
            out.add(player)
            eliminations.append(Elimination(player=player, by=by or _taker(player, before, after), turn=played.turn))
        before = after
    end = standing_of(before)
    return GameStatistics(
        players=players,
        turns=lines,
        eliminations=eliminations,
        totals={
            player: _totals(player, first.get(player, (0, 0)), end.get(player, (0, 0)), lines, eliminations)
            for player in players
        },
        winner=winner,
    )


def _totals(
    player: str,
    first: tuple[int, int],
    end: tuple[int, int],
    lines: Sequence[TurnLine],
    eliminations: Sequence[Elimination],
) -> PlayerTotals:
    """A player over the whole game; `first` and `end`: their territories and units as the game was set up and as
    it ended. What they hold at the end is read off the last board, not their last line: one who resigned may keep
    what they held (the grid game, classic Risk) until the others take it, after their lines have stopped."""
    mine = [line.players[player] for line in lines if player in line.players]
    out = next((e for e in eliminations if e.player == player), None)
    return PlayerTotals(
        territories=end[0],
        most_territories=max([first[0], *(t.territories for t in mine)]),
        units=end[1],
        most_units=max([first[1], *(t.units for t in mine)]),
        income=sum(t.income or 0 for t in mine),
        battles_won=sum(t.battles_won for t in mine),
        battles_lost=sum(t.battles_lost for t in mine),
        cards_played=sum(t.cards_played for t in mine),
        eliminated_by=out.by if out else None,
        eliminated_on=out.turn if out else None,
        resigned=out.resigned if out else False,
        eliminated=[e.player for e in eliminations if e.by == player],
    )
