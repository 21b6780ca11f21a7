"""How often each computer player wins, in fixed-seed in-process games: the figures behind "the project's own
strongest player beats the others" in docs/rules-classic.md and docs/rules-grid.md.

Run by hand: `python bench/strength.py --rules classic [--games 100] [--jobs 2]` (or `--rules grid`). Seeds are
fixed ("fig/MAP/N"), so every run plays the same games and prints the same table; seats are drawn by each game's own
setup (classic Risk draws the seat order; the grid game seats players in the order listed, so the line-up is
rotated game by game). A game still on at the turn limit is a draw.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.bots.tournament import GameSpec, play_spec
from shared.maps import GameMap, load_map

MAPS = Path(__file__).resolve().parents[2] / "shared" / "maps" / "domination"
MAX_TURNS = 100

CLASSIC_LINEUPS = (
    ("strategist", "aggressive", "benevolent", "random"),
    ("strategist", "aggressive"),
    ("strategist", "benevolent"),
    ("strategist", "random"),
    ("strategist", "aggressive", "aggressive"),
)
GRID_LINEUPS = (
    ("strategist", "aggressive", "defensive"),
    ("strategist", "aggressive", "defensive", "random"),
    ("strategist", "aggressive", "defensive", "random", "random"),
    ("strategist", "aggressive", "aggressive"),
)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate."""
    if games == 0:
        return 0.0, 0.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def specs(rules: str, games: int) -> list[tuple[str, tuple[str, ...], GameSpec]]:
    out = []
    if rules == "classic":
        maps: list[tuple[str, GameMap | None]] = [(n, load_map(MAPS / f"{n}.map")) for n in ("world", "risk")]
        lineups = CLASSIC_LINEUPS
    else:
        maps = [("grid", None)]
        lineups = GRID_LINEUPS
    for lineup in lineups:
        for name, game_map in maps:
            for i in range(games):
                seated = lineup if rules == "classic" else lineup[i % len(lineup) :] + lineup[: i % len(lineup)]
                out.append((name, lineup, GameSpec(game_map, seated, f"fig/{name}/{i}", MAX_TURNS, ruleset=rules)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", choices=("classic", "grid"), default="classic")
    parser.add_argument("--games", type=int, default=100, help="games per map and line-up")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    planned = specs(args.rules, args.games)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play_spec, [spec for _, _, spec in planned], chunksize=8))
    elapsed = time.perf_counter() - started
    table: dict[tuple[tuple[str, ...], str], Counter[str]] = {}
    turns: Counter[tuple[tuple[str, ...], str]] = Counter()
    for (name, lineup, _), result in zip(planned, results, strict=True):
        key = (lineup, name)
        table.setdefault(key, Counter())[result.winner_strategy or "draw"] += 1
        turns[key] += result.turns
    print(
        f"{args.rules}: {len(results)} games in {elapsed:.0f} s ({len(results) / elapsed:.1f} games/s, "
        f"{args.jobs} job(s)), turn limit {MAX_TURNS}"
    )
    for (lineup, name), wins in table.items():
        games = sum(wins.values())
        low, high = wilson(wins["strategist"], games)
        others = ", ".join(f"{s} {n}" for s, n in wins.most_common() if s != "strategist")
        print(
            f"  {' v '.join(lineup):55} {name:6} strategist {wins['strategist']:3}/{games} "
            f"({100 * wins['strategist'] / games:.0f}%, 95% CI {100 * low:.0f}-{100 * high:.0f}%); {others}; "
            f"{turns[(lineup, name)] / games:.1f} turns"
        )


if __name__ == "__main__":
    main()
