"""Whole games through the protocol alone: lobby to victory (R6-R26), secrecy (R10, R16, D2), rematch (R27)."""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from tests.server_support import (
    FAST,
    Client,
    Message,
    create_game,
    current_view,
    join,
    owned,
    running_server,
    territory,
)

MAX_TURNS = 500
"""Far past any game seen: a thousand simulated games of these scripted players all ended by turn 203."""


def _my_status(view: Message, name: str) -> Message:
    return next(p for p in view["players"] if p["name"] == name)


def plan_turn(view: Message, me: str) -> list[dict[str, Any]]:
    """Everything forward: interior units walk to the nearest front, and each front attacks its weakest neighbour
    with everything it has, when it has more than the defenders (and every fifth turn regardless, so that two
    equal fronts facing each other cannot stall the game)."""
    by_name = {t["name"]: t for t in view["territories"]}
    mine = set(owned(view, me))
    front = {n for n in mine if any(by_name[m]["owner"] != me for m in by_name[n]["neighbours"])}
    available = {n: by_name[n]["units"] for n in mine}
    orders: list[dict[str, Any]] = []
    for name in sorted(mine - front):
        if available[name] == 0:
            continue
        seen, queue, goal = {name}, deque([name]), None
        while queue and goal is None:
            for nxt in by_name[queue.popleft()]["neighbours"]:
                if nxt in mine and nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
                    if nxt in front:
                        goal = nxt
                        break
        if goal is not None:
            orders.append({"kind": "move", "units": available[name], "source": name, "target": goal})
            available[goal] += available[name]
            available[name] = 0
    for name in sorted(front):
        if available[name] == 0:
            continue
        enemies = [m for m in by_name[name]["neighbours"] if by_name[m]["owner"] != me]
        target = min(enemies, key=lambda m: (by_name[m]["units"], m))
        if available[name] <= by_name[target]["units"] and view["turn"] % 5:
            continue  # gather strength rather than throw it away (but every fifth turn, go anyway)
        orders.append({"kind": "attack", "units": available[name], "source": name, "target": target})
    return orders


async def play(client: Client, game_id: str, me: str) -> Message:
    """A scripted player: place everything, then attack with everything, until the game ends."""
    done = -1
    while True:
        update = await client.wait_for(
            lambda m, after=done: (
                m["type"] == "update"
                and m["game_id"] == game_id
                and m["view"] is not None
                and (m["view"]["phase"] == "finished" or m["view"]["turn"] > after)
            )
        )
        view = update["view"]
        if view["phase"] == "finished":
            return update
        turn = view["turn"]
        done = turn
        assert turn <= MAX_TURNS, "the game should have ended by now"
        if _my_status(view, me)["eliminated"] or _my_status(view, me)["committed"]:
            continue  # out, or done with this turn before this player's client came back
        if view["phase"] == "placement":
            orders = [{"kind": "place", "territory": owned(view, me)[0], "units": view["pool_left"]}]
        else:
            orders = plan_turn(view, me)
        for order in orders:
            reply = await client.request(type="issue_order", game_id=game_id, turn=turn, order=order)
            assert reply["type"] == "order_accepted", (order, reply)
        reply = await client.request(type="commit", game_id=game_id, turn=turn)
        assert reply["type"] == "commit_accepted", reply


def events_of(client: Client, game_id: str) -> list[Message]:
    """Every log entry the client was sent for the game, each once, in order: as a client keeps them, the entries
    of each update numbered past the last update it had."""
    log: list[Message] = []
    last = 0
    for frame in client.frames:
        if frame["type"] == "update" and frame["game_id"] == game_id:
            log += [entry["event"] for entry in frame["events"] if entry["seq"] > last]
            last = max(last, frame["seq"])
    return log


