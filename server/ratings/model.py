"""The rating model: OpenSkill's Weng-Lin, its Bradley-Terry model with every pair of a game's players (bench/ratings.py
measured it against Plackett-Luce, Thurstone-Mosteller and pairwise Elo: docs/ratings.md), and how a skill is shown to
people.

A skill is a mean `mu` and an uncertainty `sigma`. People see one number: the conservative estimate mu - 3 sigma
(the model's ordinal), scaled to the range chess players know, and "provisional" while sigma is still high.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import BradleyTerryFull, PlackettLuce, ThurstoneMostellerFull

MU = 25.0
SIGMA = MU / 3
"""A new player's skill: the model's defaults."""

SHOWN_BASE = 800.0
SHOWN_SCALE = 40.0
"""The number shown: 800 + 40 x (mu - 3 sigma). A new player shows 800 and climbs as the model grows sure of them;
an average player who has played a while (mu 25, sigma about 2.5) shows about 1500, as in chess; each point of mu is
40 of the shown number."""

PROVISIONAL_SIGMA = 5.0
"""A rating is provisional while sigma is above this (a new player's is 8.33): about a new player's first eight games
of three to five, as bench/ratings.py counts them (docs/ratings.md)."""

MODELS: dict[str, Any] = {
    "plackett-luce": PlackettLuce,
    "bradley-terry": BradleyTerryFull,
    "thurstone-mosteller": ThurstoneMostellerFull,
}
MODEL = "bradley-terry"
"""The model the server rates with: Bradley-Terry with every pair of a game's players, which predicted the whole
ranking of held-out games best in bench/ratings.py, a little ahead of Plackett-Luce (docs/ratings.md)."""


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - 3.0 * self.sigma

    @property
    def shown(self) -> int:
        return round(SHOWN_BASE + SHOWN_SCALE * self.ordinal)

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA


NEW = Skill()


def rate(places: Sequence[Sequence[str]], skills: Mapping[str, Skill], model: str = MODEL) -> dict[str, Skill]:
    """Every player's skill after a game ranked `places` (first to last, tied players sharing a place), from their
    `skills` before it (a player without one starts at NEW). Each player is a team of one."""
    rater = MODELS[model]()
    players = [p for tied in places for p in tied]
    if len(players) < 2:
        return {p: skills.get(p, NEW) for p in players}
    teams = [[rater.rating(mu=skills.get(p, NEW).mu, sigma=skills.get(p, NEW).sigma)] for p in players]
    ranks = [float(place) for place, tied in enumerate(places, start=1) for _ in tied]
    rated = rater.rate(teams, ranks=ranks)
    return {p: Skill(team[0].mu, team[0].sigma) for p, team in zip(players, rated, strict=True)}


def strengths(skills: Sequence[Skill], model: str = MODEL) -> list[float]:
    """Each player's weight in a game together, as the Weng-Lin models weigh them: exp(mu / c), c the spread of the
    game's skills and the model's beta. A player's chance of coming first is their share of the weights, and the
    chance of a whole ranking the product of each place's share among those left (Plackett-Luce's choice): what
    bench/ratings.py scores held-out games with. (OpenSkill's own predict_win gives the middle of three an even third
    whatever the skills, so it is not used.)"""
    beta = MODELS[model]().beta
    c = math.sqrt(sum(s.sigma**2 + beta**2 for s in skills))
    return [math.exp(s.mu / c) for s in skills]
