"""`risc SUBCOMMAND ...`: each subcommand lives in its own module under risc/commands and registers itself here."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from collections.abc import Sequence
from importlib import metadata

# Each module defines `register(subparsers)`, which adds its parser and sets `handler` (args -> exit status).
COMMAND_MODULES = [
    "risc.commands.maps",
    "risc.commands.server",
    "risc.commands.client",
    "risc.commands.bot",
    "risc.commands.play",
    "risc.commands.rules",
    "risc.commands.protocol",
    "risc.commands.tournament",
    "risc.commands.replay",
    "risc.commands.warzone",
    "risc.commands.games",
    "risc.commands.backup",
    "risc.commands.account",
    "risc.commands.accounts",
    "risc.commands.ratings",
]


_started: float | None = None
"""When this run of `risc` began (main was called), on the monotonic clock."""


def elapsed() -> float:
    """Seconds of wall-clock time since `risc` began: what a command that reports its own duration says."""
    return time.monotonic() - (_started if _started is not None else time.monotonic())


def version() -> str:
    try:
        return metadata.version("risc")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; given the `command` typed, only that command's (a command's module loads what it
    needs to say its options: `risc client` need not load the server that `risc server` describes)."""
    parser = argparse.ArgumentParser(prog="risc", description="RISC: simultaneous-turn conquest on a LAN.")
    parser.add_argument("--version", action="version", version=f"risc {version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        if command is None or module_name == f"risc.commands.{command}":
            importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    global _started
    _started = time.monotonic()
    try:
        status = _main(argv)
        sys.stdout.flush()  # here, where a reader that went away can still be answered quietly
        return status
    except BrokenPipeError:
        # Whoever read our output stopped (`risc maps list | head -1`): that is not an error worth a traceback.
        # Python would try to flush stdout again on the way out and complain, so it goes to the null device.
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        return 1


def _main(argv: Sequence[str] | None) -> int:
    typed = list(sys.argv[1:] if argv is None else argv)
    named = typed[0] if typed and f"risc.commands.{typed[0]}" in COMMAND_MODULES else None
    parser = build_parser(named)
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(handler(args))
    except KeyboardInterrupt:
        return 130