async def test_three_players_play_the_seed_map_from_lobby_to_victory_and_a_rematch() -> None:
    async with running_server(**FAST) as server:
        names = ["ann", "bob", "cyd"]
        players = [await Client.connect(server) for _ in names]
        spectator = await Client.connect(server)
        # to its victory: the rules' turn limit (100 by default, then a draw) set to what this script allows
        game_id = await create_game(players[0], players=3, initial_units=6, options={"max_turns": MAX_TURNS})
        listed = await spectator.request(type="list_games")
        assert [(g["game_id"], g["phase"], g["free"]) for g in listed["games"]] == [(game_id, "lobby", 3)]
        assert (await spectator.request(type="watch_game", game_id=game_id))["type"] == "watching"
        for client, name in zip(players, names, strict=True):
            await join(client, game_id, name)

        finals = await asyncio.wait_for(
            asyncio.gather(*(play(c, game_id, n) for c, n in zip(players, names, strict=True))), 50
        )

        final_view = finals[0]["view"]
        winner = final_view["winner"]
        assert winner in names
        assert {t["owner"] for t in final_view["territories"]} == {winner}  # R26: owns every territory
        for client in [*players, spectator]:  # R26: announced to every connected client
            await client.wait_for(
                lambda m: m["type"] == "update" and m["view"] is not None and m["view"]["phase"] == "finished",
                from_start=True,
            )
            log = events_of(client, game_id)
            assert log[-2] == {"kind": "game_won", "player": winner}
            territories = len(final_view["territories"])  # the final standings follow, for late watchers
            assert log[-1] == {
                "kind": "standings",
                "turn": final_view["turn"],
                "final": True,
                "players": {
                    n: [territories, sum(t["units"] for t in final_view["territories"])] if n == winner else [0, 0]
                    for n in names
                },
            }
            assert any(e["kind"] == "combat" for e in log)  # R24: every combat reported
        losers = [n for n in names if n != winner]
        eliminated = [e["player"] for e in events_of(spectator, game_id) if e["kind"] == "player_eliminated"]
        assert sorted(eliminated) == sorted(losers)  # R25
        seqs = [e["seq"] for f in spectator.frames if f["type"] == "update" for e in f["events"]]
        numbers = sorted(set(seqs))  # each change's entries share its number, and the numbers have no gaps
        assert seqs == sorted(seqs) and numbers == list(range(numbers[0], numbers[-1] + 1))

        # R27: the same players start a new game together once each has asked.
        for index, client in enumerate(players):
            reply = await client.request(type="rematch", game_id=game_id)
            assert reply["type"] == "rematch_pending", reply
            assert reply["waiting_for"] == names[index + 1 :]
        resumed = [await c.wait_type("resumed") for c in players]
        new_game = resumed[0]["game_id"]
        assert new_game != game_id and {r["game_id"] for r in resumed} == {new_game}
        assert [r["player"] for r in resumed] == names
        first = await players[1].wait_for(lambda m: m["type"] == "update" and m["game_id"] == new_game)
        assert first["view"]["phase"] == "placement" and first["view"]["pool_left"] == 6
        assert first["game"]["settings"] == finals[0]["game"]["settings"]
        # The finished game may be left by anyone; a game still running may not (D3 keeps the seat).
        loser = players[names.index(losers[0])]
        assert (await loser.request(type="leave_game", game_id=game_id))["type"] == "left"
        refused = await loser.request(type="leave_game", game_id=new_game)
        assert refused["type"] == "error" and refused["code"] == "game-started"


async def test_a_placement_reaches_nobody_before_everyone_is_done() -> None:
    async with running_server(**FAST) as server:
        names = ["ann", "bob", "cyd"]
        players = [await Client.connect(server) for _ in names]
        spectator = await Client.connect(server)
        game_id = await create_game(players[0], players=3, initial_units=7, choose_groups=True)
        await spectator.request(type="watch_game", game_id=game_id)
        for group, (client, name) in enumerate(zip(players, names, strict=True)):
            await join(client, game_id, name, group)
        for client in players:
            await client.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)

        placed: dict[str, list[Message]] = {}
        for client, name in zip(players[:2], names[:2], strict=True):
            mine = owned(current_view(client, game_id), name)
            placed[name] = [
                {"kind": "place", "territory": mine[0], "units": 5},
                {"kind": "place", "territory": mine[-1], "units": 2},
            ]
            for order in placed[name]:
                assert (await client.request(type="issue_order", game_id=game_id, turn=0, order=order))[
                    "type"
                ] == "order_accepted"
            assert (await client.request(type="commit", game_id=game_id, turn=0))["type"] == "commit_accepted"
        # ann and bob are done, cyd is not: nothing of ann's or bob's placement may have reached anyone else.
        await players[2].request(type="list_games")
        await spectator.request(type="list_games")
        marks = {id(c): len(c.frames) for c in [*players, spectator]}
        everyone = [*zip(names, players, strict=True), (None, spectator)]
        for viewer, client in everyone:
            _assert_no_placement_leak(client.frames, viewer, placed)

        mine = owned(current_view(players[2], game_id), "cyd")
        await players[2].request(
            type="issue_order", game_id=game_id, turn=0, order={"kind": "place", "territory": mine[1], "units": 7}
        )
        await players[2].request(type="commit", game_id=game_id, turn=0)
        for _viewer, client in everyone:
            update = await client.wait_for(
                lambda m: m["type"] == "update" and m["view"] is not None and m["view"]["phase"] == "orders"
            )
            assert client.frames.index(update) >= marks[id(client)]
            for orders in placed.values():  # now everyone sees every placement (R10)
                for order in orders:
                    assert territory(update["view"], order["territory"])["units"] == order["units"]


