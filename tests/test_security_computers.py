"""Games of the server's computers alone cannot exhaust it (issue 27): they count against the client that asked for
them, the server plays only so many at once, and people are answered first whatever they cost.

One connection asked for a game of five computers every 12 ms: every such game started at once, so none counted
towards the limits on games waiting for players, and 496 of them in 100 s took a whole core and about 1 GB, kept a
bystander's request waiting 1.25 s and a new connection 2.8 s, and locked everyone else out at the 500 games cap.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from server.clock import ManualClock
from server.computers.share import ComputerTime
from shared.protocol.codes import PROTOCOL_VERSION
from tests.attack_support import COMPUTER_GAME, Attack
from tests.cycles_support import quiet
from tests.server_support import FAST, Client, create_game, join, running_server

ROOT = Path(__file__).resolve().parent.parent
COMPUTERS_ALONE = {"map": "seed", "players": 2, "bots": 2}
SLOW = 60.0
"""A pause between the computers' turns that outlasts every test here: their games stay in play."""


async def test_games_of_computers_alone_count_against_the_connection_and_the_address_that_asked() -> None:
    async with running_server(
        bot_turn_pause=SLOW, open_games_per_connection=3, open_games_per_address=5, **FAST
    ) as server:
        asking = await Client.connect(server)
        for _ in range(3):
            await create_game(asking, **COMPUTERS_ALONE)
        assert all(m.started and m.computers_alone for m in server.lobby.matches.values())
        refused = await asking.request(type="create_game", settings=COMPUTERS_ALONE)
        assert refused["type"] == "error" and refused["code"] == "too-many-games", refused
        assert "played by computers alone" in refused["message"]
        again = await Client.connect(server)  # the same computer: counted by its address too
        for _ in range(2):
            await create_game(again, **COMPUTERS_ALONE)
        refused = await again.request(type="create_game", settings={"map": "seed", "players": 2})
        assert refused["type"] == "error" and refused["code"] == "too-many-games", refused
        assert len(server.lobby.matches) == 5


async def test_a_game_of_computers_alone_no_longer_counts_once_it_is_over() -> None:
    async with running_server(open_games_per_connection=1, **FAST) as server:
        asking = await Client.connect(server)
        game_id = await create_game(asking, **COMPUTERS_ALONE)
        await asking.request(type="watch_game", game_id=game_id)
        await asking.wait_for(lambda m: m["type"] == "update" and m["game"]["status"] == "finished", timeout=60)
        await create_game(asking, **COMPUTERS_ALONE)


async def test_a_new_connection_holds_none_of_the_games_an_ended_one_held() -> None:
    """The games a connection holds (waiting for players) are counted against it while it lasts: one after another,
    each new connection (whose server-side object may take the place in memory of the one before, and so its id)
    creates its game, and only its second is refused; the lobby keeps no count of a connection that ended."""
    async with running_server(open_games_per_connection=1, open_games_per_address=10, **FAST) as server:
        for _ in range(5):
            client = await Client.connect(server)
            await create_game(client, players=2)
            refused = await client.request(type="create_game", settings={"map": "seed", "players": 2})
            assert refused["type"] == "error" and refused["code"] == "too-many-games", refused
            await client.close()
            await quiet(server, 0)
        assert server.lobby._created == {}, "the lobby let go of each ended connection's count"


async def test_a_game_whose_players_are_all_out_counts_against_its_creator_while_the_computers_play_on() -> None:
    async with running_server(bot_turn_pause=SLOW, open_games_per_connection=1, **FAST) as server:
        ann = await Client.connect(server)
        game_id = await create_game(ann, players=3, bots=2)
        await join(ann, game_id, "ann")
        await ann.wait_for(lambda m: m["type"] == "update" and m["game"]["status"] == "playing")
        match = server.lobby.get(game_id)
        assert not match.computers_alone, "a game a person plays"
        assert (await ann.request(type="resign", game_id=game_id))["type"] == "resigned"
        assert match.computers_alone and not match.finished
        refused = await ann.request(type="create_game", settings={"map": "seed"})
        assert refused["type"] == "error" and refused["code"] == "too-many-games", refused


async def test_the_server_plays_so_many_games_of_computers_alone_whoever_asks_and_takes_games_for_people() -> None:
    async with running_server(
        bot_turn_pause=SLOW, computer_games=4, open_games_per_connection=100, open_games_per_address=100, **FAST
    ) as server:
        askers = [await Client.connect(server) for _ in range(4)]
        for asking in askers:
            await create_game(asking, **COMPUTERS_ALONE)
        refused = await askers[0].request(type="create_game", settings=COMPUTERS_ALONE)
        assert refused["type"] == "error" and refused["code"] == "too-many-games", refused
        assert refused["field"] == "settings.bots" and "computers alone" in refused["message"]
        await create_game(askers[0], players=2, bots=1)  # a seat for a person: a game like any other


# ---- under attack, measured -----------------------------------------------------------------------------------------

