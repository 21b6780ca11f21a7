"""The server as its users start it: a process, configured from the command line and the environment, stopped by
a signal, telling its clients before it goes."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import re
import signal
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from server.loop import LoopChoice, choose_loop
from shared.protocol.codes import PROTOCOL_VERSION
from tests.server_support import Client

ROOT = Path(__file__).resolve().parent.parent


async def start_server(
    *args: str,
    env: dict[str, str] | None = None,
    said: list[str] | None = None,
    preexec_fn: Callable[[], None] | None = None,
) -> tuple[asyncio.subprocess.Process, int]:
    """The server in a process of its own, once it listens; `said`: gets what it logged until then (its last line
    the one that says where it listens); `preexec_fn`: run in the new process before the server starts (a limit
    lowered)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        *args,
        cwd=ROOT,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, **(env or {})},
        preexec_fn=preexec_fn,
    )
    assert process.stderr is not None
    said = [] if said is None else said
    while True:
        line = (await asyncio.wait_for(process.stderr.readline(), 10)).decode()
        assert line, "the server exited before listening; it said:\n" + "".join(said[-20:])
        said.append(line)
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        if found:
            return process, int(found.group(1))


async def test_sigterm_tells_the_clients_and_exits_cleanly(tmp_path: Path) -> None:
    process, port = await start_server("--data-dir", str(tmp_path / "data"), env={"RISC_PASSWORD": "pw"})
    try:
        async with connect(f"ws://127.0.0.1:{port}") as ws:  # the password comes from the environment
            await ws.send(f'{{"type": "hello", "protocol": {PROTOCOL_VERSION}}}')
            assert '"bad-password"' in str(await ws.recv())
        client = await Client.connect(port, password="pw")
        created = await client.request(type="create_game", settings={"map": "seed", "players": 2})
        await client.request(type="join_game", game_id=created["game"]["game_id"], name="ann")
        process.send_signal(signal.SIGTERM)
        notice = await client.wait_type("shutting_down")
        assert notice["message"]
        await asyncio.wait_for(client.closed.wait(), 10)
        assert client.ws.close_code == 1001
        assert await asyncio.wait_for(process.wait(), 10) == 0
        assert process.stderr is not None
        log = (await process.stderr.read()).decode()
        assert "created" in log and "ann joined" in log and "stopped" in log
        assert (tmp_path / "data").is_dir()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_ctrl_c_stops_the_server_cleanly() -> None:
    process, port = await start_server("--memory")
    try:
        client = await Client.connect(port)
        process.send_signal(signal.SIGINT)
        await client.wait_type("shutting_down")
        assert await asyncio.wait_for(process.wait(), 10) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_impossible_limits_are_refused_at_start_with_the_option_named(tmp_path: Path) -> None:
    for option, value in (("--max-games", "0"), ("--bot-turn-pause", "-1")):
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "server",
            "--port",
            "0",
            "--data-dir",
            str(tmp_path),
            option,
            value,
            cwd=ROOT,
            stderr=asyncio.subprocess.PIPE,
        )
        _, err = await asyncio.wait_for(process.communicate(), 20)
        assert process.returncode == 1
        assert option in err.decode()


async def test_a_server_on_every_interface_prints_the_addresses_others_on_the_lan_can_use(tmp_path: Path) -> None:
    """Not 127.0.0.1 alone: every address it prints for the web page and for `risc client` answers, and those of
    this computer's network interfaces that are not loopback nor link-local are there (the interfaces as `ip`
    lists them, where it can)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "risc",
        "server",
        "--host",
        "0.0.0.0",
        "--port",
        "0",
        "--memory",
        cwd=ROOT,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    said: list[str] = []
    try:
        while not any("(this computer only)" in line for line in said):
            line = (await asyncio.wait_for(process.stderr.readline(), 10)).decode()
            assert line, "the server exited; it said:\n" + "".join(said)
            said.append(line)
        reached = [
            (m.group(1), m.group(2))
            for line in said
            for m in [re.search(r"at the web page at (http://\S+/), risc client (ws://\S+)", line)]
            if m
        ]
        lan = [ws for _, ws in reached if "127.0.0.1" not in ws]
        listed = await asyncio.create_subprocess_exec("ip", "-o", "-4", "addr", stdout=asyncio.subprocess.PIPE)
        out, _ = await listed.communicate()
        interfaces = {m.group(1) for m in re.finditer(r"inet (\d+\.\d+\.\d+\.\d+)/\d+ .*scope global", out.decode())}
        assert interfaces <= {ws.split("//")[1].rsplit(":", 1)[0] for ws in lan}, (interfaces, said)
        assert lan, "this computer has a network interface besides loopback: " + "".join(said)
        for page, ws in reached:
            assert page.replace("http://", "ws://").rstrip("/") == ws
            async with connect(ws) as socket:
                await socket.send(f'{{"type": "hello", "protocol": {PROTOCOL_VERSION}}}')
                assert '"welcome"' in str(await socket.recv())
    finally:
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), 10)


async def test_the_server_says_which_event_loop_it_runs_and_plays_on_each() -> None:
    installed = importlib.util.find_spec("uvloop") is not None
    for wanted, told in (("asyncio", "asyncio"), ("auto", "uvloop" if installed else "asyncio"), ("uvloop", "uvloop")):
        if wanted == "uvloop" and not installed:  # asked for by name, a missing uvloop stops the start, saying so
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "server",
                "--port",
                "0",
                "--memory",
                "--loop",
                "uvloop",
                cwd=ROOT,
                stderr=asyncio.subprocess.PIPE,
            )
            _, err = await asyncio.wait_for(process.communicate(), 20)
            assert process.returncode == 1 and "uvloop is not installed" in err.decode()
            continue
        said: list[str] = []
        process, port = await start_server("--memory", "--loop", wanted, said=said)
        try:
            assert any(f"event loop: {told}" in line for line in said), said
            client = await Client.connect(port)
            created = await client.request(type="create_game", settings={"map": "seed", "players": 2})
            joined = await client.request(type="join_game", game_id=created["game"]["game_id"], name="ann")
            assert joined["type"] == "joined"
            process.send_signal(signal.SIGTERM)
            await client.wait_type("shutting_down")
            assert await asyncio.wait_for(process.wait(), 10) == 0
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()


def test_auto_takes_uvloop_where_it_is_installed_and_asyncio_where_it_is_not() -> None:
    assert choose_loop("auto", found=None) == LoopChoice("asyncio", None)
    assert choose_loop("asyncio", found=None).factory is None
    with pytest.raises(ValueError, match="not installed"):
        choose_loop("uvloop", found=None)
    with pytest.raises(ValueError, match="choose one of"):
        choose_loop("tokio")


async def test_log_format_json_writes_each_line_as_one_json_object_naming_the_node(postgres_dsn: str) -> None:
    said: list[str] = []
    process, port = await start_server(
        "--store", postgres_dsn, "--node-id", "games-7", "--log-format", "json", said=said
    )
    try:
        client = await Client.connect(port)
        await client.request(type="create_game", settings={"map": "seed", "players": 2})
        process.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(process.communicate(), 30)
        lines = [json.loads(line) for line in [*said, *err.decode().splitlines()] if line.strip()]
        assert lines and {line["node"] for line in lines} == {"games-7"}
        assert {"time", "level", "logger", "message"} <= set(lines[0])
        assert any(line["message"].startswith("game ") and "created" in line["message"] for line in lines)
        assert any(line["message"] == "stopped" for line in lines)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
