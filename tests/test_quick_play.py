"""Quick play and challenges through a real server and real connections (docs/ratings.md): players asking for the
same game seated together in a rated game, the wait showing who is queued for what, leaving and disconnecting taking
a player out, the server's computers filling the game after the time asked (unrated); a challenge accepted and one
declined from the home; the queue across two node processes on one PostgreSQL, one of them killed."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

from server.app import RiscServer
from server.storage import SqliteStorage
from tests.cluster_support import keep_reading_log, nodes
from tests.server_support import FAST, Client, Message, running_server
from tests.test_accounts import PASSWORD, signed_up
from tests.test_server_process import start_server


async def queued(client: Client, **ask: object) -> Message:
    reply = await client.request(type="quick_play", **ask)
    assert reply["type"] == "quick_play_waiting", reply
    return reply


async def seated(client: Client, timeout: float = 10.0) -> Message:
    return await client.wait_for(lambda m: m["type"] == "quick_play_found", timeout=timeout)


async def test_three_players_asking_for_the_same_game_are_seated_together_in_a_rated_game(tmp_path: Path) -> None:
    async with running_server(SqliteStorage(tmp_path / "games.sqlite3"), **FAST) as server:
        ann, _ = await signed_up(server, "Ann")
        bob, _ = await signed_up(server, "Bob")
        cy, _ = await signed_up(server, "Cy")
        dee, _ = await signed_up(server, "Dee")
        waiting = await queued(ann, ruleset="grid", players=3, pace="live")
        assert waiting["rating"] == 800 and waiting["window"] >= 100
        assert waiting["queued"] == [{"ruleset": "grid", "players": 3, "pace": "live", "names": ["Ann"]}]
        other = await queued(dee, ruleset="risc", players=4, pace="slow")
        assert {(q["ruleset"], tuple(q["names"])) for q in other["queued"]} == {("grid", ("Ann",)), ("risc", ("Dee",))}
        await queued(bob, ruleset="grid", players=3, pace="live")
        await ann.wait_for(lambda m: m["type"] == "quick_play_waiting" and len(m["queued"][0]["names"]) == 2)
        await queued(cy, ruleset="grid", players=3, pace="live")
        found = [await seated(c) for c in (ann, bob, cy)]
        assert len({f["game_id"] for f in found}) == 1 and all(f["rated"] for f in found)
        assert [f["player"] for f in found] == ["Ann", "Bob", "Cy"]
        game_id = found[0]["game_id"]
        resumed = await ann.request(type="resume", game_id=game_id)
        assert resumed["type"] == "resumed" and resumed["player"] == "Ann"
        update = await ann.wait_for(lambda m: m["type"] == "update" and m["game_id"] == game_id)
        assert update["game"]["settings"]["rated"] and update["game"]["settings"]["turn_seconds"] == 120
        assert sorted(s["name"] for s in update["game"]["seats"]) == ["Ann", "Bob", "Cy"]
        home = await bob.request(type="my_games")
        assert [g["game"]["game_id"] for g in home["games"]] == [game_id]
        # Dee still waits, alone; leaving takes her out.
        left = await dee.request(type="leave_quick_play")
        assert left["type"] == "quick_play_left"
        again = await queued(ann, ruleset="risc", players=4, pace="slow")
        assert again["queued"] == [{"ruleset": "risc", "players": 4, "pace": "slow", "names": ["Ann"]}]


async def test_a_player_who_disconnects_leaves_the_queue_and_a_guest_may_not_queue() -> None:
    async with running_server(**FAST) as server:
        ann, _ = await signed_up(server, "Ann")
        bob, _ = await signed_up(server, "Bob")
        await queued(ann, ruleset="grid", players=3)
        await queued(bob, ruleset="grid", players=3)
        await ann.ws.close()
        cy, _ = await signed_up(server, "Cy")
        waiting = await queued(cy, ruleset="grid", players=3)
        assert waiting["queued"] == [{"ruleset": "grid", "players": 3, "pace": "live", "names": ["Bob", "Cy"]}]
        guest = await Client.connect(server)
        refused = await guest.request(type="quick_play", ruleset="grid", players=3)
        assert refused["type"] == "error" and refused["code"] == "account-needed"
        refused = await cy.request(type="quick_play", ruleset="grid", players=7)
        assert refused["type"] == "error" and refused["code"] == "bad-settings" and "3 to 5" in refused["message"]


async def test_the_server_s_computers_fill_the_game_after_the_time_asked_and_it_is_not_rated() -> None:
    async with running_server(**FAST) as server:
        ann, _ = await signed_up(server, "Ann")
        waiting = await queued(ann, ruleset="grid", players=3, computers_after=5)
        assert 0 < waiting["computers_in"] <= 5
        found = await seated(ann, timeout=15)
        assert not found["rated"]
        await ann.request(type="resume", game_id=found["game_id"])
        update = await ann.wait_for(lambda m: m["type"] == "update" and m["game"]["status"] == "playing")
        assert not update["game"]["settings"]["rated"]
        assert sorted(s["computer"] for s in update["game"]["seats"]) == [False, True, True]


async def test_a_challenge_is_accepted_from_the_home_and_another_declined() -> None:
    async with running_server(**FAST) as server:
        ann, _ = await signed_up(server, "Ann")
        bob, _ = await signed_up(server, "Bob")
        sent = await ann.request(type="challenge", name="bob", settings={"map": "seed", "players": 2, "rated": True})
        assert sent["type"] == "challenge_sent" and sent["to"] == "Bob"
        home = await bob.request(type="my_games")
        assert [(c["game_id"], c["by"]) for c in home["challenges"]] == [(sent["game_id"], "Ann")]
        answered = await bob.request(type="answer_challenge", game_id=sent["game_id"], accept=True)
        assert answered["type"] == "challenge_answered" and answered["accepted"]
        update = await bob.wait_for(lambda m: m["type"] == "update" and m["game"]["status"] == "playing")
        assert sorted(s["name"] for s in update["game"]["seats"]) == ["Ann", "Bob"]
        assert (await bob.request(type="my_games"))["challenges"] == []
        other = await bob.request(type="challenge", name="Ann", settings={"map": "seed", "players": 2})
        declined = await ann.request(type="answer_challenge", game_id=other["game_id"], accept=False)
        assert declined["type"] == "challenge_answered" and not declined["accepted"]
        again = await ann.request(type="answer_challenge", game_id=other["game_id"], accept=True)
        assert again["type"] == "error" and again["code"] == "no-such-game"
        nobody = await ann.request(type="challenge", name="Zed", settings={"map": "seed", "players": 2})
        assert nobody["type"] == "error" and nobody["code"] == "no-such-player"


async def test_a_challenge_waits_in_the_home_across_a_restart_of_a_server_alone(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    async with running_server(SqliteStorage(database), **FAST) as server:
        ann, _ = await signed_up(server, "Ann")
        await signed_up(server, "Bob")
        sent = await ann.request(type="challenge", name="bob", settings={"map": "seed", "players": 2})
        assert sent["type"] == "challenge_sent", sent
    async with running_server(SqliteStorage(database), **FAST) as server:
        bob = await Client.connect(server)
        assert (await bob.request(type="sign_in", name="Bob", password=PASSWORD))["type"] == "signed_in"
        home = await bob.request(type="my_games")
        assert [(c["game_id"], c["by"]) for c in home["challenges"]] == [(sent["game_id"], "Ann")]
        answered = await bob.request(type="answer_challenge", game_id=sent["game_id"], accept=True)
        assert answered["type"] == "challenge_answered" and answered["accepted"], answered
        update = await bob.wait_for(lambda m: m["type"] == "update" and m["game"]["status"] == "playing")
        assert sorted(s["name"] for s in update["game"]["seats"]) == ["Ann", "Bob"]
        assert (await bob.request(type="my_games"))["challenges"] == []


async def test_the_queue_across_two_nodes_seats_everyone_once_when_one_node_is_killed(postgres_dsn: str) -> None:
    nodes = [await start_server("--store", postgres_dsn, "--node-id", name, "--fence-after", "3") for name in "ab"]
    for process, _ in nodes:
        keep_reading_log(process)
    (killed, port_a), (_, port_b) = nodes
    try:
        first = await Client.connect(port_a)
        assert (await first.request(type="sign_up", name="Ann", password=PASSWORD))["type"] == "signed_in"
        sessions = {}
        for name in ("Bob", "Cy"):
            client = await Client.connect(port_b)
            sessions[name] = client
            assert (await client.request(type="sign_up", name=name, password=PASSWORD))["type"] == "signed_in"
        await queued(first, ruleset="grid", players=3)
        await queued(sessions["Bob"], ruleset="grid", players=3)
        await sessions["Bob"].wait_for(
            lambda m: m["type"] == "quick_play_waiting" and m["queued"][0]["names"] == ["Ann", "Bob"]
        )
        killed.send_signal(signal.SIGKILL)
        await killed.wait()
        # Ann's client comes back through the other node and asks again: she keeps her place.
        ann = await Client.connect(port_b)
        assert (await ann.request(type="sign_in", name="Ann", password=PASSWORD))["type"] == "signed_in"
        back = await queued(ann, ruleset="grid", players=3)
        assert back["waited"] > 0
        await queued(sessions["Cy"], ruleset="grid", players=3)
        found = [await seated(c) for c in (ann, sessions["Bob"], sessions["Cy"])]
        assert len({f["game_id"] for f in found}) == 1
        for client in (ann, sessions["Bob"], sessions["Cy"]):
            home = await client.request(type="my_games")
            assert [g["game"]["game_id"] for g in home["games"]] == [found[0]["game_id"]]  # seated once
    finally:
        for process, _ in nodes:
            if process.returncode is None:
                process.kill()
                await process.wait()


def count_claims(server: RiscServer) -> list[int]:
    """How many times from now on the server's desk asks the queue for the games it makes."""
    counted = [0]
    queue = server.people.queue
    claim = queue.claim

    async def counting(*args: Any) -> Any:
        counted[0] += 1
        return await claim(*args)

    queue.claim = counting  # type: ignore[method-assign]
    return counted


async def test_only_a_node_some_player_waits_through_asks_the_queue_and_only_while_they_wait(
    postgres_dsn: str,
) -> None:
    """An idle node asked PostgreSQL twice a second for games to form: now only the node a player queued through
    does, until they leave; their games are formed with whoever waits elsewhere (the test above, across nodes)."""
    async with nodes(postgres_dsn, 2, accounts="optional") as (a, b):
        claims = {"a": count_claims(a), "b": count_claims(b)}
        await asyncio.sleep(3 * a.people.every)
        assert claims == {"a": [0], "b": [0]}, "nobody waits: nobody asks"
        ann, _ = await signed_up(a, "Ann")
        await queued(ann, ruleset="grid", players=3, pace="live")
        await asyncio.sleep(4 * a.people.every)
        assert claims["a"][0] >= 3 and claims["b"] == [0], claims
        assert (await ann.request(type="leave_quick_play"))["type"] == "quick_play_left"
        await asyncio.sleep(2 * a.people.every)  # a look already due may still come
        stopped = claims["a"][0]
        await asyncio.sleep(3 * a.people.every)
        assert claims["a"] == [stopped] and claims["b"] == [0], claims
