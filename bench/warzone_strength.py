"""How often Warzone's `strategist` beats each COMP 345 strategy, one against one, on two real maps.

Run by hand: `python bench/warzone_strength.py [--games 100] [--turns 50]`. Every game's seed is fixed
("strength/MAP/OPPONENT/N"), and the two players swap seats every other game. A game that reaches the turn limit is a
draw (not a win). The cheater plays only where cheaters are allowed, which this run allows: it is the one strategy
the strategist is not meant to beat. The figures go into docs/rules-warzone.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.bots.tournament import play_game
from shared.maps import load_map

MAPS = Path(__file__).resolve().parents[2] / "shared" / "maps" / "domination"
OPPONENTS = ("aggressive", "benevolent", "neutral", "random", "cheater")
HONEST = ("strategist", "aggressive", "benevolent", "neutral", "random")


def strength(map_file: Path, opponent: str, games: int, turns: int) -> tuple[int, int, float]:
    """(wins, draws, average turns) of the strategist against `opponent` over `games` games."""
    game_map = load_map(map_file)
    wins = draws = total_turns = 0
    for n in range(games):
        seats = ["strategist", opponent] if n % 2 == 0 else [opponent, "strategist"]
        result = play_game(
            game_map,
            seats,
            f"strength/{map_file.stem}/{opponent}/{n}",
            turns,
            strict=True,
            ruleset_name="warzone",
            options={"allow_cheaters": True},
        )
        wins += result.winner_strategy == "strategist"
        draws += result.winner is None
        total_turns += result.turns
    return wins, draws, total_turns / games


def free_for_all(map_file: Path, games: int, turns: int) -> dict[str | None, int]:
    """Wins per strategy (None: draws) in games of the five honest strategies together, seats rotated."""
    game_map = load_map(map_file)
    wins: dict[str | None, int] = {}
    for n in range(games):
        seats = [*HONEST[n % 5 :], *HONEST[: n % 5]]
        result = play_game(game_map, seats, f"multi/{map_file.stem}/{n}", turns, strict=True, ruleset_name="warzone")
        wins[result.winner_strategy] = wins.get(result.winner_strategy, 0) + 1
    return wins


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--turns", type=int, default=50)
    args = parser.parse_args()
    print(f"strategist against each strategy, {args.games} games each, at most {args.turns} turns")
    print(f"{'map':<12} {'opponent':<11} {'wins':>6} {'draws':>6} {'losses':>7} {'share':>6} {'turns':>6} {'secs':>6}")
    for map_name in ("europe", "world"):
        for opponent in OPPONENTS:
            start = time.perf_counter()
            wins, draws, turns = strength(MAPS / f"{map_name}.map", opponent, args.games, args.turns)
            losses = args.games - wins - draws
            print(
                f"{map_name:<12} {opponent:<11} {wins:>6} {draws:>6} {losses:>7} {wins / args.games:>6.0%} "
                f"{turns:>6.1f} {time.perf_counter() - start:>6.1f}",
                flush=True,
            )
    games = max(5, args.games * 2 // 5)
    print(f"\nthe five honest strategies together, {games} games per map, seats rotated")
    for map_name in ("europe", "world"):
        wins = free_for_all(MAPS / f"{map_name}.map", games, args.turns)
        shown = ", ".join(f"{name or 'draw'} {n}" for name, n in sorted(wins.items(), key=lambda kv: -kv[1]))
        print(f"{map_name:<12} {shown}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
