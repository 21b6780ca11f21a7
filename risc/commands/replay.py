"""`risc replay GAME`: a stored game turn by turn, re-run from its seed and checked against its log."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any


def _board(state: Any) -> list[str]:
    """Each holder's territories with their units, one line per holder."""
    held: dict[str, list[str]] = defaultdict(list)
    for name in state.owner:
        held[str(state.owner[name])].append(f"{name} {state.units[name]}")
    return [f"    {owner}: {', '.join(places)}" for owner, places in sorted(held.items())]


def _event_line(event: Any) -> str | None:
    from shared.rules.events import Combat, GameWon, PlayerEliminated

    if isinstance(event, Combat):
        sources = ", ".join(f"{units} from {source}" for source, units in event.sources)
        return (f"    {event.attacker} attacked {event.territory} ({event.defender}) with {event.attacking_units} "
                f"({sources}) against {event.defending_units}: losses {event.attacker_losses}/"
                f"{event.defender_losses}, held by {event.new_owner}")
    if isinstance(event, PlayerEliminated):
        return f"    {event.player} is eliminated"
    if isinstance(event, GameWon):
        return f"    {event.player} wins the game"
    return None


async def _load(data_dir: Path, game_id: str) -> Any:
    from server.storage import DATABASE_NAME, SqliteStorage

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
    result = replay(stored)
    for turn in result.turns:
        print("Placement" if turn.turn == 0 else f"Turn {turn.turn}")
        for line in filter(None, map(_event_line, turn.events)):
            print(line)
        print("  board:")
        print("\n".join(_board(turn.state)))
    if result.ok:
        print(f"OK: {len(result.turns)} turns replayed from the seed give the stored game")
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
