"""How often each computer player wins, and how long games of computers alone last, in fixed-seed in-process games:
the figures behind "the project's own strongest player beats the others" and "every game ends" in docs/bots.md and
each rule set's docs/rules-*.md.

Run by hand: `python bench/strength.py --rules classic [--games 100] [--jobs 2]` (`--rules` grid, risc, risc2,
risc3 for RISC's Evolutions 2 and 3, or warzone). Seeds are fixed ("fig/MAP/N"), so every run plays the same games
and prints the same table; seats are drawn by each game's own setup where its rules draw them (classic Risk, RISC's
groups), else the line-up is rotated game by game. Each game is played with the rule set's own options, its turn
limit included: a game the rules end without a winner is a draw; one still on when the bench's own cut-off
(`--turns`, far above every rule set's limit) comes is counted apart, as unended. Line-ups marked `(x resigns at N)`
have one seat give the game up at turn N, the computers playing on, as when a person resigns from a game against
the server's computers.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.bots.tournament import GameResult, GameSpec, play_spec
from shared.maps import GameMap, load_map

DOMINATION = Path(__file__).resolve().parents[2] / "shared" / "maps" / "domination"
CUT_OFF = 300
"""Turns after which the bench stops a game the rules have not ended (above every rule set's own limit)."""


@dataclass(frozen=True)
class Lineup:
    strategies: tuple[str, ...]
    resigns: tuple[tuple[int, int], ...] = ()
    """(seat, turn): that seat resigns at that turn."""

    @property
    def label(self) -> str:
        said = " v ".join(self.strategies)
        for seat, turn in self.resigns:
            said += f" ({self.strategies[seat]} resigns at {turn})"
        return said


def alone(strategy: str, *counts: int, resigning: int = 11) -> list[Lineup]:
    """The server's computers playing each other: `strategy` in every seat, and a game of three where one seat
    resigns at turn `resigning` (a person who gave up, two computers left)."""
    return [*(Lineup((strategy,) * n) for n in counts), Lineup((strategy,) * 3, ((0, resigning),))]


RULES: dict[str, tuple[dict[str, object], tuple[str, ...], list[Lineup]]] = {
    "classic": (
        {},
        ("domination/world", "domination/risk"),
        [
            Lineup(("strategist", "aggressive", "benevolent", "random")),
            Lineup(("strategist", "aggressive")),
            Lineup(("strategist", "benevolent")),
            Lineup(("strategist", "random")),
            Lineup(("strategist", "aggressive", "aggressive")),
            Lineup(("benevolent", "benevolent")),
            Lineup(("aggressive",) * 3),
            *alone("strategist", 2, 3),
        ],
    ),
    "grid": (
        {},
        ("grid",),
        [
            Lineup(("strategist", "aggressive", "defensive")),
            Lineup(("strategist", "aggressive", "defensive", "random")),
            Lineup(("strategist", "aggressive", "defensive", "random", "random")),
            Lineup(("strategist", "aggressive", "aggressive")),
            Lineup(("defensive", "defensive", "defensive")),
            Lineup(("aggressive",) * 3),
            *alone("strategist", 3, 4),
        ],
    ),
    "risc": (
        {},
        ("seed", "saltreach"),
        [
            Lineup(("strategist", "aggressive", "defensive")),
            Lineup(("strategist", "random")),
            Lineup(("defensive", "defensive")),
            *alone("strategist", 2, 3),
        ],
    ),
    "risc2": (
        {"evolution": 2},
        ("seed", "saltreach"),
        [Lineup(("strategist", "random")), Lineup(("defensive", "defensive")), *alone("strategist", 2, 3)],
    ),
    "risc3": (
        {"evolution": 3},
        ("seed", "saltreach"),
        [Lineup(("strategist", "random")), Lineup(("defensive", "defensive")), *alone("strategist", 2, 3)],
    ),
    "warzone": (
        {},
        ("domination/europe", "domination/world"),
        [
            Lineup(("strategist", "aggressive", "benevolent", "neutral", "random")),
            Lineup(("strategist", "aggressive")),
            Lineup(("benevolent", "benevolent")),
            Lineup(("aggressive",) * 3),
            *alone("strategist", 2, 3),
        ],
    ),
}


def ruleset_of(rules: str) -> str:
    return "risc" if rules.startswith("risc") else rules


def game_map(name: str) -> GameMap | None:
    if name == "grid":
        return None
    if name.startswith("domination/"):
        return load_map(DOMINATION / f"{name.split('/', 1)[1]}.map")
    return load_map(name)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate."""
    if games == 0:
        return 0.0, 0.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def percentile(values: list[int], share: float) -> int:
    """The nearest-rank percentile: the smallest value at least `share` of them do not exceed."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def specs(rules: str, games: int, cut_off: int, only: str = "") -> list[tuple[str, Lineup, GameSpec]]:
    options, maps, lineups = RULES[rules]
    out = []
    for lineup in (lineup for lineup in lineups if only in lineup.label):
        for name in maps:
            board = game_map(name)
            for i in range(games):
                shift = i % len(lineup.strategies)
                seated = lineup.strategies[shift:] + lineup.strategies[:shift]
                resigns = {(seat - shift) % len(seated): turn for seat, turn in lineup.resigns}
                seed = f"fig/{name.rsplit('/', 1)[-1]}/{i}"
                spec = GameSpec(board, seated, seed, cut_off, options, ruleset_of(rules), resigns)
                out.append((name, lineup, spec))
    return out


def line(lineup: Lineup, name: str, results: list[GameResult]) -> str:
    games = len(results)
    wins = Counter(r.winner_strategy if r.winner is not None else "draw" if r.finished else "unended" for r in results)
    lengths = [r.turns for r in results]
    said = f"  {lineup.label:55} {name:10} "
    if "strategist" in lineup.strategies and len(set(lineup.strategies)) > 1:
        low, high = wilson(wins["strategist"], games)
        said += f"strategist {wins['strategist']:3}/{games} ({100 * low:.0f}-{100 * high:.0f}%); "
    said += ", ".join(
        f"{s} {n}" for s, n in wins.most_common() if s != "strategist" or len(set(lineup.strategies)) == 1
    )
    return (
        said.rstrip("; ")
        + f"; turns p50 {percentile(lengths, 0.5)}, p99 {percentile(lengths, 0.99)}, most {max(lengths)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", choices=sorted(RULES), default="classic")
    parser.add_argument("--games", type=int, default=100, help="games per map and line-up")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--turns", type=int, default=CUT_OFF, help="the bench's cut-off for a game still on")
    parser.add_argument("--only", default="", help="only the line-ups whose label holds this text")
    args = parser.parse_args()
    planned = specs(args.rules, args.games, args.turns, args.only)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play_spec, [spec for _, _, spec in planned], chunksize=4))
    elapsed = time.perf_counter() - started
    table: dict[tuple[Lineup, str], list[GameResult]] = {}
    for (name, lineup, _), result in zip(planned, results, strict=True):
        table.setdefault((lineup, name), []).append(result)
    print(
        f"{args.rules}: {len(results)} games in {elapsed:.0f} s ({len(results) / elapsed:.1f} games/s, "
        f"{args.jobs} job(s)), cut off at turn {args.turns}"
    )
    for (lineup, name), played in table.items():
        print(line(lineup, name, played), flush=True)


if __name__ == "__main__":
    main()
