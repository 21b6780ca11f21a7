"""A client that keeps to the limits the server announces is never refused for sending too fast."""

from __future__ import annotations

from client.connection import Connection
from shared.protocol import messages as msg
from shared.protocol.pacing import TokenBucket
from tests.server_support import running_server, url


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_gives_its_burst_then_one_token_per_interval() -> None:
    clock = FakeClock()
    bucket = TokenBucket(3, 2.0, clock)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    assert bucket.wait_time() == 0.5  # 2 tokens a second
    clock.now = 0.25
    assert bucket.wait_time() == 0.25 and not bucket.take()
    clock.now = 0.5
    assert bucket.wait_time() == 0.0 and bucket.take()
    clock.now = 100.0
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]  # never more than the burst


async def test_a_fast_client_waits_rather_than_being_refused() -> None:
    async with running_server(messages_per_second=40.0, burst=10) as server:
        connection = Connection(url(server), on_message=lambda message: None)
        await connection.open()
        try:
            replies = [await connection.request(msg.ListGames()) for _ in range(40)]
        finally:
            await connection.close()
    assert [r.type for r in replies] == ["games"] * 40
