"""A node told to stop (SIGTERM) hands each of its games to a live node at once and sends its players there, then
exits: real node processes on a real PostgreSQL. The players find their game taken (or free to take) at the node
they are sent to, at the first try, with every order and commit they were told was kept."""

from __future__ import annotations

import asyncio
import signal

import psycopg

from tests.cluster_support import port_of
from tests.persistence_support import commit, issue_all, latest_view
from tests.server_support import Client
from tests.test_cluster_failover import seated_through_the_others, start_nodes, stop, stored_log

NAMES = ["ann", "bob", "cyd"]


async def test_a_node_told_to_stop_hands_its_games_on_and_sends_its_players_there_before_it_exits(
    postgres_dsn: str,
) -> None:
    processes = await start_nodes(postgres_dsn)
    (owner, port_a), (_, port_b), (_, port_c) = processes
    try:
        game_id, clients, tokens = await seated_through_the_others((port_a, port_b, port_c))
        view = latest_view(clients[0], game_id)
        ann_orders = await issue_all(clients[0], game_id, "ann")
        await commit(clients[0], game_id)
        bob_orders = await issue_all(clients[1], game_id, "bob")
        acknowledged = stored_log(postgres_dsn, game_id)

        owner.send_signal(signal.SIGTERM)
        moved = [await client.wait_type("redirect", game_id=game_id) for client in clients]
        targets = {port_of(m["url"]) for m in moved}
        assert len(targets) == 1 and targets <= {port_b, port_c}, moved  # one live node takes the game
        assert all(m["ref"] is None for m in moved)
        assert await asyncio.wait_for(owner.wait(), 30) == 0  # and the node exits, cleanly

        back = []
        for message, token in zip(moved, tokens, strict=True):
            client = await Client.connect(port_of(message["url"]))
            resumed = await client.request(type="resume", game_id=game_id, token=token)
            assert resumed["type"] == "resumed", resumed  # at the first try: nobody waits for a lock to go
            back.append(client)
        views = [(await c.wait_for(lambda m: m["type"] == "update" and m["view"] is not None))["view"] for c in back]
        assert {v["turn"] for v in views} == {view["turn"]}
        assert views[0]["your_orders"] == ann_orders and views[1]["your_orders"] == bob_orders
        assert {p["name"]: p["committed"] for p in views[2]["players"]} == {"ann": True, "bob": False, "cyd": False}
        assert stored_log(postgres_dsn, game_id) == acknowledged
        with psycopg.connect(postgres_dsn) as db:
            row = db.execute("SELECT owner FROM games WHERE game_id = %s", (game_id,)).fetchone()
        assert row is not None and row[0] == ("b" if port_b in targets else "c")

        await commit(back[1], game_id)  # and the game plays on there
        await issue_all(back[2], game_id, "cyd")
        await commit(back[2], game_id)
        update = await back[0].wait_for(lambda m: m["type"] == "update" and m["game"]["turn"] > view["turn"])
        assert update["game"]["status"] == "playing"
    finally:
        await stop([p for p, _ in processes])
