"""`risc server`: run a game server with its web page (`python -m server` runs one without the page)."""

from __future__ import annotations

import argparse
from typing import Any


def _run(args: argparse.Namespace) -> int:
    from client.webpage import web_root
    from server.app import run

    return run(args, None if args.no_web else web_root())


def register(subparsers: Any) -> None:
    from server.app import add_arguments

    parser = subparsers.add_parser("server", help="run a game server",
                                   description="Run a RISC game server: the web page at http://HOST:PORT/, "
                                               "WebSocket clients and GET /healthz, all on one port; Ctrl-C or "
                                               "SIGTERM stops it cleanly.")
    add_arguments(parser)
    parser.add_argument("--no-web", action="store_true", help="serve no web page (WebSocket clients and /healthz "
                                                              "only)")
    parser.set_defaults(handler=_run)
