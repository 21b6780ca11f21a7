"""Keeping connections alive (server/frontier/keepalive.py): a connection the server heard nothing from for the
interval is pinged; one that answers stays however long it says nothing else; one that does not answer is cut off;
a client that plays is not pinged at all. Real server, real websocket clients, the interval made short."""

from __future__ import annotations

import asyncio
from typing import Any

from websockets.frames import Frame, Opcode

from tests.server_support import Client, barrier, running_server, until

INTERVAL = 0.5


def pings_received(client: Client) -> list[float]:
    """The times the client's connection received a ping (kept as they come)."""
    times: list[float] = []
    ws: Any = client.ws
    process = ws.process_event

    def seen(event: Frame) -> None:
        if isinstance(event, Frame) and event.opcode is Opcode.PING:
            times.append(ws.loop.time())
        process(event)

    ws.process_event = seen
    return times


async def test_a_silent_client_that_answers_pings_is_pinged_and_stays() -> None:
    async with running_server(keepalive=INTERVAL) as server:
        keepalive = server.transport.keepalive
        client = await Client.connect(server)
        await until(lambda: keepalive.pings >= 3, "three pings", keepalive, timeout=30)
        assert keepalive.cut_off == 0
        await barrier(client)  # still served
        assert len(server.transport.connections) == 1
        await client.close()


async def test_a_client_that_does_not_answer_its_ping_is_cut_off() -> None:
    async with running_server(keepalive=INTERVAL) as server:
        keepalive = server.transport.keepalive
        quiet = await Client.connect(server)
        talking = await Client.connect(server)
        quiet.ws.transport.pause_reading()  # it reads nothing more: the server's ping is never answered
        await until(lambda: keepalive.cut_off == 1, "the silent client cut off", keepalive, timeout=30)
        await until(lambda: len(server.transport.connections) == 1, "its connection let go", talking, keepalive)
        await barrier(talking)  # the one that answers its pings is still served
        assert keepalive.cut_off == 1
        await talking.close()


async def test_a_client_that_keeps_sending_is_never_pinged() -> None:
    async with running_server(keepalive=INTERVAL) as server:
        keepalive = server.transport.keepalive
        playing = await Client.connect(server)
        silent = await Client.connect(server)
        to_playing, to_silent = pings_received(playing), pings_received(silent)
        sending = True

        async def play() -> None:
            while sending:  # a frame every tenth of the interval, as a player's orders come
                await barrier(playing)
                await asyncio.sleep(INTERVAL / 10)

        player = asyncio.create_task(play())
        await until(lambda: len(to_silent) >= 3, "three pings of the silent client", keepalive, timeout=30)
        sending = False
        await player
        assert to_playing == []
        assert keepalive.cut_off == 0
        await playing.close()
        await silent.close()
