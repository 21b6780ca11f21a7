"""`risc protocol schema`: the JSON Schema of every message, both directions, for writers of other clients.
`risc protocol example`: the worked example of docs/protocol.md, played afresh on a server of this process."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from shared.protocol.schema import schemas


def _schema(args: argparse.Namespace) -> int:
    print(json.dumps(schemas(), indent=2))
    return 0


def _example(args: argparse.Namespace) -> int:
    from risc.protocol_example import SEED, ExampleError, run

    try:
        print(run(SEED if args.seed is None else args.seed), end="")
    except ExampleError as exc:
        print(f"risc protocol example: {exc}", file=sys.stderr)
        return 1
    return 0


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("protocol", help="describe the client-server protocol")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    schema = actions.add_parser(
        "schema", help="print the JSON Schema of both directions and of every rule set (see docs/protocol.md)"
    )
    schema.set_defaults(handler=_schema)
    example = actions.add_parser(
        "example",
        help="play a short RISC game on a server of this process and print every frame, as the worked "
        "example of docs/protocol.md",
        description="Start a server in this process (a free port, games in memory, a fixed seed), play a short "
        "two-player RISC game on it with scripted clients, and print every frame each connection sent "
        "and received, as the markdown of docs/protocol.md's worked example. Game ids and seat tokens "
        "are replaced with fixed stand-ins, so the output is the same on every run.",
    )
    example.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the seed of the example's games (default: the one the page was made with; another "
        "seed plays another game, which may not go as the page tells)",
    )
    example.set_defaults(handler=_example)
