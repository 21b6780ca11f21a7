"""Bot games per second, in-process: whole 3-player games on the default map (`seed`) and on a 42-territory map.

Run by hand: `python bench/tournament.py [--runs 7] [--games 40]`. Each run plays GAMES games (seeds fixed, so every
run plays the same games) of each line-up on one core and times them; the figures are medians over the runs.
Target: at least 20 games a second on the default map. The figures go into docs/performance.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.bots.tournament import play_game
from shared.maps import GameMap, MapError, load_map

LINEUPS = (
    ("aggressive", "defensive", "strategist"),
    ("random", "aggressive", "strategist"),
    ("strategist", "strategist", "strategist"),
)
MAX_TURNS = 50
"""The tournament's largest turn limit: a game that gets there is a draw."""

WORLD_MAP = Path(__file__).resolve().parents[2] / "shared" / "maps" / "domination" / "world.map"


def forty_two() -> tuple[str, GameMap]:
    """A bundled 42-territory map if there is one, else the Domination world.map beside the project."""
    from shared.maps import bundled_map_names

    for name in bundled_map_names():
        game_map = load_map(name)
        if len(game_map.territories) == 42:
            return name, game_map
    try:
        return "world.map", load_map(WORLD_MAP)
    except (MapError, OSError) as exc:
        raise SystemExit(f"no 42-territory map: no bundled one, and {WORLD_MAP} cannot be read ({exc})") from None


def measure(game_map: GameMap, lineup: tuple[str, ...], games: int, runs: int) -> tuple[float, float, float]:
    """Median games per second, median ms per turn, and the average length of a game in turns."""
    rates: list[float] = []
    per_turn: list[float] = []
    turns = 0
    for _ in range(runs):
        turns = 0
        started = time.perf_counter()
        for i in range(games):
            turns += play_game(game_map, lineup, f"bench-{i}", MAX_TURNS).turns
        elapsed = time.perf_counter() - started
        rates.append(games / elapsed)
        per_turn.append(1000 * elapsed / turns)
    return statistics.median(rates), statistics.median(per_turn), turns / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    maps = [("seed", load_map("seed")), forty_two()]
    print(f"{args.runs} runs of {args.games} games per line-up, at most {MAX_TURNS} turns a game; medians")
    print(f"{'map':<15} {'line-up':<34} {'games/s':>8} {'ms/turn':>8} {'turns/game':>11}")
    for name, game_map in maps:
        label = f"{name} ({len(game_map.territories)})"
        for lineup in LINEUPS:
            rate, turn_ms, turns = measure(game_map, lineup, args.games, args.runs)
            print(f"{label:<15} {', '.join(lineup):<34} {rate:>8.1f} {turn_ms:>8.2f} {turns:>11.1f}", flush=True)


if __name__ == "__main__":
    main()
