"""`risc tournament -M MAP... -P STRATEGY... -G GAMES -D MAX_TURNS`: computer players against each other, in-process.

The grammar and its limits are the COMP 345 tournament's (W16): 1-5 maps, 2-4 strategies who sit together in every
game, 1-5 games per map, 10-50 turns at most per game (a game that reaches the limit is a draw). Anything outside
them is refused before a game is played, naming the flag and the limits. -M is needed except for a rule set that
makes its own board (the grid game).

Each game's seed comes from --seed, the map's place in -M and the game's number, so the same command prints the
same tables whatever --jobs is: --jobs only decides how many processes share the work.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from risc.cli import elapsed
from shared.bots.tournament import GameResult, GameSpec, Standings, game_seed, play_spec, player_names
from shared.maps import GameMap, MapError, load_map
from shared.rulesets import RULESETS, get_ruleset

MAPS = (1, 5)
PLAYERS = (2, 4)
GAMES = (1, 5)
TURNS = (10, 50)

GAMES_PER_ROW = 10
"""Game-by-game results wrap after this many columns."""


class TournamentError(Exception):
    """Arguments that cannot make a tournament; the message says which and why."""


@dataclass(frozen=True)
class Tournament:
    maps: tuple[tuple[str, GameMap | None], ...]
    """Each -M entry as given, with its map (None: the rule set's own board)."""
    strategies: tuple[str, ...]
    games: int
    max_turns: int
    seed: int
    ruleset: str = "risc"
    options: tuple[tuple[str, Any], ...] = ()

    def specs(self) -> list[GameSpec]:
        return [
            GameSpec(
                game_map, self.strategies, game_seed(self.seed, m, g), self.max_turns, dict(self.options), self.ruleset
            )
            for m, (_, game_map) in enumerate(self.maps)
            for g in range(1, self.games + 1)
        ]


def _check_count(what: str, flag: str, value: int, bounds: tuple[int, int]) -> None:
    low, high = bounds
    if not low <= value <= high:
        raise TournamentError(f"{flag}: a tournament has {low} to {high} {what}, not {value}")


def build_tournament(args: argparse.Namespace) -> Tournament:
    """Check every argument before any game starts; TournamentError names the first bad one."""
    try:
        ruleset = get_ruleset(args.rules)
    except ValueError as exc:
        raise TournamentError(f"--rules: {exc}") from None
    unknown = [s for s in args.players if s not in ruleset.strategies]
    if unknown:
        raise TournamentError(
            f'-P: unknown {ruleset.title} strategy "{unknown[0]}" (known: {", ".join(sorted(ruleset.strategies))})'
        )
    from risc.commands.rules import OptionsError, read_options

    try:
        options, chosen = read_options(ruleset, args.option)
    except OptionsError as exc:
        raise TournamentError(f"--option: {exc}") from None
    fewest, most = ruleset.player_counts(chosen)
    if ruleset.own_map and args.maps:
        raise TournamentError(f"-M: {ruleset.title} is played on its own board: name no map ({', '.join(args.maps)})")
    maps_given = args.maps or ([] if not ruleset.own_map else ["board"])
    if not maps_given:
        raise TournamentError(
            f"-M: name 1 to {MAPS[1]} maps to play {ruleset.title} on: bundled maps by name "
            "(risc maps list) or map files"
        )
    _check_count("maps", "-M", len(maps_given), MAPS)
    _check_count("strategies", "-P", len(args.players), PLAYERS)
    if len(args.players) > most:
        raise TournamentError(
            f"-P: a {ruleset.title} game seats at most {most} players (see --option), got {len(args.players)}"
        )
    if len(args.players) < fewest:
        raise TournamentError(f"-P: a {ruleset.title} game needs at least {fewest} players, got {len(args.players)}")
    _check_count("games per map", "-G", args.games, GAMES)
    _check_count("turns per game", "-D", args.max_turns, TURNS)
    if args.jobs < 1:
        raise TournamentError(f"--jobs: at least 1 process is needed, got {args.jobs}")
    maps: list[tuple[str, GameMap | None]] = []
    for ref in maps_given:
        if ruleset.own_map:
            maps.append((f"{ruleset.title} board", None))
            continue
        try:
            game_map = load_map(ref)
        except MapError as exc:
            raise TournamentError(f"-M: {exc}") from None
        except OSError as exc:
            raise TournamentError(f"-M: cannot read {ref}: {exc.strerror or exc}") from None
        if len(game_map.territories) < len(args.players):
            raise TournamentError(
                f"-M: {ref} has {len(game_map.territories)} territories, too few for {len(args.players)} players"
            )
        maps.append((ref, game_map))
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    return Tournament(
        tuple(maps), tuple(args.players), args.games, args.max_turns, seed, ruleset.name, tuple(sorted(options.items()))
    )


def play_all(specs: Sequence[GameSpec], jobs: int) -> Iterator[tuple[int, GameResult]]:
    """Every game's (index, result), in the order they finish; in this process when jobs is 1."""
    if jobs <= 1 or len(specs) <= 1:
        for index, spec in enumerate(specs):
            yield index, play_spec(spec)
        return
    executor = ProcessPoolExecutor(max_workers=min(jobs, len(specs)))
    try:
        futures = {executor.submit(play_spec, spec): index for index, spec in enumerate(specs)}
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def _describe(result: GameResult) -> str:
    if result.winner is None:
        return f"draw after {result.turns} turns"
    return f"{result.winner} won in {result.turns} turns"


def run_games(tournament: Tournament, jobs: int, err: TextIO) -> list[GameResult]:
    """Play every game, showing progress on `err`: a bar on a terminal, one line per game otherwise."""
    specs = tournament.specs()
    results: list[GameResult | None] = [None] * len(specs)
    labels = [f"{_label(ref)} game {g}" for ref, _ in tournament.maps for g in range(1, tournament.games + 1)]
    if err.isatty():
        from prompt_toolkit.output import create_output
        from prompt_toolkit.shortcuts import ProgressBar

        # Drawn on `err`, so that stdout keeps only the tables.
        with ProgressBar(title=f"risc tournament: {len(specs)} games", output=create_output(stdout=err)) as bar:
            for index, result in bar(play_all(specs, jobs), total=len(specs), label="games"):
                results[index] = result
    else:
        for done, (index, result) in enumerate(play_all(specs, jobs), start=1):
            results[index] = result
            print(f"[{done}/{len(specs)}] {labels[index]}: {_describe(result)}", file=err, flush=True)
    return [r for r in results if r is not None]


def _label(ref: str) -> str:
    """A map as the tables name it: a bundled map by its name, a file by its name without folders or extension."""
    return Path(ref).stem.replace(" ", "_") if ("/" in ref or "\\" in ref or "." in ref) else ref


def _numeric(cell: str) -> bool:
    return bool(cell) and all(c.isdigit() or c in ".%-" for c in cell)


def _table(rows: Sequence[Sequence[str]], indent: str = "  ") -> list[str]:
    """Columns padded to their widest cell: numbers to the right, words (and the first column) to the left."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    numeric = [i > 0 and any(_numeric(row[i]) for row in rows[1:]) for i in range(len(widths))]
    lines = []
    for row in rows:
        cells = [cell.rjust(w) if right else cell.ljust(w) for cell, w, right in zip(row, widths, numeric, strict=True)]
        lines.append((indent + "  ".join(cells)).rstrip())
    return lines


def _share(count: int, games: int) -> str:
    return f"{100 * count / games:.0f}%" if games else "-"


def render(tournament: Tournament, results: Sequence[GameResult]) -> str:
    """The tables: one per map (game by game, then wins, draws and turns), then all maps together."""
    players = player_names(tournament.strategies)
    per_map = {i: Standings.empty(players) for i in range(len(tournament.maps))}
    for index, result in enumerate(results):
        per_map[index // tournament.games].add(result)
    lines = [
        f"{get_ruleset(tournament.ruleset).title} tournament: {', '.join(players)} on {len(tournament.maps)} "
        f"{'map' if len(tournament.maps) == 1 else 'maps'}, {tournament.games} "
        f"{'game' if tournament.games == 1 else 'games'} per map, at most {tournament.max_turns} turns a game "
        f"(seed {tournament.seed})"
    ]
    for m, (ref, game_map) in enumerate(tournament.maps):
        games = results[m * tournament.games : (m + 1) * tournament.games]
        if game_map is None:
            lines += ["", f"Map {m + 1}: {ref}"]
        else:
            lines += ["", f"Map {m + 1}: {_label(ref)} ({game_map.name}, {len(game_map.territories)} territories)"]
        for start in range(0, len(games), GAMES_PER_ROW):
            chunk = games[start : start + GAMES_PER_ROW]
            lines += _table(
                [
                    ["game", *(str(start + i + 1) for i in range(len(chunk)))],
                    ["winner", *(r.winner or "draw" for r in chunk)],
                    ["turns", *(str(r.turns) for r in chunk)],
                ]
            )
        standing = per_map[m]
        rows = [["", "wins", "share"]]
        rows += [[p, str(standing.wins[p]), _share(standing.wins[p], standing.games)] for p in players]
        rows += [
            ["draws", str(standing.draws), _share(standing.draws, standing.games)],
            ["average turns", f"{standing.average_turns:.1f}", ""],
        ]
        lines += ["", *_table(rows)]
    overall = Standings.empty(players)
    for result in results:
        overall.add(result)
    names = [_label(ref) for ref, _ in tournament.maps]
    labels = [name if names.count(name) == 1 else f"{name}#{m + 1}" for m, name in enumerate(names)]
    rows = [["", *labels, "total", "share"]]
    for p in players:
        rows.append(
            [
                p,
                *(str(per_map[m].wins[p]) for m in per_map),
                str(overall.wins[p]),
                _share(overall.wins[p], overall.games),
            ]
        )
    rows.append(
        ["draws", *(str(per_map[m].draws) for m in per_map), str(overall.draws), _share(overall.draws, overall.games)]
    )
    rows.append(
        ["average turns", *(f"{per_map[m].average_turns:.1f}" for m in per_map), f"{overall.average_turns:.1f}", ""]
    )
    lines += ["", f"Overall ({overall.games} {'game' if overall.games == 1 else 'games'})", *_table(rows)]
    if overall.refused:
        lines += [
            "",
            f"note: the engine refused {overall.refused} orders from the strategies (the games went on without them)",
        ]
    return "\n".join(lines)


def _run(args: argparse.Namespace) -> int:
    try:
        tournament = build_tournament(args)
    except TournamentError as exc:
        print(f"risc tournament: error: {exc}", file=sys.stderr)
        return 2
    results = run_games(tournament, args.jobs, sys.stderr)
    print(render(tournament, results), flush=True)
    games = f"{len(results)} {'game' if len(results) == 1 else 'games'}"
    print(f"{games} in {elapsed():.1f} s", file=sys.stderr)
    return 0


def register(subparsers: Any) -> None:
    strategies = "; ".join(
        f"{r.title}: " + ", ".join(f"{name} ({cls.description})" for name, cls in sorted(r.strategies.items()))
        for r in RULESETS.values()
    )
    usage = (
        "%(prog)s [--rules NAME] [--option KEY=VALUE] -M MAP [MAP ...] -P STRATEGY [STRATEGY ...] -G GAMES "
        "-D MAX_TURNS [--seed SEED] [--jobs N]"
    )
    parser = subparsers.add_parser(
        "tournament",
        help="computer players against each other, many games, one results table",
        usage=usage,
        description="Play computer players against each other on one or more maps and print who won, within the "
        f"COMP 345 tournament's limits: {MAPS[0]}-{MAPS[1]} maps, {PLAYERS[0]}-{PLAYERS[1]} strategies, "
        f"{GAMES[0]}-{GAMES[1]} games per map, {TURNS[0]}-{TURNS[1]} turns per game. -M, -P, -G and -D "
        "are needed (-M not for the grid game, which has its own board). Strategies: "
        f"{strategies}.",
        epilog="Example: risc tournament -M seed saltreach -P aggressive defensive strategist -G 5 -D 30 "
        "--seed 7 --jobs 2",
    )
    parser.add_argument(
        "--rules",
        default="risc",
        metavar="NAME",
        help=f"the game: {', '.join(sorted(RULESETS))} (default risc; risc rules describes them)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="one of the game's options, for every game (risc rules NAME lists them); may repeat",
    )
    parser.add_argument(
        "-M",
        "--maps",
        nargs="+",
        default=[],
        metavar="MAP",
        help=f"{MAPS[0]}-{MAPS[1]} maps, needed: a bundled map's name (see `risc maps list`) or a "
        "map file (none for the grid game, which has its own board)",
    )
    parser.add_argument(
        "-P",
        "--players",
        nargs="+",
        required=True,
        metavar="STRATEGY",
        help=f"{PLAYERS[0]}-{PLAYERS[1]} strategies that play together in every game (one may appear twice), needed",
    )
    parser.add_argument(
        "-G", "--games", type=int, required=True, metavar="GAMES", help=f"games per map, {GAMES[0]}-{GAMES[1]}, needed"
    )
    parser.add_argument(
        "-D",
        "--max-turns",
        type=int,
        required=True,
        metavar="MAX_TURNS",
        help=f"turns per game, {TURNS[0]}-{TURNS[1]}, needed; a game that reaches it is a draw",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the tournament's seed: the same seed plays the same games (default: a random one, "
        "printed with the results)",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="processes to play in (default 1); results do not depend on it"
    )
    parser.set_defaults(handler=_run)
