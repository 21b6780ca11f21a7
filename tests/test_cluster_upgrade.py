"""Upgrading the nodes one by one (docs/scaling.md, "Upgrades"): the store's schema changes by additive steps that
the previous release's nodes keep working on, so nodes of two releases run side by side on one database; a node
refuses a schema newer than it knows only when a step since is not additive, and says which release it needs.

tests/data/postgres-previous.sql is a database the previous release made (its schema version is in it;
make_postgres_previous.py says how), and postgres-previous.json names the commit that made it. The previous release's
node is that commit's own code, taken from the repository's history (git archive) and run as a real node process; a
later release's node is this release's code with one schema step more.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import psycopg

from server.storage.postgres import RELEASE, SCHEMA_VERSION
from tests.cluster_support import follow, keep_reading_log, port_of
from tests.persistence_support import commit, issue_all
from tests.postgres_support import PostgresCluster
from tests.server_support import Client, create_game
from tests.test_cluster_failover import stop

DATA = Path(__file__).resolve().parent / "data"
ROOT = Path(__file__).resolve().parent.parent
DUMP = DATA / "postgres-previous.sql"
PREVIOUS = int(re.search(r"COPY public\.risc_schema \(version[^)]*\) FROM stdin;\n(\d+)", DUMP.read_text())[1])
"""The schema version of the previous release: its database's."""

RELEASE_NODE = """
import sys
import server.storage.postgres as store
known, extra, not_additive, release = int(sys.argv[1]), sys.argv[2], sys.argv[3] == "1", sys.argv[4]
del store.MIGRATIONS[known:]
if extra:
    store.MIGRATIONS.append(extra)
    if not_additive:
        store.NOT_ADDITIVE[len(store.MIGRATIONS)] = len(store.MIGRATIONS)
store.SCHEMA_VERSION = len(store.MIGRATIONS)
if release:
    store.RELEASE = release
from server.__main__ import main
sys.argv = ["server", *sys.argv[5:]]
sys.exit(main())
"""
"""A node whose store knows the first `known` schema steps (and one `extra` step more, additive or not), of the
release named."""

LATER_STEP = "CREATE TABLE risc_later (note text)"


