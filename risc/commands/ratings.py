"""`risc ratings [RULESET]`: a rule set's ladder on a server (the accounts and computer strategies who played a rated
game of it lately, best first), or a player's profile (`--player NAME`), at 80 columns and in a screen of 24 lines."""

from __future__ import annotations

import argparse
import os
from typing import Any

from risc.commands.account import DEFAULT_SERVER, Stop, printed


async def _run(args: argparse.Namespace) -> str:
    from client.connection import Connection, ConnectionFailed
    from client.ladder_text import leaderboard_text, profile_text
    from client.tokens import server_address
    from shared.protocol.messages import Error
    from shared.protocol.ratings import AskLeaderboard, AskProfile, Leaderboard, Profile
    from shared.rulesets import RULESETS

    titles = {name: ruleset.title for name, ruleset in RULESETS.items()}
    server = server_address(args.server)
    link = Connection(server, password=os.environ.get("RISC_PASSWORD") or None, reconnect=False)
    try:
        await link.open()
    except ConnectionFailed as exc:
        raise Stop(str(exc)) from None
    try:
        request: Any = (
            AskProfile(name=args.player)
            if args.player
            else AskLeaderboard(ruleset=args.ruleset, offset=max(0, args.start - 1), limit=args.rows)
        )
        reply = await link.request(request)
        if isinstance(reply, Error):
            raise Stop(reply.message)
        if isinstance(reply, Profile):
            return profile_text(reply, titles)
        if isinstance(reply, Leaderboard):
            return leaderboard_text(reply, titles.get(args.ruleset, args.ruleset))
        raise Stop(f"the server answered {reply.type}")
    finally:
        await link.close()


def _main(args: argparse.Namespace) -> int:
    return printed(_run, args, "risc ratings")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "ratings",
        help="a rule set's ladder on a server, or a player's ratings and history",
        description="A rule set's ladder on a RISC server: its rated players, best first (a rating marked ? is "
        "provisional: docs/ratings.md). --player shows one player's ratings, history and last games.",
    )
    parser.add_argument("ruleset", nargs="?", default="risc", help="the rule set (risc, warzone, classic, grid)")
    parser.add_argument("--server", default=DEFAULT_SERVER, help=f"the server's address (default {DEFAULT_SERVER})")
    parser.add_argument("--player", default=None, help="a player's profile instead (bot:NAME for a computer)")
    parser.add_argument("--start", type=int, default=1, help="the ladder from this place on")
    parser.add_argument("--rows", type=int, default=20, help="how many places (20 fit a screen of 24 lines)")
    parser.set_defaults(handler=_main)
