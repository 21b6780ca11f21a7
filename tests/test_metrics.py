"""What a server says of itself to an operator's tools: GET /metrics in Prometheus' text format (read here with
prometheus_client's own parser, as Prometheus reads it), /healthz (alive) and /readyz (ready for clients: its store
answers and, on a node of several, its database session lives)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from urllib.request import urlopen

import pytest
from prometheus_client.parser import text_string_to_metric_families

from server.storage import SqliteStorage
from tests.cluster_support import follow, node_of, nodes
from tests.persistence_support import commit, issue_all
from tests.postgres_support import PostgresCluster
from tests.server_support import Client, create_game, running_server, seated_game


def fetch(port: int, path: str) -> tuple[int, str, str]:
    """GET a path of the server: status, Content-Type and body (an error status is an answer too)."""
    from urllib.error import HTTPError

    try:
        with urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as answer:
            return answer.status, answer.headers["Content-Type"], answer.read().decode()
    except HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


async def scraped(port: int) -> dict[str, float]:
    """Every sample of /metrics by name and labels (`name{label="value"}`), as Prometheus reads them."""
    status, kind, text = await asyncio.to_thread(fetch, port, "/metrics")
    assert status == 200 and kind.startswith("text/plain") and "version=" in kind, (status, kind)
    samples: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()) if k != "le")
            key = sample.name + (f"{{{labels}}}" if labels else "")
            if "le" not in sample.labels:
                samples[key] = sample.value
    return samples


async def test_metrics_count_what_the_server_did_in_prometheus_text_format(tmp_path: Path) -> None:
    async with running_server(SqliteStorage(tmp_path / "games.sqlite3")) as server:
        game_id, clients, _ = await seated_game(server, ["ann", "bob"])
        for client, name in zip(clients, ["ann", "bob"], strict=True):
            await issue_all(client, game_id, name)
            await commit(client, game_id)
        await clients[0].wait_for(lambda m: m["type"] == "update" and m["game"]["turn"] == 1)
        refused = await clients[0].request(type="join_game", game_id="nosuch", name="cyd")
        assert refused["code"] == "no-such-game"
        await clients[0].send_raw("{not json")
        figures = await scraped(server.port)
    assert figures["risc_turns_resolved_total"] == 1  # the placement turn
    assert figures["risc_order_seconds_count"] >= 2 and figures["risc_order_seconds_sum"] > 0
    assert figures["risc_commit_seconds_count"] == 2
    assert figures["risc_store_commit_seconds_count"] >= 1  # the SQLite store's write transactions
    assert figures['risc_refusals_total{code="no-such-game"}'] == 1
    assert figures['risc_refusals_total{code="not-json"}'] == 1
    assert figures['risc_games_held{status="playing"}'] == 1 and figures['risc_games_held{status="lobby"}'] == 0
    assert figures["risc_connections"] == 2
    assert figures["risc_node_session"] == 1
    assert "risc_event_loop_lag_seconds_count" in figures
    assert figures["risc_take_overs_total"] == 0 and figures["risc_redirects_total"] == 0


async def test_a_node_counts_its_redirects_and_take_overs_and_says_when_it_is_not_ready(
    postgres_dsn: str, postgres_cluster: PostgresCluster
) -> None:
    async with nodes(postgres_dsn, 2, fence_after=60.0) as (a, b):
        ann = await Client.connect(a)
        game_id = await create_game(ann, players=2)
        bob = await Client.connect(b)
        request = {"type": "join_game", "game_id": game_id, "name": "bob"}
        _, joined = await follow(bob, await bob.request(**request), **request)
        assert joined["type"] == "joined"
        assert (await scraped(b.port))["risc_redirects_total"] == 1
        for port in (a.port, b.port):
            assert (await asyncio.to_thread(fetch, port, "/healthz"))[0] == 200
            assert (await asyncio.to_thread(fetch, port, "/readyz"))[:1] == (200,)

        node_of(a)._tasks.cancel()  # node a no longer beats, and its database session is ended
        assert postgres_cluster.end_sessions(postgres_dsn, "risc-node:a") == 1
        status, _, said = await asyncio.to_thread(fetch, a.port, "/readyz")
        assert status == 503 and "no session with its database" in said
        assert (await asyncio.to_thread(fetch, a.port, "/healthz"))[0] == 200  # alive all the same
        assert (await scraped(a.port))["risc_node_session"] == 0

        cyd = await Client.connect(b)
        assert (await cyd.request(type="watch_game", game_id=game_id, last_seq=0))["type"] == "watching"
        assert (await scraped(b.port))["risc_take_overs_total"] == 1


@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/metrics"])
async def test_the_operator_s_paths_answer_a_server_alone(path: str) -> None:
    async with running_server() as server:
        status, _, body = await asyncio.to_thread(fetch, server.port, path)
        assert status == 200 and body
