"""`risc warzone [-file F] [--log FILE]`: the COMP 345 Warzone console, played at this terminal (hot seat, with
computer players if wanted) or from a file of commands, in this process and without a server."""

from __future__ import annotations

import argparse
from typing import Any


def _run(args: argparse.Namespace) -> int:
    from client.warzone_console import main

    return main(file=args.file, log_path=args.log, seed=args.seed, max_turns=args.max_turns)


def register(subparsers: Any) -> None:
    from client.warzone_console import DEFAULT_MAX_TURNS
    from shared.game.ruleset import MOST_TURNS

    parser = subparsers.add_parser(
        "warzone",
        help="the COMP 345 Warzone console: loadmap, addplayer, gamestart, then play (hot seat)",
        description="The COMP 345 Warzone game at one console: loadmap FILE, validatemap, addplayer NAME "
        "[-strategy S] (or gameplayer -add NAME -remove NAME), gamestart [OPTION=VALUE ...]; each human "
        "player then issues their orders in turn (deploy, advance, bomb, blockade, airlift, negotiate, "
        "reinforce; cards, showmap, orders, withdraw K, done); replay or quit at the end. "
        "tournament -M MAP... -P STRATEGY... -G GAMES -D MAX_TURNS plays computer players.",
        epilog="Example: risc warzone -file commands.txt --log gamelog.txt",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "-console",
        dest="file",
        action="store_const",
        const=None,
        help="read the commands from the terminal (the default)",
    )
    source.add_argument("-file", "--file", dest="file", metavar="F", help="read the commands from the file F")
    parser.add_argument("--log", metavar="FILE", help="write the game log to FILE")
    parser.add_argument("--seed", default=None, help="the seed of the games (default: a random one)")
    parser.add_argument(
        "--max-turns",
        type=int,
        default=DEFAULT_MAX_TURNS,
        metavar="N",
        help=f"a game still on after turn N is a draw (default {DEFAULT_MAX_TURNS}; 0: the most, {MOST_TURNS})",
    )
    parser.set_defaults(handler=_run)
