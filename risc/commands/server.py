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
    "log_format",
    "mail_from",
    "vacation_days",
    "notify_lease",
)
"""Options every node of a local cluster is started with, as given."""

FIRST_PAUSE = 1.0
LONGEST_PAUSE = 30.0
"""A node that died is started again after a pause: 1 s, doubling each time it dies again soon, up to 30 s."""

STEADY = 60.0
"""A node that ran this long before it died is started again after the first pause."""

GIVE_UP_BEFORE = 10.0
"""When every node has ended and none ever ran this long, they cannot start (a wrong option, no database): give up."""


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


class LocalNode:
    """One node of a local cluster: its process, started again when it dies."""

    def __init__(self, args: argparse.Namespace, index: int) -> None:
        self.args, self.index = args, index
        self.name = f"node-{index + 1}"
        self.pause = FIRST_PAUSE
        self.longest = 0.0
        """The longest it ever ran."""
        self.due: float | None = None
        """When to start it again, once it died."""
        self.process = self._start()

    def _start(self) -> subprocess.Popen[bytes]:
        self.started = time.monotonic()
        return subprocess.Popen(node_command(self.args, self.index))

    def check(self, now: float) -> None:
        """Say that it died, and start it again when its pause is over."""
        code = self.process.poll()
        if code is None:
            return
        if self.due is None:
            ran = now - self.started
            self.longest = max(self.longest, ran)
            self.pause = FIRST_PAUSE if ran >= STEADY else self.pause
            how = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
            print(
                f"risc server: {self.name} ended ({how}); the other nodes play its games on; starting it again "
                f"in {self.pause:g} s",
                file=sys.stderr,
            )
            self.due = now + self.pause
            self.pause = min(LONGEST_PAUSE, self.pause * 2)
        elif now >= self.due:
            self.due = None
            self.process = self._start()
            print(f"risc server: {self.name} started again", file=sys.stderr)

    @property
    def running(self) -> bool:
        return self.process.poll() is None


def _run_nodes(args: argparse.Namespace) -> int:
    """Start the nodes, say where they are, and stop them all on Ctrl-C or SIGTERM (each hands its games to the
    others as it stops). A node that dies (kill -9 it to see its games go on elsewhere) is reported and started
    again after a pause that grows while it keeps dying, so that the local cluster heals itself."""
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
    nodes = [LocalNode(args, index) for index in range(args.nodes)]
    print(
        f"{args.nodes} nodes on ports {args.port} to {args.port + args.nodes - 1} (clients may join through "
        "any of them); a node that dies is started again; Ctrl-C stops them all",
        file=sys.stderr,
    )
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True
        for node in nodes:
            if node.running:
                node.process.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    while not stopping:
        now = time.monotonic()
        for node in nodes:
            node.check(now)
        if all(node.due is not None for node in nodes) and all(node.longest < GIVE_UP_BEFORE for node in nodes):
            print("risc server: no node could start (see above); giving up", file=sys.stderr)
            return 1
        time.sleep(0.1)
    while any(node.running for node in nodes):
        time.sleep(0.1)
    return 0


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
