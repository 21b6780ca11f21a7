"""Password guessing is slowed per address and logged in summary (issue 19, item 3).

After a few wrong passwords, each further refusal to that address waits, twice as long each time up to a cap; while
one waits, the address's other hellos are refused unread; other addresses are served as before. Real connections,
from two loopback addresses (127.0.0.1 and 127.0.0.2). No assertion here reads a clock: the waits are long enough
never to end within a test, or are read from what the server hands out.
"""

from __future__ import annotations

import logging

import pytest
from websockets.asyncio.client import connect

from server.app import RiscServer
from server.config import ServerConfig
from server.frontier.guesses import Guesses, address_of
from shared.protocol.codes import PROTOCOL_VERSION
from tests.server_support import Client, running_server, url
from tests.test_security_exhaustion import eventually

PASSWORD = "s3cret"


async def hello_from(server: RiscServer, source: str, password: str | None) -> Client:
    """A connection from the loopback address `source` that has sent its hello (the answer may take a while)."""
    client = Client(await connect(url(server), max_size=None, local_addr=(source, 0)))
    await client.send(type="hello", protocol=PROTOCOL_VERSION, password=password, ref="hello")
    return client


async def answer(client: Client) -> dict[str, object]:
    return await client.wait_for(lambda m: m.get("ref") == "hello")


async def test_after_a_few_wrong_passwords_an_address_waits_and_tests_no_other_password_meanwhile() -> None:
    async with running_server(password=PASSWORD, password_free_failures=2, password_delay=3600.0) as server:
        for _ in range(2):  # the first failures are refused at once
            refused = await answer(await hello_from(server, "127.0.0.1", "guess"))
            assert refused["code"] == "bad-password" and refused["message"] == "wrong password"
        waiting = await hello_from(server, "127.0.0.1", "guess")  # the third waits an hour before its refusal
        await eventually(lambda: server.transport.guesses.waiting("127.0.0.1"))

        busy = await answer(await hello_from(server, "127.0.0.1", PASSWORD))  # even the right one, unread
        assert busy["code"] == "bad-password" and "too many wrong passwords from your address" in str(busy["message"])

        other = await hello_from(server, "127.0.0.2", PASSWORD)  # another address is served as before
        assert (await answer(other))["type"] == "welcome"
        assert (await other.request(type="list_games"))["type"] == "games"
        assert (await answer(await hello_from(server, "127.0.0.2", "typo")))["message"] == "wrong password"

        assert waiting.frames == [] and not waiting.closed.is_set()  # still waiting, an hour from its answer
    assert waiting.latest("shutting_down") is not None  # a stopping server ends the wait


async def test_each_further_wrong_password_waits_twice_as_long_up_to_the_cap_and_a_right_one_clears_them() -> None:
    async with running_server(
        password=PASSWORD, password_free_failures=1, password_delay=0.001, password_delay_max=0.004
    ) as server:
        for _ in range(5):
            assert (await answer(await hello_from(server, "127.0.0.1", "guess")))["code"] == "bad-password"
        assert server.transport.guesses.waits == [0.001, 0.002, 0.004, 0.004]
        assert (await answer(await hello_from(server, "127.0.0.1", PASSWORD)))["type"] == "welcome"
        assert (await answer(await hello_from(server, "127.0.0.1", "guess")))["code"] == "bad-password"
        assert server.transport.guesses.waits == [0.001, 0.002, 0.004, 0.004]  # counted afresh: not yet waiting


def test_the_waits_grow_from_the_first_failure_past_the_free_ones() -> None:
    guesses = Guesses(free=5, delay=1.0, delay_max=60.0, forget=900.0, report_every=60.0)
    assert [guesses.wait_after(n) for n in range(1, 14)] == [0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 60, 60]
    assert guesses.wait_after(10_000) == 60


def test_failures_are_counted_per_ipv4_address_and_per_ipv6_network() -> None:
    assert address_of("192.168.1.7") == "192.168.1.7"
    assert address_of("::ffff:192.168.1.7") == "192.168.1.7"
    assert address_of("2001:db8:1:2:aaaa::1") == address_of("2001:db8:1:2:bbbb::2") == "2001:db8:1:2::/64"


async def test_wrong_passwords_are_logged_once_then_in_summary(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "risc")
    config = ServerConfig(host="127.0.0.1", port=0, password=PASSWORD, password_free_failures=1000)
    async with RiscServer(config) as server:
        for _ in range(30):
            await answer(await hello_from(server, "127.0.0.1", "guess"))
        await answer(await hello_from(server, "127.0.0.2", "guess"))
        first = [r.getMessage() for r in caplog.records if "from 127.0.0.1" in r.getMessage()]
        assert first == ["from 127.0.0.1: 1 hello with a wrong password refused (1 failures in a row)"]
    lines = [r.getMessage() for r in caplog.records if "from 127.0.0." in r.getMessage()]
    assert lines == [
        "from 127.0.0.1: 1 hello with a wrong password refused (1 failures in a row)",
        "from 127.0.0.2: 1 hello with a wrong password refused (1 failures in a row)",
        "from 127.0.0.1: 29 hellos with a wrong password refused (30 failures in a row)",
    ]


async def test_a_summary_comes_once_its_period_is_over(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "risc")
    async with running_server(password=PASSWORD, password_report_every=0.05) as server:
        for _ in range(3):
            await answer(await hello_from(server, "127.0.0.1", "guess"))

        def lines() -> list[str]:
            return [r.getMessage() for r in caplog.records if "from 127.0.0.1" in r.getMessage()]

        # Every refusal is counted once, in a line or a summary: waited for by count, since on a busy machine the
        # three hellos may straddle one period or more (then the last comes in a summary of its own).
        await eventually(lambda: sum(int(line.split(": ")[1].split()[0]) for line in lines()) >= 3)
        told = lines()
        assert told[0] == "from 127.0.0.1: 1 hello with a wrong password refused (1 failures in a row)", "at once"
        assert 2 <= len(told) <= 3, "the others once the period is over"
        assert sum(int(line.split(": ")[1].split()[0]) for line in told) == 3
