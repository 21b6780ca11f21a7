"""`risc bot URL --game ID`: a computer player that joins a game over the network and plays it to the end."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from typing import Any


def _run(args: argparse.Namespace) -> int:
    from client.bot import NetworkBot
    from client.core.names import name_problem
    from shared.rulesets import RULESETS

    known = {name for ruleset in RULESETS.values() for name in ruleset.strategies}
    if args.strategy is not None and args.strategy not in known:
        print(
            f"risc bot: --strategy {args.strategy!r}: known strategies are {', '.join(sorted(known))}", file=sys.stderr
        )
        return 2
    if args.name is not None and (problem := name_problem(args.name)) is not None:
        print(f"risc bot: --name {args.name!r}: {problem}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    url = args.url if "://" in args.url else f"ws://{args.url}"
    password = args.password if args.password is not None else os.environ.get("RISC_PASSWORD") or None
    bot = NetworkBot(url, args.game, strategy=args.strategy, name=args.name, password=password, seed=args.seed)
    try:
        return asyncio.run(bot.run())
    except KeyboardInterrupt:
        return 130


def register(subparsers: Any) -> None:
    from shared.rulesets import RULESETS

    strategies = "; ".join(f"{r.title}: {', '.join(sorted(r.strategies))}" for r in RULESETS.values())
    parser = subparsers.add_parser(
        "bot",
        help="a computer player that joins a game over the network",
        description="Join a game on a RISC server as a computer player and play it to "
        "the end like any client: it reconnects and takes its seat back if "
        "the link drops, and exits 0 when the game is over.",
    )
    parser.add_argument("url", help="the server's address, e.g. ws://host:8765")
    parser.add_argument("--game", required=True, metavar="ID", help="the game to join")
    parser.add_argument("--strategy", default=None, help=f"how it plays ({strategies}); default: the game's strongest")
    parser.add_argument("--name", default=None, help="its player name (default: STRATEGY-bot)")
    parser.add_argument(
        "--password",
        default=None,
        help="the server's password, if it has one (default: the RISC_PASSWORD environment variable)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of its own choices, to replay them")
    parser.set_defaults(handler=_run)
