"""Starting the client from a command line: `risc client URL [--name N] [--watch GAME]` and `python -m client`."""

from __future__ import annotations

import argparse
import asyncio
import os

from client.app import ClientApp
from client.core.names import name_problem
from client.tokens import server_address

DEFAULT_URL = "ws://localhost:8765"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", nargs="?", default=DEFAULT_URL, help=f"the server's address (default {DEFAULT_URL})")
    parser.add_argument("--name", default=None, help="your player name (asked when missing)")
    parser.add_argument("--watch", metavar="GAME", default=None, help="watch this game as a spectator")
    parser.add_argument(
        "--password",
        default=None,
        help="the server's password, if it has one (default: the RISC_PASSWORD environment variable)",
    )


def run(args: argparse.Namespace) -> int:
    if args.name is not None and (problem := name_problem(args.name)) is not None:
        print(f"risc client: --name {args.name!r}: {problem}")
        return 2
    url = server_address(args.url)
    password = args.password if args.password is not None else os.environ.get("RISC_PASSWORD") or None
    app = ClientApp(url, name=args.name, password=password, watch=args.watch)
    try:
        return asyncio.run(app.run())
    except KeyboardInterrupt:
        return 130
