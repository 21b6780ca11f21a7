"""What a server lets go of is freed by reference counting alone: a connection that ends, cleanly or dropped, and a
game let go leave no cycle of references behind, so the collector's walk over everything the server holds can be
rare (server/collector.py).

The whole life first: a real server in a process of its own, its collector off (tests/cycles_support.py), lives a
server's ordinary life twice (games of every rule set played to their end by network bots and the server's
computers, spectators, chat, a turn's time limit run out, a rematch, a replay, lobby watchers, accounts signed in
and out, a rated game found by quick play, requests refused, connections closed and dropped, a handshake cut
short); each life must leave nothing for the collector but what rating a game's end leaves (a few objects of
openskill's own, a rated game). The first life too: what a server makes once and whose making leaves garbage (the
rule sets' JSON schemas: their orders' fields, `list_rulesets`) is made as it starts, before it freezes what it
holds; made at a first use in the middle of play, that garbage stayed frozen until the collector's whole walk.

Then each kind of object that once stayed in a cycle, in this process with the collector off: what the server held
is freed the moment it is let go, or the test says what still holds it.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

from server.app import RiscServer
from tests.cycles_support import (
    LIFE_SETTINGS,
    RATED_GAME_GARBAGE,
    RATING_CYCLES,
    ServerApart,
    a_life,
    quiet,
    said,
)
from tests.server_support import Client, create_game, finished, join, running_server


@pytest.fixture
def collector_off() -> Iterator[None]:
    """The cycle collector off for the test: what is not freed by counting references stays."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect()


def still_held(ref: weakref.ref[Any]) -> str:
    """What holds an object that should have been freed: its referrers' types, for the failure's message."""
    thing = ref()
    if thing is None:
        return "freed"
    return ", ".join(sorted({type(r).__qualname__ for r in gc.get_referrers(thing)}))


async def test_a_servers_ordinary_life_leaves_no_cyclic_garbage() -> None:
    async with ServerApart.running() as server:
        first = await a_life(server.port)
        first_report = await server.garbage()
        second = await a_life(server.port)
        report = await server.garbage()
    assert first.problems == [] and second.problems == []
    for life, found in ((first, first_report), (second, report)):
        others = [c["cycle"] for c in found["cycles"] if not c["cycle"].startswith(RATING_CYCLES)]
        assert others == [] and found["found"] <= RATED_GAME_GARBAGE * life.rated, said(found)
    assert second.games == 17 and second.dropped >= 10 and second.accounts == 4 and second.rated == 1


def server_side(server: RiscServer) -> list[weakref.ref[Any]]:
    """Weak references to what the server holds of each of its connections: ours, websockets', its reader."""
    refs: list[weakref.ref[Any]] = []
    for conn in server.transport.connections:
        refs += [weakref.ref(conn), weakref.ref(conn.ws), weakref.ref(conn.ws.protocol)]
        refs.append(weakref.ref(conn.ws.protocol.reader))
    return refs


@pytest.mark.parametrize("end", ["closed", "dropped"])
async def test_a_connection_that_ends_is_freed_by_counting_references(collector_off: None, end: str) -> None:
    async with running_server() as server:
        client = await Client.connect(server)
        assert (await client.request(type="list_games"))["type"] == "games"
        refs = server_side(server)
        assert len(refs) == 4
        if end == "closed":
            await client.close()
        else:
            client.ws.transport.abort()
            await client.closed.wait()
        await quiet(server, 0)
        assert [still_held(ref) for ref in refs] == ["freed"] * len(refs)


async def test_a_finished_game_let_go_is_freed_by_counting_references(collector_off: None) -> None:
    async with running_server(**LIFE_SETTINGS) as server:
        client = await Client.connect(server)
        game_id = await create_game(client, players=3, bots=2, options={"max_turns": 3})
        await join(client, game_id, "Ann")
        assert (await client.request(type="resign", game_id=game_id))["type"] == "resigned"
        await finished(client, game_id)
        match = weakref.ref(server.lobby.matches[game_id])
        assert (await client.request(type="leave_game", game_id=game_id))["type"] == "left"
        await create_game(client, players=3)  # a new game lets the finished ones go (none are kept)
        await quiet(server, 1)
        assert game_id not in server.lobby.matches
        assert still_held(match) == "freed"
