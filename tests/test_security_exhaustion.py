"""Clients that stop reading cannot make the server hold more than its byte caps (issue 19, item 1).

What the server has yet to send waits in a queue per connection, capped in bytes per connection and in total over
every connection; a connection past a cap is closed (4009, too slow), and what it held is let go at once. The clients
here are real: raw WebSocket connections that send requests and never read their answers.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

from shared.protocol.codes import PROTOCOL_VERSION
from shared.protocol.messages import Error
from tests.security_support import RawClient
from tests.server_support import FAST, Client, create_game, running_server

KIB = 1024


MANY_GAMES = {**FAST, "open_games_per_connection": 100, "open_games_per_address": 100}
"""Room for one client to open the games whose listing fills the queues."""


async def eventually(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait for `condition` (the time limit only bounds a failing test)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        assert loop.time() < end, "the condition did not come true"
        await asyncio.sleep(0.01)


async def listing_size(client: Client, games: int) -> int:
    """Create `games` games, so that each games listing the server sends is this many bytes or so."""
    for _ in range(games):
        await create_game(client)
    return len(json.dumps(await client.request(type="list_games")))


async def stalled_reader(port: int) -> RawClient:
    """A client that says hello and will read nothing more."""
    client, head = await RawClient.connect(port)
    assert head.startswith("HTTP/1.1 101"), head
    await client.send(type="hello", protocol=PROTOCOL_VERSION)
    return client


async def ask_for_listings(client: RawClient, count: int) -> None:
    await client.send_many([{"type": "list_games"}] * count)


async def test_a_client_that_stops_reading_is_closed_too_slow_past_its_byte_cap_and_what_it_held_is_let_go() -> None:
    async with running_server(outbound_bytes=64 * KIB, outbound_total_bytes=64 * 1024 * KIB, **MANY_GAMES) as server:
        healthy = await Client.connect(server)
        size = await listing_size(healthy, 20)
        outbound = server.transport.outbound
        stalled = await stalled_reader(server.port)
        await ask_for_listings(stalled, 4 * 1024 * KIB // size)  # megabytes of answers
        await eventually(lambda: outbound.closed_too_slow == 1)
        assert outbound.largest_connection <= 64 * KIB
        await eventually(lambda: outbound.queued == 0)  # nothing of it is held any longer
        assert await stalled.close_code() == 4009
        stalled.abort()
        await eventually(lambda: len(server.transport.connections) == 1)
        assert (await healthy.request(type="list_games"))["type"] == "games"


async def test_clients_that_stop_reading_together_are_held_to_the_servers_total_byte_cap() -> None:
    async with running_server(outbound_bytes=256 * KIB, outbound_total_bytes=512 * KIB, **MANY_GAMES) as server:
        healthy = await Client.connect(server)
        size = await listing_size(healthy, 20)
        outbound = server.transport.outbound
        stalled = [await stalled_reader(server.port) for _ in range(6)]
        ports = {client.writer.get_extra_info("sockname")[1] for client in stalled}
        await eventually(lambda: len(server.transport.connections) == 1 + len(stalled))
        held = [c for c in server.transport.connections if c.ws.remote_address[1] in ports]
        filler = Error(code="internal", message="x" * size)  # sent as the server sends, at once: the kernel's
        for conn in sorted(held, key=lambda c: c.number):  # buffers and the order requests are read in play no part
            while conn.queued < 160 * KIB and not conn.closing:  # each below its own cap, together above the total
                conn.send(filler)
        assert outbound.closed_for_total >= 1  # closed to make room, before their own cap
        assert outbound.closed_too_slow == outbound.closed_for_total
        assert outbound.peak <= 512 * KIB
        for client in stalled:
            await ask_for_listings(client, 2 * 1024 * KIB // size)
        await eventually(lambda: outbound.closed_too_slow == len(stalled))
        assert outbound.peak <= 512 * KIB  # never more, whoever was closed to keep to it
        await eventually(lambda: outbound.queued == 0)
        for client in stalled:
            client.abort()
        assert (await healthy.request(type="list_games"))["type"] == "games"
        assert not healthy.closed.is_set()


async def test_a_message_larger_than_the_cap_still_reaches_a_client_that_reads() -> None:
    """The caps bound what waits behind a message, not the message itself: a client whose queue is empty always
    gets the next one, however large (a snapshot of a very large map)."""
    async with running_server(outbound_bytes=1 * KIB, outbound_total_bytes=2 * KIB, **MANY_GAMES) as server:
        client = await Client.connect(server)
        size = await listing_size(client, 10)
        assert size > 2 * KIB
        assert (await client.request(type="list_games"))["type"] == "games"
        assert server.transport.outbound.closed_too_slow == 0
