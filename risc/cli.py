"""`risc SUBCOMMAND ...`: each subcommand lives in its own module under risc/commands and registers itself here."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Each module defines `register(subparsers)`, which adds its parser and sets `handler` (args -> exit status).
COMMAND_MODULES = [
    "risc.commands.maps",
    "risc.commands.server",
    "risc.commands.client",
    "risc.commands.bot",
    "risc.commands.play",
    "risc.commands.protocol",
    "risc.commands.tournament",
    "risc.commands.replay",
    "risc.commands.warzone",
    "risc.commands.games",
    "risc.commands.backup",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="risc", description="RISC: simultaneous-turn conquest on a LAN.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(handler(args))
    except KeyboardInterrupt:
        return 130
