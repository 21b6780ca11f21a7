"""What a grid computer player reads off its view, and the exact odds of an attack carried on to the end."""

from __future__ import annotations

from functools import cache, cached_property

from shared.maps.model import GameMap
from shared.rulesets.grid.checker import reach
from shared.rulesets.grid.dice import defending, most_attacking, outcomes
from shared.rulesets.grid.view import GridView


class Position:
    def __init__(self, view: GridView, game_map: GameMap, me: str) -> None:
        self.view = view
        self.map = game_map
        self.me = me
        self.owner = {n: c.owner or "" for n, c in view.territories.items()}
        self.troops = {n: c.troops for n, c in view.territories.items()}

    @cached_property
    def mine(self) -> list[str]:
        return [n for n in self.map.names if self.owner[n] == self.me]

    def cells_of(self, player: str) -> int:
        return sum(1 for n in self.map.names if self.owner[n] == player)

    def enemies(self, cell: str) -> list[str]:
        return [n for n in self.map.neighbours_in_order(cell) if self.owner[n] != self.owner[cell]]

    @cached_property
    def frontier(self) -> list[str]:
        return [n for n in self.mine if self.enemies(n)]

    def threat(self, cell: str) -> int:
        return sum(self.troops[n] - 1 for n in self.enemies(cell))

    def reach(self, cell: str) -> set[str]:
        return reach(self.map, self.owner, cell) - {cell}

    def strongest(self, among: list[str]) -> str:
        return max(among, key=lambda n: self.troops[n])

    def weakest(self, among: list[str]) -> str:
        return min(among, key=lambda n: self.troops[n])


@cache
def battle(attacking: int, defending_troops: int) -> tuple[float, float, float]:
    """Attacking with the most troops again and again until the territory falls or one troop is left (G4):
    (P(it falls), expected attacker losses, expected defender losses)."""
    if defending_troops <= 0 or attacking <= 1:
        return (1.0 if defending_troops <= 0 else 0.0), 0.0, 0.0
    win = lost_total = killed_total = 0.0
    for (lost, killed), p in outcomes(most_attacking(attacking), defending(defending_troops)).items():
        w, more_lost, more_killed = battle(attacking - lost, defending_troops - killed)
        win += float(p) * w
        lost_total += float(p) * (lost + more_lost)
        killed_total += float(p) * (killed + more_killed)
    return win, lost_total, killed_total


def battle_at(attacking: int, defending_troops: int) -> tuple[float, float, float]:
    scale = max(attacking, defending_troops) / 120
    if scale <= 1:
        return battle(attacking, defending_troops)
    win, lost, killed = battle(max(1, round(attacking / scale)), max(1, round(defending_troops / scale)))
    return win, lost * scale, killed * scale
