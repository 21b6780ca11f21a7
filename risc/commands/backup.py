"""`risc backup DEST`: a consistent copy of a server's games, taken beside the running server."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from risc.commands.stores import add_store_options


def _run(args: argparse.Namespace) -> int:
    from server.storage import DATABASE_NAME, StorageError, default_data_dir
    from server.storage.backup import back_up, back_up_postgres
    from server.storage.postgres import describe

    store = args.store or os.environ.get("RISC_STORE") or None
    dest = Path(args.dest)
    if dest.is_dir():
        dest = dest / DATABASE_NAME
    source: object
    try:
        if store is not None:
            source = describe(store)
            report = back_up_postgres(store, dest)
        else:
            source = (args.data_dir or default_data_dir()) / DATABASE_NAME
            report = back_up(source, dest)
    except (StorageError, OSError) as exc:
        print(f"risc backup: {exc}", file=sys.stderr)
        return 1
    print(
        f"backed up {report.games} game{'s' * (report.games != 1)} ({report.unfinished} unfinished) from {source} "
        f"to {dest}, "
        f"{report.size} bytes, in {report.seconds:.2f} s"
    )
    return 0


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "backup",
        help="copy a server's games to a file, while it runs",
        description="Take a consistent copy of the games a server keeps (SQLite's online backup: the server may "
        "run and play on meanwhile; no lock is taken). To restore: stop the server, copy the backup "
        "into its data directory as games.sqlite3, start it. Never overwrites a file.",
    )
    parser.add_argument("dest", help="the file to write (or a directory, to write games.sqlite3 in it)")
    add_store_options(
        parser,
        "copy the games of this PostgreSQL store (nodes sharing it play on) into the SQLite "
        "file DEST, as one snapshot sees them (default: the RISC_STORE environment variable, "
        "else the SQLite file of --data-dir)",
    )
    parser.set_defaults(handler=_run)