async def start_release(
    dsn: str,
    node_id: str,
    *,
    known: int = SCHEMA_VERSION,
    extra: str = "",
    not_additive: bool = False,
    release: str = "",
    said: list[str] | None = None,
    code: Path = ROOT,
) -> tuple[asyncio.subprocess.Process, int | None]:
    """A node of that release (`code`: the checkout it runs from), once it listens (port), or once it exited having
    refused to start (None)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        RELEASE_NODE,
        str(known),
        extra,
        "1" if not_additive else "0",
        release,
        "--store",
        dsn,
        "--node-id",
        node_id,
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--fence-after",
        "30",
        "--sweep-every",
        "0.3",
        cwd=code,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(code)},
    )
    assert process.stderr is not None
    lines = [] if said is None else said
    while True:
        line = (await asyncio.wait_for(process.stderr.readline(), 30)).decode()
        if not line:
            await process.wait()
            return process, None
        lines.append(line)
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        if found:
            keep_reading_log(process)
            return process, int(found.group(1))


def previous_release(commit: str, into: Path) -> Path:
    """The previous release's code, as the commit that made the test's database holds it (from this repository's
    history: a clone with its history, as CI's is)."""
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, capture_output=True)
    assert archive.returncode == 0, (
        f"the previous release's commit {commit} is not in this repository's history: {archive.stderr.decode()}"
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def schema_of(dsn: str) -> tuple[int, int, str]:
    with psycopg.connect(dsn) as db:
        row = db.execute("SELECT version, readable_from, release FROM risc_schema").fetchone()
    assert row is not None
    return int(row[0]), int(row[1]), str(row[2])


async def test_the_previous_release_s_database_is_upgraded_while_its_node_plays_on_beside_a_new_one(
    postgres_dsn: str, postgres_cluster: PostgresCluster, tmp_path: Path
) -> None:
    postgres_cluster.load(postgres_dsn, DUMP)
    kept = json.loads((DATA / "postgres-previous.json").read_text())
    playing, tokens = kept["playing"], kept["tokens"]
    code = previous_release(kept["commit"], tmp_path)
    old, old_port = await start_release(postgres_dsn, "old", known=PREVIOUS, code=code)
    processes = [old]
    try:
        assert old_port is not None
        ann = await Client.connect(old_port)
        assert (await ann.request(type="resume", game_id=playing, token=tokens["ann"]))["type"] == "resumed"
        view = (await ann.wait_for(lambda m: m["type"] == "update" and m["view"] is not None))["view"]
        assert view["turn"] == 1 and view["your_orders"] == kept["ann_orders"]  # as the previous release kept it

        new, new_port = await start_release(postgres_dsn, "new")  # this release: it upgrades the schema
        processes.append(new)
        assert new_port is not None
        assert schema_of(postgres_dsn) == (SCHEMA_VERSION, 1, RELEASE)  # every step additive so far

        # The previous release's node plays on beside it: bob comes through the new node and is sent to the old,
        # which still plays his game; the turn resolves there.
        bob = await Client.connect(new_port)
        resume = {"type": "resume", "game_id": playing, "token": tokens["bob"]}
        reply = await bob.request(**resume)
        assert reply["type"] == "redirect" and port_of(reply["url"]) == old_port, reply
        bob, resumed = await follow(bob, reply, **resume)
        assert resumed["type"] == "resumed"
        bob_view = (await bob.wait_for(lambda m: m["type"] == "update" and m["view"] is not None))["view"]
        assert bob_view["your_orders"] == kept["bob_orders"]
        await commit(bob, playing)
        cyd = await Client.connect(old_port)
        assert (await cyd.request(type="resume", game_id=playing, token=tokens["cyd"]))["type"] == "resumed"
        await cyd.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
        await issue_all(cyd, playing, "cyd")
        await commit(cyd, playing)
        resolved = await ann.wait_for(lambda m: m["type"] == "update" and m["game"]["turn"] == 2)
        assert resolved["game"]["status"] in ("playing", "finished")

        # A game made by the new node is played through the old one, and the lobby game the old release made is
        # joined through the new one.
        created = await create_game(await Client.connect(new_port), players=2)
        dan = await Client.connect(old_port)
        join = {"type": "join_game", "game_id": created, "name": "dan"}
        reply = await dan.request(**join)
        assert reply["type"] == "redirect" and port_of(reply["url"]) == new_port
        assert (await follow(dan, reply, **join))[1]["type"] == "joined"
        eve = await Client.connect(new_port)
        join = {"type": "join_game", "game_id": kept["lobby"], "name": "eve"}
        _, joined = await follow(eve, await eve.request(**join), **join)
        assert joined["type"] == "joined"

        # A node of the previous release started again on the upgraded schema works on it (its steps since are
        # additive), and says that it should be upgraded.
        old.terminate()
        await old.wait()
        said: list[str] = []
        again, again_port = await start_release(postgres_dsn, "old", known=PREVIOUS, said=said, code=code)
        processes.append(again)
        assert again_port is not None, "".join(said)
        assert any(f"newer than this node's {PREVIOUS}" in line for line in said), "".join(said)
        assert (await (await Client.connect(again_port)).request(type="list_games"))["type"] == "games"
    finally:
        await stop(processes)


async def test_a_node_refuses_a_schema_whose_later_steps_are_not_additive_naming_the_release_it_needs(
    postgres_dsn: str, postgres_cluster: PostgresCluster
) -> None:
    later, port = await start_release(postgres_dsn, "later", extra=LATER_STEP, release="9.1.0")
    assert port is not None
    await stop([later])
    said: list[str] = []
    this, this_port = await start_release(postgres_dsn, "this", said=said)  # additive: it runs beside 9.1.0's
    assert this_port is not None
    assert any(f"schema version {SCHEMA_VERSION + 1} (upgraded by RISC 9.1.0)" in line for line in said)
    await stop([this])

    other = postgres_cluster.dsn(postgres_cluster.new_database())
    later, port = await start_release(other, "later", extra=LATER_STEP, not_additive=True, release="9.1.0")
    assert port is not None
    assert schema_of(other) == (SCHEMA_VERSION + 1, SCHEMA_VERSION + 1, "9.1.0")
    await stop([later])
    said = []
    refused, refused_port = await start_release(other, "this", said=said)
    assert refused_port is None and refused.returncode == 1
    told = "".join(said)
    assert "cannot start" in told and "run RISC 9.1.0 or later here" in told, told
    assert f"knows up to version {SCHEMA_VERSION}" in told
    assert schema_of(other) == (SCHEMA_VERSION + 1, SCHEMA_VERSION + 1, "9.1.0")  # left as it was
