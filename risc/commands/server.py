"""`risc server`: run a game server with its web page (`python -m server` runs one without the page); with
`--nodes N` and a PostgreSQL `--store`, N nodes of one server on this machine, to try a cluster."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from typing import Any

FORWARDED = (
    "max_games",
    "bot_turn_pause",
    "min_turn_seconds",
    "fence_after",
    "sweep_every",
    "mail_from",
    "vacation_days",
    "notify_lease",
)
"""Options every node of a local cluster is started with, as given."""


def _run(args: argparse.Namespace) -> int:
    from client.webpage import web_root
    from server.app import run

    if args.nodes > 1:
        return _run_nodes(args)
    return run(args, None if args.no_web else web_root())


def node_command(args: argparse.Namespace, index: int) -> list[str]:
    """The command line of node `index` (from 0) of a local cluster: the same options, its own port and name."""
    command = [
        sys.executable,
        "-m",
        "risc",
        "server",
        "--host",
        args.host,
        "--port",
        str(args.port + index),
        "--node-id",
        f"node-{index + 1}",
        "--store",
        args.store or os.environ.get("RISC_STORE", ""),
    ]
    for name in FORWARDED:
        command += [f"--{name.replace('_', '-')}", str(getattr(args, name))]
    for folder in args.maps:
        command += ["--maps", str(folder)]
    for origin in args.allow_origin:
        command += ["--allow-origin", origin]
    for host in args.webhook_allow:
        command += ["--webhook-allow", host]
    for name in ("smtp", "page_url"):
        if getattr(args, name) is not None:
            command += [f"--{name.replace('_', '-')}", str(getattr(args, name))]
    if args.password is not None:
        command += ["--password", args.password]
    command += ["--no-compression"] * args.no_compression + ["--no-web"] * args.no_web
    return command


def _run_nodes(args: argparse.Namespace) -> int:
    """Start the nodes, say where they are, and stop them all on Ctrl-C or SIGTERM; a node that dies (kill -9 it
    to see its games go on elsewhere) is reported and not started again."""
    if not (args.store or os.environ.get("RISC_STORE")):
        print("risc server: --nodes needs a PostgreSQL --store (or RISC_STORE) for the nodes to share", file=sys.stderr)
        return 1
    if args.port == 0 or args.node_id or args.public_url:
        print(
            "risc server: with --nodes, give a --port (node i listens on PORT+i-1) and no --node-id or "
            "--public-url (each node has its own)",
            file=sys.stderr,
        )
        return 1
    nodes = [subprocess.Popen(node_command(args, index)) for index in range(args.nodes)]
    print(
        f"{args.nodes} nodes on ports {args.port} to {args.port + args.nodes - 1} (clients may join through "
        "any of them); Ctrl-C stops them all",
        file=sys.stderr,
    )
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True
        for node in nodes:
            if node.poll() is None:
                node.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    told: set[int] = set()
    while any(node.poll() is None for node in nodes):
        for index, node in enumerate(nodes):
            code = node.poll()
            if code is not None and index not in told and not stopping:
                told.add(index)
                how = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
                print(
                    f"risc server: node-{index + 1} ended ({how}); the other nodes play its games on", file=sys.stderr
                )
        time.sleep(0.2)
    return 0 if stopping else 1


def register(subparsers: Any) -> None:
    from server.app import add_arguments

    parser = subparsers.add_parser(
        "server",
        help="run a game server",
        description="Run a RISC game server: the web page at http://HOST:PORT/, "
        "WebSocket clients and GET /healthz, all on one port; Ctrl-C or "
        "SIGTERM stops it cleanly.",
    )
    add_arguments(parser)
    parser.add_argument("--no-web", action="store_true", help="serve no web page (WebSocket clients and /healthz only)")
    parser.set_defaults(handler=_run)
