"""`risc games damaged`: the unfinished games a starting server sets aside because they cannot be read back, and why.

A server that finds a damaged game (a row that is not valid JSON, an order kept for a turn the game has not reached,
a missing map...) starts with the others and leaves that game in its store untouched; this lists them, reading the
store as a start does, beside a running server if need be (read-only, no lock).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import time
from pathlib import Path
from typing import Any

from risc.commands.stores import add_store_options, store_of


async def find_damaged(path: Path | None, store: str | None = None) -> tuple[int, dict[str, str], dict[str, float]]:
    """(how many unfinished games read back, {game id: why} for those a start (or a node taking them over) would
    set aside, when each of those was created), from the SQLite file at `path` or the PostgreSQL store `store`."""
    from server import core
    from server.match import Match
    from server.storage import open_storage
    from server.storage.codec import map_from_dict

    storage = open_storage(None if path is None else path.parent, store, read_only=True)
    await storage.open()
    try:
        games = await storage.load_unfinished(tail=0)
        readable = 0
        for game in games:  # as Lobby.restore does: build the map and the match, and settle a committed turn
            try:
                match = Match.restore(game, storage, None, map_from_dict(game.record.game_map))
                if match.unsettled:  # the turn a start resolves, decided but not saved: read-only
                    core.settle(match.table)
            except Exception as exc:
                storage.set_aside(game.record.game_id, exc)
            else:
                readable += 1
                await match.close()
        damaged = dict(storage.damaged)
        created = await storage.created_at(list(damaged)) if damaged else {}
        return readable, damaged, created
    finally:
        await storage.close()


def _run_damaged(args: argparse.Namespace) -> int:
    from server.storage import DATABASE_NAME, StorageError, default_data_dir
    from server.storage.postgres import describe

    store = store_of(args)
    path = (args.data_dir or default_data_dir()) / DATABASE_NAME
    where: object = describe(store) if store is not None else path
    if store is None and not path.is_file():
        print(f"risc games: no game database at {path}", file=sys.stderr)
        return 1
    risc_log = logging.getLogger("risc")
    if not risc_log.handlers:  # the findings are printed below, not logged as a server logs them
        risc_log.addHandler(logging.NullHandler())
    try:
        readable, damaged, created = asyncio.run(find_damaged(None if store is not None else path, store))
    except StorageError as exc:
        print(f"risc games: {exc}", file=sys.stderr)
        return 1
    if not damaged:
        print(f"no damaged game in {where} ({readable} unfinished game{'s' * (readable != 1)} read back)")
        return 0
    print(
        f"{len(damaged)} damaged game{'s' * (len(damaged) != 1)} in {where}: a server sets them aside when it "
        f"starts and leaves them untouched ({readable} other unfinished games read back)"
    )
    for game_id, why in damaged.items():
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(created[game_id])) if game_id in created else "?"
        print(f"  {game_id}  created {when}  {why}")
    return 1


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "games",
        help="look into a server's stored games",
        description="Look into the games a server keeps in its data directory.",
    )
    commands = parser.add_subparsers(dest="games_command", metavar="SUBCOMMAND", required=True)
    damaged = commands.add_parser(
        "damaged",
        help="list the unfinished games a server sets aside as damaged",
        description="List the unfinished games that cannot be read back (a damaged row: "
        "text that is not JSON, an order kept for a turn the game has not "
        "reached, a missing map...), which a starting server sets aside, "
        "untouched, and why. Read-only: runs beside a server. Exits 1 if "
        "there is any (or the store cannot be read), else 0.",
    )
    add_store_options(
        damaged,
        "look into this PostgreSQL store instead, beside the nodes playing on it (default: "
        "the RISC_STORE environment variable when --data-dir is not given)",
    )
    damaged.set_defaults(handler=_run_damaged)
