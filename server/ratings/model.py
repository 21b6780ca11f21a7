"""The rating model: OpenSkill's Weng-Lin, Plackett-Luce by default (bench/ratings.py measured it against the
package's other models and pairwise Elo: docs/ratings.md), and how a skill is shown to people.

A skill is a mean `mu` and an uncertainty `sigma`. People see one number: the conservative estimate mu - 3 sigma
(the model's ordinal), scaled to the range chess players know, and "provisional" while sigma is still high.
"""

from __future__ import annotations

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

PROVISIONAL_SIGMA = 6.0
"""A rating is provisional while sigma is above this (a new player's is 8.33): bench/ratings.py counts how many games
of three to five it takes to come below (docs/ratings.md)."""

MODELS: dict[str, Any] = {
    "plackett-luce": PlackettLuce,
    "bradley-terry": BradleyTerryFull,
    "thurstone-mosteller": ThurstoneMostellerFull,
}
MODEL = "plackett-luce"
"""The model the server rates with."""


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


def win_chances(skills: Sequence[Skill], model: str = MODEL) -> list[float]:
    """Each player's chance of coming first, by the model: what bench/ratings.py scores held-out games with."""
    rater = MODELS[model]()
    teams = [[rater.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    return [float(p) for p in rater.predict_win(teams)]
