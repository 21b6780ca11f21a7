"""What every test shares: a home of its own, so that no test reads or writes the real user's seats or games; the
tests' own rule set, for the tests that ask for it; and one headless Chromium a module for the web page's tests."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from server.storage import MemoryStorage, SqliteStorage, Storage
from server.storage.postgres import PostgresStorage
from shared.rulesets import register, unregister
from tests.postgres_support import PostgresCluster, start_cluster
from tests.toy_ruleset import RaceToTwenty


@pytest.fixture(autouse=True)
def own_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))


@pytest.fixture
def race() -> Iterator[RaceToTwenty]:
    """The tests' own rule set, registered for one test: the server and the clients know it only through the seam."""
    ruleset = RaceToTwenty()
    register(ruleset)
    try:
        yield ruleset
    finally:
        unregister(ruleset.name)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """One throwaway PostgreSQL for the whole run (tests/postgres_support.py): started when a test first needs it."""
    cluster = start_cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def postgres_dsn(postgres_cluster: PostgresCluster) -> Iterator[str]:
    """A database of this test's own on the throwaway PostgreSQL, dropped at its end."""
    name = postgres_cluster.new_database()
    try:
        yield postgres_cluster.dsn(name)
    finally:
        postgres_cluster.drop_database(name)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Any]:
    """One headless Chromium for a module of the web page's tests (tests/web_support.py: skipped without one)."""
    from tests.web_support import launched

    async with launched() as found:
        yield found


STORES = ["memory", "sqlite", "postgres"]


async def opened(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> Storage:
    """A store of `kind`, open, empty: in memory, in a new SQLite file, or in a new PostgreSQL database."""
    storage: Storage
    if kind == "memory":
        storage = MemoryStorage()
    elif kind == "sqlite":
        storage = SqliteStorage(tmp_path / "games.sqlite3")
    else:
        storage = PostgresStorage(request.getfixturevalue("postgres_dsn"), node_id="test-node")
    await storage.open()
    return storage


@pytest.fixture(params=STORES)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Storage]:
    """Each store in turn, open and empty: what the storage contract's tests hold every store to."""
    storage = await opened(request.param, tmp_path, request)
    try:
        yield storage
    finally:
        await storage.close()
