"""Never lost (D3): a cut connection, a closed terminal and a restarted server all end with the player back in their
seat, told what they missed; the seat token is kept in a file only its owner can read."""

from __future__ import annotations

import asyncio
import json
import stat
from pathlib import Path

import pytest

from client.connection import Backoff
from client.tokens import SeatStore, server_key
from server.app import RiscServer
from server.config import ServerConfig
from server.storage import MemoryStorage
from tests.client_support import CountedBackoff, Driver, driven
from tests.server_support import FAST, Client, join, running_server, url


def own(driver: Driver) -> list[str]:
    """The territories the player on screen holds, as their client knows them."""
    tracker = driver.app.tracker
    assert tracker is not None and tracker.view is not None and tracker.player is not None
    return [name for name, t in tracker.view.territories.items() if t.owner == tracker.player]


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


async def seated(server: RiscServer, alice: Driver) -> tuple[str, Client]:
    """Alice (the client) and Bob (over the protocol) in a 2-player game, placement under way."""
    await alice.type("create seed 2 units=6")
    assert alice.app.tracker is not None
    game_id = alice.app.tracker.game_id
    bob = await Client.connect(server)
    await join(bob, game_id, "Bob")
    await alice.expect("Place your 6 units")
    return game_id, bob


def alice_s_server_side(server: RiscServer, game_id: str) -> object:
    watchers = server.lobby.matches[game_id].watchers
    return next(sub for sub, seat in watchers.items() if seat == "Alice")


async def test_a_cut_connection_comes_back_to_the_seat_with_what_was_missed() -> None:
    async with (
        running_server(**FAST) as server,
        driven(url(server), name="Alice", backoff=Backoff(first=0.6, most=1.0)) as alice,
    ):
        game_id, bob = await seated(server, alice)
        first = own(alice)[0]
        await alice.type(f"place 6 {first}")

        alice_s_server_side(server, game_id).ws.transport.abort()  # type: ignore[attr-defined]
        await alice.expect("Connection lost: reconnecting...")
        # While Alice is away (the first retry waits at least 0.45 s) Bob finishes placing.
        shown = await alice.type("orders")
        assert "Not connected to the server" in shown
        await bob.request(
            type="issue_order",
            game_id=game_id,
            turn=0,
            order={
                "kind": "place",
                "territory": next(
                    t["name"]
                    for t in bob.latest("update", game_id)["view"]["territories"]  # type: ignore[index]
                    if t["owner"] == "Bob"
                ),
                "units": 6,
            },
        )
        await bob.request(type="commit", game_id=game_id, turn=0)

        await alice.expect(f"Back in game {game_id} as Alice.")
        missed = await alice.expect("Bob committed.")
        assert "Connection lost" not in missed
        # The order issued before the cut is still there (D3), and the seat acts again.
        shown = await alice.type("orders")
        assert f"1. place 6 on {first}" in shown
        await alice.type("done")
        turn = await alice.expect("Turn 1: move N FROM TO")
        assert f"Alice placed 6 on {first}." in turn
        await bob.close()


async def test_running_the_same_command_again_returns_to_the_seat(config_home: Path) -> None:
    async with running_server(**FAST) as server:
        async with driven(url(server), name="Alice") as alice:
            game_id, bob = await seated(server, alice)
            first = own(alice)[0]
            await alice.type(f"place 2 {first}")
        seats_file = config_home / "risc" / "seats.json"
        assert stat.S_IMODE(seats_file.stat().st_mode) == 0o600
        saved = json.loads(seats_file.read_text())["seats"]
        assert [(s["server"], s["game_id"], s["player"]) for s in saved] == [
            (server_key(url(server)), game_id, "Alice")
        ]

        async with driven(url(server), name="Alice") as again:
            back = await again.expect(f"Back in game {game_id} as Alice.")
            assert "No games yet" not in back
            await again.expect("Place your 4 units")
            shown = await again.type("orders")
            assert f"1. place 2 on {first}" in shown
            assert "4 units left to place." in shown
        await bob.close()


async def test_a_saved_seat_whose_game_is_gone_is_forgotten(config_home: Path) -> None:
    async with running_server(**FAST) as server:
        SeatStore().save(url(server), "gone1", "Alice", "a-token-for-a-game-that-does-not-exist")
        async with driven(url(server), name="Alice") as alice:
            await alice.expect("No games yet")
            assert SeatStore().seats_for(url(server)) == []


