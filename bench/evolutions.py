"""Strategist against random in RISC Evolutions 1, 2 and 3: wins out of fixed-seed duels on every bundled map.

Run by hand: `python bench/evolutions.py [--games 50] [--turns 100] [--evolutions 1 2 3] [--maps seed twin-keeps]`.
Every game's seed is fixed ("evo{E}/{map}/{i}"), so every run prints the same table; the seats alternate so that
each strategy plays first in half the games. The figures go into docs/bots.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.bots.tournament import play_game
from shared.maps import bundled_map_names, load_map


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--evolutions", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--maps", nargs="+", default=bundled_map_names())
    parser.add_argument("--strong", default="strategist")
    parser.add_argument("--weak", default="random")
    args = parser.parse_args()
    print(f"{args.strong} against {args.weak}, {args.games} games per map, at most {args.turns} turns")
    print(f"{'evolution':>9}  {'map':<12} {'wins':>5} {'losses':>6} {'draws':>5} {'turns':>6} {'s/game':>7}")
    for evolution in args.evolutions:
        for name in args.maps:
            game_map = load_map(name)
            wins = losses = draws = turns = 0
            started = time.perf_counter()
            for i in range(args.games):
                lineup = [args.weak, args.strong] if i % 2 == 0 else [args.strong, args.weak]
                result = play_game(
                    game_map,
                    lineup,
                    f"evo{evolution}/{name}/{i}",
                    args.turns,
                    options={"evolution": evolution},
                    strict=True,
                )
                turns += result.turns
                if result.winner_strategy == args.strong:
                    wins += 1
                elif result.winner_strategy is None:
                    draws += 1
                else:
                    losses += 1
            elapsed = time.perf_counter() - started
            print(
                f"{evolution:>9}  {name:<12} {wins:>5} {losses:>6} {draws:>5} {turns / args.games:>6.1f} "
                f"{elapsed / args.games:>7.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
