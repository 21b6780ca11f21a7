"""Nodes sharing one PostgreSQL store: in this test's event loop (RiscServer on a free port each), or as real
`risc server` processes; and what a client does with a `redirect`."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlparse

from server.app import RiscServer
from server.cluster.directory import ClusterDirectory
from server.cluster.node import Node
from tests.server_support import FAST, Client, Message, running_server

NODE_TIMING = {"heartbeat": 0.2, "sweep_every": 0.3, "fence_after": 2.0}
"""A cluster's clocks, quickened for tests (the defaults are 1 s, 2 s and 15 s)."""


@contextlib.asynccontextmanager
async def nodes(dsn: str, count: int, **settings: Any) -> AsyncIterator[list[RiscServer]]:
    """`count` nodes in this process on the database `dsn`, named a, b, c..."""
    async with contextlib.AsyncExitStack() as stack:
        servers = []
        for index in range(count):
            config = {"node_id": "abcdefgh"[index], **FAST, **NODE_TIMING, **settings}
            servers.append(await stack.enter_async_context(running_server(store=dsn, **config)))
        yield servers


def node_of(server: RiscServer) -> Node:
    """The node a server of several runs as: its hold on games, its session, its sweeper."""
    assert isinstance(server.directory, ClusterDirectory), server.directory
    return server.directory.node


def port_of(url: str) -> int:
    port = urlparse(url).port
    assert port is not None, url
    return port


async def follow(client: Client, reply: Message, **request: Any) -> tuple[Client, Message]:
    """Follow a `redirect`: connect where it says and send `request` again there. Returns the client the reply came
    on (the new one, or `client` when there was no redirect) and the reply."""
    if reply["type"] != "redirect":
        return client, reply
    moved = await Client.connect(port_of(reply["url"]), session=client.session)
    return moved, await moved.request(**request)


def keep_reading_log(process: asyncio.subprocess.Process) -> None:
    """Read a node's log as it comes (once the test has seen it start), so that it never blocks on a full pipe."""

    async def drain() -> None:
        assert process.stderr is not None
        while await process.stderr.readline():
            pass

    task = asyncio.get_running_loop().create_task(drain())
    _READERS.add(task)
    task.add_done_callback(_READERS.discard)


_READERS: set[asyncio.Task[None]] = set()