def _assert_no_placement_leak(frames: list[Message], viewer: str | None, placed: dict[str, list[Message]]) -> None:
    for frame in frames:
        for entry in frame.get("events", []):
            assert entry["event"]["kind"] not in ("units_placed", "units_moved", "combat"), entry
        if frame.get("order") is not None:  # an acceptance, told to the one who issued it only
            assert viewer is not None and viewer in placed and frame["order"] == placed[viewer][frame["index"]]
        if frame.get("orders") is not None:
            assert viewer is not None and viewer in placed and frame["orders"] == placed[viewer][: len(frame["orders"])]
        view = frame.get("view")
        if view:
            for name, orders in placed.items():
                if name != viewer:
                    for order in orders:
                        assert territory(view, order["territory"])["units"] == 0, (viewer, frame)
            if viewer is None:
                assert view["your_orders"] == [] and view["pool_left"] == 0
            else:
                assert view["your_orders"] == placed.get(viewer, [])[: len(view["your_orders"])]


async def test_orders_stay_secret_until_every_player_has_committed() -> None:
    async with running_server(**FAST) as server:
        names = ["ann", "bob"]
        players = [await Client.connect(server) for _ in names]
        spectator = await Client.connect(server)
        game_id = await create_game(players[0], players=2, initial_units=8, choose_groups=False)
        await spectator.request(type="watch_game", game_id=game_id)
        for client, name in zip(players, names, strict=True):
            await join(client, game_id, name)
        for client, name in zip(players, names, strict=True):
            await client.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
            mine = owned(current_view(client, game_id), name)
            await client.request(
                type="issue_order", game_id=game_id, turn=0, order={"kind": "place", "territory": mine[0], "units": 8}
            )
            await client.request(type="commit", game_id=game_id, turn=0)
        start = await players[0].wait_for(lambda m: m["type"] == "update" and m["view"]["phase"] == "orders")
        board = {t["name"]: t["units"] for t in start["view"]["territories"]}
        marks = [len(c.frames) for c in [*players, spectator]]

        view = start["view"]
        source = next(t for t in owned(view, "ann") if board[t] > 0)
        enemy = next((n for n in territory(view, source)["neighbours"] if territory(view, n)["owner"] != "ann"), None)
        friend = next(n for n in owned(view, "ann") if n != source)
        ann_orders = [{"kind": "move", "units": 3, "source": source, "target": friend}]
        if enemy is not None:
            ann_orders.append({"kind": "attack", "units": 2, "source": source, "target": enemy})
        for order in ann_orders:
            assert (await players[0].request(type="issue_order", game_id=game_id, turn=1, order=order))[
                "type"
            ] == "order_accepted"
        for client, mark in zip([players[1], spectator], marks[1:], strict=True):
            await client.request(type="list_games")  # a round trip: whatever was sent before has arrived
            assert [f["type"] for f in client.frames[mark:]] == ["games"]  # not even that ann issued orders
        assert (await players[0].request(type="commit", game_id=game_id, turn=1))["type"] == "commit_accepted"
        await players[1].wait_for(
            lambda m: (
                m["type"] == "update"
                and any(e["event"]["kind"] == "player_committed" and e["event"]["player"] == "ann" for e in m["events"])
            )
        )
        await spectator.wait_for(
            lambda m: m["type"] == "update" and any(e["event"]["kind"] == "player_committed" for e in m["events"])
        )
        for client, mark in zip([players[1], spectator], marks[1:], strict=True):
            for frame in client.frames[mark:]:
                assert frame["type"] in ("update", "watching", "games"), frame
                if frame["type"] == "update":
                    assert [e["event"]["kind"] for e in frame["events"]] in ([], ["player_committed"])
                    assert {t["name"]: t["units"] for t in frame["view"]["territories"]} == board
                    assert all(o not in frame["view"]["your_orders"] for o in ann_orders)
        bob_view = current_view(players[1], game_id)
        assert [p["committed"] for p in bob_view["players"]] == [True, False]  # only that ann committed (R16)
