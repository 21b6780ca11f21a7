"""`risc ratings` in a real terminal of 80 by 24 (a pseudo-terminal) against a real server process whose SQLite store
holds rated games: the ladder fits the screen, best first, provisional ratings marked; a profile shows its ratings,
its history as bars and its last games."""

from __future__ import annotations

import asyncio
from pathlib import Path

from server.storage import SqliteStorage
from server.storage.accounts import AccountRecord
from server.storage.ratings import Placed, RatedEnd
from server.storage.sqlite_ratings import rate_in
from shared.protocol.names import skeleton
from tests.terminal_support import Terminal, plain, server_process, terminals

PLAYERS = [f"Player {n:02}" for n in range(1, 26)]


async def rated_games(path: Path) -> None:
    """25 accounts and 60 rated grid games of three among them (the first ones win most), through the store's own
    rating of a game's end."""
    storage = SqliteStorage(path)
    accounts = storage.accounts()
    for n, name in enumerate(PLAYERS):
        await accounts.create_account(AccountRecord(f"id{n:02}", name, skeleton(name), "", 1.0))
    for game in range(60):
        seated = sorted({(game * 7 + k * 11) % 25 for k in range(3)})
        while len(seated) < 3:
            seated.append((seated[-1] + 1) % 25)
        places = tuple((Placed(f"id{n:02}", PLAYERS[n], place),) for place, n in enumerate(seated, start=1))
        end = RatedEnd(f"g{game:03}", "grid", 1_800_000_000.0 + game * 60, places, 3)
        await storage.write(lambda db, end=end: rate_in(db, end))
    await storage.close()


def test_risc_ratings_shows_the_ladder_and_a_profile_in_80_by_24(tmp_path: Path) -> None:
    asyncio.run(rated_games(tmp_path / "data" / "games.sqlite3"))
    with server_process(tmp_path / "data") as address, terminals() as opened:
        ladder = Terminal(["ratings", "grid", "--server", address], {})
        opened.append(ladder)
        assert ladder.wait() == 0
        screen = plain(ladder.text).rstrip("\n").split("\n")
        assert len(screen) <= 24 and all(len(line) <= 80 for line in screen)
        assert screen[0].startswith("Grid Risk (VG101) ladder (1-20 of 25")
        rows = screen[2:]
        assert len(rows) == 20 and rows[0].split()[:3] == ["1", "Player", "01"]
        ratings = [int(row[30:37].strip().rstrip("?")) for row in rows]
        assert ratings == sorted(ratings, reverse=True)

        profile = Terminal(["ratings", "--player", "player 01", "--server", address], {})
        opened.append(profile)
        assert profile.wait() == 0
        text = plain(profile.text)
        lines = text.rstrip("\n").split("\n")
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        assert lines[0] == "Player 01: ratings (? provisional)"
        assert "Grid Risk (VG101)" in lines[1] and "wins" in lines[1]
        assert any(set(line.strip()) <= set("▁▂▃▄▅▆▇█") and len(line.strip()) > 3 for line in lines)
        assert "last games:" in text and " of 3 " in text

        unknown = Terminal(["ratings", "--player", "nobody", "--server", address], {})
        opened.append(unknown)
        assert unknown.wait() == 1
        assert 'no account is named "nobody"' in plain(unknown.text)
