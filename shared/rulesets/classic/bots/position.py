"""What a classic Risk computer player reads off its view: its countries, its neighbours, its fronts, the odds."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, cached_property

from shared.maps.model import GameMap
from shared.rulesets.classic import geography
from shared.rulesets.classic.cards import MUST_TRADE_AT, best_set
from shared.rulesets.classic.dice import defence_dice, most_attack_dice, outcomes
from shared.rulesets.classic.view import ClassicView


class Position:
    def __init__(self, view: ClassicView, game_map: GameMap, me: str) -> None:
        self.view = view
        self.map = game_map
        self.me = me
        self.owner = {n: t.owner or "" for n, t in view.territories.items()}
        self.armies = {n: t.armies for n, t in view.territories.items()}

    @cached_property
    def mine(self) -> list[str]:
        return [n for n in self.map.names if self.owner[n] == self.me]

    def enemies(self, country: str) -> list[str]:
        return geography.enemies_of(self.map, self.owner, country)

    def threat(self, country: str) -> int:
        """Enemy armies that could attack `country` next turn (those next to it, less the one each keeps)."""
        return sum(
            self.armies[n] - 1 for n in self.map.names if self.owner[n] != self.me and country in self.map.neighbours(n)
        )

    @cached_property
    def frontier(self) -> list[str]:
        return [n for n in self.mine if self.enemies(n)]

    def attacks(self) -> Iterator[tuple[str, str]]:
        return geography.attacks(self.map, self.owner, self.armies, self.me)

    def reach(self, country: str) -> set[str]:
        return geography.reach(self.map, self.owner, country)

    def trade(self) -> tuple[int, int, int] | None:
        """The best set to trade now, if any (a strategy trades whenever it can, and must at 5 cards)."""
        if self.view.trading_closed:
            return None
        return best_set(self.view.your_hand, self.view.card_schedule, self.view.trades)

    @property
    def must_trade(self) -> bool:
        return len(self.view.your_hand) >= MUST_TRADE_AT

    def strongest(self, among: list[str]) -> str:
        return max(among, key=lambda n: self.armies[n])

    def weakest(self, among: list[str]) -> str:
        return min(among, key=lambda n: self.armies[n])


@cache
def win_probability(attacking: int, defending: int) -> float:
    """P(a country of `attacking` armies takes one of `defending` armies, rolling the most dice until it falls or
    one army is left): the all-out attack of C5, exactly."""
    if defending <= 0:
        return 1.0
    if attacking <= 1:
        return 0.0
    total = 0.0
    for (lost, killed), p in outcomes(most_attack_dice(attacking), defence_dice(defending)).items():
        total += float(p) * win_probability(attacking - lost, defending - killed)
    return total


@cache
def battle(attacking: int, defending: int) -> tuple[float, float, float]:
    """The all-out attack of C5 in full: (P(the country falls), expected armies the attacker loses, expected armies
    the defender loses)."""
    if defending <= 0 or attacking <= 1:
        return (1.0 if defending <= 0 else 0.0), 0.0, 0.0
    win = lost_total = killed_total = 0.0
    for (lost, killed), p in outcomes(most_attack_dice(attacking), defence_dice(defending)).items():
        w, more_lost, more_killed = battle(attacking - lost, defending - killed)
        chance = float(p)
        win += chance * w
        lost_total += chance * (lost + more_lost)
        killed_total += chance * (killed + more_killed)
    return win, lost_total, killed_total


def battle_at(attacking: int, defending: int) -> tuple[float, float, float]:
    """`battle` for any size: past 120 armies a side, the odds of the same battle scaled down, losses scaled up."""
    scale = max(attacking, defending) / 120
    if scale <= 1:
        return battle(attacking, defending)
    win, lost, killed = battle(max(1, round(attacking / scale)), max(1, round(defending / scale)))
    return win, lost * scale, killed * scale


def win_chance(attacking: int, defending: int) -> float:
    """win_probability for any size: past 120 armies a side the odds are ones the recursion has already settled."""
    if attacking > 120 or defending > 120:
        scale = max(attacking, defending) / 120
        return win_probability(max(1, round(attacking / scale)), max(1, round(defending / scale)))
    return win_probability(attacking, defending)
