"""`risc server`: run a game server (the same as `python -m server`)."""

from __future__ import annotations

import argparse
from typing import Any


def _run(args: argparse.Namespace) -> int:
    from server.app import run

    return run(args)


def register(subparsers: Any) -> None:
    from server.app import add_arguments

    parser = subparsers.add_parser("server", help="run a game server",
                                   description="Run a RISC game server: WebSocket clients and GET /healthz on "
                                               "one port; Ctrl-C or SIGTERM stops it cleanly.")
    add_arguments(parser)
    parser.set_defaults(handler=_run)
