"""`risc replay GAME`: a stored game turn by turn, re-run from its seed and checked against its log."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any


def _lines(fragments: list[tuple[str, str]], indent: str = "    ") -> list[str]:
    text = "".join(part for _, part in fragments)
    return [indent + line for line in text.splitlines() if line.strip()]


async def _load(data_dir: Path, game_id: str) -> Any:
    from server.storage import SqliteStorage
    from server.storage.sqlite import DATABASE_NAME

    path = data_dir / DATABASE_NAME
    if not path.is_file():
        raise LookupError(f"no game database at {path}")
    storage = SqliteStorage(path, read_only=True)
    try:
        stored = await storage.load(game_id)
        if stored is None:
            known = await storage.list_games()
            raise LookupError(f'there is no game "{game_id}" in {path}'
                              + (f" (games: {', '.join(known[-10:])})" if known else ""))
        return stored
    finally:
        await storage.close()


def _run(args: argparse.Namespace) -> int:
    from server.replay import replay
    from server.storage import StorageError, default_data_dir

    data_dir = args.data_dir or default_data_dir()
    try:
        stored = asyncio.run(_load(data_dir, args.game))
    except (LookupError, StorageError) as exc:
        print(f"risc replay: {exc}", file=sys.stderr)
        return 1
    from shared.game.presentation import Palette
    from shared.rulesets import get_ruleset

    result = replay(stored)
    ruleset = get_ruleset(stored.record.settings.ruleset)
    presentation = ruleset.presentation
    palette = Palette(tuple(s.name for s in stored.progress.seats))
    last = None
    over = bool(result.steps) and ruleset.status(result.steps[-1].game).finished and stored.progress.finished
    kept = 0
    for step in result.steps:
        status = ruleset.status(step.game)
        if step.turn != last:
            print(f"Turn {step.turn}")
            last = step.turn
        # A game still under way is shown as a spectator sees it: what only some players were told stays theirs.
        shown = [e for e, private in zip(step.events, step.private or [False] * len(step.events), strict=True)
                 if over or not private]
        kept += len(step.events) - len(shown)
        for line in _lines(presentation.events(shown, palette, None)):
            print(line)
        if ruleset.simultaneous or status.turn != step.turn or status.finished:
            print("  standing:")
            view = ruleset.view(step.game, None)
            for line in _lines(presentation.summary(view, step.game.game_map, palette, None))[1:]:
                print(line)
    if kept:
        print(f"({kept} events told only to some players are kept until the game is over)")
    if result.ok:
        print(f"OK: {len(result.steps)} resolutions replayed from the seed give the stored game")
        return 0
    print(f"DIFFERS at {result.difference}")
    return 1


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("replay", help="replay a stored game and check it against its log",
                                   description="Print a stored game turn by turn (combats and the board after "
                                               "each turn) as the engine re-plays it from the game's seed and "
                                               "logged orders; say OK, or the first turn that differs.")
    parser.add_argument("game", help="the game's id")
    parser.add_argument("--data-dir", type=Path, default=None, help="the server's data directory (default: the "
                                                                    "server's default)")
    parser.set_defaults(handler=_run)
