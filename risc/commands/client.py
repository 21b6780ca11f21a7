"""`risc client`: play or watch a game from a terminal (the same as `python -m client`)."""

from __future__ import annotations

import argparse
from typing import Any


def _run(args: argparse.Namespace) -> int:
    from client.main import run

    return run(args)


def register(subparsers: Any) -> None:
    from client.main import add_arguments

    parser = subparsers.add_parser(
        "client",
        help="play or watch a game from a terminal",
        description="Connect to a RISC server: list, create, join or watch games, then "
        "play with typed commands (help lists them). A dropped connection "
        "comes back by itself, and running the same command again returns "
        "you to your seat.",
    )
    add_arguments(parser)
    parser.set_defaults(handler=_run)