FILLERS = 7
"""Loopback addresses that first fill the server with the games of computers alone it allows (3 each at most, 20
in all), one connection each."""
ATTACK_SECONDS = 12.0
SAMPLE_EVERY = 0.02
P99_TARGET = 0.050


@contextlib.asynccontextmanager
async def server_process(data: Path) -> AsyncIterator[tuple[asyncio.subprocess.Process, int]]:
    """`risc server` as its users start it, with its defaults, on a free port."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--data-dir",
        str(data),
        cwd=ROOT,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert process.stderr is not None
    try:
        while True:
            line = (await asyncio.wait_for(process.stderr.readline(), 20)).decode()
            assert line, "the server exited before listening"
            found = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
            if found:
                break
        drain = asyncio.get_running_loop().create_task(_drain(process.stderr))
        yield process, int(found.group(1))
        drain.cancel()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def _drain(stream: asyncio.StreamReader) -> None:
    while await stream.readline():
        pass


def resident(pid: int) -> int:
    found = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    return int(found.group(1)) * 1024 if found else 0


async def fill_with_computer_games(port: int) -> tuple[list[str], list[str]]:
    """Games of computers alone asked for from several addresses until every one is refused: the games made, and
    why the others were refused (each address's fourth is refused for its three, the server's 21st for its 20)."""
    made: list[str] = []
    refusals: list[str] = []
    for index in range(FILLERS):
        async with connect(f"ws://127.0.0.1:{port}", max_size=None, local_addr=(f"127.0.0.{20 + index}", 0)) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION}))
            await ws.recv()
            for attempt in range(4):
                ref = f"create-{attempt}"
                await ws.send(json.dumps({"type": "create_game", "settings": COMPUTER_GAME, "ref": ref}))
                answer = json.loads(await ws.recv())
                while answer.get("ref") != ref:  # whatever else the server sends meanwhile is no answer
                    answer = json.loads(await ws.recv())
                if answer["type"] == "game_created":
                    made.append(answer["game"]["game_id"])
                else:
                    refusals.append(f"address {index}: {answer.get('code')}: {answer.get('message')}")
    return made, refusals


async def test_a_bystanders_requests_are_answered_in_time_while_games_of_computers_alone_are_asked_for(
    tmp_path: Path,
) -> None:
    """The attack of the issue (one connection asking for a game of five computers every 12 ms, from a process of
    its own) against the server as its users start it, already playing as many games of computers alone as it
    allows: the games it plays are bounded (a game the attack is given takes the place of one that ended), and a
    bystander's request is answered within 50 ms at the 99th percentile meanwhile."""
    async with server_process(tmp_path / "data") as (process, port):
        ann, bob = await Client.connect(port), await Client.connect(port)
        game_id = await create_game(ann, players=2)
        await join(ann, game_id, "ann")
        await join(bob, game_id, "bob")
        baseline = resident(process.pid)
        filled, refusals = await fill_with_computer_games(port)
        assert len(filled) == 20, "the server plays 20 games of computers alone at most:\n" + "\n".join(refusals)
        attack = await Attack.start(port, 1, ATTACK_SECONDS)
        waits: list[float] = []
        peak = baseline
        while not attack.done():
            asked = time.monotonic()
            reply: dict[str, Any] = await ann.request(type="list_orders", game_id=game_id)
            waits.append(time.monotonic() - asked)
            assert reply["type"] == "orders"
            peak = max(peak, resident(process.pid))
            await asyncio.sleep(max(0.0, SAMPLE_EVERY - (time.monotonic() - asked)))
        made = await attack.result()
        waits.sort()
        p99 = waits[int(len(waits) * 0.99)]
        listed = await ann.request(type="list_games", limit=100)
        status = {game["game_id"]: game["status"] for game in listed["games"]}
        ended = sum(status.get(game) != "playing" for game in filled)
        playing_alone = sum(
            game["status"] == "playing" and all(seat["computer"] for seat in game["seats"]) for game in listed["games"]
        )
        assert set(made["refused"]) == {"too-many-games"}, made
        assert made["created"] <= ended, f"the attack was given {made['created']} games while {ended} ended"
        assert playing_alone <= 20, f"{playing_alone} games of computers alone in play"
        assert p99 < P99_TARGET, f"a bystander's p99 {p99 * 1000:.0f} ms over {len(waits)} requests"
        assert peak - baseline < 300 * 1024 * 1024, f"memory grew {(peak - baseline) >> 20} MiB"


async def test_a_computers_turn_and_the_rest_after_it_are_measured_on_the_servers_clock() -> None:
    """Issue 37: the share of the time the computers take is counted on the server's clock, which a test moves."""
    clock = ManualClock()
    computers = ComputerTime(share=0.25, clock=clock)
    async with computers.turn(urgent=False):
        clock.advance(0.01)  # the turn's work, as the server's clock saw it
    assert computers.rested == pytest.approx(0.03)  # three times the work: the computers took a quarter
