"""How tests/data/schema4-games.sqlite3 was made: with the release before rule sets had a seam of their own (schema
version 4, protocol 1), run as `PYTHONPATH=<a checkout of that release> python tests/data/make_schema4_database.py
DIR`. It plays four games on a real server and stops it, leaving them as that release kept them: one still in its
lobby, one in placement with orders issued and one player committed, one at turn 3 with orders issued, and one
finished. The seat tokens go to seats.json beside the database, so a test can take the seats back."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from server.app import RiscServer
from server.config import ServerConfig
from server.storage import SqliteStorage
from tests.server_support import FAST, Client, create_game, current_view, join, owned


async def place_all(client: Client, game_id: str, name: str) -> None:
    view = current_view(client, game_id)
    await client.request(
        type="issue_order",
        game_id=game_id,
        turn=0,
        order={"kind": "place", "territory": owned(view, name)[0], "units": view["pool_left"]},
    )


async def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    tokens: dict[str, dict[str, str]] = {}
    config = ServerConfig(host="127.0.0.1", port=0, bot_turn_pause=0.0, **FAST)
    async with RiscServer(config, SqliteStorage(folder / "games.sqlite3")) as server:
        lobby_client = await Client.connect(server)
        waiting = await create_game(lobby_client, players=3)
        tokens[waiting] = {"ann": await join(lobby_client, waiting, "ann")}

        ann, bob, cyd = [await Client.connect(server) for _ in range(3)]
        placing = await create_game(ann, players=3, initial_units=6)
        tokens[placing] = {n: await join(c, placing, n) for c, n in ((ann, "ann"), (bob, "bob"), (cyd, "cyd"))}
        await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        await bob.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        await place_all(bob, placing, "bob")
        await bob.request(type="commit", game_id=placing, turn=0)
        view = current_view(ann, placing)
        mine = owned(view, "ann")
        await ann.request(
            type="issue_order", game_id=placing, turn=0, order={"kind": "place", "territory": mine[0], "units": 2}
        )

        dan, eve = await Client.connect(server), await Client.connect(server)
        playing = await create_game(dan, players=2, initial_units=8)
        tokens[playing] = {"dan": await join(dan, playing, "dan"), "eve": await join(eve, playing, "eve")}
        for client, name in ((dan, "dan"), (eve, "eve")):
            await client.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
            await place_all(client, playing, name)
            await client.request(type="commit", game_id=playing, turn=0)
        for turn in (1, 2):
            for client in (dan, eve):
                await client.wait_for(
                    lambda m, t=turn: m["type"] == "update" and m["view"] is not None and m["view"]["turn"] == t
                )
                await client.request(type="commit", game_id=playing, turn=turn)
        await dan.wait_for(lambda m: m["type"] == "update" and m["view"] is not None and m["view"]["turn"] == 3)
        view = current_view(dan, playing)
        source = max(owned(view, "dan"), key=lambda n: next(t["units"] for t in view["territories"] if t["name"] == n))
        target = next(t["neighbours"] for t in view["territories"] if t["name"] == source)[0]
        kind = "move" if target in owned(view, "dan") else "attack"
        await dan.request(
            type="issue_order",
            game_id=playing,
            turn=3,
            order={"kind": kind, "units": 1, "source": source, "target": target},
        )

        watcher = await Client.connect(server)
        finished = await create_game(watcher, players=3, bots=3, bot_strategy="strategist")
        await watcher.request(type="watch_game", game_id=finished)
        await watcher.wait_for(lambda m: m["type"] == "update" and m["game"]["phase"] == "finished", timeout=60)
    (folder / "seats.json").write_text(
        json.dumps(
            {"lobby": waiting, "placing": placing, "playing": playing, "finished": finished, "tokens": tokens}, indent=1
        )
        + "\n"
    )
    print(f"wrote {folder / 'games.sqlite3'}")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
