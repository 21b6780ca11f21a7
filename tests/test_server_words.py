"""What the server tells a client that knows no rules (the web page), so that it keeps no copy of them: what a
player's orders leave them after each acceptance and withdrawal, what each offered order costs before it is issued,
and the words of orders and events. On a real server, with raw clients."""

from __future__ import annotations

from typing import Any

import pytest

from server.app import RiscServer
from tests.server_support import FAST, Client, Message, create_game, join, running_server, seated_game
from tests.test_server_orders import SEED_GROUPS, ok, seed_game


def server_left(server: RiscServer, game_id: str, player: str, fields: list[str]) -> dict[str, Any]:
    """Those of `fields` the player's view has, as the server's own view function makes it now."""
    match = server.lobby.matches[game_id]
    assert match.game is not None
    shown = match.ruleset.dump_view(match.ruleset.view(match.game, player))
    return {field: shown[field] for field in fields if field in shown}


async def issue_offers(server: RiscServer, client: Client, game_id: str, player: str, most: int) -> int:
    """Issue up to `most` of the orders the server offers, one of each kind first: each as offered (its count at the
    most), whose acceptance's `left` must be what the player's view says and must be less than before by the offer's
    `cost`; then withdrawn, which must leave what was there before; then issued again at half its count, to go on.
    Returns how many were issued."""
    ruleset = server.lobby.matches[game_id].ruleset
    issued = 0
    seen_kinds: set[str] = set()
    fields = ["pool_left", "food_left", "technology_left"]
    while issued < most:
        legal = (await ok(client, type="legal_orders", game_id=game_id))["orders"]
        if not legal:
            break
        entry = next((e for e in legal if e["order"]["kind"] not in seen_kinds), legal[0])
        seen_kinds.add(entry["order"]["kind"])
        turn = (await ok(client, type="list_orders", game_id=game_id))["turn"]
        start = server_left(server, game_id, player, fields)
        reply = await ok(client, type="issue_order", game_id=game_id, turn=turn, order=entry["order"])
        left = reply["left"]
        assert left is not None and left == server_left(server, game_id, player, sorted(left)), reply
        spent = {ruleset.resource_words[f]: start[f] - n for f, n in left.items() if start[f] != n}
        assert (entry["cost"] or {}) == spent, (entry, reply)
        assert reply["text"] == ruleset.presentation.words(ruleset.load_order(entry["order"]))  # a person's words
        count = entry["count_field"]
        assert (" N " in f" {entry['text']} ") == (count is not None), entry
        back = await ok(client, type="withdraw_order", game_id=game_id, turn=turn, index=reply["index"])
        assert back["left"] == {f: start[f] for f in left}, "withdrawn: as it was"
        order = dict(entry["order"])
        if count is not None:
            order[count] = max(entry["least"], order[count] // 2)
        again = await ok(client, type="issue_order", game_id=game_id, turn=turn, order=order)
        assert again["left"] == server_left(server, game_id, player, sorted(again["left"]))
        issued += 1
    listed = await ok(client, type="list_orders", game_id=game_id)
    assert len(listed["texts"]) == len(listed["orders"]) == issued
    assert listed["texts"] == [ruleset.presentation.words(ruleset.load_order(o)) for o in listed["orders"]]
    return issued


async def place_everything(server: RiscServer, game_id: str, clients: list[Client]) -> None:
    """Every player places their whole pool as the first placement offered says, and commits."""
    for client in clients:
        legal = (await ok(client, type="legal_orders", game_id=game_id))["orders"]
        await ok(client, type="issue_order", game_id=game_id, turn=0, order=legal[0]["order"])
        await ok(client, type="commit", game_id=game_id, turn=0)
    match = server.lobby.matches[game_id]
    await clients[0].wait_for(
        lambda m: (
            m["type"] == "update"
            and m["game_id"] == game_id
            and (m["game"] or clients[0].summaries[game_id])["phase"] == "orders"
        )
    )
    assert match.status() is not None


@pytest.mark.parametrize("evolution", [1, 2, 3])
async def test_risc_placement_tells_what_is_left_to_place_after_each_order(evolution: int) -> None:
    async with running_server(**FAST) as server:
        game_id, (ann, _), _ = await seated_game(server, ["ann", "bob"], options={"evolution": evolution})
        assert await issue_offers(server, ann, game_id, "ann", 4) == 4


@pytest.mark.parametrize("evolution", [2, 3])
async def test_risc_evolutions_tell_the_food_and_technology_left_and_each_order_s_cost(evolution: int) -> None:
    async with running_server(**FAST) as server:
        names = ["ann", "bob"]
        game_id, clients, _ = await seated_game(server, names, options={"evolution": evolution})
        await place_everything(server, game_id, clients)
        assert await issue_offers(server, clients[0], game_id, "ann", 8) >= 4


async def test_warzone_tells_the_pool_left_and_what_each_order_takes_from_it() -> None:
    async with running_server(**FAST) as server:
        game_id, (ann, _), _ = await seated_game(
            server, ["ann", "bob"], ruleset="warzone", map="cataract", options={"initial_cards": 4}
        )
        assert await issue_offers(server, ann, game_id, "ann", 8) >= 2


async def test_a_turn_by_turn_game_counts_nothing_left() -> None:
    async with running_server(**FAST) as server:
        game_id, clients, _ = await seated_game(server, ["ann", "bob", "cy"], ruleset="grid", map=None)
        summary = clients[0].summaries[game_id]
        active = next(i for i, s in summary["seats"].items() if s["awaited"])
        player = clients[int(active)]
        (entry, *_) = (await ok(player, type="legal_orders", game_id=game_id))["orders"]
        assert entry["cost"] is None and entry["text"].startswith("deploy")
        reply = await ok(player, type="issue_order", game_id=game_id, turn=summary["turn"], order=entry["order"])
        assert reply["left"] is None and reply["text"] == entry["text"]


def texts(client: Client, game_id: str) -> list[tuple[str, str | None]]:
    return [
        (e["event"]["kind"], e.get("text"))
        for f in client.frames
        if f["type"] == "update" and f["game_id"] == game_id
        for e in f["events"]
    ]


async def test_a_client_that_asks_for_words_gets_each_event_and_revealed_orders_in_words_and_others_do_not() -> None:
    async with running_server(**FAST) as server:
        game_id, clients = await seed_game(server, initial_units=9)
        worded = await Client.connect(server, words=True)
        await ok(worded, type="watch_game", game_id=game_id, last_seq=0)
        for name, client in clients.items():
            await ok(
                client,
                type="issue_order",
                game_id=game_id,
                turn=0,
                order={"kind": "place", "territory": SEED_GROUPS[name][0], "units": 9},
            )
            await ok(client, type="commit", game_id=game_id, turn=0)
        await worded.wait_for(
            lambda m: m["type"] == "update" and any(e["event"]["kind"] == "turn_started" for e in m["events"])
        )
        told = texts(worded, game_id)
        assert ("units_placed", "ann placed 9 on Narnia.") in told
        assert ("turn_started", "Turn 1") in told
        revealed = "Orders of turn 0: ann: place 9 on Narnia | bob: place 9 on Elantris | cyd: place 9 on Gondor"
        assert ("orders_revealed", revealed) in told
        # the framework's own entries in the same words as the text client's
        assert ("player_joined", "ann joined.") in told and ("player_committed", "bob committed.") in told
        assert ("game_started", "The game starts: ann, bob, cyd.") in told
        assert ("game_created", "") in told  # nothing to read: the text client shows nothing either
        await clients["ann"].wait_for(
            lambda m: m["type"] == "update" and any(e["event"]["kind"] == "turn_started" for e in m["events"])
        )
        plain: list[Message] = [e for f in clients["ann"].frames if f["type"] == "update" for e in f["events"]]
        assert plain and all("text" not in e for e in plain), "a client that did not ask gets no words"


async def test_a_player_is_told_of_themselves_as_you_and_a_spectator_of_everyone_by_name() -> None:
    async with running_server(**FAST) as server:
        clients = {name: await Client.connect(server, words=True) for name in SEED_GROUPS}
        game_id = await create_game(clients["ann"], players=3, initial_units=9, choose_groups=True)
        for group, (name, client) in enumerate(clients.items()):
            await join(client, game_id, name, group)
        spectator = await Client.connect(server, words=True)
        await ok(spectator, type="watch_game", game_id=game_id, last_seq=0)
        for name, client in clients.items():
            await client.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
            order = {"kind": "place", "territory": SEED_GROUPS[name][0], "units": 9}
            await ok(client, type="issue_order", game_id=game_id, turn=0, order=order)
            await ok(client, type="commit", game_id=game_id, turn=0)
        for client in (*clients.values(), spectator):
            await client.wait_for(
                lambda m: m["type"] == "update" and any(e["event"]["kind"] == "turn_started" for e in m["events"])
            )
        ann, bob = texts(clients["ann"], game_id), texts(clients["bob"], game_id)
        assert ("units_placed", "You placed 9 on Narnia.") in ann and (
            "units_placed",
            "bob placed 9 on Elantris.",
        ) in ann
        assert ("units_placed", "ann placed 9 on Narnia.") in bob and (
            "units_placed",
            "You placed 9 on Elantris.",
        ) in bob
        assert ("player_joined", "You joined.") in ann and ("player_committed", "You committed.") in bob
        watched = texts(spectator, game_id)
        assert ("units_placed", "ann placed 9 on Narnia.") in watched and not any(
            "You" in (t or "") for _, t in watched
        )
