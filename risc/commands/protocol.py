"""`risc protocol schema`: the JSON Schema of every message, both directions, for writers of other clients."""

from __future__ import annotations

import argparse
import json
from typing import Any

from shared.protocol.schema import schemas


def _schema(args: argparse.Namespace) -> int:
    print(json.dumps(schemas(), indent=2))
    return 0


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("protocol", help="describe the client-server protocol")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    schema = actions.add_parser("schema", help="print the JSON Schema of both directions and of every rule set "
                                               "(see docs/protocol.md)")
    schema.set_defaults(handler=_schema)
