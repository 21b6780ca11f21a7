"""Frames built to break the server, and passwords it could never be given: each gets a clear answer, never a crash.

Issue 19, items 9: a deeply nested frame (after a burst, or alone) is refused with an error and the connection goes
on; an empty or undecodable password is refused when the server starts, not at every hello.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

import pytest

from server.app import add_arguments, config_from_args
from tests.server_support import Client, running_server

ROOT = Path(__file__).resolve().parent.parent

DEEP = "[" * 20_000 + "]" * 20_000
"""Valid JSON, far deeper than any message: the stdlib's json module runs out of stack on it."""


def deep_in(kind: str) -> str:
    """A message of `kind` whose ref is nested 20,000 levels deep: the frame names its request."""
    return '{"type": "' + kind + '", "ref": ' + DEEP + "}"


async def test_a_deeply_nested_frame_gets_an_invalid_message_error_and_the_connection_goes_on() -> None:
    async with running_server() as server:
        client = await Client.connect(server)
        for frame in (DEEP, deep_in("list_games"), '{"type": "create_game", "settings": {"map": ' + DEEP + "}}"):
            await client.send_raw(frame)
            error = await client.wait_type("error")
            assert error["code"] == "invalid-message", error
            assert "deep" in error["message"]
        assert (await client.request(type="list_games"))["type"] == "games"
        assert not client.closed.is_set()


async def test_a_deeply_nested_frame_after_a_burst_is_refused_as_rate_limited_and_the_connection_goes_on() -> None:
    async with running_server(burst=2, messages_per_second=0.5) as server:
        client = await Client.connect(server)
        for _ in range(2):
            await client.send(type="list_games")
        await client.send_raw(deep_in("list_games"))
        await client.send_raw(DEEP)
        errors = [await client.wait_type("error") for _ in range(2)]
        assert [e["code"] for e in errors] == ["rate-limited", "rate-limited"]
        assert errors[0]["request"] is None  # a ref nested that deep is not a ref to copy
        await client.send(type="list_games")  # answered or rate-limited: either way the connection is served
        assert await client.wait_for(
            lambda m: m["type"] in ("games", "error") and m.get("ref") is None and m.get("code") != "invalid-message"
        )
        assert not client.closed.is_set()


def parsed(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(["--memory", *argv])


def test_an_empty_password_option_is_refused_at_start() -> None:
    with pytest.raises(ValueError, match="--password is empty"):
        config_from_args(parsed("--password", ""))


def test_an_empty_risc_password_means_no_password(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decided: an empty RISC_PASSWORD is taken as unset, as docker-compose passes one when none is chosen (and the
    clients read it so too); the start says that the server needs no password."""
    monkeypatch.setenv("RISC_PASSWORD", "")
    assert config_from_args(parsed()).password is None


def test_a_risc_password_that_is_not_utf8_is_refused_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    # The bytes caf\xe9 (Latin-1, as a shell in another locale gives them), as Python hands them over on POSIX.
    monkeypatch.setenv("RISC_PASSWORD", "caf\udce9")
    with pytest.raises(ValueError, match="RISC_PASSWORD is not UTF-8"):
        config_from_args(parsed())


def test_a_password_longer_than_a_hello_can_carry_is_refused_at_start() -> None:
    with pytest.raises(ValueError, match="at most 256 characters"):
        config_from_args(parsed("--password", "x" * 257))


async def test_risc_server_with_an_empty_password_exits_with_a_message() -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server",
        "--memory",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--password",
        "",
        cwd=ROOT,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(process.communicate(), 20)
    assert process.returncode == 1
    assert "cannot start: --password is empty" in err.decode()
