"""Which store an operator's command reads: a server's data directory, or a PostgreSQL store the nodes share."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

DATA_DIR_HELP = "the server's data directory (default: the server's default)"


def add_store_options(parser: Any, store_help: str, data_dir_help: str = DATA_DIR_HELP) -> None:
    """--data-dir and --store, as every command that reads a server's store takes them."""
    parser.add_argument("--data-dir", type=Path, default=None, help=data_dir_help)
    parser.add_argument("--store", default=None, metavar="POSTGRESQL_URL", help=store_help)


def store_of(args: argparse.Namespace) -> str | None:
    """The PostgreSQL store named: --store, else the RISC_STORE environment variable when --data-dir is not given."""
    return args.store or (os.environ.get("RISC_STORE") if args.data_dir is None else None) or None
