"""`risc replay GAME`: a stored game turn by turn, re-run from its seed and checked against its log."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from risc.commands.stores import add_store_options


def _lines(fragments: list[tuple[str, str]], indent: str = "    ") -> list[str]:
    text = "".join(part for _, part in fragments)
    return [indent + line for line in text.splitlines() if line.strip()]


async def _find(storage: Any, game_id: str) -> Any:
    """The stored game `game_id` names in `storage`: its whole id, or the start of it as the client takes it
    everywhere (`risc replay 48f`); None when no game has it; LookupError when several do."""
    from server.lobby.game_ids import unique_game
    from server.refusal import Refusal

    stored = await storage.load(game_id)
    if stored is not None:
        return stored
    try:
        named = unique_game(game_id, await storage.list_games())
    except Refusal as refusal:
        raise LookupError(refusal.message) from None
    return None if named == game_id else await storage.load(named)


async def _load(data_dirs: list[Path], game_id: str, played_here: Path | None) -> Any:
    """The stored game from the first of `data_dirs` that holds it; LookupError saying where it was looked for.
    `played_here`: the folder `risc play` keeps its games in, when it is one of them (a hint names it)."""
    from server.storage import SqliteStorage
    from server.storage.sqlite import DATABASE_NAME

    paths = [d / DATABASE_NAME for d in data_dirs]
    known: list[str] = []
    for path in paths:
        if not path.is_file():
            continue
        storage = SqliteStorage(path, read_only=True)
        try:
            stored = await _find(storage, game_id)
            if stored is not None:
                return stored
            known += (await storage.list_games())[-10:]
        finally:
            await storage.close()
    where = " nor ".join(str(p) for p in paths)
    hint = "" if played_here is None else f" (risc play keeps its games in {played_here})"
    if not any(path.is_file() for path in paths):
        raise LookupError(f"no game database at {where}{hint}; --data-dir DIR names a server's data directory")
    raise LookupError(
        f'there is no game "{game_id}" in {" or ".join(str(p) for p in paths if p.is_file())}'
        + (f" (games: {', '.join(known[-10:])})" if known else "")
    )


async def _load_shared(dsn: str, game_id: str) -> Any:
    """The stored game from a PostgreSQL store, read beside the nodes that play on it."""
    from server.storage.postgres import PostgresStorage

    storage = PostgresStorage(dsn, read_only=True)
    await storage.open()
    try:
        stored = await _find(storage, game_id)
        if stored is None:
            known = (await storage.list_games())[-10:]
            raise LookupError(
                f'there is no game "{game_id}" in the {storage.where}'
                + (f" (games: {', '.join(known)})" if known else "")
            )
        return stored
    finally:
        await storage.close()


def _run(args: argparse.Namespace) -> int:
    from risc.commands.play import local_data_dir
    from server.replays.replay import replay
    from server.storage import StorageError, default_data_dir

    store = args.store or os.environ.get("RISC_STORE") or None
    if args.data_dir is not None:
        data_dirs, played_here = [args.data_dir], None
    else:  # a server's games, then those of risc play
        data_dirs, played_here = [default_data_dir(), local_data_dir()], local_data_dir()
    try:
        stored = asyncio.run(
            _load_shared(store, args.game)
            if store is not None and args.data_dir is None
            else _load(data_dirs, args.game, played_here)
        )
    except (LookupError, StorageError) as exc:
        print(f"risc replay: {exc}", file=sys.stderr)
        return 1
    from shared.game.presentation import Palette
    from shared.rulesets import game_ruleset

    result = replay(stored)
    ruleset, _ = game_ruleset(stored.record.settings.ruleset, stored.record.settings.options)
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
        if step.resigned is not None:  # a step of its own, before what the rules made of it
            what = presentation.resignation
            print(f"    {step.resigned} resigned" + (f": {what}." if what else "."))
        # A game still under way is shown as a spectator sees it: what only some players were told stays theirs.
        shown = [
            e
            for e, private in zip(step.events, step.private or [False] * len(step.events), strict=True)
            if over or not private
        ]
        kept += len(step.events) - len(shown)
        for line in _lines(presentation.events(shown, palette, None)):
            print(line)
        if ruleset.simultaneous or status.turn != step.turn or status.finished:
            view = ruleset.view(step.game, None)
            if args.board:
                print("  board:")
                for line in _lines(presentation.board(view, step.game.game_map, palette, None)):
                    print(line)
            else:
                print("  standing:")
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
    parser = subparsers.add_parser(
        "replay",
        help="replay a stored game and check it against its log",
        description="Print a stored game turn by turn (what happened, then each "
        "player's standing after each turn; --board: the whole board) as "
        "the engine re-plays it from the game's seed and logged orders; say "
        "OK, or the first turn that differs. Without --data-dir, the game "
        "is looked for among a server's games, then among those of risc "
        "play.",
    )
    parser.add_argument("game", help="the game's id, or the start of it")
    parser.add_argument(
        "--board", action="store_true", help="print the whole board after each turn instead of each player's standing"
    )
    add_store_options(
        parser,
        "read the game from this PostgreSQL store, beside the nodes playing on it (default: "
        "the RISC_STORE environment variable when --data-dir is not given)",
        data_dir_help="the server's data directory (default: the server's default, then risc play's, its local/ "
        "folder)",
    )
    parser.set_defaults(handler=_run)
