"""The connection itself: the opening hello, passwords, /healthz, and frames that are garbage or come too fast.

Whatever one client sends, the others go on as before.
"""

from __future__ import annotations

import asyncio
import json

from server.app import RiscServer
from server.clock import ManualClock
from shared.protocol.codes import PROTOCOL_VERSION
from tests.server_support import Client, create_game, running_server, seated_game


async def http_get(server: RiscServer, path: str) -> str:
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    response = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    return response.decode()


async def test_healthz_answers_200_on_the_game_port() -> None:
    async with running_server() as server:
        response = await http_get(server, "/healthz")
        assert response.startswith("HTTP/1.1 200"), response
        assert response.endswith("ok\n")
        assert not (await http_get(server, "/")).startswith("HTTP/1.1 200")  # anything else wants a WebSocket


async def closed_with(client: Client) -> int | None:
    await asyncio.wait_for(client.closed.wait(), 5)
    return client.ws.close_code


async def test_the_password_is_enforced_when_set() -> None:
    async with running_server(password="s3cret") as server:
        for given in (None, "wrong"):
            client = await Client.connect(server, hello=False)
            reply = await client.request(type="hello", protocol=PROTOCOL_VERSION, password=given)
            assert reply["type"] == "error" and reply["code"] == "bad-password"
            assert await closed_with(client) == 4003
        client = await Client.connect(server, password="s3cret")
        assert (await client.request(type="list_games"))["type"] == "games"


async def test_the_first_message_must_be_a_hello_with_the_same_protocol_version() -> None:
    async with running_server() as server:
        client = await Client.connect(server, hello=False)
        reply = await client.request(type="hello", protocol=99)
        assert reply["code"] == "version-mismatch" and f"protocol {PROTOCOL_VERSION}" in reply["message"]
        assert await closed_with(client) == 4001
        client = await Client.connect(server, hello=False)
        await client.send(type="list_games")
        assert (await client.wait_type("error"))["code"] == "hello-first"
        assert await closed_with(client) == 4004
        client = await Client.connect(server)
        reply = await client.request(type="hello", protocol=PROTOCOL_VERSION)
        assert reply["code"] == "invalid-message"  # hello comes once


async def test_garbage_frames_get_errors_then_a_disconnect_and_other_clients_are_untouched() -> None:
    async with running_server(max_message_bytes=4096) as server:
        game_id, (ann, bob), _ = await seated_game(server, ["ann", "bob"])
        before = server.lobby.get(game_id).game
        vandal = await Client.connect(server)
        cases = [
            ("not json at all", "not-json"),
            (b"\x00\x01binary", "binary-frame"),
            (json.dumps({"type": "launch_missiles"}), "unknown-type"),
            (json.dumps({"no": "type"}), "invalid-message"),
            ("[1, 2, 3]", "invalid-message"),
            (json.dumps({"type": "join_game", "game_id": game_id}), "invalid-message"),
            (json.dumps({"type": "commit", "game_id": game_id, "turn": "0", "extra": 1}), "invalid-message"),
            (json.dumps({"type": "list_games", "pad": "x" * 5000}), "too-large"),
        ]
        for frame, code in cases:
            await vandal.send_raw(frame)
            error = await vandal.wait_type("error")
            assert error["code"] == code, (frame, error)
            assert error["message"]
        assert (await vandal.request(type="list_games"))["type"] == "games"  # still served so far
        for _ in range(20):
            await vandal.send_raw("{{{")
        assert await closed_with(vandal) == 4008
        assert server.lobby.get(game_id).game == before
        assert (await ann.request(type="list_orders", game_id=game_id))["type"] == "orders"
        assert not any(f["type"] == "error" for f in ann.frames + bob.frames)


async def test_a_frame_past_the_hard_limit_closes_only_that_connection() -> None:
    async with running_server(max_message_bytes=1024) as server:
        bystander = await Client.connect(server)
        vandal = await Client.connect(server)
        await vandal.send_raw("x" * 10_000)
        assert await closed_with(vandal) == 1009  # message too big
        assert (await bystander.request(type="list_games"))["type"] == "games"


async def test_a_flood_is_rate_limited_then_disconnected_and_other_clients_are_untouched() -> None:
    async with running_server(messages_per_second=20.0, burst=40) as server:
        player = await Client.connect(server)
        game_id = await create_game(player, players=2)
        flooder = await Client.connect(server)
        frame = json.dumps({"type": "list_games", "ref": "flood"})
        for _ in range(200):
            if flooder.closed.is_set():
                break
            await flooder.send_raw(frame)
        assert await closed_with(flooder) == 4008
        answered = sum(f["type"] == "games" for f in flooder.frames)
        limited = [f for f in flooder.frames if f["type"] == "error" and f["code"] == "rate-limited"]
        assert 40 <= answered < 60 and limited
        assert all(f["ref"] == "flood" and f["request"] == "list_games" for f in limited)  # the sender knows which
        reply = await player.request(type="join_game", game_id=game_id, name="ann")
        assert reply["type"] == "joined"


async def test_the_rate_limit_is_measured_on_the_servers_clock() -> None:
    """A test's clock reaches the rate limits (issue 37): the server reads no clock of its own beside it."""
    clock = ManualClock()
    async with running_server(clock=clock, messages_per_second=1.0, burst=3) as server:
        client = await Client.connect(server)
        replies = [await client.request(type="list_games") for _ in range(4)]
        assert [r["type"] for r in replies] == ["games", "games", "games", "error"]
        assert replies[3]["code"] == "rate-limited"
        refused = await client.request(type="list_games")
        assert refused["type"] == "error" and refused["code"] == "rate-limited", "no time passed on the clock"
        clock.advance(1.0)
        assert (await client.request(type="list_games"))["type"] == "games"
