"""A database written by the release before rule sets had a seam of their own opens, and its games play on.

tests/data/schema4-games.sqlite3 was written by that release (tests/data/make_schema4_database.py says how): a game
in its lobby, one in placement with orders issued and a player committed, one at turn 3 with an order issued, and
a finished one. Its games kept RISC's state as it then was (the board's fields beside the framework's, no steps);
this release reads that as it is and writes its own form from the next change on.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from risc.cli import main
from server.storage import SqliteStorage
from server.storage.sqlite import DATABASE_NAME
from tests.server_support import FAST, Client, owned, running_server
from tests.test_server_game import play

DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture
def old_database(tmp_path: Path) -> Path:
    shutil.copy(DATA / "schema4-games.sqlite3", tmp_path / DATABASE_NAME)
    return tmp_path


def seats() -> dict[str, object]:
    found: dict[str, object] = json.loads((DATA / "schema4-seats.json").read_text())
    return found


async def back(client: Client, game_id: str, token: str) -> dict[str, object]:
    reply = await client.request(type="resume", game_id=game_id, token=token)
    assert reply["type"] == "resumed", reply
    return await client.wait_for(lambda m: m["type"] == "update" and m["game_id"] == game_id)


async def test_the_games_of_an_old_database_are_restored_and_play_to_their_end(old_database: Path) -> None:
    kept = seats()
    tokens: dict[str, dict[str, str]] = kept["tokens"]  # type: ignore[assignment]
    lobby_id, placing_id, playing_id = str(kept["lobby"]), str(kept["placing"]), str(kept["playing"])
    async with running_server(SqliteStorage(old_database / DATABASE_NAME), **FAST) as server:
        listing = await (await Client.connect(server)).request(type="list_games")
        by_id = {g["game_id"]: g for g in listing["games"]}
        finished_id = str(kept["finished"])
        assert set(by_id) == {lobby_id, placing_id, playing_id, finished_id}  # the finished one is listed again
        assert by_id[finished_id]["status"] == "finished"
        assert by_id[lobby_id]["status"] == "lobby" and [s["name"] for s in by_id[lobby_id]["seats"]] == ["ann"]
        assert by_id[placing_id]["phase"] == "placement" and by_id[playing_id]["turn"] == 3

        # Placement: ann's two units issued before the restart are still hers, and bob's commit still holds.
        ann, bob, cyd = [await Client.connect(server) for _ in range(3)]
        update = await back(ann, placing_id, tokens[placing_id]["ann"])
        view = update["view"]
        assert isinstance(view, dict)
        assert [o["units"] for o in view["your_orders"]] == [2] and view["pool_left"] == 4
        assert [s["committed"] for s in update["game"]["seats"]] == [False, True, False]  # type: ignore[index]
        await back(bob, placing_id, tokens[placing_id]["bob"])
        await back(cyd, placing_id, tokens[placing_id]["cyd"])
        winners = await asyncio.gather(
            play(ann, placing_id, "ann"), play(cyd, placing_id, "cyd"), play(bob, placing_id, "bob")
        )
        assert winners[0]["game"]["winner"] in {"ann", "bob", "cyd"}

        # Turn 3: dan's order issued before the restart is still there, and the game plays on to its winner.
        dan, eve = await Client.connect(server), await Client.connect(server)
        update = await back(dan, playing_id, tokens[playing_id]["dan"])
        view = update["view"]
        assert isinstance(view, dict) and len(view["your_orders"]) == 1 and view["turn"] == 3
        assert owned(view, "dan")
        await back(eve, playing_id, tokens[playing_id]["eve"])
        reply = await dan.request(type="withdraw_order", game_id=playing_id, turn=3, index=0)
        assert reply["type"] == "order_withdrawn" and reply["index"] == 0, reply
        assert (await dan.request(type="list_orders", game_id=playing_id))["orders"] == []
        await asyncio.gather(play(dan, playing_id, "dan"), play(eve, playing_id, "eve"))

        # The lobby game still takes players.
        for name in ("bob", "cyd"):
            reply = await (await Client.connect(server)).request(type="join_game", game_id=lobby_id, name=name)
            assert reply["type"] == "joined", reply


async def test_an_old_finished_game_and_the_old_part_of_a_log_replay_from_their_seed(
    old_database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = seats()
    assert await asyncio.to_thread(main, ["replay", str(kept["finished"]), "--data-dir", str(old_database)]) == 0
    out = capsys.readouterr().out
    assert "attacked" in out and out.rstrip().splitlines()[-1].startswith("OK")
    async with running_server(SqliteStorage(old_database / DATABASE_NAME), **FAST) as server:
        clients = [await Client.connect(server) for _ in range(2)]
        tokens: dict[str, dict[str, str]] = kept["tokens"]  # type: ignore[assignment]
        playing_id = str(kept["playing"])
        await back(clients[0], playing_id, tokens[playing_id]["dan"])
        await back(clients[1], playing_id, tokens[playing_id]["eve"])
        await clients[0].request(type="withdraw_order", game_id=playing_id, turn=3, index=0)
        await asyncio.gather(play(clients[0], playing_id, "dan"), play(clients[1], playing_id, "eve"))
    # A game played partly by the old release and partly by this one replays as one game.
    assert await asyncio.to_thread(main, ["replay", playing_id, "--data-dir", str(old_database)]) == 0
    assert capsys.readouterr().out.rstrip().splitlines()[-1].startswith("OK")