async def test_a_restarted_server_takes_the_player_back() -> None:
    storage = MemoryStorage()
    first = RiscServer(ServerConfig(host="127.0.0.1", port=0, **FAST), storage)  # type: ignore[arg-type]
    await first.start()
    port = first.port
    address = f"ws://127.0.0.1:{port}"
    backoff = CountedBackoff()
    async with driven(address, name="Alice", backoff=backoff) as alice:
        game_id, bob = await seated(server=first, alice=alice)
        bob_token = None
        for frame in bob.frames:
            if frame["type"] == "joined":
                bob_token = frame["token"]
        await first.stop()
        await alice.expect("shutting down")
        await alice.expect("Connection lost: reconnecting...")
        await asyncio.wait_for(backoff.waited(backoff.asked + 3).wait(), 5)  # refused twice while the server is away
        second = RiscServer(ServerConfig(host="127.0.0.1", port=port, **FAST), storage)  # type: ignore[arg-type]
        await second.start()
        try:
            await alice.expect(f"Back in game {game_id} as Alice.")
            bob = await Client.connect(second)
            assert (await bob.request(type="resume", game_id=game_id, token=bob_token))["type"] == "resumed"
            update = await bob.wait_type("update", game_id=game_id)
            mine = next(t["name"] for t in update["view"]["territories"] if t["owner"] == "Bob")
            await bob.request(
                type="issue_order", game_id=game_id, turn=0, order={"kind": "place", "territory": mine, "units": 6}
            )
            await bob.request(type="commit", game_id=game_id, turn=0)
            await alice.expect("Bob committed.")
            await bob.close()
        finally:
            await second.stop()


async def test_the_server_s_password() -> None:
    async with running_server(password="sesame", **FAST) as server:
        async with driven(url(server), name="Alice", password="wrong") as refused:
            assert await asyncio.wait_for(refused.task, 5) == 1
            assert "the server refused us: wrong password" in refused.app.text()
        async with driven(url(server), name="Alice", password="sesame") as welcome:
            await welcome.expect("No games yet")


def test_reconnection_waits_longer_each_time_up_to_a_ceiling() -> None:
    backoff = Backoff(first=0.5, most=4.0)
    delays = [backoff.next_delay() for _ in range(6)]
    for delay, nominal in zip(delays, (0.5, 1.0, 2.0, 4.0, 4.0, 4.0), strict=True):
        assert 0.75 * nominal <= delay <= nominal
    backoff.reset()
    assert backoff.next_delay() <= 0.5


def test_the_seat_file_keys_seats_by_server_and_game_and_survives_damage(config_home: Path) -> None:
    store = SeatStore()
    store.save("ws://Host:8765/", "g1", "Alice", "t1")
    store.save("ws://host:8765", "g2", "Alice", "t2")
    store.save("ws://other:8765", "g1", "Bob", "t3")
    assert [s.game_id for s in store.seats_for("ws://HOST:8765")] == ["g2", "g1"]  # newest first
    assert store.seats_for("ws://host:8765", "bob") == []
    assert store.get("ws://other:8765", "g1").token == "t3"  # type: ignore[union-attr]
    store.forget("ws://host:8765", "g2")
    assert [s.game_id for s in store.seats_for("ws://host:8765")] == ["g1"]
    assert stat.S_IMODE((config_home / "risc").stat().st_mode) == 0o700
    (config_home / "risc" / "seats.json").write_text("{not json")
    assert store.seats_for("ws://host:8765") == []
    store.save("ws://host:8765", "g3", "Alice", "t4")
    assert [s.token for s in store.seats_for("ws://host:8765")] == ["t4"]


def test_a_seat_is_saved_at_the_time_the_store_s_clock_says(tmp_path: Path) -> None:
    store = SeatStore(tmp_path / "seats.json", clock=lambda: 1_700_000_000.5)
    assert store.save("ws://host:8765", "g1", "Alice", "t1").saved_at == 1_700_000_000.5
    assert [s.saved_at for s in SeatStore(tmp_path / "seats.json").seats_for("ws://host:8765")] == [1_700_000_000.5]
