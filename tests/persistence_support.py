"""Players whose orders follow from what they see alone, so the same board always gets the same orders: two games
with the same seed stay the same game, restarts or not."""

from __future__ import annotations

from typing import Any

from tests.server_support import Client, Message

WHOLE_TURN = 10.0


def orders_for(view: Message, player: str) -> list[dict[str, Any]]:
    """Placement: the whole pool on the first territory. Then every territory beside an enemy attacks its weakest
    enemy neighbour with all but one unit, and every other territory sends all but one to a neighbour."""
    by_name = {t["name"]: t for t in view["territories"]}
    mine = sorted(t["name"] for t in view["territories"] if t["owner"] == player)
    if view["phase"] == "placement":
        return [{"kind": "place", "territory": mine[0], "units": view["pool_left"]}] if view["pool_left"] else []
    orders: list[dict[str, Any]] = []
    for name in mine:
        units = by_name[name]["units"] - 1
        if units <= 0:
            continue
        enemies = sorted((by_name[n]["units"], n) for n in by_name[name]["neighbours"] if by_name[n]["owner"] != player)
        if enemies:
            orders.append({"kind": "attack", "units": units, "source": name, "target": enemies[0][1]})
        else:
            target = sorted(by_name[name]["neighbours"])[0]
            orders.append({"kind": "move", "units": units, "source": name, "target": target})
    return orders


def latest_view(client: Client, game_id: str) -> Message:
    update = client.latest("update", game_id)
    assert update is not None and update["view"] is not None
    return dict(update["view"])


async def issue_all(client: Client, game_id: str, player: str) -> list[dict[str, Any]]:
    """Issue this player's orders for the turn on screen; returns those the server accepted."""
    view = latest_view(client, game_id)
    accepted = []
    for order in orders_for(view, player):
        reply = await client.request(type="issue_order", game_id=game_id, turn=view["turn"], order=order)
        if reply["type"] == "order_accepted":
            accepted.append(order)
        else:  # a move through a path the attacks above have left is refused: the player just drops it
            assert reply["type"] == "error", reply
    return accepted


async def commit(client: Client, game_id: str) -> None:
    view = latest_view(client, game_id)
    reply = await client.request(type="commit", game_id=game_id, turn=view["turn"])
    assert reply["type"] == "commit_accepted", reply


async def next_turn(clients: list[Client], game_id: str, after: tuple[str, int]) -> None:
    """Wait until every client sees a board past (phase, turn) `after`."""
    for client in clients:
        await client.wait_for(
            lambda m: (
                m["type"] == "update"
                and m.get("game_id") == game_id
                and m["view"] is not None
                and (m["view"]["phase"], m["view"]["turn"]) != after
            ),
            timeout=WHOLE_TURN,
        )


async def resume(client: Client, game_id: str, token: str) -> Message:
    reply = await client.request(type="resume", game_id=game_id, token=token)
    assert reply["type"] == "resumed", reply
    return await client.wait_for(
        lambda m: m["type"] == "update" and m.get("game_id") == game_id and m["view"] is not None, timeout=WHOLE_TURN
    )


async def play_to_the_end(clients: list[Client], names: list[str], game_id: str, turn: int) -> str:
    """Every player still in the game plays its turns (after the one `turn` whose commits were sent) until the game
    is over; returns the winner."""
    for _ in range(200):
        await next_turn(clients, game_id, ("orders", turn))
        view = latest_view(clients[0], game_id)
        if view["phase"] == "finished":
            return str(view["winner"])
        turn = view["turn"]
        alive = {p["name"] for p in view["players"] if not p["eliminated"]}
        for client, name in zip(clients, names, strict=True):
            if name in alive:
                await issue_all(client, game_id, name)
                await commit(client, game_id)
    raise AssertionError("the game did not end within 200 turns")
