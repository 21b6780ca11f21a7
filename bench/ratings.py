"""Does a rating mean anything? Games between the computer strategies, three to five players each, rated as the
server rates them (server/ratings/model.py), with the figures docs/ratings.md reports:

- the ladder's order against the strategies' measured win rates (Kendall's tau, b for ties): every strategy sits as
  several rated players (`--copies`, strategist-1, strategist-2, ...), drawn at random into each game, and each
  player's rating at the end is set beside the win rate of its strategy over all the games;
- how many games a new player takes to stop being provisional (sigma at most PROVISIONAL_SIGMA), median and p90;
- which model predicts held-out games best: OpenSkill's Plackett-Luce, Bradley-Terry (full pairing) and
  Thurstone-Mosteller (full pairing), and pairwise Elo over every pair of a game's ranking, each trained on the first
  games in order and then asked, before each of the last `--held-out` share of games, how likely its ranking is
  (then updated with it, as a server would be). Each model's players weigh exp(mu / c) (Elo's 10^(R / 400)), each
  place going to one of the players left in proportion to their weights (Plackett-Luce's choice): the log-loss of
  the whole ranking (lower is better), of the winner alone, how often the favourite won, and the share of pairs of
  players whose order the ratings had right. Draws count in the ranking, not in the winner's figures.

Run by hand: `python bench/ratings.py [--rules grid] [--games 800] [--jobs 2] [--seed ratings]`. Seeds are fixed, so
a run prints the same figures every time.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.strength import game_map, percentile
from server.ratings.model import MODEL, MODELS, NEW, PROVISIONAL_SIGMA, Skill, rate, strengths
from shared.bots.tournament import GameResult, GameSpec, play_spec

POOLS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "grid": (("strategist", "aggressive", "defensive", "random"), ("grid",)),
    "risc": (("strategist", "aggressive", "defensive", "random"), ("seed", "saltreach")),
    "classic": (("strategist", "aggressive", "benevolent", "random"), ("domination/world",)),
    "warzone": (("strategist", "aggressive", "benevolent", "random"), ("domination/europe",)),
}
ELO_K = 24.0
"""Elo's K for a two-player game; a game of n players shares it among each player's n - 1 pairs."""


def planned(rules: str, games: int, copies: int, seed: str) -> list[tuple[tuple[str, ...], GameSpec]]:
    """Each game's rated players (strategy-N) and what plays it: 3 to 5 players drawn from every strategy's copies."""
    strategies, maps = POOLS[rules]
    people = [f"{s}-{i}" for s in strategies for i in range(1, copies + 1)]
    draw = random.Random(seed)
    boards = {name: game_map(name) for name in maps}
    out = []
    for index in range(games):
        seated = tuple(draw.sample(people, draw.randint(3, 5)))
        board = boards[maps[index % len(maps)]]
        spec = GameSpec(board, tuple(p.rsplit("-", 1)[0] for p in seated), f"{seed}/{index}", 300, {}, rules)
        out.append((seated, spec))
    return out


def ranked(seated: tuple[str, ...], result: GameResult) -> list[list[str]]:
    """The game's ranking in the rated players' names (the game names its seats after their strategies)."""
    by_seat = dict(zip(result.players, seated, strict=True))
    return [[by_seat[p] for p in tied] for tied in result.ranking]


def kendall_tau_b(xs: list[float], ys: list[float]) -> float:
    concordant = discordant = ties_x = ties_y = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif dx * dy > 0:
                concordant += 1
            else:
                discordant += 1
    denominator = math.sqrt((concordant + discordant + ties_x) * (concordant + discordant + ties_y))
    return (concordant - discordant) / denominator if denominator else 0.0


class Elo:
    """Pairwise Elo: every pair of a game's ranking one game of two (a tie half a win), K shared among the pairs."""

    name = "pairwise Elo"

    def __init__(self) -> None:
        self.ratings: dict[str, float] = defaultdict(lambda: 1500.0)

    def strength(self, player: str) -> float:
        return self.ratings[player]

    def weights(self, players: list[str]) -> list[float]:
        return [10 ** (self.ratings[p] / 400) for p in players]

    def update(self, places: list[list[str]]) -> None:
        place = {p: i for i, tied in enumerate(places) for p in tied}
        players = list(place)
        k = ELO_K / max(1, len(players) - 1)
        delta: dict[str, float] = defaultdict(float)
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                expected = 1 / (1 + 10 ** ((self.ratings[b] - self.ratings[a]) / 400))
                score = 1.0 if place[a] < place[b] else 0.5 if place[a] == place[b] else 0.0
                delta[a] += k * (score - expected)
                delta[b] -= k * (score - expected)
        for p, d in delta.items():
            self.ratings[p] += d


class Uniform:
    """Knowing nothing: every player as likely as any other, whatever their games."""

    name = "knowing nothing"

    def strength(self, player: str) -> float:
        return 0.0

    def weights(self, players: list[str]) -> list[float]:
        return [1.0] * len(players)

    def update(self, places: list[list[str]]) -> None:
        return None


class WengLin:
    """One of OpenSkill's models, as the server rates with its default."""

    def __init__(self, model: str) -> None:
        self.name = model
        self.model = model
        self.skills: dict[str, Skill] = {}

    def strength(self, player: str) -> float:
        return self.skills.get(player, NEW).ordinal

    def weights(self, players: list[str]) -> list[float]:
        return strengths([self.skills.get(p, NEW) for p in players], self.model)

    def update(self, places: list[list[str]]) -> None:
        self.skills.update(rate(places, self.skills, self.model))


