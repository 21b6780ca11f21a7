"""The tools that read a store beside its servers, on PostgreSQL: `risc games damaged` names the games a node cannot
read back (and a node asked for one refuses it, untouched), `risc backup` takes a snapshot a single server plays on,
and a client's join sent again after its reply was lost gets its seat back with a new token."""

from __future__ import annotations

import asyncio
from pathlib import Path

import psycopg
import pytest

from risc.cli import main
from server.storage import DATABASE_NAME, SqliteStorage
from tests.cluster_support import nodes
from tests.persistence_support import commit, issue_all
from tests.server_support import Client, create_game, running_server, seated_game


async def test_a_damaged_game_is_named_by_risc_games_damaged_and_refused_untouched_by_a_node(
    postgres_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    async with nodes(postgres_dsn, 1) as (a,):
        games = [(await seated_game(a, ["ann", "bob"]))[::2] for _ in range(3)]
    (broken, broken_tokens), (missing_map, _), (healthy, healthy_tokens) = games
    with psycopg.connect(postgres_dsn) as db:
        db.execute("UPDATE games SET progress = '{\"seats\": [' WHERE game_id = %s", (broken,))
        db.execute("UPDATE games SET map_key = 'no-such-map' WHERE game_id = %s", (missing_map,))
        before = db.execute("SELECT progress, epoch FROM games WHERE game_id = %s", (broken,)).fetchone()

    assert await asyncio.to_thread(main, ["games", "damaged", "--store", postgres_dsn]) == 1
    out = capsys.readouterr().out
    assert broken in out and missing_map in out and healthy not in out and "2 damaged games" in out

    async with nodes(postgres_dsn, 1, node_id="b") as (b,):
        ann = await Client.connect(b)
        refused = await ann.request(type="resume", game_id=broken, token=broken_tokens[0])
        assert refused["type"] == "error" and "set aside" in refused["message"]
        assert broken in b.storage.damaged
        resumed = await ann.request(type="resume", game_id=healthy, token=healthy_tokens[0])
        assert resumed["type"] == "resumed"
    with psycopg.connect(postgres_dsn) as db:
        after = db.execute("SELECT progress, epoch FROM games WHERE game_id = %s", (broken,)).fetchone()
    assert after is not None and before is not None and after[0] == before[0]  # untouched


async def test_a_backup_of_the_postgresql_store_taken_while_a_node_plays_holds_the_game_and_a_server_plays_on(
    postgres_dsn: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    backup = tmp_path / "backup" / DATABASE_NAME
    async with nodes(postgres_dsn, 1) as (a,):
        game_id, clients, tokens = await seated_game(a, ["ann", "bob"])
        for client, name in zip(clients, ["ann", "bob"], strict=True):
            await issue_all(client, game_id, name)
        playing = asyncio.create_task(commit(clients[0], game_id))  # the node writes while the backup reads
        assert await asyncio.to_thread(main, ["backup", str(backup), "--store", postgres_dsn]) == 0
        await playing
        finished = await create_game(clients[1], players=2)
    assert "backed up 1 game (1 unfinished)" in capsys.readouterr().out
    storage = SqliteStorage(backup, read_only=True)
    try:
        stored = await storage.load(game_id)
        listed = await storage.list_games()
    finally:
        await storage.close()
    assert game_id in listed and finished not in listed  # created after the snapshot
    assert stored is not None and [s.name for s in stored.progress.seats] == ["ann", "bob"]
    assert stored.progress.state is not None and set(stored.progress.state["orders"]) == {"ann", "bob"}
    assert await asyncio.to_thread(main, ["backup", str(backup), "--store", postgres_dsn]) == 1  # never overwrites

    async with running_server(SqliteStorage(backup)) as server:  # a single server plays the game on
        ann = await Client.connect(server)
        assert (await ann.request(type="resume", game_id=game_id, token=tokens[0]))["type"] == "resumed"


async def test_a_join_sent_again_after_its_reply_was_lost_gets_the_seat_back_with_a_new_token(
    postgres_dsn: str,
) -> None:
    async with nodes(postgres_dsn, 1) as (a,):
        host = await Client.connect(a)
        game_id = await create_game(host, players=2)
        first = await Client.connect(a)
        request = {"type": "join_game", "game_id": game_id, "name": "ann", "request_id": "ann-join-00000001"}
        lost = await first.request(**request)
        assert lost["type"] == "joined"
        await first.close()  # the reply never reached the player
        again = await Client.connect(a)
        joined = await again.request(**request)
        assert joined["type"] == "joined" and joined["player"] == "ann" and joined["token"] != lost["token"]
        other = await Client.connect(a)
        refused = await other.request(type="resume", game_id=game_id, token=lost["token"])
        assert refused["type"] == "error" and refused["code"] == "bad-token"  # the lost token opens nothing now
        assert (await other.request(type="resume", game_id=game_id, token=joined["token"]))["type"] == "resumed"
        listing = await host.request(type="list_games")
        assert [s["name"] for s in listing["games"][0]["seats"]] == ["ann"]  # one seat, not two


def test_every_node_of_a_local_cluster_mails_as_the_command_said() -> None:
    import itertools

    from risc.cli import build_parser
    from risc.commands.server import node_command

    args = build_parser("server").parse_args(
        ["server", "--store", "postgresql://x@h/db", "--nodes", "2", "--smtp", "smtp://mail:25", "--mail-from",
         "risc@example.org", "--page-url", "https://risc.example.org/", "--webhook-allow", "chat.lan"]
    )  # fmt: skip
    command = node_command(args, 1)
    pairs = dict(itertools.pairwise(command))
    assert pairs["--smtp"] == "smtp://mail:25" and pairs["--mail-from"] == "risc@example.org"
    assert pairs["--page-url"] == "https://risc.example.org/" and pairs["--webhook-allow"] == "chat.lan"
    assert pairs["--node-id"] == "node-2"
