"""`risc maps ...`: list the bundled maps (check, show and convert come with the map tools)."""

from __future__ import annotations

import argparse
from typing import Any

from shared.maps import bundled_map_names, load_map


def _list(args: argparse.Namespace) -> int:
    for name in bundled_map_names():
        game_map = load_map(name)
        print(f"{name:<16} {len(game_map.territories):>4} territories  {game_map.name}")
    return 0


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("maps", help="list, check, show and convert maps")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="the maps bundled with RISC")
    listing.set_defaults(handler=_list)