def scored(
    rater: Elo | WengLin | Uniform, games: list[list[list[str]]], train: int
) -> tuple[float, float, float, float]:
    """Over the games after the first `train` (each predicted, then rated): the log-loss of the whole ranking (each
    place chosen among the players left, in proportion to their weights: Plackett-Luce's choice; tied players each
    chosen among those left), the log-loss of the winner and the favourite's hit rate (over games with a winner),
    and the share of the pairs of players not tied whose order the ratings had right."""
    ranking_losses, losses, hits, right, pairs = [], [], 0, 0, 0
    for index, places in enumerate(games):
        if index >= train:
            players = [p for tied in places for p in tied]
            weight = dict(zip(players, rater.weights(players), strict=True))
            left, loss = list(players), 0.0
            for tied in places:
                for p in tied:
                    loss -= math.log(weight[p] / sum(weight[q] for q in left))
                left = [q for q in left if q not in tied]
            ranking_losses.append(loss)
            place = {p: i for i, tied in enumerate(places) for p in tied}
            for a in players:
                for b in players:
                    if place[a] < place[b]:
                        pairs += 1
                        right += rater.strength(a) > rater.strength(b)
            if len(places[0]) == 1:
                total = sum(weight.values())
                losses.append(-math.log(weight[places[0][0]] / total))
                hits += weight[places[0][0]] == max(weight.values())
        rater.update(places)
    return statistics.fmean(ranking_losses), statistics.fmean(losses), hits / len(losses), right / pairs


def games_below(games: list[list[list[str]]], sigma: float) -> dict[str, int]:
    """How many games each player took for the server's model to be that sure of them."""
    rater = WengLin(MODEL)
    needed: dict[str, int] = {}
    counts: Counter[str] = Counter()
    for places in games:
        rater.update(places)
        for p in (p for tied in places for p in tied):
            counts[p] += 1
            if p not in needed and rater.skills[p].sigma <= sigma:
                needed[p] = counts[p]
    return needed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", choices=sorted(POOLS), default="grid")
    parser.add_argument("--games", type=int, default=800)
    parser.add_argument("--copies", type=int, default=5, help="rated players of each strategy")
    parser.add_argument("--held-out", type=float, default=0.25, help="the share of games predicted")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", default="ratings")
    args = parser.parse_args()
    plan = planned(args.rules, args.games, args.copies, args.seed)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play_spec, [spec for _, spec in plan], chunksize=8))
    elapsed = time.perf_counter() - started
    games = [ranked(seated, r) for (seated, _), r in zip(plan, results, strict=True) if r.finished]
    sizes = Counter(len(seated) for seated, _ in plan)
    print(
        f"{args.rules}: {len(results)} games ({', '.join(f'{n} of {k}' for k, n in sorted(sizes.items()))} players) "
        f"in {elapsed:.0f} s; {len(games)} finished, {sum(len(g[0]) == 1 for g in games)} with a winner"
    )

    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for places in games:
        for tied in places:
            for p in tied:
                played[p.rsplit("-", 1)[0]] += 1
        if len(places[0]) == 1:
            won[places[0][0].rsplit("-", 1)[0]] += 1
    rates = {s: won[s] / played[s] for s in played}
    print(
        "win rates measured:", ", ".join(f"{s} {100 * r:.0f}%" for s, r in sorted(rates.items(), key=lambda x: -x[1]))
    )

    server = WengLin(MODEL)
    counts: Counter[str] = Counter()
    for places in games:
        server.update(places)
        counts.update(p for tied in places for p in tied)
    ladder = sorted(server.skills.items(), key=lambda kv: -kv[1].ordinal)
    print(f"ladder ({MODEL}, the server's model, all games):")
    for place, (player, skill) in enumerate(ladder, start=1):
        said = f"{skill.shown:5} mu {skill.mu:5.1f} sigma {skill.sigma:4.2f} games {counts[player]}"
        print(f"  {place:2} {player:14} {said}")
    tau = kendall_tau_b([s.ordinal for _, s in ladder], [rates[p.rsplit("-", 1)[0]] for p, _ in ladder])
    by_strategy = {
        s: statistics.fmean(k.ordinal for p, k in server.skills.items() if p.rsplit("-", 1)[0] == s) for s in rates
    }
    strategy_tau = kendall_tau_b([by_strategy[s] for s in rates], [rates[s] for s in rates])
    print(f"Kendall's tau-b, ladder (players) against their strategy's win rate: {tau:.2f}")
    print(f"Kendall's tau-b, strategies by mean rating against win rate: {strategy_tau:.2f}")
    for threshold in (PROVISIONAL_SIGMA + 1, PROVISIONAL_SIGMA, PROVISIONAL_SIGMA - 1, PROVISIONAL_SIGMA - 2):
        stopped = sorted(games_below(games, threshold).values())
        print(
            f"games until sigma <= {threshold:g}{' (not provisional)' if threshold == PROVISIONAL_SIGMA else ''}: "
            f"median {statistics.median(stopped):g}, p90 {percentile(stopped, 0.9)}, most {max(stopped)} "
            f"({len(stopped)} of {len(server.skills)} players got there)"
        )

    train = round(len(games) * (1 - args.held_out))
    print(f"held out: the last {len(games) - train} games, each predicted before it is rated:")
    for rater in [*(WengLin(m) for m in MODELS), Elo(), Uniform()]:
        ranking, loss, hit, ordered = scored(rater, games, train)
        said = f"  {rater.name:20} ranking log-loss {ranking:.3f}, winner log-loss {loss:.3f}"
        if not isinstance(rater, Uniform):  # it has no favourite, and orders no pair
            said += f", favourite won {100 * hit:.0f}%, pairs ordered right {100 * ordered:.0f}%"
        print(said)


if __name__ == "__main__":
    main()
